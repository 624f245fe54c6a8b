/**
 * "what if web requests 250m cpu": the change converged — a rollout on a Deployment or StatefulSet — its
 * new pods and how they fare, whether the rollout completes or where it stalls, and the one command.
 */
import type { RequestsChangeAnswer, WorkloadRef } from '../../engine/whatif/index.ts';
import { emptyReply, type Reply } from '../types.ts';
import { tallyLines } from './pod-words.ts';

export function requestsReply(w: WorkloadRef, a: RequestsChangeAnswer): Reply {
  const r = emptyReply(
    'whatif',
    '🔮',
    `${w.name} with ${a.change} (all ${a.tally.attempted} pods replaced) in ${w.namespace}`,
  );
  if (a.converged.refused) {
    r.lines.push(`The API server refuses it: ${a.converged.refused}`);
    r.lines.push(`Command: ${a.converged.command}`);
    return r;
  }
  r.lines.push(...tallyLines(a.tally));
  const o = a.outcome;
  if (o && !o.complete) {
    const why = o.failedCreate ?? o.pending[0]?.message;
    const old = o.pods - o.updated;
    r.lines.push(
      `✗ The rollout stalls: ${o.updated}/${o.wanted} pods of the new template, ${old} old still there${why ? ` — ${why}` : ''}`,
    );
  }
  r.lines.push(`Command: ${a.converged.command}`);
  return r;
}
