/** "what if api gets priorityClass high": the template change converged — the rollout, and what it preempts. */
import type { Snapshot } from '../../k8s/snapshot.ts';
import { whatIfChange } from '../../engine/whatif/change.ts';
import { notFound } from '../replies/not-found.ts';
import { changeAnswer } from '../replies/whatif-change.ts';
import { needsState, visibilityOf, type QuestionOf } from './context.ts';
import { closestNames } from './suggest.ts';
import { askedNamespaces, barePodOf, workloadOf } from './workload.ts';

/** "There is no PriorityClass hgh …", with the closest class names (PriorityClasses are cluster-wide: everyone may see them). */
function missingClass(state: Snapshot, className: string, who = 'the new pods are'): string[] {
  if (state.get('PriorityClass', undefined, className)) return [];
  const near = closestNames(
    className,
    state.list('PriorityClass').map((c) => c.metadata.name ?? ''),
  );
  return [
    `There is no PriorityClass ${className}${near.length ? ` (did you mean ${near.join(' or ')}?)` : ''}: ${who} refused at admission.`,
  ];
}

export const priorityClass = needsState<QuestionOf<'priorityClass'>>((q, { state, ctx, opts, withGaps }) => {
  const w = workloadOf(state, ctx, q);
  if (!w) {
    const bare = barePodOf(state, ctx, q);
    if (!bare) return notFound(`workload ${q.workload}`, askedNamespaces(q));
    // A pod's priority is fixed when it is created: a bare Pod is deleted and created again with the class.
    const change = {
      kind: 'recreatePod' as const,
      namespace: bare.namespace,
      name: bare.name,
      priorityClassName: q.className,
    };
    const a = changeAnswer(whatIfChange(state, change, opts), visibilityOf(ctx));
    a.replies[0]?.lines.unshift(
      `${bare.name} is a bare Pod (no controller): its priority is set when it is created, so it is deleted and created again with priorityClassName ${q.className}.`,
      ...missingClass(state, q.className, 'the pod is'),
    );
    return withGaps({ ...a, namespaces: [...new Set([bare.namespace, ...a.namespaces])] });
  }
  const change = {
    kind: 'priorityClass' as const,
    target: { kind: w.kind, namespace: w.namespace, name: w.name },
    className: q.className,
  };
  const a = changeAnswer(whatIfChange(state, change, opts), visibilityOf(ctx));
  a.replies[0]?.lines.unshift(...missingClass(state, q.className));
  return withGaps({ ...a, namespaces: [...new Set([w.namespace, ...a.namespaces])] });
});
