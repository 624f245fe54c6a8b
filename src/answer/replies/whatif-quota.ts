/**
 * "raise requests.cpu of team-quota to 20": the edit converged — the workloads of the namespace that now
 * create pods they were refused — how many default pods fit before and after, and the one command.
 */
import { shortRef } from '../../engine/changes/command.ts';
import type { QuotaChangeAnswer } from '../../engine/whatif/index.ts';
import { emptyReply, type Answer, type Fix } from '../types.ts';

export function quotaChangeAnswer(ns: string, quotaName: string, resource: string, a: QuotaChangeAnswer): Answer {
  const r = emptyReply('whatif', '🔮', `${quotaName} ${resource} ${a.from ?? 'unset'} → ${a.to} in ${ns}`);
  const c = a.converged;
  if (c.refused) {
    r.lines.push(`The API server refuses it: ${c.refused}`, `Command: ${c.command}`);
    return { replies: [r], namespaces: [ns] };
  }
  const taken: string[] = [];
  for (const w of c.workloads) {
    if (w.namespace !== ns || w.created === 0) continue;
    const ref = shortRef(w.kind, w.name);
    r.lines.push(
      `${ref} creates ${w.created} pod${w.created === 1 ? '' : 's'} it was refused: ${w.scheduled}/${w.wanted} running${w.complete ? ' ✓' : ` — ${w.failedCreate ?? w.pending[0]?.message ?? 'does not complete'}`}`,
    );
    taken.push(`${ns}/${ref} takes ${w.created} pod${w.created === 1 ? '' : 's'} of it`);
  }
  r.lines.push(
    `Pods of the default shape that fit: ${a.defaultPodBefore} → ${a.defaultPodAfter}${a.limitedByAfter ? ` (then stopped by ${a.limitedByAfter})` : ''}.`,
  );
  const fix: Fix = {
    who: 'platform',
    summary: `set ${quotaName} ${resource} to ${a.to}`,
    change: c.command,
    verified: true,
    outcome: `${a.defaultPodAfter} default pods fit`,
    sideEffects: taken,
  };
  r.fixes.push(fix);
  return { replies: [r], namespaces: [ns] };
}
