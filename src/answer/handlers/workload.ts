/** The workload a scale / requests / rollout question is about, looked up in the namespaces the asker may see. */
import { findWorkload, type WorkloadRef } from '../../engine/whatif/index.ts';
import type { Pod } from '../../k8s/objects.ts';
import type { Snapshot } from '../../k8s/snapshot.ts';
import { controllerOf } from '../../engine/controllers/context.ts';
import { ownerOf } from '../../engine/fixes/owners.ts';
import type { AskContext } from '../answerer.ts';
import { emptyReply, type Answer } from '../types.ts';
import { notFound } from '../replies/not-found.ts';
import { visibleNamespaces } from './context.ts';

export function workloadOf(
  state: Snapshot,
  ctx: AskContext,
  q: { workload: string; kind?: string; namespace?: string },
): WorkloadRef | null {
  return findWorkload(state, q.workload, q.kind, visibleNamespaces(state, ctx, q.namespace));
}

/** What "not found" names for a workload question: the namespace only when the asker named it. */
export function askedNamespaces(q: { namespace?: string }): string[] {
  return q.namespace ? [q.namespace] : [];
}

/** A Pod no controller owns, named in a workload question ("what if notebook-priya gets priorityClass high"). */
export interface BarePod {
  namespace: string;
  name: string;
  pod: Pod;
}

/** The first Pod of that name in the namespaces the asker may see (the one named first). */
function podNamed(state: Snapshot, ctx: AskContext, q: { workload: string; namespace?: string }): BarePod | null {
  for (const ns of visibleNamespaces(state, ctx, q.namespace)) {
    const pod = state.get('Pod', ns, q.workload);
    if (pod) return { namespace: ns, name: q.workload, pod };
  }
  return null;
}

/** The bare Pod of that name the asker may see, or null (also when the pod of that name has a controller). */
export function barePodOf(
  state: Snapshot,
  ctx: AskContext,
  q: { workload: string; namespace?: string },
): BarePod | null {
  const p = podNamed(state, ctx, q);
  return p && !controllerOf(p.pod) ? p : null;
}

/** A controller's pod named in a workload question: the workload that owns it (a Deployment for its ReplicaSet's pods). */
export function ownerOfPodNamed(
  state: Snapshot,
  ctx: AskContext,
  q: { workload: string; namespace?: string },
): WorkloadRef | null {
  const p = podNamed(state, ctx, q);
  const o = p && controllerOf(p.pod) ? ownerOf(state, p.pod) : null;
  return o && p ? findWorkload(state, o.name, o.kind, [p.namespace]) : null;
}

/** "what if notebook-priya scales to 3": a bare Pod has no replicas and no template to roll out — said, with what does. */
export function barePodReply(bare: BarePod, verb: 'scale' | 'roll out'): Answer {
  const r = emptyReply(
    'info',
    'ℹ️',
    `${bare.name} is a bare Pod (no controller): there is nothing to ${verb} — it has no replicas and no pod template.`,
  );
  r.lines.push(
    verb === 'scale'
      ? 'To run several, create it under a Deployment (or a Job for run-to-completion work) and scale that.'
      : `To change it, ask "what if ${bare.name} requests <value> cpu" or "… gets priorityClass <name>": it is deleted and created again.`,
  );
  return { replies: [r], namespaces: [bare.namespace] };
}

/**
 * The workload a scale-like question names, or the answer when there is none: a bare Pod of that name is told
 * it has nothing to `verb`, anything else is not found.
 */
export function workloadOrAnswer(
  state: Snapshot,
  ctx: AskContext,
  q: { workload: string; kind?: string; namespace?: string },
  verb: 'scale' | 'roll out',
): WorkloadRef | Answer {
  const w = workloadOf(state, ctx, q);
  if (w) return w;
  const bare = barePodOf(state, ctx, q);
  return bare ? barePodReply(bare, verb) : notFound(`workload ${q.workload}`, askedNamespaces(q));
}
