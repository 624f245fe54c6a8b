/** "what's wrong (in team-a)?": the open incidents of the namespaces the asker may see (../incidents.ts). */
import { detectIncidents } from '../incidents.ts';
import { overviewReply } from '../replies/overview.ts';
import { needsState, visibleNamespaces, type QuestionOf } from './context.ts';

export const overview = needsState<QuestionOf<'overview'>>((q, { state, ctx, withGaps }) => {
  // Every namespace the asker may see (or the one named): a channel's default is no limit here.
  const namespaces = q.namespace
    ? visibleNamespaces(state, ctx, q.namespace)
    : visibleNamespaces(state, { ...ctx, defaultNamespace: undefined });
  const shown = namespaces.filter((ns) => state.hasNamespace(ns) || state.list('Pod', ns).length > 0);
  const incidents = detectIncidents(state, {
    now: ctx.now ?? Date.now(),
    quotaThreshold: () => 90,
    namespaces: new Set(shown),
  });
  return withGaps({
    replies: [overviewReply(incidents, [...shown].sort())],
    namespaces: [...new Set(incidents.map((i) => i.namespace))],
  });
});
