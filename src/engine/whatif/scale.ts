/**
 * "what if web scales to 8": `kubectl scale` as a change (engine/changes), run through the controllers
 * (engine/converge.ts) — the Deployment scales its ReplicaSet, the ReplicaSet creates the missing pods in
 * slow-start batches through admission, the scheduler binds them — and the new pods tallied from what
 * the convergence left. When some do not get in: the quota raise that would admit them, verified by
 * converging the raise and the scale together.
 */
import type { Snapshot } from '../../k8s/snapshot.ts';
import { Quantity } from '../../quantity.ts';
import { admitObject } from '../admit.ts';
import { renderCommand, shortRef } from '../changes/command.ts';
import type { Change } from '../changes/types.ts';
import type { VerifiedFix } from '../fixes/types.ts';
import type { SimOptions } from '../simulate.ts';
import { type ChangeAnswer, whatIfChange } from './change.ts';
import {
  convergedTally,
  perPodOf,
  probePod,
  replicaSetRefs,
  targetOf,
  workloadPods,
  type PodTally,
  type WorkloadRef,
} from './shared.ts';

export interface ScaleAnswer {
  workload: WorkloadRef;
  from: number;
  to: number;
  perPod: Record<string, string>;
  tally: PodTally;
  /** When some did not fit: what it would take. */
  toGetAll?: string[];
  /** The same scale converged with the quota raised as `toGetAll` says. */
  withRaisedQuota?: PodTally;
  /** The scale as converged: its command, the outcome per workload. */
  converged: ChangeAnswer;
  /** The quota raise as changes (one per quota), when one would admit the refused pods. */
  raise?: Change[];
  /** What else the raise does: other workloads of the namespace that get pods they were refused. */
  raiseSideEffects: string[];
  /** The raise and the scale converged together. */
  raiseConverged?: ChangeAnswer;
}

/** Converges `kubectl scale` of the workload to `target` replicas (with `also` applied first). */
function convergeScale(
  state: Snapshot,
  w: WorkloadRef,
  target: number,
  opts: SimOptions,
  also: readonly Change[] = [],
): ChangeAnswer {
  const change: Change = { kind: 'scale', target: targetOf(w), replicas: target };
  // The workload and its ReplicaSets look again: a ReplicaSet already short of pods (a create refused
  // before the snapshot) tries again even when the scale leaves its replicas as they are.
  const objects = [targetOf(w), ...replicaSetRefs(state, w)];
  return whatIfChange(state, change, { ...opts, resync: { namespaces: [], objects } }, also);
}

export function whatIfScale(state: Snapshot, w: WorkloadRef, target: number, opts: SimOptions = {}): ScaleAnswer {
  const from = workloadPods(state, w).length;
  const converged = convergeScale(state, w, target, opts);
  const t = convergedTally(converged, w, Math.max(0, target - from));
  const answer: ScaleAnswer = {
    workload: w,
    from,
    to: target,
    perPod: perPodOf(state, w, opts),
    tally: t,
    converged,
    raiseSideEffects: [],
  };
  if (t.rejected === 0 && t.pending === 0) return answer;
  const hints: string[] = [];
  if (t.rejected > 0) {
    // The next pod against the converged state: its quota failure's `used` holds every pod admitted on
    // the way, and each refused pod needs `requested` again.
    const adm = admitObject(probePod(w), converged.state, { ...opts, dryRun: true });
    const f = adm.quota?.failure;
    if (f?.type === 'exceeded') {
      const need = new Map(f.exceeded.map((k) => [k, f.used.get(k) ?? Quantity.fromInt(0)]));
      // Each round adds what the still-refused pods request: other controllers of the namespace refused
      // before (a short ReplicaSet) take their share of a raise too, and converging says how much.
      let short = t.rejected;
      // Raising a quota changes nothing for the pods already admitted: each round continues from where
      // the last convergence stopped (the refused creates retry, as their controllers would once the
      // quota is raised), so only the pods still missing run again.
      let from = converged;
      let created = [...converged.created];
      const others = new Map<string, { ref: string; n: number }>();
      for (let round = 0; round < 3 && short > 0; round++) {
        for (const k of f.exceeded) need.set(k, need.get(k)!.add(f.requested.get(k)!.times(short)));
        const hard: Record<string, string> = {};
        for (const [k, v] of need) hard[k] = v.toString();
        answer.raise = [{ kind: 'quota', namespace: w.namespace, name: f.quota, hard }];
        const objects = [targetOf(w), ...replicaSetRefs(from.state, w)];
        const again = whatIfChange(from.state, answer.raise[0]!, { ...opts, resync: { namespaces: [], objects } });
        if (again.refused) break;
        answer.withRaisedQuota = convergedTally(again, w, t.attempted, created);
        answer.raiseConverged = again;
        for (const o of again.workloads) {
          if ((o.kind === w.kind && o.name === w.name) || o.created === 0) continue;
          const key = `${o.namespace}/${shortRef(o.kind, o.name)}`;
          others.set(key, { ref: key, n: (others.get(key)?.n ?? 0) + o.created });
        }
        created = [...created, ...again.created];
        from = again;
        short = answer.withRaisedQuota.rejected;
      }
      for (const { ref, n } of others.values())
        answer.raiseSideEffects.push(
          `${ref} takes ${n} pod${n === 1 ? '' : 's'} of the raise too (a create refused before)`,
        );
      // A controller of the namespace refused before and still refused: it competes for the same quota
      // (which one gets freed room first is a race between their retries).
      for (const o of from.workloads) {
        if ((o.kind === w.kind && o.name === w.name) || !o.failedCreate?.includes(`exceeded quota: ${f.quota},`))
          continue;
        const missing = Math.max(0, o.wanted - o.pods);
        if (missing > 0)
          answer.raiseSideEffects.push(
            `${o.namespace}/${shortRef(o.kind, o.name)} stays ${missing} pod${missing === 1 ? '' : 's'} short: it competes for the same quota (raise by ${missing} more for both)`,
          );
      }
      for (const [k, v] of need) hints.push(`raise ${f.quota} ${k} to ${v}`);
    }
  }
  if (t.pending > 0)
    hints.push(
      `${t.pending} pod${t.pending === 1 ? '' : 's'} would need node capacity (${Object.entries(answer.perPod)
        .map(([k, v]) => `${v} ${k}`)
        .join(', ')} each)`,
    );
  answer.toGetAll = [...new Set(hints)];
  return answer;
}

/** The scale's fixes in diagnose's shape: the quota raise, verified by converging it with the scale. */
export function scaleFixes(a: ScaleAnswer): VerifiedFix[] {
  if (!a.raise || !a.withRaisedQuota) return [];
  const v = a.withRaisedQuota;
  const change = a.raise.map(renderCommand).join(' && ');
  const verified = v.rejected === 0 && v.pending === 0;
  return [
    {
      who: 'platform',
      summary: (a.toGetAll ?? []).filter((h) => h.startsWith('raise ')).join('; '),
      change,
      verified,
      outcome: verified
        ? `all ${v.attempted} new pods admitted and scheduled`
        : v.rejected > 0
          ? `still ${v.rejected} refused: ${v.rejections[0]?.message ?? ''}`
          : `all ${v.admitted} admitted; ${v.pending} would still wait for a node`,
      sideEffects: a.raiseSideEffects,
    },
  ];
}
