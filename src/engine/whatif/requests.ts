/**
 * "what if web requests 250m cpu": `kubectl set resources` as a change, converged. On a Deployment that
 * is a rollout (a new ReplicaSet, old pods replaced as maxSurge / maxUnavailable allow), on a StatefulSet
 * its RollingUpdate; the new pods are tallied from what the controllers left, and a rollout that stalls
 * says where. A request above the container's limit sets the limit with it in the same command (the API
 * server refuses a request above its limit).
 */
import type { Snapshot } from '../../k8s/snapshot.ts';
import { Quantity } from '../../quantity.ts';
import type { Change } from '../changes/types.ts';
import type { WorkloadOutcome } from '../converge.ts';
import type { SimOptions } from '../simulate.ts';
import { workloadTemplate } from '../workloads.ts';
import { type ChangeAnswer, whatIfChange } from './change.ts';
import { convergedTally, outcomeFor, targetOf, workloadPods, type PodTally, type WorkloadRef } from './shared.ts';

export interface RequestsChangeAnswer {
  workload: WorkloadRef;
  change: string;
  /** The new template's pods the controllers created, and how they fared. */
  tally: PodTally;
  /** The workload after convergence: complete, or where the rollout stopped. */
  outcome?: WorkloadOutcome;
  converged: ChangeAnswer;
}

/** The `set resources` change for one resource of one container (the first when none is named). */
export function requestsChange(
  w: WorkloadRef,
  which: 'requests' | 'limits',
  resource: string,
  value: string,
  container: string | undefined,
): Change {
  const tpl = workloadTemplate(w.object);
  const c = container ? tpl.spec.containers.find((x) => x.name === container) : tpl.spec.containers[0];
  const name = container ?? c?.name ?? '*';
  const change: Change = { kind: 'setResources', target: targetOf(w), container: name, [which]: { [resource]: value } };
  if (which === 'requests' && change.kind === 'setResources') {
    const lim = Quantity.tryParse(c?.resources?.limits?.[resource]);
    if (lim && lim.cmp(Quantity.parse(value)) < 0) change.limits = { [resource]: value };
  }
  return change;
}

export function whatIfRequests(
  state: Snapshot,
  w: WorkloadRef,
  which: 'requests' | 'limits',
  resource: string,
  value: string,
  container: string | undefined,
  opts: SimOptions = {},
): RequestsChangeAnswer {
  const change = requestsChange(w, which, resource, value, container);
  const converged = whatIfChange(state, change, opts);
  const spec = w.object.spec as { replicas?: number | null };
  const wanted =
    w.kind === 'Deployment' || w.kind === 'StatefulSet' || w.kind === 'ReplicaSet'
      ? Math.max(0, spec.replicas ?? 1)
      : Math.max(workloadPods(state, w).length, 1);
  return {
    workload: w,
    change: `${which}.${resource}=${value}${container ? ` on ${container}` : ''}`,
    tally: convergedTally(converged, w, wanted),
    outcome: outcomeFor(converged, w),
    converged,
  };
}
