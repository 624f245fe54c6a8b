/**
 * LimitRanger admission (plugin/pkg/admission/limitranger/admission.go as of v1.35, docs/kubernetes-semantics.md §3):
 * mutate (fill missing requests/limits from every LimitRange's Container defaults), then validate
 * Container, Pod and PersistentVolumeClaim items against min / max / maxLimitRequestRatio.
 *
 * Comparisons mirror v1.35's int64 projection (`requestLimitEnforcedValues`), and the ratio check its
 * float64 arithmetic — the exact-comparison rewrite (PR #141348) landed after 1.35.
 */
import type { LimitRange, PersistentVolumeClaim, Pod } from '../../k8s/objects.ts';
import { MAX_MILLI_VALUE, Quantity, byteCompare, resourceList, type ResourceList } from '../../quantity.ts';
import { clone } from '../defaults.ts';
import { containerLimits, containerRequests, podLimits, podRequests } from '../pod-resources.ts';

export type LimitScope = 'Container' | 'Pod' | 'PersistentVolumeClaim';
export type Bound = 'min' | 'max' | 'ratio';

export interface LimitViolation {
  limitRange: string;
  scope: LimitScope;
  /** Container name for Container scope. */
  container?: string;
  init?: boolean;
  resource: string;
  bound: Bound;
  /** The enforced value (min, max or ratio). */
  limit: Quantity;
  /** Which side failed: the request, the limit, or a missing value. */
  failed: 'request' | 'limit' | 'missing-request' | 'missing-limit' | 'ratio';
  request?: Quantity;
  limitValue?: Quantity;
  /** Observed ratio, for ratio violations. */
  ratio?: number;
  message: string;
}

export const LIMIT_RANGER_ANNOTATION = 'kubernetes.io/limit-ranger';

function sortedEntries(list: Record<string, unknown> | null | undefined): [string, Quantity][] {
  return Object.entries(list ?? {})
    .sort(([a], [b]) => byteCompare(a, b))
    .map(([k, v]) => [k, Quantity.parse(v)]);
}

/** MutatingAdmission: returns the pod with LimitRange defaults applied, and the annotation if any. */
export function applyLimitRangeDefaults(pod: Pod, limitRanges: LimitRange[]): Pod {
  let out = pod;
  for (const lr of limitRanges) {
    const defaultLimits: Record<string, unknown> = {};
    const defaultRequests: Record<string, unknown> = {};
    for (const item of lr.spec.limits) {
      if (item.type !== 'Container') continue;
      Object.assign(defaultLimits, item.default ?? {});
      Object.assign(defaultRequests, item.defaultRequest ?? {});
    }
    if (Object.keys(defaultLimits).length === 0 && Object.keys(defaultRequests).length === 0) continue;
    const phrases: string[] = [];
    let copied = false;
    const visit = (init: boolean) => {
      const list = init ? (out.spec.initContainers ?? []) : out.spec.containers;
      for (let i = 0; i < list.length; i++) {
        const c = list[i]!;
        const setReq: string[] = [];
        const setLim: string[] = [];
        for (const k of Object.keys(defaultRequests))
          if (!(c.resources?.requests && k in c.resources.requests)) setReq.push(k);
        for (const k of Object.keys(defaultLimits))
          if (!(c.resources?.limits && k in c.resources.limits)) setLim.push(k);
        if (setReq.length === 0 && setLim.length === 0) continue;
        if (!copied) {
          out = clone(out);
          copied = true;
        }
        const target = (init ? out.spec.initContainers! : out.spec.containers)[i]!;
        const res = (target.resources ??= {});
        if (setReq.length) {
          const r = (res.requests ??= {});
          for (const k of setReq) r[k] = defaultRequests[k] as string;
        }
        if (setLim.length) {
          const l = (res.limits ??= {});
          for (const k of setLim) l[k] = defaultLimits[k] as string;
        }
        const who = `${init ? 'init container' : 'container'} ${c.name}`;
        if (setReq.length) phrases.push(`${setReq.sort(byteCompare).join(', ')} request for ${who}`);
        if (setLim.length) phrases.push(`${setLim.sort(byteCompare).join(', ')} limit for ${who}`);
      }
    };
    visit(false);
    visit(true);
    if (phrases.length > 0) {
      const meta = out.metadata;
      meta.annotations = {
        ...(meta.annotations ?? {}),
        [LIMIT_RANGER_ANNOTATION]: `LimitRanger plugin set: ${phrases.join('; ')}`,
      };
    }
  }
  return out;
}

/** requestLimitEnforcedValues: Value() of each, or MilliValue() when none overflows the milli range. */
function project(req: Quantity | undefined, lim: Quantity | undefined, enforced: Quantity): [bigint, bigint, bigint] {
  const zero = Quantity.zero();
  const r = req ?? zero;
  const l = lim ?? zero;
  if (r.value() <= MAX_MILLI_VALUE && l.value() <= MAX_MILLI_VALUE && enforced.value() <= MAX_MILLI_VALUE) {
    return [r.milliValue(), l.milliValue(), enforced.milliValue()];
  }
  return [r.value(), l.value(), enforced.value()];
}

type Partial = Omit<LimitViolation, 'limitRange' | 'scope' | 'container' | 'init' | 'resource' | 'bound' | 'limit'>;

function minCheck(
  res: string,
  scope: string,
  min: Quantity,
  requests: ResourceList,
  limits: ResourceList,
): Partial | null {
  const req = requests.get(res);
  const lim = limits.get(res);
  const [r, l, e] = project(req, lim, min);
  if (!req)
    return {
      failed: 'missing-request',
      message: `minimum ${res} usage per ${scope} is ${min}.  No request is specified`,
    };
  if (r < e)
    return {
      failed: 'request',
      request: req,
      message: `minimum ${res} usage per ${scope} is ${min}, but request is ${req}`,
    };
  if (lim && l < e)
    return {
      failed: 'limit',
      limitValue: lim,
      message: `minimum ${res} usage per ${scope} is ${min}, but limit is ${lim}`,
    };
  return null;
}

function maxCheck(
  res: string,
  scope: string,
  max: Quantity,
  requests: ResourceList,
  limits: ResourceList,
): Partial | null {
  const req = requests.get(res);
  const lim = limits.get(res);
  const [r, l, e] = project(req, lim, max);
  if (!lim)
    return { failed: 'missing-limit', message: `maximum ${res} usage per ${scope} is ${max}.  No limit is specified` };
  if (l > e)
    return {
      failed: 'limit',
      limitValue: lim,
      message: `maximum ${res} usage per ${scope} is ${max}, but limit is ${lim}`,
    };
  if (req && r > e)
    return {
      failed: 'request',
      request: req,
      message: `maximum ${res} usage per ${scope} is ${max}, but request is ${req}`,
    };
  return null;
}

function maxRequestCheck(res: string, scope: string, max: Quantity, requests: ResourceList): Partial | null {
  const req = requests.get(res);
  const [r, , e] = project(req, undefined, max);
  if (!req)
    return {
      failed: 'missing-request',
      message: `maximum ${res} usage per ${scope} is ${max}.  No request is specified`,
    };
  if (r > e)
    return {
      failed: 'request',
      request: req,
      message: `maximum ${res} usage per ${scope} is ${max}, but request is ${req}`,
    };
  return null;
}

/** Go's %f: fixed notation with six decimals. */
function formatF(x: number): string {
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : x < 0 ? '-Inf' : 'NaN';
  return x.toFixed(6);
}

function ratioCheck(
  res: string,
  scope: string,
  ratio: Quantity,
  requests: ResourceList,
  limits: ResourceList,
): Partial | null {
  const req = requests.get(res);
  const lim = limits.get(res);
  const [r, l] = project(req, lim, ratio);
  if (!req || r === 0n)
    return {
      failed: 'missing-request',
      message: `${res} max limit to request ratio per ${scope} is ${ratio}, but no request is specified or request is 0`,
    };
  if (!lim || l === 0n)
    return {
      failed: 'missing-limit',
      message: `${res} max limit to request ratio per ${scope} is ${ratio}, but no limit is specified or limit is 0`,
    };
  // float64 arithmetic, as upstream: observed = lim/req; compared in milli units when they fit.
  const display = Number(l) / Number(r);
  let observed = display;
  let max = Number(ratio.value());
  if (ratio.value() <= MAX_MILLI_VALUE) {
    observed = observed * 1000;
    max = Number(ratio.milliValue());
  }
  if (observed > max) {
    return {
      failed: 'ratio',
      request: req,
      limitValue: lim,
      ratio: display,
      message: `${res} max limit to request ratio per ${scope} is ${ratio}, but provided ratio is ${formatF(display)}`,
    };
  }
  return null;
}

function checkItem(
  lrName: string,
  scope: LimitScope,
  item: LimitRange['spec']['limits'][number],
  requests: ResourceList,
  limits: ResourceList,
  who: { container?: string; init?: boolean },
  out: LimitViolation[],
): void {
  const push = (resource: string, bound: Bound, limit: Quantity, p: Partial | null) => {
    if (p) out.push({ limitRange: lrName, scope, resource, bound, limit, ...who, ...p });
  };
  for (const [k, v] of sortedEntries(item.min)) push(k, 'min', v, minCheck(k, scope, v, requests, limits));
  for (const [k, v] of sortedEntries(item.max)) push(k, 'max', v, maxCheck(k, scope, v, requests, limits));
  for (const [k, v] of sortedEntries(item.maxLimitRequestRatio))
    push(k, 'ratio', v, ratioCheck(k, scope, v, requests, limits));
}

/** utilerrors.NewAggregate(errs).Error(): one message bare, several deduplicated inside `[…]`. */
export function aggregateMessages(messages: string[]): string {
  if (messages.length === 1) return messages[0]!;
  const seen: string[] = [];
  for (const m of messages) if (!seen.includes(m)) seen.push(m);
  return seen.length === 1 ? seen[0]! : `[${seen.join(', ')}]`;
}

export interface LimitRangeResult {
  violations: LimitViolation[];
  /** The aggregate message of the first LimitRange with violations, or null. */
  message: string | null;
}

/** ValidatingAdmission for a pod: the first LimitRange (in order) with any violation decides. */
export function validatePodLimits(
  pod: Pod,
  limitRanges: LimitRange[],
  opts: { podLevelResources?: boolean } = {},
): LimitRangeResult {
  for (const lr of limitRanges) {
    const violations: LimitViolation[] = [];
    const name = lr.metadata.name ?? '';
    for (const item of lr.spec.limits) {
      if (item.type === 'Container') {
        for (const c of pod.spec.containers)
          checkItem(
            name,
            'Container',
            item,
            containerRequests(c),
            containerLimits(c),
            { container: c.name },
            violations,
          );
        for (const c of pod.spec.initContainers ?? [])
          checkItem(
            name,
            'Container',
            item,
            containerRequests(c),
            containerLimits(c),
            { container: c.name, init: true },
            violations,
          );
      } else if (item.type === 'Pod') {
        // LimitRanger's own podRequests/podLimits: no overhead, spec only, pod-level override for cpu/memory only.
        const aggOpts = {
          excludeOverhead: true,
          podLevelResources: opts.podLevelResources ?? true,
          podLevelCpuMemoryOnly: true,
        };
        checkItem(name, 'Pod', item, podRequests(pod, aggOpts), podLimits(pod, aggOpts), {}, violations);
      }
    }
    if (violations.length > 0) return { violations, message: aggregateMessages(violations.map((v) => v.message)) };
  }
  return { violations: [], message: null };
}

/** ValidatingAdmission for a PVC: min against the storage request, max as a request-only check. */
export function validatePVCLimits(pvc: PersistentVolumeClaim, limitRanges: LimitRange[]): LimitRangeResult {
  for (const lr of limitRanges) {
    const violations: LimitViolation[] = [];
    const name = lr.metadata.name ?? '';
    for (const item of lr.spec.limits) {
      if (item.type !== 'PersistentVolumeClaim') continue;
      const requests = resourceList(pvc.spec.resources?.requests);
      for (const [k, v] of sortedEntries(item.min)) {
        const p = minCheck(k, 'PersistentVolumeClaim', v, requests, new Map());
        if (p)
          violations.push({
            limitRange: name,
            scope: 'PersistentVolumeClaim',
            resource: k,
            bound: 'min',
            limit: v,
            ...p,
          });
      }
      for (const [k, v] of sortedEntries(item.max)) {
        const p = maxRequestCheck(k, 'PersistentVolumeClaim', v, requests);
        if (p)
          violations.push({
            limitRange: name,
            scope: 'PersistentVolumeClaim',
            resource: k,
            bound: 'max',
            limit: v,
            ...p,
          });
      }
    }
    if (violations.length > 0) return { violations, message: aggregateMessages(violations.map((v) => v.message)) };
  }
  return { violations: [], message: null };
}
