/** "what if api gets priorityClass high": the template change converged — the rollout, and what it preempts. */
import { whatIfChange } from '../../engine/whatif/change.ts';
import { notFound } from '../replies/not-found.ts';
import { changeAnswer } from '../replies/whatif-change.ts';
import { needsState, visibilityOf, type QuestionOf } from './context.ts';
import { askedNamespaces, workloadOf } from './workload.ts';

export const priorityClass = needsState<QuestionOf<'priorityClass'>>((q, { state, ctx, opts, withGaps }) => {
  const w = workloadOf(state, ctx, q);
  if (!w) return notFound(`workload ${q.workload}`, askedNamespaces(q));
  const change = {
    kind: 'priorityClass' as const,
    target: { kind: w.kind, namespace: w.namespace, name: w.name },
    className: q.className,
  };
  const a = changeAnswer(whatIfChange(state, change, opts), visibilityOf(ctx));
  if (!state.get('PriorityClass', undefined, q.className))
    a.replies[0]?.lines.unshift(`There is no PriorityClass ${q.className}: the new pods are refused at admission.`);
  return withGaps({ ...a, namespaces: [...new Set([w.namespace, ...a.namespaces])] });
});
