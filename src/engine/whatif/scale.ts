/** "what if web scales to 8". */
import { isKind } from '../../k8s/objects.ts';
import type { Snapshot } from '../../k8s/snapshot.ts';
import type { Quantity } from '../../quantity.ts';
import { releasePod } from '../release.ts';
import { nodeInfoIndex } from '../scheduler/node-info.ts';
import { withQuotaHard } from '../quota-ledger.ts';
import { interchangeablePods, simulateWorkloadPods, type SimOptions, type SimResult } from '../simulate.ts';
import { tally, workloadPods, perPodOf, type PodTally, type WorkloadRef } from './shared.ts';

export interface ScaleAnswer {
  workload: WorkloadRef;
  from: number;
  to: number;
  perPod: Record<string, string>;
  tally: PodTally;
  /** When some did not fit: what it would take. */
  toGetAll?: string[];
  /** The same scale re-simulated with the quota raised as `toGetAll` says. */
  withRaisedQuota?: PodTally;
}

/**
 * `count` new pods of a workload (a scale-up), as simulateWorkloadPods runs them — in growing batches for
 * a Deployment or ReplicaSet (each batch scales the same ReplicaSet on), so that once a pod is refused at
 * admission the rest need not even be built: interchangeable pods are all refused the same way
 * (simulate.ts, `repeatOutcomes`). "what if web scales to 10000000" on a full quota is one refused pod
 * and a count, not thousands of pod objects.
 */
function addPods(
  state: Snapshot,
  w: WorkloadRef,
  opts: SimOptions,
  results: SimResult[],
  warnings: string[],
  seed: { n: number },
  count: number,
): void {
  const object = w.object;
  if (w.kind !== 'Deployment' && w.kind !== 'ReplicaSet') {
    simulateWorkloadPods(state, object, opts, results, warnings, seed, count, true);
    return;
  }
  // Pod i is named from seed `base + i`, batch or not: the same pods as one call would make.
  const base = seed.n;
  let done = 0;
  let batch = 16;
  while (done < count) {
    const n = Math.min(count - done, batch);
    const at = results.length;
    simulateWorkloadPods(state, object, opts, results, warnings, { n: base + done }, n, true);
    done += n;
    batch *= 2;
    const last = results[results.length - 1];
    // A refusal repeated within the batch (simulate.ts) holds for every later pod of the workload too.
    if (
      done < count &&
      results.length > at &&
      last &&
      last.kind === 'Pod' &&
      !last.admission.allowed &&
      (last.admission.layer === 'quota' || last.admission.layer === 'limitrange')
    ) {
      const pods = results.slice(at).flatMap((r) => (r.kind === 'Pod' && isKind(r.object, 'Pod') ? [r.object] : []));
      if (!interchangeablePods(object, pods, 0)) continue;
      for (; done < count; done++) results.push(last);
    }
  }
  seed.n = base + 2 * count;
}

export function whatIfScale(state: Snapshot, w: WorkloadRef, target: number, opts: SimOptions = {}): ScaleAnswer {
  const current = workloadPods(state, w);
  const from = current.length;
  nodeInfoIndex(state);
  const fork = state.fork();
  const results: SimResult[] = [];
  const warnings: string[] = [];
  if (target > from) {
    addPods(fork, w, { ...opts, namespace: w.namespace }, results, warnings, { n: 1000 + from }, target - from);
  } else {
    for (const p of current.slice(target)) releasePod(fork, p);
  }
  const podResults = results.filter((r) => r.kind === 'Pod');
  const t = tally(podResults);
  const answer: ScaleAnswer = { workload: w, from, to: target, perPod: perPodOf(state, w, opts), tally: t };
  if (t.rejected > 0 || t.pending > 0) {
    const hints: string[] = [];
    const raises: { quota: string; resource: string; value: Quantity }[] = [];
    for (const r of podResults) {
      const f = r.detail.admission.quota?.failure;
      if (f?.type === 'exceeded') {
        // The first refusal's `used` already holds every pod admitted before it; each later pod needs the same again.
        for (const k of f.exceeded) {
          const need = f.used.get(k)!.add(f.requested.get(k)!.times(t.rejected));
          hints.push(`raise ${f.quota} ${k} to ${need}`);
          raises.push({ quota: f.quota, resource: k, value: need });
        }
        break;
      }
    }
    if (raises.length > 0) {
      // Re-simulate with the raised quota before saying it. Raising a quota changes nothing for the pods
      // already admitted (same order, same placements), so only the refused ones run again, on top of the
      // state the first run left.
      const again = fork.fork();
      for (const { quota, resource, value } of raises)
        withQuotaHard(again, w.namespace, quota, resource, value, opts.now);
      const rerun: SimResult[] = [];
      addPods(again, w, { ...opts, namespace: w.namespace }, rerun, [], { n: 1000 + target }, t.rejected);
      const t2 = tally(rerun.filter((r) => r.kind === 'Pod'));
      answer.withRaisedQuota = {
        ...t2,
        attempted: t.attempted,
        admitted: t.admitted + t2.admitted,
        scheduled: t.scheduled + t2.scheduled,
        pending: t.pending + t2.pending,
      };
    }
    if (t.pending > 0)
      hints.push(
        `${t.pending} pod${t.pending === 1 ? '' : 's'} would need node capacity (${Object.entries(answer.perPod)
          .map(([k, v]) => `${v} ${k}`)
          .join(', ')} each)`,
      );
    answer.toGetAll = [...new Set(hints)];
  }
  return answer;
}
