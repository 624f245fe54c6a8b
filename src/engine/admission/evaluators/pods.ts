/**
 * Pod quota evaluator (pkg/quota/v1/evaluator/core/pods.go, v1.35; docs/kubernetes-semantics.md §4.3, §4.6).
 */
import type { Container, Pod } from '../../../k8s/objects.ts';
import { Quantity, byteCompare, resourceList, type ResourceList } from '../../../quantity.ts';
import { podLevelLimitsSet, podLevelRequestsSet, podLimits, podRequests } from '../../pod-resources.ts';
import { isTerminatingPod, podMatchesScope } from '../scopes.ts';
import type { Evaluator, UsageContext } from './types.ts';

const POD_RESOURCES = new Set([
  'count/pods',
  'cpu',
  'memory',
  'ephemeral-storage',
  'pods',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
]);
/** Resource names whose absence from a container fails "must specify" (validationSet). */
const VALIDATION_SET = new Set(['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']);

/** An extended resource: a domain-qualified name outside kubernetes.io, not `requests.`-prefixed. */
export function isExtendedResourceName(name: string): boolean {
  if (name.startsWith('requests.')) return false;
  // helper.IsNativeResource: no "/" at all, or the name contains "kubernetes.io/" anywhere
  // (IsPrefixedNativeResource is a strings.Contains, so e.g. "xkubernetes.io/a" is native too).
  if (!name.includes('/')) return false;
  return !name.includes('kubernetes.io/');
}

export function isPodQuotaResource(name: string): boolean {
  if (POD_RESOURCES.has(name)) return true;
  if (name.startsWith('hugepages-') || name.startsWith('requests.hugepages-')) return true;
  return name.startsWith('requests.') && isExtendedResourceName(name.slice('requests.'.length));
}

/** podComputeUsageHelper: quota names charged for a request/limit pair. */
export function computeUsage(requests: ResourceList, limits: ResourceList): ResourceList {
  const out: ResourceList = new Map([['pods', Quantity.fromInt(1)]]);
  for (const r of ['cpu', 'memory', 'ephemeral-storage']) {
    const req = requests.get(r);
    if (req) {
      out.set(r, req);
      out.set(`requests.${r}`, req);
    }
    const lim = limits.get(r);
    if (lim) out.set(`limits.${r}`, lim);
  }
  for (const [k, v] of requests) {
    if (k.startsWith('hugepages-')) {
      out.set(k, v);
      out.set(`requests.${k}`, v);
    }
    if (isExtendedResourceName(k)) out.set(`requests.${k}`, v);
  }
  return out;
}

/** QuotaV1Pod: terminal pods and pods past their deletion grace hold no compute quota. */
export function isQuotaActive(pod: Pod, now?: number): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  const del = pod.metadata.deletionTimestamp;
  const grace = pod.metadata.deletionGracePeriodSeconds;
  if (del && grace !== undefined && grace !== null && now !== undefined) {
    const t = new Date(del).getTime() + grace * 1000;
    if (now > t) return false;
  }
  return true;
}

export function podUsage(pod: Pod, ctx: UsageContext = {}): ResourceList {
  const out: ResourceList = new Map([['count/pods', Quantity.fromInt(1)]]);
  if (!isQuotaActive(pod, ctx.now)) return out;
  const opts = { useStatusResources: true, podLevelResources: ctx.podLevelResources ?? true };
  for (const [k, v] of computeUsage(podRequests(pod, opts), podLimits(pod, opts))) out.set(k, v);
  return out;
}

function missingFor(c: Container, required: Set<string>, missing: Map<string, Set<string>>): void {
  const provided = computeUsage(resourceList(c.resources?.requests), resourceList(c.resources?.limits));
  for (const r of required) {
    if (provided.has(r)) continue;
    let set = missing.get(r);
    if (!set) missing.set(r, (set = new Set()));
    set.add(c.name);
  }
}

/** The "must specify" text; the pre-1.24 form (no container names) when `legacy` is set. */
export function podConstraints(
  required: string[],
  pod: Pod,
  opts: { podLevelResources?: boolean; legacy?: boolean } = {},
): string | null {
  if ((opts.podLevelResources ?? true) && (podLevelRequestsSet(pod) || podLevelLimitsSet(pod))) return null;
  const req = new Set(required.filter((r) => VALIDATION_SET.has(r)));
  if (req.size === 0) return null;
  const missing = new Map<string, Set<string>>();
  for (const c of pod.spec.containers) missingFor(c, req, missing);
  for (const c of pod.spec.initContainers ?? []) missingFor(c, req, missing);
  if (missing.size === 0) return null;
  const names = [...missing.keys()].sort(byteCompare);
  if (opts.legacy) return `must specify ${names.join(',')}`;
  return `must specify ${names.map((r) => `${r} for: ${[...missing.get(r)!].sort(byteCompare).join(',')}`).join('; ')}`;
}

export function podEvaluator(opts: { podLevelResources?: boolean; legacyMustSpecify?: boolean } = {}): Evaluator {
  return {
    resource: 'pods',
    group: '',
    handles(operation, subresource, obj, old) {
      if (operation === 'CREATE') return subresource === '';
      if (operation === 'UPDATE') {
        if (subresource === 'resize') return true;
        if (subresource !== '' || !old) return false;
        // Since 1.33 an update that flips the Terminating scope is charged (PR #130060).
        return isTerminatingPod(obj as Pod) !== isTerminatingPod(old as Pod);
      }
      return false;
    },
    matchingResources: (names) => names.filter(isPodQuotaResource),
    matchesScope: (req, obj) => podMatchesScope(obj as Pod, req),
    constraints: (required, obj) =>
      podConstraints(required, obj as Pod, {
        podLevelResources: opts.podLevelResources,
        legacy: opts.legacyMustSpecify,
      }),
    usage: (obj, ctx) =>
      podUsage(obj as Pod, { ...ctx, podLevelResources: opts.podLevelResources ?? ctx.podLevelResources }),
  };
}
