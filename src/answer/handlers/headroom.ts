/** "quota in team-a" / "how much room is left" (and `/quota`, through quotaAnswer): the namespace's headroom. */
import { computeHeadroom } from '../../engine/headroom.ts';
import type { Snapshot } from '../../k8s/snapshot.ts';
import { headroomReply, nodesReply } from '../replies/headroom.ts';
import { notFound } from '../replies/not-found.ts';
import type { Answer } from '../types.ts';
import { helpFor } from './help.ts';
import { needsState, type QuestionOf } from './context.ts';

/** The headroom reply; with `nodes` (the CLI's `quota NS --nodes`), a second reply with every node's table. */
export function quotaAnswer(state: Snapshot, ns: string, now?: number, opts: { nodes?: boolean } = {}): Answer {
  if (!state.hasNamespace(ns)) return notFound(`namespace ${ns}`, [ns]);
  const h = computeHeadroom(state, ns, { now });
  const replies = [headroomReply(h)];
  if (opts.nodes) replies.push(nodesReply(h));
  return { replies, namespaces: [ns], json: h };
}

export const headroom = needsState<QuestionOf<'headroom'>>((q, { state, ctx, withGaps }) => {
  const ns = q.namespace ?? ctx.defaultNamespace;
  if (!ns) return helpFor(state, ctx);
  return withGaps(quotaAnswer(state, ns));
});
