/**
 * Re-simulation of each candidate: the change is applied to a fork of the state, the object goes
 * through admission and the scheduler again, and what it leads to becomes the fix's outcome.
 */
import type { Snapshot } from '../../k8s/snapshot.ts';
import { LAYERS } from '../../k8s/layers.ts';
import { simulate, type SimOptions, type SimResult } from '../simulate.ts';
import { nodeInfoIndex } from '../scheduler/node-info.ts';
import type { Candidate, VerifiedFix } from './types.ts';

function outcomeOf(r: SimResult): string {
  if (!r.admission.allowed) return 'rejected';
  if (!r.scheduling) return 'admitted';
  if (r.scheduling.scheduled) return `admitted, schedules on ${r.scheduling.node}`;
  return 'admitted, still Pending';
}

/** Runs candidates; keeps those that pass. */
export function verifyCandidates(base: Snapshot, candidates: Candidate[], opts: SimOptions, max = 4): VerifiedFix[] {
  const out: VerifiedFix[] = [];
  for (const c of candidates) {
    if (out.length >= max) break;
    nodeInfoIndex(base);
    const { state, object } = c.apply(base.fork());
    const res = simulate(state, [object], { ...opts, dryRun: false }).results;
    const r = res[res.length - 1];
    if (!r) continue;
    const stoppedAt = !r.admission.allowed
      ? r.admission.layer
      : r.scheduling && !r.scheduling.scheduled
        ? 'scheduler'
        : null;
    const fix = { who: c.who, summary: c.summary, change: c.change ?? '', sideEffects: c.sideEffects ?? [] };
    if (stoppedAt === null) {
      out.push({ ...fix, verified: true, outcome: outcomeOf(r) });
    } else if (c.fixes && LAYERS[stoppedAt].rank > LAYERS[c.fixes].rank) {
      // It fixes its layer but the incident goes on: shown as not working, with the next blocker.
      const next =
        stoppedAt === 'scheduler' ? 'no node fits yet' : (r.admission.message ?? '').replace(/^.*? is forbidden: /, '');
      out.push({
        ...fix,
        verified: false,
        outcome: `passes ${LAYERS[c.fixes].name}, then ${LAYERS[stoppedAt].name} refuses it: ${next}`,
      });
    } else if (stoppedAt === 'scheduler' && c.needSchedule === false) {
      out.push({ ...fix, verified: false, outcome: `admitted, then stays Pending: ${r.scheduling?.message ?? ''}` });
    }
  }
  return out;
}
