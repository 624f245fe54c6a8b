/**
 * framework.AffinityTerm: a required pod (anti-)affinity term compiled once — label selector, namespace
 * set and namespace selector — so that matching a pod is a few lookups. Lives beside `node-info.ts`
 * because an existing pod's terms are projected with its `PodEntry` (framework.PodInfo keeps
 * RequiredAntiAffinityTerms the same way); the InterPodAffinity plugin compiles the incoming pod's.
 */
import type { PodAffinityTerm } from '../../k8s/objects.ts';
import { compileLabelSelector, type LabelMatcher, type Labels } from './label-selectors.ts';

export interface AffinityTerm {
  readonly topologyKey: string;
  readonly selector: LabelMatcher;
  readonly namespaces: ReadonlySet<string>;
  readonly namespaceSelector: LabelMatcher | null;
}

/** framework.newAffinityTerm, with matchLabelKeys / mismatchLabelKeys merged for the incoming pod. */
export function compileAffinityTerm(
  term: PodAffinityTerm,
  owner: { namespace: string; labels: Labels },
  mergeKeys: boolean,
): AffinityTerm {
  let selector = term.labelSelector;
  if (mergeKeys && selector) {
    const extra = [
      ...(term.matchLabelKeys ?? [])
        .filter((k) => Object.hasOwn(owner.labels, k))
        .map((k) => ({ key: k, operator: 'In', values: [owner.labels[k]!] })),
      ...(term.mismatchLabelKeys ?? [])
        .filter((k) => Object.hasOwn(owner.labels, k))
        .map((k) => ({ key: k, operator: 'NotIn', values: [owner.labels[k]!] })),
    ];
    if (extra.length > 0)
      selector = { ...selector, matchExpressions: [...(selector.matchExpressions ?? []), ...extra] };
  }
  const explicit = term.namespaces ?? [];
  const namespaces = new Set(explicit.length === 0 && !term.namespaceSelector ? [owner.namespace] : explicit);
  return {
    topologyKey: term.topologyKey,
    selector: compileLabelSelector(selector),
    namespaces,
    namespaceSelector: term.namespaceSelector ? compileLabelSelector(term.namespaceSelector) : null,
  };
}
