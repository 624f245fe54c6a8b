/** "what if web requests 250m cpu". */
import type { Workload } from '../../k8s/objects.ts';
import type { KObject, Snapshot } from '../../k8s/snapshot.ts';
import { Quantity } from '../../quantity.ts';
import { clone } from '../defaults.ts';
import { releasePod } from '../release.ts';
import { nodeInfoIndex } from '../scheduler/node-info.ts';
import { simulateWorkloadPods, type SimOptions, type SimResult } from '../simulate.ts';
import { workloadTemplate } from '../workloads.ts';
import { tally, workloadPods, type PodTally, type WorkloadRef } from './shared.ts';

export interface RequestsChangeAnswer {
  workload: WorkloadRef;
  change: string;
  /** Replacing every pod with the new template (a rollout), then how many fit. */
  tally: PodTally;
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
  const obj = clone(w.object) as Workload & KObject;
  const tpl = workloadTemplate(obj as Workload);
  for (const c of tpl.spec.containers) {
    if (container && c.name !== container) continue;
    const res = (c.resources ??= {});
    const list = (res[which] ??= {});
    list[resource] = value;
    if (which === 'requests') {
      const lim = Quantity.tryParse(res.limits?.[resource]);
      if (lim && lim.cmp(Quantity.parse(value)) < 0) res.limits![resource] = value;
    }
    if (!container) break;
  }
  nodeInfoIndex(state);
  const fork = state.fork();
  const current = workloadPods(state, w);
  for (const p of current) releasePod(fork, p);
  const results: SimResult[] = [];
  simulateWorkloadPods(
    fork,
    obj as Workload,
    { ...opts, namespace: w.namespace },
    results,
    [],
    { n: 5000 },
    Math.max(current.length, 1),
  );
  return {
    workload: w,
    change: `${which}.${resource}=${value}${container ? ` on ${container}` : ''}`,
    tally: tally(results.filter((r) => r.kind === 'Pod')),
  };
}
