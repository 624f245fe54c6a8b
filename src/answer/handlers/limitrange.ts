/** "what if the limitrange limits max cpu is 2 in team-a": a LimitRange what-if. */
import { changeAnswerJson, limitRangeFixes, whatIfLimitRange } from '../../engine/whatif/index.ts';
import { notFound } from '../replies/not-found.ts';
import { limitRangeReply } from '../replies/whatif-limitrange.ts';
import { helpFor } from './help.ts';
import { needsState, visibilityOf, visibleNamespaces, type QuestionOf } from './context.ts';

export const limitrange = needsState<QuestionOf<'limitrange'>>((q, { state, ctx, opts, withGaps }) => {
  const ns = q.namespace ?? ctx.defaultNamespace ?? visibleNamespaces(state, ctx)[0];
  if (!ns) return helpFor(state, ctx);
  if (!state.hasNamespace(ns)) return notFound(`namespace ${ns}`, [ns]);
  const a = whatIfLimitRange(state, ns, q.limitRange, q.field, q.limitType, q.resource, q.value, opts);
  if (!a) return notFound(`LimitRange ${q.limitRange} in ${ns}`, [ns]);
  // The JSON names every namespace's workloads: only for an asker who sees everything (the CLI, an operator).
  const json = visibilityOf(ctx).seesEverything ? changeAnswerJson(a.converged, limitRangeFixes(a)) : undefined;
  return withGaps({ replies: [limitRangeReply(a)], namespaces: [ns], json });
});
