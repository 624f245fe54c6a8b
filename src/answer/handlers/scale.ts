/** "what if web scales to 8 / add 2 replicas to web": a scale what-if. */
import { changeAnswerJson, scaleFixes, whatIfScale, workloadPods } from '../../engine/whatif/index.ts';
import { MAX_SCALE_PODS } from '../bounds.ts';
import { scaleReply } from '../replies/whatif-scale.ts';
import { needsState, visibilityOf, type QuestionOf } from './context.ts';
import { workloadOrAnswer } from './workload.ts';

export const scale = needsState<QuestionOf<'scale'>>((q, { state, ctx, opts, withGaps }) => {
  const w = workloadOrAnswer(state, ctx, q, 'scale');
  if ('replies' in w) return w;
  const current = workloadPods(state, w).length;
  const asked = Math.max(0, q.replicas ?? current + (q.delta ?? 0));
  // "scales to 1000000000" simulated a billion pods and ran the process out of heap (../bounds.ts).
  const target = Math.min(asked, current + MAX_SCALE_PODS);
  const a = whatIfScale(state, w, target, opts);
  // The JSON names every namespace's workloads: only for an asker who sees everything (the CLI, an operator).
  const json = visibilityOf(ctx).seesEverything ? changeAnswerJson(a.converged, scaleFixes(a)) : undefined;
  return withGaps({
    replies: [scaleReply(w, a, asked, state.list('LimitRange', w.namespace).length > 0)],
    namespaces: [w.namespace],
    json,
  });
});
