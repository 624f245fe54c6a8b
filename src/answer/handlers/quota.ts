import { changeAnswerJson, whatIfQuota } from '../../engine/whatif/index.ts';
import { notFound } from '../replies/not-found.ts';
import { quotaChangeAnswer } from '../replies/whatif-quota.ts';
import { helpFor } from './help.ts';
import { needsState, visibilityOf, visibleNamespaces, type QuestionOf } from './context.ts';

export const quota = needsState<QuestionOf<'quota'>>((q, { state, ctx, opts, withGaps }) => {
  const ns = q.namespace ?? ctx.defaultNamespace ?? visibleNamespaces(state, ctx)[0];
  if (!ns) return helpFor(state, ctx);
  const quotaName =
    q.quota ??
    state.list('ResourceQuota', ns).find((x) => q.resource in (x.status?.hard ?? x.spec?.hard ?? {}))?.metadata.name;
  if (!quotaName) return notFound(`a ResourceQuota with ${q.resource} in ${ns}`, [ns]);
  const a = whatIfQuota(state, ns, quotaName, q.resource, q.value, opts);
  if (!a) return notFound(`ResourceQuota ${quotaName} in ${ns}`, [ns]);
  const answer = quotaChangeAnswer(ns, quotaName, q.resource, a);
  const fixes = answer.replies[0]?.fixes.map((f) => ({
    who: f.who,
    summary: f.summary,
    change: f.change ?? '',
    verified: f.verified,
    outcome: f.outcome ?? '',
    sideEffects: f.sideEffects ?? [],
  }));
  const json = visibilityOf(ctx).seesEverything ? changeAnswerJson(a.converged, fixes) : undefined;
  return withGaps({ ...answer, json });
});
