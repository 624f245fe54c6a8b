/** "roll out web (with 500m cpu)": a rollout what-if. */
import { changeAnswerJson, rolloutFixes, whatIfRollout } from '../../engine/whatif/index.ts';
import { MAX_ANSWER_PODS } from '../bounds.ts';
import { rolloutReply, rolloutTooLargeReply } from '../replies/whatif-rollout.ts';
import { needsState, visibilityOf, type QuestionOf } from './context.ts';
import { workloadOrAnswer } from './workload.ts';

export const rollout = needsState<QuestionOf<'rollout'>>((q, { state, ctx, opts, withGaps }) => {
  const w = workloadOrAnswer(state, ctx, q, 'roll out');
  if ('replies' in w) return w;
  // A rollout creates up to every replica again, once per setting re-simulated (about 5): bound it (../bounds.ts).
  const wanted = (w.object as { spec?: { replicas?: number | null } }).spec?.replicas ?? 1;
  if (wanted > MAX_ANSWER_PODS / 5)
    return withGaps({ replies: [rolloutTooLargeReply(w, wanted)], namespaces: [w.namespace] });
  const a = whatIfRollout(state, w, opts, q.changes ?? []);
  // The JSON names every namespace's workloads: only for an asker who sees everything (the CLI, an operator).
  const json = visibilityOf(ctx).seesEverything ? changeAnswerJson(a.converged, rolloutFixes(a)) : undefined;
  return withGaps({
    replies: [rolloutReply(a, state.list('LimitRange', w.namespace).length > 0)],
    namespaces: [w.namespace],
    json,
  });
});
