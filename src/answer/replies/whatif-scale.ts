/** "what if web scales to 8": the new pods admitted, refused, scheduled or Pending, and what gets all of them. */
import type { ScaleAnswer, WorkloadRef } from '../../engine/whatif/index.ts';
import { renderCommand } from '../../engine/changes/command.ts';
import { MAX_SCALE_PODS } from '../bounds.ts';
import { emptyReply, type Reply } from '../types.ts';
import { perPodText, tallyLines } from './pod-words.ts';

/** `asked` replicas were asked for; `a` simulated up to `a.to` (less when the cap of ../bounds.ts cut it). */
export function scaleReply(w: WorkloadRef, a: ScaleAnswer, asked: number): Reply {
  const r = emptyReply(
    'whatif',
    '🔮',
    `${w.name} ${a.from} → ${a.to} replicas in ${w.namespace} (${perPodText(a.perPod)} each, after LimitRange defaults)`,
  );
  if (a.to > a.from) r.lines.push(...tallyLines(a.tally));
  else r.lines.push(`Scaling down frees ${a.from - a.to} pod${a.from - a.to === 1 ? '' : 's'}.`);
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
