import { whatIfQuota } from '../../engine/whatif/index.ts';
import { notFound } from '../replies/not-found.ts';
import { quotaChangeAnswer } from '../replies/whatif-quota.ts';
import { helpFor } from './help.ts';
import { needsState, visibleNamespaces, type QuestionOf } from './context.ts';

export const quota = needsState<QuestionOf<'quota'>>((q, { state, ctx, opts, withGaps }) => {
  const ns = q.namespace ?? ctx.defaultNamespace ?? visibleNamespaces(state, ctx)[0];
  if (!ns) return helpFor(state, ctx);
  const quotaName =
    q.quota ??
    state.list('ResourceQuota', ns).find((x) => q.resource in (x.status?.hard ?? x.spec?.hard ?? {}))?.metadata.name;
  if (!quotaName) return notFound(`a ResourceQuota with ${q.resource} in ${ns}`, [ns]);
  const a = whatIfQuota(state, ns, quotaName, q.resource, q.value, opts);
  if (!a) return notFound(`ResourceQuota ${quotaName} in ${ns}`, [ns]);
  return withGaps(quotaChangeAnswer(ns, quotaName, q.resource, a));
});
