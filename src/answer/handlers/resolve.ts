/**
 * Names in a question, resolved before its handler runs (./index.ts): a namespace that does not exist, a
 * workload, ResourceQuota, LimitRange or node name that is not there gets "did you mean …" from the names
 * the asker may see; an obvious plural (`workers`) is read as the one name it means; a quota or LimitRange
 * named without a namespace is looked up across the asker's namespaces (the default first), the way
 * workload names are.
 */
import { findWorkload } from '../../engine/whatif/index.ts';
import type { Snapshot } from '../../k8s/snapshot.ts';
import type { Question } from '../../parse/question.ts';
import type { AskContext } from '../answerer.ts';
import { notFoundSuggesting } from '../replies/did-you-mean.ts';
import type { Answer } from '../types.ts';
import { visibleNamespaces } from './context.ts';
import { barePodOf, ownerOfPodNamed } from './workload.ts';
import { clearMatch, closestNames, visibleNamespaceNames, visibleObjects, visibleWorkloadNames } from './suggest.ts';

export type Resolved = { question: Question } | { answer: Answer };

const askedNs = (ns: string | undefined): string[] => (ns ? [ns] : []);

/** The workload name a question means (`workers` → `worker`), or the "did you mean" answer. */
function resolveWorkload(
  state: Snapshot,
  ctx: AskContext,
  q: { workload: string; kind?: string; namespace?: string },
): { workload: string; kind?: string } | { answer: Answer } {
  const namespaces = visibleNamespaces(state, ctx, q.namespace);
  if (findWorkload(state, q.workload, q.kind, namespaces)) return { workload: q.workload };
  // A pod's name: a bare Pod is answered as itself (its handler re-creates it); a controller's pod as
  // the workload that owns it — a pod that is there is never "not found".
  if (!q.kind || q.kind === 'Pod') {
    if (barePodOf(state, ctx, q)) return { workload: q.workload };
    const owner = ownerOfPodNamed(state, ctx, q);
    if (owner) return { workload: owner.name, kind: owner.kind };
  }
  // Bare Pods are asked of by name too (a controller's pods are not: their generated names would crowd the list).
  const names = visibleWorkloadNames(state, ctx, q.namespace, 'bare');
  const clear = clearMatch(q.workload, names);
  if (clear && findWorkload(state, clear, q.kind, namespaces)) return { workload: clear };
  return {
    answer: notFoundSuggesting(`workload ${q.workload}`, closestNames(q.workload, names), askedNs(q.namespace)),
  };
}

function resolveNamed(
  state: Snapshot,
  ctx: AskContext,
  kind: 'ResourceQuota' | 'LimitRange',
  name: string,
  namespace: string | undefined,
): { namespace: string } | { answer: Answer } {
  const objects = visibleObjects(state, ctx, kind, namespace);
  const hit = objects.find((o) => o.name === name);
  if (hit) return { namespace: hit.namespace };
  const suggestions = closestNames(
    name,
    objects.map((o) => o.name),
  );
  return {
    answer: notFoundSuggesting(
      `${kind} ${name}${namespace ? ` in ${namespace}` : ''}`,
      suggestions,
      askedNs(namespace),
    ),
  };
}

/** The question with its names resolved, or the "did you mean" answer. */
export function resolveNames(q: Question, state: Snapshot, ctx: AskContext): Resolved {
  // A namespace the asker named (and may see: the answerer refused the others) that is not there.
  if ('namespace' in q && q.namespace && !state.hasNamespace(q.namespace))
    return {
      answer: notFoundSuggesting(
        `namespace ${q.namespace}`,
        closestNames(q.namespace, visibleNamespaceNames(state, ctx)),
        [q.namespace],
      ),
    };
  switch (q.type) {
    case 'scale':
    case 'fit':
    case 'requests':
    case 'rollout':
    case 'priorityClass': {
      const r = resolveWorkload(state, ctx, q);
      return 'answer' in r ? r : { question: { ...q, ...r } };
    }
    case 'priority': {
      if (!q.workload) return { question: q };
      const r = resolveWorkload(state, ctx, { ...q, workload: q.workload });
      return 'answer' in r ? r : { question: { ...q, ...r } };
    }
    case 'quota': {
      if (q.quota) {
        const r = resolveNamed(state, ctx, 'ResourceQuota', q.quota, q.namespace);
        return 'answer' in r ? r : { question: { ...q, namespace: r.namespace } };
      }
      if (q.namespace || ctx.defaultNamespace) return { question: q };
      // "set pods to 60": the first visible namespace whose quota tracks it.
      const ns = visibleNamespaces(state, ctx).find((n) =>
        state.list('ResourceQuota', n).some((x) => q.resource in (x.status?.hard ?? x.spec?.hard ?? {})),
      );
      return { question: ns ? { ...q, namespace: ns } : q };
    }
    case 'limitrange': {
      if (!q.limitRange) return { question: q };
      const r = resolveNamed(state, ctx, 'LimitRange', q.limitRange, q.namespace);
      return 'answer' in r ? r : { question: { ...q, namespace: r.namespace } };
    }
    case 'drain':
    case 'uncordon':
    case 'node': {
      if (state.get('Node', undefined, q.node)) return { question: q };
      // "is team-a ok?": a namespace, not a node — its headroom.
      if (q.type === 'node' && visibleNamespaceNames(state, ctx).includes(q.node))
        return { question: { type: 'headroom', namespace: q.node } };
      // "is api ok?": a workload (or a bare Pod) the asker may see, not a node — its diagnosis.
      if (
        q.type === 'node' &&
        (findWorkload(state, q.node, undefined, visibleNamespaces(state, ctx)) ||
          barePodOf(state, ctx, { workload: q.node }))
      )
        return { question: { type: 'why', name: q.node } };
      const nodes = state.list('Node').map((n) => n.metadata.name ?? '');
      // "is apii ok?" may mean a workload: its names are candidates too (only the visible ones).
      const names = q.type === 'node' ? [...nodes, ...visibleWorkloadNames(state, ctx)] : nodes;
      return { answer: notFoundSuggesting(`node ${q.node}`, closestNames(q.node, names), []) };
    }
    default:
      return { question: q };
  }
}
