/**
 * "what's wrong?": the open incidents of the namespaces the asker may see — the same ones proactive mode
 * posts (../incidents.ts): workloads whose pods are refused, pods Pending past 5 minutes, quotas at 90% or
 * more of a resource — one line each, newest trouble last within a namespace, and how to get the details.
 */
import type { Incident } from '../incidents.ts';
import { emptyReply, type Reply } from '../types.ts';

/** Lines shown before "… and N more" (Slack's section limits; the CLI prints the same). */
export const OVERVIEW_MAX_LINES = 12;

function sinceWords(i: Incident): string {
  const parts: string[] = [];
  if (i.since) parts.push(`since ${i.since.slice(0, 16).replace('T', ' ')} UTC`);
  if (i.count > 1) parts.push(`${i.count} times`);
  return parts.length ? ` — ${parts.join(', ')}` : '';
}

function namespacesWords(namespaces: readonly string[]): string {
  if (namespaces.length === 1) return namespaces[0]!;
  if (namespaces.length <= 4) return `${namespaces.slice(0, -1).join(', ')} and ${namespaces[namespaces.length - 1]}`;
  return `${namespaces.length} namespaces`;
}

export function overviewReply(incidents: readonly Incident[], namespaces: readonly string[]): Reply {
  const where = namespacesWords(namespaces);
  if (incidents.length === 0) {
    const r = emptyReply('info', '✅', `Nothing wrong in ${where}`);
    r.lines.push('No workload has pods refused, no pod has been Pending over 5 minutes, no quota is at 90% or more.');
    return r;
  }
  const n = incidents.length;
  const r = emptyReply('info', '🩺', `${n} open problem${n === 1 ? '' : 's'} in ${where}`);
  for (const i of incidents.slice(0, OVERVIEW_MAX_LINES)) r.lines.push(`${i.title}${sinceWords(i)}`);
  if (n > OVERVIEW_MAX_LINES) r.lines.push(`… and ${n - OVERVIEW_MAX_LINES} more`);
  const first = incidents.find((i) => i.kind !== 'quota');
  if (first)
    r.lines.push(
      `Ask "why is ${first.object.name} ${first.kind === 'pending' ? 'pending' : 'failing'}?" (or paste its message) for the numbers and verified fixes.`,
    );
  return r;
}
