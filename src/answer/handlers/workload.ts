/** The workload a scale / requests / rollout question is about, looked up in the namespaces the asker may see. */
import { findWorkload, type WorkloadRef } from '../../engine/whatif/index.ts';
import type { Snapshot } from '../../k8s/snapshot.ts';
import type { AskContext } from '../answerer.ts';
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
