/** "what if web scales to 8 / add 2 replicas to web": a scale what-if. */
import { whatIfScale } from '../../engine/whatif/index.ts';
import { MAX_SCALE_PODS } from '../bounds.ts';
import { notFound } from '../replies/not-found.ts';
import { scaleReply } from '../replies/whatif-scale.ts';
import { needsState, type QuestionOf } from './context.ts';
import { askedNamespaces, workloadOf } from './workload.ts';

export const scale = needsState<QuestionOf<'scale'>>((q, { state, ctx, opts, withGaps }) => {
  const w = workloadOf(state, ctx, q);
  if (!w) return notFound(`workload ${q.workload}`, askedNamespaces(q));
  const current = whatIfScale(state, w, 0, opts).from;
  const asked = Math.max(0, q.replicas ?? current + (q.delta ?? 0));
  // "scales to 1000000000" simulated a billion pods and ran the process out of heap (../bounds.ts).
  const target = Math.min(asked, current + MAX_SCALE_PODS);
  const a = whatIfScale(state, w, target, opts);
  return withGaps({ replies: [scaleReply(w, a, asked)], namespaces: [w.namespace] });
});
