/**
 * Whether simulating a pasted manifest would read pods outside the namespaces the asker may see.
 *
 * A pod's inter-pod (anti-)affinity term selects pods in `namespaces` ∪ the namespaces its
 * `namespaceSelector` matches (neither: the pod's own namespace; an empty selector `{}`: every namespace).
 * Simulated against the real state, a required podAffinity on `namespaces: [team-b]` tells the asker
 * which labels team-b's pods carry and on which node each runs — the answer is made of team-b's data
 * even when it names none of it. So such a term is refused before anything is simulated, saying which
 * term. A `namespaceSelector` is judged by what it *can* match, not by what it matches in the state now
 * (that would make the refusal itself an oracle on other namespaces' labels): it passes only when it
 * pins `kubernetes.io/metadata.name` to visible namespaces.
 *
 * Topology spread constraints (and their `matchLabelKeys`) count pods of the pod's own namespace only
 * (PodTopologySpread), so they are covered by the pod's namespace being visible; node affinity selects
 * nodes, which are cluster-wide.
 */
import type { KObject } from '../k8s/snapshot.ts';
import type { Visibility } from './policy.ts';

type Rec = Record<string, unknown>;

function isRec(v: unknown): v is Rec {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function at(v: unknown, ...path: string[]): unknown {
  let cur = v;
  for (const k of path) {
    if (!isRec(cur)) return undefined;
    cur = cur[k];
  }
  return cur;
}

const TEMPLATE_KINDS = new Set([
  'Deployment',
  'ReplicaSet',
  'StatefulSet',
  'DaemonSet',
  'Job',
  'ReplicationController',
  'PodTemplate',
]);

/** The pod spec an object creates, and where it sits (`spec`, `spec.template.spec` …). */
function podSpecOf(o: KObject): { spec: Rec; path: string } | undefined {
  const candidates: [unknown, string][] =
    o.kind === 'Pod'
      ? [[o.spec, 'spec']]
      : o.kind === 'CronJob'
        ? [[at(o.spec, 'jobTemplate', 'spec', 'template', 'spec'), 'spec.jobTemplate.spec.template.spec']]
        : o.kind === 'PodTemplate'
          ? [[at(o, 'template', 'spec'), 'template.spec']]
          : TEMPLATE_KINDS.has(o.kind ?? '')
            ? [[at(o.spec, 'template', 'spec'), 'spec.template.spec']]
            : [];
  for (const [spec, path] of candidates) if (isRec(spec)) return { spec, path };
  return undefined;
}

const NAME_LABEL = 'kubernetes.io/metadata.name';

/** Whether a namespaceSelector can only ever match namespaces the asker sees. */
function selectorStaysInside(selector: Rec, visibility: Visibility): boolean {
  const byLabel = at(selector, 'matchLabels', NAME_LABEL);
  if (typeof byLabel === 'string') return visibility.allows(byLabel);
  const exprs = selector.matchExpressions;
  if (!Array.isArray(exprs)) return false;
  // Requirements are ANDed: one `metadata.name In [visible…]` bounds the whole selector.
  return exprs.some(
    (e) =>
      at(e, 'key') === NAME_LABEL &&
      at(e, 'operator') === 'In' &&
      Array.isArray(at(e, 'values')) &&
      (at(e, 'values') as unknown[]).length > 0 &&
      (at(e, 'values') as unknown[]).every((v) => typeof v === 'string' && visibility.allows(v)),
  );
}

/** Why one PodAffinityTerm reaches outside, or undefined. */
function termProblem(term: unknown, visibility: Visibility): string | undefined {
  if (!isRec(term)) return undefined;
  const namespaces = term.namespaces;
  if (Array.isArray(namespaces) && namespaces.some((ns) => typeof ns !== 'string' || !visibility.allows(ns)))
    return "its `namespaces` list names a namespace this channel doesn't see";
  const selector = term.namespaceSelector;
  if (selector !== undefined && selector !== null) {
    if (!isRec(selector)) return 'its `namespaceSelector` is not a label selector';
    if (!selectorStaysInside(selector, visibility))
      return "its `namespaceSelector` can select namespaces this channel doesn't see (an empty selector `{}` selects every namespace)";
  }
  return undefined;
}

/**
 * The first term of `objects` that selects pods outside what the asker sees, as one line naming the
 * object and the term (the asker's own text); undefined when there is none or everything is visible.
 */
export function foreignAffinityTerm(objects: readonly KObject[], visibility: Visibility): string | undefined {
  if (visibility.seesEverything) return undefined;
  for (const o of objects) {
    const pod = podSpecOf(o);
    if (!pod) continue;
    for (const which of ['podAffinity', 'podAntiAffinity'] as const) {
      const block = at(pod.spec, 'affinity', which);
      if (!isRec(block)) continue;
      const lists: [string, (t: unknown) => unknown][] = [
        ['requiredDuringSchedulingIgnoredDuringExecution', (t) => t],
        ['preferredDuringSchedulingIgnoredDuringExecution', (t) => at(t, 'podAffinityTerm')],
      ];
      for (const [field, termOf] of lists) {
        const terms = block[field];
        if (!Array.isArray(terms)) continue;
        for (let i = 0; i < terms.length; i++) {
          const why = termProblem(termOf(terms[i]), visibility);
          const suffix = field.startsWith('preferred') ? '.podAffinityTerm' : '';
          if (why)
            return `${o.kind ?? 'object'} ${String(o.metadata.name ?? o.metadata.generateName ?? '')}: ${pod.path}.affinity.${which}.${field}[${i}]${suffix} — ${why}, so I won't simulate it here.`;
        }
      }
    }
  }
  return undefined;
}
