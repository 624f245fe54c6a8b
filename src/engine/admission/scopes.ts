/**
 * ResourceQuota scopes (pkg/quota/v1/evaluator/core/pods.go podMatchesScopeFunc, docs/kubernetes-semantics.md §4.4).
 */
import type { Pod, ResourceQuota, ScopeRequirement } from '../../k8s/objects.ts';
import { podQOS } from '../pod-resources.ts';

/** `spec.scopes` (each as `Exists`) followed by `spec.scopeSelector.matchExpressions`. */
export function scopeRequirements(quota: ResourceQuota): ScopeRequirement[] {
  const out: ScopeRequirement[] = [];
  for (const s of quota.spec?.scopes ?? []) out.push({ scopeName: s, operator: 'Exists' });
  for (const r of quota.spec?.scopeSelector?.matchExpressions ?? []) out.push(r);
  return out;
}

/** Label-selector semantics of one requirement against a (possibly empty) label set. */
export function matchesRequirement(
  labels: Record<string, string>,
  key: string,
  operator: string,
  values: readonly string[],
): boolean {
  const has = Object.hasOwn(labels, key);
  switch (operator) {
    case 'In':
      return has && values.includes(labels[key]!);
    case 'NotIn':
      return !has || !values.includes(labels[key]!);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    default:
      return false;
  }
}

export function isTerminatingPod(pod: Pod): boolean {
  const ads = pod.spec.activeDeadlineSeconds;
  return ads !== undefined && ads !== null && ads >= 0;
}

function usesCrossNamespaceAffinity(pod: Pod): boolean {
  const terms = [
    ...(pod.spec.affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []),
    ...(pod.spec.affinity?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []).map(
      (w) => w.podAffinityTerm,
    ),
    ...(pod.spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []),
    ...(pod.spec.affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []).map(
      (w) => w.podAffinityTerm,
    ),
  ];
  return terms.some(
    (t) => (t.namespaces?.length ?? 0) > 0 || (t.namespaceSelector !== undefined && t.namespaceSelector !== null),
  );
}

/** Whether a pod matches one scope requirement. Unknown scopes match nothing. */
export function podMatchesScope(pod: Pod, req: ScopeRequirement): boolean {
  switch (req.scopeName) {
    case 'Terminating':
      return isTerminatingPod(pod);
    case 'NotTerminating':
      return !isTerminatingPod(pod);
    case 'BestEffort':
      return podQOS(pod) === 'BestEffort';
    case 'NotBestEffort':
      return podQOS(pod) !== 'BestEffort';
    case 'PriorityClass': {
      const name = pod.spec.priorityClassName ?? '';
      if (req.operator === 'Exists') return name !== '';
      const labels: Record<string, string> = name ? { PriorityClass: name } : {};
      return matchesRequirement(labels, 'PriorityClass', req.operator, req.values ?? []);
    }
    case 'CrossNamespacePodAffinity':
      return usesCrossNamespaceAffinity(pod);
    default:
      return false;
  }
}

/** Go's %v of a scope requirement list: `[{PriorityClass In [a b]}]`. */
export function formatScopeRequirements(reqs: ScopeRequirement[]): string {
  return `[${reqs.map((r) => `{${r.scopeName} ${r.operator} [${(r.values ?? []).join(' ')}]}`).join(' ')}]`;
}
