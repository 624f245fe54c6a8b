/** "what if web requests 250m cpu": a requests / limits what-if. */
import { changeAnswerJson, whatIfRequests } from '../../engine/whatif/index.ts';
import { notFound } from '../replies/not-found.ts';
import { requestsReply } from '../replies/whatif-requests.ts';
import { needsState, visibilityOf, type QuestionOf } from './context.ts';
import { whatIfChange } from '../../engine/whatif/change.ts';
import { emptyReply } from '../types.ts';
import { changeAnswer } from '../replies/whatif-change.ts';
import { askedNamespaces, barePodOf, workloadOf } from './workload.ts';

export const requests = needsState<QuestionOf<'requests'>>((q, { state, ctx, opts, withGaps }) => {
  const w = workloadOf(state, ctx, q);
  if (!w) {
    const bare = barePodOf(state, ctx, q);
    if (!bare) return notFound(`workload ${q.workload}`, askedNamespaces(q));
    // A pod's resources are immutable (pod update validation): a bare Pod is deleted and created again.
    const names = bare.pod.spec.containers.map((c) => c.name);
    const container = q.container ?? (names.length === 1 ? names[0] : undefined);
    if (!container || !names.includes(container)) {
      const r = emptyReply('info', 'ℹ️', `Which container of pod ${bare.name}? It has ${names.join(', ')}.`);
      r.lines.push(
        `Ask again with "container <name>", e.g. "what if ${bare.name} ${q.which === 'limits' ? 'limits' : 'requests'} ${q.value} ${q.resource} for container ${names[0] ?? ''}".`,
      );
      return { replies: [r], namespaces: [bare.namespace] };
    }
    const change = {
      kind: 'recreatePod' as const,
      namespace: bare.namespace,
      name: bare.name,
      container,
      [q.which]: { [q.resource]: q.value },
    };
    const a = changeAnswer(whatIfChange(state, change, opts), visibilityOf(ctx));
    a.replies[0]?.lines.unshift(
      `${bare.name} is a bare Pod (no controller): its resources cannot change in place, so it is deleted and created again with ${q.which}.${q.resource} ${q.value} for container ${container}.`,
    );
    return withGaps({ ...a, namespaces: [...new Set([bare.namespace, ...a.namespaces])] });
  }
  const a = whatIfRequests(state, w, q.which, q.resource, q.value, q.container, opts);
  const json = visibilityOf(ctx).seesEverything ? changeAnswerJson(a.converged) : undefined;
  return withGaps({ replies: [requestsReply(w, a)], namespaces: [w.namespace], json });
});
