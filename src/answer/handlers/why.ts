/** "why is web pending?": the workload's Pending pod, or the pod itself, diagnosed from its last event. */
import { staticOutcome } from '../../engine/diagnose/goal.ts';
import { findWorkload } from '../../engine/whatif/index.ts';
import type { Snapshot } from '../../k8s/snapshot.ts';
import { diagnose } from '../diagnose.ts';
import { noEventsReply } from '../replies/no-events.ts';
import { notFound } from '../replies/not-found.ts';
import { notFoundSuggesting } from '../replies/did-you-mean.ts';
import { clearMatch, closestNames, visibleWorkloadNames } from './suggest.ts';
import { audienceOf, needsState, visibilityOf, visibleNamespaces, type QuestionOf } from './context.ts';

/** A workload or a pod of that name in the namespaces the asker may see. */
function known(state: Snapshot, namespaces: string[], name: string): boolean {
  if (findWorkload(state, name, undefined, namespaces)) return true;
  return namespaces.some((n) => state.get('Pod', n, name));
}

export const why = needsState<QuestionOf<'why'>>((q, { state, ctx, gaps, withGaps }) => {
  let name = q.name;
  const namespaces = visibleNamespaces(state, ctx, q.namespace);
  // Neither a workload nor a pod the asker may see: "did you mean" from the visible names only.
  if (!known(state, namespaces, name)) {
    const names = visibleWorkloadNames(state, ctx, q.namespace, 'all');
    const clear = clearMatch(name, names);
    if (!clear) return withGaps(notFoundSuggesting(name, closestNames(name, names), q.namespace ? [q.namespace] : []));
    name = clear;
  }
  const w = findWorkload(state, name, undefined, namespaces);
  const podNs = w ? undefined : namespaces.find((n) => state.get('Pod', n, name));
  const ns = w?.namespace ?? podNs ?? q.namespace ?? ctx.defaultNamespace;
  if (!ns) return notFound(name, []);
  const podName = w
    ? state
        .list('Pod', ns)
        .find((p) => !(p as { spec?: { nodeName?: string } }).spec?.nodeName && p.metadata.name?.startsWith(name))
        ?.metadata.name
    : name;
  const events = state
    .list('Event', ns)
    .filter(
      (e) => e.involvedObject?.name && (e.involvedObject.name === podName || e.involvedObject.name.startsWith(name)),
    );
  if (!events.length) {
    // What the state holds of its pods instead (a healthy workload says so).
    const now = w ? staticOutcome(state, { kind: w.kind, namespace: w.namespace, name: w.name }) : null;
    return withGaps({ replies: [noEventsReply(name, ns, now)], namespaces: [ns] });
  }
  const last = events[events.length - 1]!;
  // A pod's event message does not name the pod (a FailedScheduling text never does): say which one, as
  // `kubectl get events` would, so the diagnosis can find it in the state and verify fixes for it.
  const about =
    last.involvedObject?.kind === 'Pod' && last.involvedObject.name
      ? `Warning  ${last.reason ?? 'FailedScheduling'}  pod/${last.involvedObject.name}  `
      : '';
  // The diagnosis carries the gaps itself.
  const d = diagnose({
    text: `${about}${last.message ?? ''}`,
    state,
    namespace: ns,
    now: ctx.now,
    gaps,
    allowedNamespaces: visibilityOf(ctx).list(),
    audience: audienceOf(ctx),
  });
  d.answer.namespaces.push(ns);
  return d.answer;
});
