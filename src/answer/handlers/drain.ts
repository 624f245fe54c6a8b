/** "what if node-3 goes down / is drained". */
import { changeAnswerJson, whatIfDrain } from '../../engine/whatif/index.ts';
import { notFound } from '../replies/not-found.ts';
import { drainAnswer } from '../replies/whatif-drain.ts';
import { needsState, visibilityOf, type QuestionOf } from './context.ts';

// Node names are cluster-wide: which nodes exist is not any tenant's data (every channel sees them in
// its own scheduler messages, "0/10 nodes are available"), so a node what-if is answered in any channel
// that sees something — but only with the asker's own pods; other namespaces' pods are anonymous totals.
export const drain = needsState<QuestionOf<'drain'>>((q, { state, ctx, opts, withGaps }) => {
  const d = whatIfDrain(state, q.node, opts, q.how);
  if (!d) return notFound(`node ${q.node}`, []);
  const vis = visibilityOf(ctx);
  // The JSON names every namespace's pods: only for an asker who sees everything (the CLI, an operator).
  const json = vis.seesEverything ? changeAnswerJson(d.converged, [], d.refusedEvictions) : undefined;
  return withGaps({ ...drainAnswer(state, d, q.how, vis), ...(json ? { json } : {}) });
});
