/** "add a node like general-a-1": nodes of that shape added, the Pending pods that then schedule. */
import { whatIfChange } from '../../engine/whatif/change.ts';
import { notFound } from '../replies/not-found.ts';
import { changeAnswer } from '../replies/whatif-change.ts';
import { needsState, visibilityOf, type QuestionOf } from './context.ts';

export const addNode = needsState<QuestionOf<'addNode'>>((q, { state, ctx, opts, withGaps }) => {
  if (!state.get('Node', undefined, q.like)) return notFound(`node ${q.like}`, []);
  const change = { kind: 'addNode' as const, like: q.like, count: q.count };
  return withGaps(changeAnswer(whatIfChange(state, change, opts), visibilityOf(ctx)));
});
