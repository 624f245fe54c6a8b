/** "roll out web (with 500m cpu)": round 1's surge, whether the rollout completes or stalls, settings that complete. */
import type { RolloutAnswer, WorkloadRef } from '../../engine/whatif/index.ts';
import { MAX_ANSWER_PODS } from '../bounds.ts';
import { emptyReply, type Reply } from '../types.ts';
import { perPodText, tallyLines } from './pod-words.ts';

/** A rollout: the strategy, round 1's surge, whether it completes or where it stalls, and the settings that fit. */
/** `limitRanged`: the namespace has a LimitRange (its defaults are in the per-pod figures; else none is named). */
export function rolloutReply(a: RolloutAnswer, limitRanged = true): Reply {
  const w = a.workload;
  const how =
    a.strategy === 'Recreate'
      ? 'Recreate'
      : w.kind === 'StatefulSet'
        ? 'RollingUpdate, one pod at a time'
        : `${a.strategy}, maxSurge ${a.maxSurge}, maxUnavailable ${a.maxUnavailable}`;
  const r = emptyReply(
    'whatif',
    '🔮',
    `${w.name} rolls out in ${w.namespace}${a.change ? ` with ${a.change}` : ' (restart, same template)'}: ${how}`,
  );
  if (a.unsupported) {
    r.lines.push(a.unsupported);
    return r;
  }
  for (const c of a.unknownContainers) r.lines.push(`No container ${c} in the template: nothing changed there.`);
  if (a.change)
    r.lines.push(
      `Per pod: ${perPodText(a.perPodBefore)} → ${perPodText(a.perPodAfter)}${limitRanged ? ' (after LimitRange defaults)' : ''}`,
    );
  if (w.kind === 'Deployment' && a.strategy !== 'Recreate' && a.maxSurge > 0) {
    r.lines.push(
      `Round 1: ${a.maxSurge} surge pod${a.maxSurge === 1 ? '' : 's'} next to the ${a.replicas} running:`,
      ...tallyLines(a.surgeTally).map((l) => `   ${l}`),
    );
  }
  const run = a.run;
  if (run.completed) {
    r.lines.push(
      `✓ Completes in ${run.rounds} controller step${run.rounds === 1 ? '' : 's'}: at most ${run.peakPods} pods at once, never fewer than ${run.minRunning} running.`,
    );
    if (run.refusedCreates)
      r.lines.push(
        `   ${run.refusedCreates} pod creation${run.refusedCreates === 1 ? '' : 's'} refused on the way (FailedCreate) — old pods still leave within maxUnavailable.`,
      );
  } else if (run.stall) {
    const s = run.stall;
    r.lines.push(
      `✗ Stalls after ${run.rounds} controller step${run.rounds === 1 ? '' : 's'}: ${s.newRunning} of ${a.target} new pods running, ${s.oldPods} old still running${s.newPending ? `, ${s.newPending} new Pending` : ''}.`,
    );
    for (const b of s.blockers.slice(0, 3)) r.lines.push(`   ${b}`);
  }
  for (const alt of a.alternatives) {
    const label =
      alt.setting.strategy === 'Recreate'
        ? `strategy Recreate (all ${a.target} down at once)`
        : `maxSurge 0, maxUnavailable ${alt.setting.maxUnavailable} (replace in place)`;
    if (alt.run.completed) {
      r.fixes.push({
        who: 'app-team',
        summary: label,
        change: alt.patch,
        verified: true,
        outcome: `completes in ${alt.run.rounds} controller step${alt.run.rounds === 1 ? '' : 's'}, never fewer than ${alt.run.minRunning} running`,
      });
    } else
      r.lines.push(
        `With ${label}: stalls too${alt.run.stall?.blockers[0] ? ` — ${alt.run.stall.blockers[0].replace(/\.$/, '')}` : ''}.`,
      );
  }
  if (!run.completed && a.advice && !r.fixes.length) r.lines.push(a.advice);
  r.lines.push(`Command: ${a.command}`);
  return r;
}

/** A rollout creates up to every replica again, once per setting re-simulated (about 5): bounded (../bounds.ts). */
export function rolloutTooLargeReply(w: WorkloadRef, wanted: number): Reply {
  const r = emptyReply(
    'info',
    'ℹ️',
    `${w.name} has ${wanted} replicas: too many to simulate its rollout pod by pod here.`,
  );
  r.lines.push(
    `I simulate rollouts of up to ${MAX_ANSWER_PODS / 5} replicas; ask about a scale-down first, or run it on a smaller copy.`,
  );
  return r;
}
