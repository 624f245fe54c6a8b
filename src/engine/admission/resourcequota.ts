/**
 * ResourceQuota admission (apiserver/pkg/admission/plugin/resourcequota/controller.go CheckRequest,
 * v1.35; docs/kubernetes-semantics.md §4.5). Pure: quotas in, a decision and the quotas' new `status.used` out.
 */
import type { ResourceQuota, ScopeRequirement } from '../../k8s/objects.ts';
import { resourceOf } from '../../k8s/objects.ts';
import type { KObject } from '../../k8s/snapshot.ts';
import { Quantity, addLists, byteCompare, formatPairs, resourceList, type ResourceList } from '../../quantity.ts';
import { countEvaluator } from './evaluators/count.ts';
import { podEvaluator } from './evaluators/pods.ts';
import { pvcEvaluator } from './evaluators/pvcs.ts';
import { serviceEvaluator } from './evaluators/services.ts';
import type { Evaluator, Operation } from './evaluators/types.ts';
import { formatScopeRequirements, scopeRequirements } from './scopes.ts';

export interface LimitedResource {
  apiGroup?: string;
  resource: string;
  matchContains?: string[];
  matchScopes?: ScopeRequirement[];
}

export interface QuotaOptions {
  now?: number;
  podLevelResources?: boolean;
  dryRun?: boolean;
  /** AdmissionConfiguration ResourceQuotaConfiguration.limitedResources. */
  limitedResources?: LimitedResource[];
  /** Message forms before v1.24 ("must specify" without container names). */
  legacyMustSpecify?: boolean;
}

export interface QuotaRequest {
  object: KObject;
  oldObject?: KObject;
  operation: Operation;
  subresource?: string;
  /** Quotas of the object's namespace, in the order they are evaluated (by name). */
  quotas: ResourceQuota[];
}

export type QuotaFailure =
  | { type: 'must-specify'; quota: string; text: string }
  | { type: 'status-unknown'; quota: string; resources: string[] }
  | { type: 'negative'; resources: string[] }
  | { type: 'insufficient-consume'; resources: string[] }
  | { type: 'insufficient-scopes'; scopes: ScopeRequirement[] }
  | {
      type: 'exceeded';
      quota: string;
      requested: ResourceList;
      used: ResourceList;
      hard: ResourceList;
      exceeded: string[];
    };

export interface QuotaDecision {
  allowed: boolean;
  /** The admission error message (without the `<resource> "<name>" is forbidden: ` wrapper). */
  message: string | null;
  /** Whether the message is wrapped as Forbidden (403); `insufficient quota to match these scopes` is not. */
  forbidden: boolean;
  httpStatus?: number;
  failure?: QuotaFailure;
  /** The object's full usage (all evaluator names). */
  usage: ResourceList;
  /** Per matching quota: what this object adds (only that quota's keys, zero entries dropped). */
  deltas: Map<string, ResourceList>;
  /** Per changed quota: the new status.used (empty on rejection or dry run). */
  usedAfter: Map<string, ResourceList>;
}

/** The evaluator for an object's kind. */
export function evaluatorFor(obj: KObject, opts: QuotaOptions = {}): Evaluator | null {
  switch (obj.kind) {
    case 'Pod':
      return podEvaluator({ podLevelResources: opts.podLevelResources, legacyMustSpecify: opts.legacyMustSpecify });
    case 'PersistentVolumeClaim':
      return pvcEvaluator;
    case 'Service':
      return serviceEvaluator;
    case 'Event':
    case 'Binding':
      return null; // never charged (the quota configuration's ignored resources)
    default: {
      const { resource, group } = resourceOf(obj.kind ?? '', obj.apiVersion);
      return countEvaluator(resource, group);
    }
  }
}

export function quotaHard(q: ResourceQuota): ResourceList {
  return resourceList(q.status?.hard);
}

export function quotaUsed(q: ResourceQuota): ResourceList {
  return resourceList(q.status?.used);
}

/** Matches: the quota tracks at least one of the evaluator's names, and every scope requirement holds. */
export function quotaMatches(ev: Evaluator, q: ResourceQuota, obj: KObject): boolean {
  const hardNames = Object.keys(q.status?.hard ?? {});
  if (ev.matchingResources(hardNames).length === 0) return false;
  return scopeRequirements(q).every((r) => ev.matchesScope(r, obj));
}

function mask(list: ResourceList, names: Iterable<string>): ResourceList {
  const keep = new Set(names);
  const out: ResourceList = new Map();
  for (const [k, v] of list) if (keep.has(k)) out.set(k, v);
  return out;
}

function dropZeros(list: ResourceList): ResourceList {
  const out: ResourceList = new Map();
  for (const [k, v] of list) if (!v.isZero()) out.set(k, v);
  return out;
}

/** max(0, a − b) per key over keys of either (quota.SubtractWithNonNegativeResult). */
function nonNegativeDiff(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map();
  for (const k of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(k) ?? Quantity.zero();
    const y = b.get(k);
    const d = y ? x.sub(y) : x;
    out.set(k, d.sign() < 0 ? Quantity.zero(x.format) : d);
  }
  return out;
}

function reject(
  usage: ResourceList,
  failure: QuotaFailure,
  message: string,
  forbidden = true,
  httpStatus = 403,
): QuotaDecision {
  return { allowed: false, message, forbidden, httpStatus, failure, usage, deltas: new Map(), usedAfter: new Map() };
}

export function checkQuota(req: QuotaRequest, opts: QuotaOptions = {}): QuotaDecision {
  const empty: QuotaDecision = {
    allowed: true,
    message: null,
    forbidden: false,
    usage: new Map(),
    deltas: new Map(),
    usedAfter: new Map(),
  };
  const ev = evaluatorFor(req.object, opts);
  if (!ev || !req.object.metadata.namespace) return empty;
  const subresource = req.subresource ?? '';
  if (!ev.handles(req.operation, subresource, req.object, req.oldObject)) return empty;
  const limited = (opts.limitedResources ?? []).filter(
    (l) => l.resource === ev.resource && (l.apiGroup ?? '') === ev.group,
  );
  if (req.quotas.length === 0 && (opts.limitedResources ?? []).length === 0) return empty;

  const ctx = { now: opts.now, podLevelResources: opts.podLevelResources };
  const usage = ev.usage(req.object, ctx);
  empty.usage = usage;

  // Names the configuration says must be covered by a matching quota (positive usage only).
  const limitedNames = new Set<string>();
  for (const l of limited) {
    for (const [k, v] of usage)
      if (v.sign() > 0 && (l.matchContains ?? []).some((m) => k.includes(m))) limitedNames.add(k);
  }

  const interesting: ResourceQuota[] = [];
  const restrictedUnion = new Set<string>();
  for (const q of req.quotas) {
    if (!quotaMatches(ev, q, req.object)) continue;
    const hardNames = Object.keys(q.status?.hard ?? {});
    const restricted = ev.matchingResources(hardNames);
    const name = q.metadata.name ?? '';
    const c = ev.constraints(restricted, req.object);
    if (c) return reject(usage, { type: 'must-specify', quota: name, text: c }, `failed quota: ${name}: ${c}`);
    const used = q.status?.used ?? {};
    const unknown = restricted.filter((r) => !Object.hasOwn(used, r)).sort(byteCompare);
    if (unknown.length > 0) {
      return reject(
        usage,
        { type: 'status-unknown', quota: name, resources: unknown },
        `status unknown for quota: ${name}, resources: ${restricted.slice().sort(byteCompare).join(',')}`,
      );
    }
    for (const r of restricted) restrictedUnion.add(r);
    interesting.push(q);
  }

  const negative = [...usage]
    .filter(([, v]) => v.sign() < 0)
    .map(([k]) => k)
    .sort(byteCompare);
  if (negative.length > 0)
    return reject(
      usage,
      { type: 'negative', resources: negative },
      `quota usage is negative for resource(s): ${negative.join(',')}`,
    );

  // Per-quota deltas (controller.go CheckRequest since 1.33): on a true UPDATE a quota that matched the
  // old object is charged the non-negative difference; one the object just moved into pays in full.
  const deltas = new Map<string, ResourceList>();
  for (const q of interesting) deltas.set(q.metadata.name ?? '', usage);
  let noInterestingDelta: ResourceList = req.operation === 'CREATE' && interesting.length === 0 ? usage : new Map();
  if (req.operation === 'UPDATE') {
    if (!req.oldObject) {
      return reject(
        usage,
        { type: 'negative', resources: [] },
        'unable to get previous usage since prior version of object was not found',
      );
    }
    if (req.oldObject.metadata.resourceVersion) {
      const d = nonNegativeDiff(usage, ev.usage(req.oldObject, ctx));
      if (interesting.length === 0) noInterestingDelta = d;
      for (const q of interesting) if (quotaMatches(ev, q, req.oldObject)) deltas.set(q.metadata.name ?? '', d);
    } else if (interesting.length === 0) {
      noInterestingDelta = usage;
    }
  }
  for (const [k, d] of deltas) {
    const nz = dropZeros(d);
    if (nz.size === 0) deltas.delete(k);
    else deltas.set(k, nz);
  }
  if (interesting.length > 0 ? deltas.size === 0 : dropZeros(noInterestingDelta).size === 0) return empty;

  const uncovered = [...limitedNames].filter((n) => !restrictedUnion.has(n)).sort(byteCompare);
  if (uncovered.length > 0)
    return reject(
      usage,
      { type: 'insufficient-consume', resources: uncovered },
      `insufficient quota to consume: ${uncovered.join(',')}`,
    );

  // UncoveredQuotaScopes: a limited scope the object matches needs some quota scope of the same name
  // that the object matches (any quota in the namespace).
  const matchedQuotaScopes = req.quotas.flatMap((q) =>
    scopeRequirements(q).filter((r) => ev.matchesScope(r, req.object)),
  );
  const limitedScopes = (opts.limitedResources ?? []).flatMap((l) =>
    (l.matchScopes ?? []).filter((sc) => ev.matchesScope(sc, req.object)),
  );
  const uncoveredScopes = limitedScopes.filter((sc) => !matchedQuotaScopes.some((m) => m.scopeName === sc.scopeName));
  if (uncoveredScopes.length > 0) {
    return reject(
      usage,
      { type: 'insufficient-scopes', scopes: uncoveredScopes },
      `insufficient quota to match these scopes: ${formatScopeRequirements(uncoveredScopes)}`,
      false,
      500,
    );
  }
  if (interesting.length === 0) return empty;

  const usedAfter = new Map<string, ResourceList>();
  const chargedDeltas = new Map<string, ResourceList>();
  for (const q of interesting) {
    const name = q.metadata.name ?? '';
    const hard = quotaHard(q);
    const used = quotaUsed(q);
    const delta = deltas.get(name);
    if (!delta) continue;
    const requested = mask(delta, hard.keys());
    const next = addLists(used, requested);
    if (subresource !== 'status') {
      const exceeded: string[] = [];
      for (const k of requested.keys()) {
        const h = hard.get(k);
        if (h && next.get(k)!.cmp(h) > 0) exceeded.push(k);
      }
      if (exceeded.length > 0) {
        const r = mask(requested, exceeded);
        const u = mask(used, exceeded);
        const h = mask(hard, exceeded);
        return reject(
          usage,
          { type: 'exceeded', quota: name, requested: r, used: u, hard: h, exceeded: exceeded.sort(byteCompare) },
          `exceeded quota: ${name}, requested: ${formatPairs(r)}, used: ${formatPairs(u)}, limited: ${formatPairs(h)}`,
        );
      }
    }
    // A dry run is checked in full but charges nothing.
    if (requested.size > 0 && !opts.dryRun) {
      chargedDeltas.set(name, requested);
      usedAfter.set(name, next);
    }
  }
  return { allowed: true, message: null, forbidden: false, usage, deltas: chargedDeltas, usedAfter };
}
