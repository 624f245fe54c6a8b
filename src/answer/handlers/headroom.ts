/** "quota in team-a" / "how much room is left" (and `/quota`, through quotaAnswer): the namespace's headroom. */
import { computeHeadroom } from '../../engine/headroom.ts';
import type { Snapshot } from '../../k8s/snapshot.ts';
import { headroomReply } from '../replies/headroom.ts';
import { notFound } from '../replies/not-found.ts';
import type { Answer } from '../types.ts';
import { helpFor } from './help.ts';
import { needsState, type QuestionOf } from './context.ts';

export function quotaAnswer(state: Snapshot, ns: string, now?: number): Answer {
  if (!state.hasNamespace(ns)) return notFound(`namespace ${ns}`, [ns]);
  const h = computeHeadroom(state, ns, { now });
  return { replies: [headroomReply(h)], namespaces: [ns], json: h };
}

export const headroom = needsState<QuestionOf<'headroom'>>((q, { state, ctx, withGaps }) => {
  const ns = q.namespace ?? ctx.defaultNamespace;
  if (!ns) return helpFor(state, ctx);
  return withGaps(quotaAnswer(state, ns));
});
