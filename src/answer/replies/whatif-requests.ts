/** "what if web requests 250m cpu": every pod replaced with the new requests, and how they fare. */
import type { RequestsChangeAnswer, WorkloadRef } from '../../engine/whatif/index.ts';
import { emptyReply, type Reply } from '../types.ts';
import { tallyLines } from './pod-words.ts';

export function requestsReply(w: WorkloadRef, a: RequestsChangeAnswer): Reply {
  const r = emptyReply(
    'whatif',
    '🔮',
    `${w.name} with ${a.change} (all ${a.tally.attempted} pods replaced) in ${w.namespace}`,
  );
  r.lines.push(...tallyLines(a.tally));
  return r;
}
