/** "what's wrong (in team-a)?": the open incidents of the namespaces the asker may see (../incidents.ts). */
import { detectIncidents } from '../incidents.ts';
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
  });
});
