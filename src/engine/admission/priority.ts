/**
 * Priority admission for pods (plugin/pkg/admission/priority/admission.go `Plugin.admitPod`, v1.35; the
 * resolver is engine/priority.ts, shared with the scheduler).
 *
 * CREATE (no subresource):
 * - no `priorityClassName`: the global default class (lowest value among several) gives name, value and
 *   policy; without one, priority 0 and `PreemptLowerPriority` (getDefaultPriority);
 * - a named class that does not exist: 403 `no PriorityClass with name <X> was found`;
 * - a pod that sets `spec.priority` itself to anything else than that value: 403 `the integer value of
 *   priority (<p>) must not be provided in pod spec; priority admission controller computed <v> from the
 *   given PriorityClass name`; the same for `spec.preemptionPolicy` (`the string value of PreemptionPolicy
 *   (<p>) must not be provided …computed <q> …`). Setting the very value admission computes is allowed.
 * UPDATE: the old pod's priority and policy are kept when the new object omits them.
 *
 * A PriorityClass stored without `preemptionPolicy` has `PreemptLowerPriority` (SetDefaults_PriorityClass).
 */
import type { Pod } from '../../k8s/objects.ts';
import type { Snapshot } from '../../k8s/snapshot.ts';
import { DEFAULT_PREEMPTION_POLICY, resolvePriorityClass } from '../priority.ts';
import type { Operation } from './evaluators/types.ts';

export type PriorityAdmit = { pod: Pod; error?: undefined } | { pod: Pod; error: string };

export function admitPodPriority(pod: Pod, snapshot: Snapshot, operation: Operation, oldPod?: Pod): PriorityAdmit {
  if (operation === 'UPDATE') {
    if (!oldPod) return { pod };
    const spec = { ...pod.spec };
    if ((spec.priority === undefined || spec.priority === null) && typeof oldPod.spec.priority === 'number')
      spec.priority = oldPod.spec.priority;
    if (!spec.preemptionPolicy && oldPod.spec.preemptionPolicy) spec.preemptionPolicy = oldPod.spec.preemptionPolicy;
    return { pod: { ...pod, spec } };
  }
  if (operation !== 'CREATE') return { pod };
  const r = resolvePriorityClass(snapshot, pod.spec.priorityClassName);
  if (r.kind === 'missing') return { pod, error: `no PriorityClass with name ${r.className} was found` };
  const value = r.value;
  const policy = r.kind === 'class' ? (r.preemptionPolicy ?? DEFAULT_PREEMPTION_POLICY) : DEFAULT_PREEMPTION_POLICY;
  const given = pod.spec.priority;
  if (given !== undefined && given !== null && given !== value)
    return {
      pod,
      error: `the integer value of priority (${given}) must not be provided in pod spec; priority admission controller computed ${value} from the given PriorityClass name`,
    };
  const givenPolicy = pod.spec.preemptionPolicy;
  if (givenPolicy !== undefined && givenPolicy !== null && givenPolicy !== policy)
    return {
      pod,
      error: `the string value of PreemptionPolicy (${givenPolicy}) must not be provided in pod spec; priority admission controller computed ${policy} from the given PriorityClass name`,
    };
  const spec = { ...pod.spec, priority: value, preemptionPolicy: policy };
  if (r.kind === 'class') spec.priorityClassName = r.className;
  return { pod: { ...pod, spec } };
}
