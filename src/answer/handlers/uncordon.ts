/**
 * "what if general-c-2 is uncordoned": the uncordon converged (engine/whatif/change.ts) — which Pending pods
 * then schedule there, and whether their workloads complete. Node names are cluster-wide (see drain.ts).
 */
import { whatIfChange } from '../../engine/whatif/change.ts';
import { notFound } from '../replies/not-found.ts';
import { changeAnswer } from '../replies/whatif-change.ts';
import { needsState, visibilityOf, type QuestionOf } from './context.ts';

export const uncordon = needsState<QuestionOf<'uncordon'>>((q, { state, ctx, opts, withGaps }) => {
  if (!state.get('Node', undefined, q.node)) return notFound(`node ${q.node}`, []);
  return withGaps(changeAnswer(whatIfChange(state, { kind: 'uncordon', node: q.node }, opts), visibilityOf(ctx)));
});
