/** "why is web pending?" when the namespace holds no failure event about it: what the state says of its pods. */
import { emptyReply, type Reply } from '../types.ts';

/** The workload's pods as the state holds them (absent for a bare pod or an unknown name). */
export interface PodsNow {
  /** Replicas (or parallelism) it asks for; undefined when it has no such count (DaemonSet, bare pod). */
  wanted?: number;
  running: number;
  pending: string[];
}

export function noEventsReply(name: string, ns: string, now?: PodsNow): Reply {
  const r = emptyReply('info', 'ℹ️', `No failure events for ${name} in ${ns}.`);
  if (!now) return r;
  const of = now.wanted !== undefined ? `/${now.wanted}` : '';
  const pending = now.pending.length
    ? `${now.pending.length} Pending (${now.pending.slice(0, 3).join(', ')}${now.pending.length > 3 ? ', …' : ''}) with no FailedScheduling event yet`
    : 'none Pending';
  r.lines.push(`${name}: ${now.running}${of} pod${now.running === 1 && !of ? '' : 's'} running, ${pending}.`);
  return r;
}
