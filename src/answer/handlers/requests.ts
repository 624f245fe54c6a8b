/** "what if web requests 250m cpu": a requests / limits what-if. */
import { changeAnswerJson, whatIfRequests } from '../../engine/whatif/index.ts';
import { notFound } from '../replies/not-found.ts';
import { requestsReply } from '../replies/whatif-requests.ts';
import { needsState, visibilityOf, type QuestionOf } from './context.ts';
import { askedNamespaces, workloadOf } from './workload.ts';

export const requests = needsState<QuestionOf<'requests'>>((q, { state, ctx, opts, withGaps }) => {
  const w = workloadOf(state, ctx, q);
  if (!w) return notFound(`workload ${q.workload}`, askedNamespaces(q));
  const a = whatIfRequests(state, w, q.which, q.resource, q.value, q.container, opts);
  const json = visibilityOf(ctx).seesEverything ? changeAnswerJson(a.converged) : undefined;
  return withGaps({ replies: [requestsReply(w, a)], namespaces: [w.namespace], json });
});
