/**
 * "how many more api pods fit?", "how far can web scale": the replicas the namespace's quotas and the nodes still
 * take (the headroom count, engine/headroom.ts), verified by converging the scale to that many — the number said
 * is the number the controllers and the scheduler place, never only an estimate.
 */
import { computeHeadroom } from '../../engine/headroom.ts';
import { whatIfScale, workloadPods } from '../../engine/whatif/index.ts';
import { MAX_SCALE_PODS } from '../bounds.ts';
import { fitReply } from '../replies/fit.ts';
import { needsState, type QuestionOf } from './context.ts';
import { workloadOrAnswer } from './workload.ts';

export const fit = needsState<QuestionOf<'fit'>>((q, { state, ctx, opts, withGaps }) => {
  const w = workloadOrAnswer(state, ctx, q, 'scale');
  if ('replies' in w) return w;
  const h = computeHeadroom(state, w.namespace, opts);
  const count = h.workloads.find((x) => x.kind === w.kind && x.name === w.name);
  const current = workloadPods(state, w).length;
  // The estimate, bounded as a scale question is (../bounds.ts), then the scale to it converged.
  const n = count && !count.message ? Math.min(count.fits, MAX_SCALE_PODS) : 0;
  const scaled = n > 0 ? whatIfScale(state, w, current + n, opts) : undefined;
  return withGaps({ replies: [fitReply(w, current, count, n, scaled, h)], namespaces: [w.namespace] });
});
