import type { Snapshot } from '../../k8s/snapshot.ts';
import { Quantity } from '../../quantity.ts';
import type { AskContext } from '../answerer.ts';
import { helpAnswer, type HelpExamples } from '../replies/help.ts';
import type { Answer } from '../types.ts';
import { visibilityOf, visibleNamespaces, type Handler, type QuestionOf } from './context.ts';

/**
 * Examples drawn from the namespace at hand (a visible one: its workloads, quota, LimitRange) and a node
 * (nodes are cluster-wide); generic placeholders where it has none. Never another namespace's names.
 */
export function helpExamples(state: Snapshot | undefined, ctx: AskContext): HelpExamples {
  const visible = visibleNamespaces(state, ctx);
  const ns: string | undefined = visible[0] ?? ctx.defaultNamespace ?? visibilityOf(ctx).list()?.[0];
  const inNs = ns !== undefined && visibilityOf(ctx).allows(ns) ? ns : undefined;
  const workloads =
    state && inNs
      ? (['Deployment', 'StatefulSet'] as const)
          .flatMap((k) => state.list(k, inNs))
          .map((o) => o.metadata.name ?? '')
          .filter((n) => n !== '')
      : [];
  const w = workloads[0] ?? 'WORKLOAD';
  const quota = inNs ? state?.list('ResourceQuota', inNs)[0] : undefined;
  const hard = quota?.status?.hard ?? quota?.spec?.hard ?? {};
  const qRes =
    ['requests.cpu', 'requests.memory', 'pods'].find((k) => k in hard) ?? Object.keys(hard)[0] ?? 'requests.cpu';
  const qNow = Quantity.tryParse(hard[qRes]);
  const lr = inNs ? state?.list('LimitRange', inNs)[0] : undefined;
  const maxCpu = Quantity.tryParse(lr?.spec.limits.find((i) => i.type === 'Container')?.max?.cpu);
  return {
    namespace: ns ?? 'NAMESPACE',
    workload: w,
    otherWorkload: workloads[1] ?? w,
    node: state?.list('Node')[0]?.metadata.name ?? 'NODE',
    quota: quota?.metadata.name ?? 'QUOTA',
    quotaResource: qRes,
    quotaTo: qNow && qNow.sign() > 0 ? qNow.times(2).toString() : '20',
    // PriorityClasses are cluster-wide: naming one shows no namespace's objects.
    ...priorityClassOf(state),
    ...(lr
      ? {
          limitRange: {
            name: lr.metadata.name ?? '',
            ...(maxCpu ? { maxCpuDoubled: maxCpu.times(2).toString() } : {}),
          },
        }
      : {}),
  };
}

function priorityClassOf(state: Snapshot | undefined): { priorityClass?: string } {
  const name = state?.list('PriorityClass').find((p) => !p.metadata.name?.startsWith('system-'))?.metadata.name;
  return name ? { priorityClass: name } : {};
}

export function helpFor(state: Snapshot | undefined, ctx: AskContext): Answer {
  return helpAnswer(helpExamples(state, ctx));
}

export const help: Handler<QuestionOf<'help'>> = (_q, env) => helpFor(env.state, env.ctx);
