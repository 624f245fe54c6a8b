/** Fixes for `exceeded quota`: request less, free quota in the namespace, or raise the quota. */
import type { Pod } from '../../k8s/objects.ts';
import type { Snapshot } from '../../k8s/snapshot.ts';
import { Quantity } from '../../quantity.ts';
import type { QuotaFailure } from '../admission/resourcequota.ts';
import { admitObject } from '../admit.ts';
import { withQuotaHard } from '../quota-ledger.ts';
import type { SimOptions } from '../simulate.ts';
import { kubectlSetResources, quotaPatch } from './commands.ts';
import { quotaHolders, removeWorkloadPods, scalable } from './owners.ts';
import { biggestContainer, setContainerValue } from './pod-edit.ts';
import type { Candidate, PodOrigin, VerifiedFix } from './types.ts';
import { verifyCandidates } from './verify.ts';

/** Fixes for `exceeded quota` against the current state. */
export function quotaExceededFixes(
  state: Snapshot,
  pod: Pod,
  failure: Extract<QuotaFailure, { type: 'exceeded' }>,
  origin: PodOrigin,
  opts: SimOptions,
): VerifiedFix[] {
  const ns = pod.metadata.namespace ?? 'default';
  const candidates: Candidate[] = [];
  // The pod as admission saw it: a value the pod does not set may come from LimitRange defaults, and
  // lowering it means setting it explicitly.
  const defaulted = admitObject(pod, state, { ...opts, dryRun: true }).object;
  // 1. Request less: the most the object may request now, per exceeded compute resource.
  let lowered: Pod | null = pod;
  const lowerParts: string[] = [];
  const lowerCmds: string[] = [];
  for (const r of failure.exceeded) {
    const m = /^(requests\.|limits\.)?(cpu|memory|ephemeral-storage)$/.exec(r);
    if (!m || !lowered) {
      lowered = null;
      break;
    }
    const which = m[1] === 'limits.' ? 'limits' : 'requests';
    const free = failure.hard.get(r)!.sub(failure.used.get(r) ?? Quantity.zero());
    const over = failure.requested.get(r)!.sub(free);
    const big = biggestContainer(lowered, which, m[2]!) ?? biggestContainer(defaulted, which, m[2]!);
    if (!big || free.sign() <= 0 || big.value.cmp(over) <= 0) {
      lowered = null;
      break;
    }
    const target = big.value.sub(over);
    lowered = setContainerValue(lowered, big.name, which, m[2]!, target.toString());
    // Requests above a lowered limit would be invalid: lower the request with it.
    if (which === 'limits') {
      const req = Quantity.tryParse(
        lowered.spec.containers.find((c) => c.name === big.name)?.resources?.requests?.[m[2]!],
      );
      if (req && req.cmp(target) > 0)
        lowered = setContainerValue(lowered, big.name, 'requests', m[2]!, target.toString());
    }
    lowerParts.push(`${which === 'limits' ? 'limits' : 'requests'}.${m[2]} of container ${big.name} to ≤ ${target}`);
    const cmd = kubectlSetResources(ns, origin.ref, big.name, which, m[2]!, target.toString());
    if (cmd) lowerCmds.push(cmd);
  }
  if (lowered && lowerParts.length > 0) {
    const p = lowered;
    candidates.push({
      who: 'app-team',
      summary: `lower ${lowerParts.join(' and ')}`,
      change: lowerCmds.join('\n') || undefined,
      apply: (s) => ({ state: s, object: p }),
    });
  }
  // 2. Free quota: scale down the workload that frees enough with the fewest replicas.
  const primary = failure.exceeded[0]!;
  const need = failure.used.get(primary)!.add(failure.requested.get(primary)!).sub(failure.hard.get(primary)!);
  const ownRef = origin.ref;
  const holders = quotaHolders(state, ns, primary, opts.now).filter((h) => h.ref !== ownRef && scalable(h.kind));
  const scaleOptions = holders
    .map((h) => {
      const k = Number((need.nanos + h.perPod.nanos - 1n) / h.perPod.nanos);
      return { h, k };
    })
    .filter(({ h, k }) => k >= 1 && k <= h.pods)
    .sort((a, b) => a.k - b.k || b.h.pending - a.h.pending);
  for (const { h, k } of scaleOptions.slice(0, 2)) {
    const w = scalable(h.kind) ? state.get(h.kind, ns, h.name) : undefined;
    const replicas = w?.spec.replicas ?? h.pods;
    const to = Math.max(0, replicas - k);
    candidates.push({
      who: 'app-team',
      summary: `scale ${h.ref} ${replicas} → ${to} (frees ${h.perPod.times(k)} of ${primary})`,
      change: `kubectl -n ${ns} scale ${h.ref} --replicas=${to}`,
      apply: (s) => ({ state: removeWorkloadPods(s, ns, h, k), object: pod }),
    });
  }
  // 3. Raise the quota to exactly what admits the object.
  const raised = failure.exceeded.map((r) => ({ r, v: failure.used.get(r)!.add(failure.requested.get(r)!) }));
  candidates.push({
    who: 'platform',
    summary: `raise ${failure.quota} ${raised.map(({ r, v }) => `${r} to ${v}`).join(', ')}`,
    change: raised.map(({ r, v }) => quotaPatch(ns, failure.quota, r, v.toString())).join('\n'),
    apply: (s) => {
      for (const { r, v } of raised) withQuotaHard(s, ns, failure.quota, r, v);
      return { state: s, object: pod };
    },
    needSchedule: false,
  });
  return verifyCandidates(state, candidates, opts);
}
