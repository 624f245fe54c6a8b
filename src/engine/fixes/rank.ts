/**
 * The order fixes are offered in: the team that owns the workload first (what it can do now, in its own
 * namespace), cheapest first — a Pending replica or an idle cordoned node costs no running capacity —
 * then the platform team's; a fix that stops running pods of a higher-priority workload or of another
 * team after all of those (someone else pays for it); tolerating a taint last, and only where the pod
 * plausibly belongs.
 */
import type { Plan } from './types.ts';

const WHO_RANK = { 'app-team': 0, platform: 1 } as const;

export function rankPlans(plans: readonly Plan[]): Plan[] {
  return plans
    .map((p, i) => ({ p, i }))
    .sort(
      (a, b) =>
        Number(a.p.last ?? false) - Number(b.p.last ?? false) ||
        Number(a.p.harm ?? false) - Number(b.p.harm ?? false) ||
        WHO_RANK[a.p.who] - WHO_RANK[b.p.who] ||
        a.p.cost - b.p.cost ||
        a.i - b.i,
    )
    .map(({ p }) => p);
}
