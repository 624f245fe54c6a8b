/** "what if web scales to 8": the new pods admitted, refused, scheduled or Pending, and what gets all of them. */
import type { ScaleAnswer, WorkloadRef } from '../../engine/whatif/index.ts';
import { renderCommand, shortRef } from '../../engine/changes/command.ts';
import { MAX_SCALE_PODS } from '../bounds.ts';
import { emptyReply, type Reply } from '../types.ts';
import { perPodText, tallyLines } from './pod-words.ts';

/** `asked` replicas were asked for; `a` simulated up to `a.to` (less when the cap of ../bounds.ts cut it). */
/** `limitRanged`: the namespace has a LimitRange (its defaults are in the per-pod figures; else none is named). */
export function scaleReply(w: WorkloadRef, a: ScaleAnswer, asked: number, limitRanged = true): Reply {
  const r = emptyReply(
    'whatif',
    '🔮',
    `${w.name} ${a.from} → ${a.to} replicas in ${w.namespace} (${perPodText(a.perPod)} each${limitRanged ? ', after LimitRange defaults' : ''})`,
  );
  if (a.to > a.from) r.lines.push(...tallyLines(a.tally));
  else r.lines.push(...scaleDownLines(w, a));
  if (a.toGetAll?.length) {
    const v = a.withRaisedQuota;
    const verified = v
      ? v.rejected === 0
        ? v.pending === 0
          ? `  ✓ verified: all ${v.admitted} admitted and scheduled`
          : `  ✓ verified for quota: all ${v.admitted} admitted; ${v.pending} would still wait for a node`
        : `  (still ${v.rejected} refused: ${v.rejections[0]?.message ?? ''})`
      : '';
    r.lines.push(`To get all ${a.to}: ${a.toGetAll.join('; ')}${verified}`);
    if (a.raise) r.lines.push(`   ${a.raise.map(renderCommand).join(' && ')}`);
    for (const e of a.raiseSideEffects) r.lines.push(`   ${e}`);
  }
  r.lines.push(`Command: ${a.converged.command}`);
  if (a.to < asked)
    r.gaps.push(
      `You asked for ${asked} replicas; I simulated the first ${MAX_SCALE_PODS} new pods only (at most ${MAX_SCALE_PODS} per scale question).`,
    );
  return r;
}

/** Up to five names, then how many more. */
function some(names: string[]): string {
  return names.length <= 5 ? names.join(', ') : `${names.slice(0, 5).join(', ')} and ${names.length - 5} more`;
}

/**
 * A scale-down as the controllers run it: the pods the controller removes, then what the freed room lets happen —
 * a controller of the namespace creating pods its quota refused, Pending pods the scheduler now binds.
 */
function scaleDownLines(w: WorkloadRef, a: ScaleAnswer): string[] {
  const n = a.from - a.to;
  const c = a.converged;
  const own = c.evicted
    .filter((p) => p.startsWith(`${w.namespace}/${w.name}-`))
    .map((p) => p.slice(w.namespace.length + 1));
  const out = [
    `Scaling down frees ${n} pod${n === 1 ? '' : 's'}${own.length ? `: the controller removes ${some(own)}` : ''}.`,
  ];
  for (const o of c.workloads) {
    if ((o.kind === w.kind && o.name === w.name) || o.created === 0) continue;
    out.push(
      `Then ${o.namespace}/${shortRef(o.kind, o.name)} creates ${o.created} pod${o.created === 1 ? '' : 's'} it was short of (${o.pods}/${o.wanted} after).`,
    );
  }
  const created = new Set(c.created.map((p) => p.pod));
  const bound = c.nowScheduled.filter((p) => !created.has(p.pod));
  if (bound.length === 1)
    out.push(`Then Pending pod ${bound[0]!.pod} schedules on ${bound[0]!.node} in the room it frees.`);
  else if (bound.length > 1)
    out.push(
      `Then ${bound.length} Pending pods schedule in the room it frees: ${some(bound.map((p) => `${p.pod} on ${p.node}`))}.`,
    );
  return out;
}
