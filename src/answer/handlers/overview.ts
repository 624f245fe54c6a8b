/** "what's wrong (in team-a)?": the open incidents of the namespaces the asker may see (../incidents.ts). */
import { detectIncidents, type Incident } from '../incidents.ts';
import { overviewReply } from '../replies/overview.ts';
import { needsState, visibleNamespaces, type QuestionOf } from './context.ts';

export const overview = needsState<QuestionOf<'overview'>>((q, { state, ctx, withGaps }) => {
  // Every namespace the asker may see (or the one named; resolve.ts answered one that is not there): a
  // channel's default only puts its namespace first, and the list is sorted.
  const shown = [...visibleNamespaces(state, ctx, q.namespace)].sort();
  const incidents = detectIncidents(state, {
    now: ctx.now ?? Date.now(),
    quotaThreshold: () => 90,
    namespaces: new Set(shown),
  });
  return withGaps({
    replies: [overviewReply(incidents, shown)],
    namespaces: [...new Set(incidents.map((i) => i.namespace))],
    // Every incident, not only the lines a reply shows (docs/contract.md, `whatif --json`): of the shown namespaces only.
    json: { incidents: incidents.map(incidentJson) },
  });
});

/** An incident as `whatif --json` prints it: what is wrong, where, since when and how often. */
export function incidentJson(i: Incident): Record<string, unknown> {
  return {
    kind: i.kind,
    namespace: i.namespace,
    object: i.object,
    layer: i.layer,
    title: i.title,
    message: i.message,
    since: i.since ?? null,
    count: i.count,
    ...(i.progress ? { progress: i.progress } : {}),
    ...(i.percent !== undefined ? { percent: i.percent } : {}),
  };
}
