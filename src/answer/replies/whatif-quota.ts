/** "raise requests.cpu of team-quota to 20": how many default pods fit before and after, and the patch. */
import type { QuotaChangeAnswer } from '../../engine/whatif/index.ts';
import { emptyReply, type Answer } from '../types.ts';

export function quotaChangeAnswer(ns: string, quotaName: string, resource: string, a: QuotaChangeAnswer): Answer {
  const r = emptyReply('whatif', '🔮', `${quotaName} ${resource} ${a.from ?? 'unset'} → ${a.to} in ${ns}`);
  r.lines.push(
    `Pods of the default shape that fit: ${a.defaultPodBefore} → ${a.defaultPodAfter}${a.limitedByAfter ? ` (then stopped by ${a.limitedByAfter})` : ''}.`,
  );
  r.fixes.push({
    who: 'platform',
    summary: `set ${quotaName} ${resource} to ${a.to}`,
    change: `kubectl -n ${ns} patch resourcequota ${quotaName} --type merge -p '{"spec":{"hard":{"${resource}":"${a.to}"}}}'`,
    verified: true,
    outcome: `${a.defaultPodAfter} default pods fit`,
  });
  return { replies: [r], namespaces: [ns] };
}
