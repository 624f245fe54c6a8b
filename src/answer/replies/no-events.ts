/** "why is web pending?" when the namespace holds no failure event about it: what the state says of its pods. */
import type { WorkloadOutcome } from '../../engine/converge.ts';
import { emptyReply, type Reply } from '../types.ts';

/** `now`: the workload read from the state (engine/diagnose/goal.ts staticOutcome); null for a bare pod or an unknown name. */
export function noEventsReply(name: string, ns: string, now?: WorkloadOutcome | null): Reply {
  const r = emptyReply('info', 'ℹ️', `No failure events for ${name} in ${ns}.`);
  if (!now) return r;
  // A DaemonSet wants one pod per eligible node and a CronJob's pods are its Jobs': no count of their own to show.
  const of = now.kind === 'DaemonSet' || now.kind === 'CronJob' ? '' : `/${now.wanted}`;
  const names = now.pending.map((p) => p.pod.slice(p.pod.indexOf('/') + 1));
  const pending = names.length
    ? `${names.length} Pending (${names.slice(0, 3).join(', ')}${names.length > 3 ? ', …' : ''}) with no FailedScheduling event yet`
    : 'none Pending';
  r.lines.push(`${name}: ${now.scheduled}${of} pod${now.scheduled === 1 && !of ? '' : 's'} running, ${pending}.`);
  return r;
}
