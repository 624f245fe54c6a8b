/**
 * API defaulting that matters to resources (pkg/apis/core/v1/defaults.go, v1.35). Runs before any
 * admission plugin: SetDefaults_Pod (limits → requests), pod-level resources defaulting, and
 * SetDefaults_LimitRangeItem for LimitRanges created through the engine.
 */
import type { Container, LimitRange, LimitRangeItem, Pod } from '../k8s/objects.ts';
import { podRequests } from './pod-resources.ts';

/** A deep copy of plain JSON-like data (objects from YAML/JSON are plain). */
export function clone<T>(v: T): T {
  try {
    return copyPlain(v, 0) as T;
  } catch (e) {
    if (e === TOO_DEEP) return structuredClone(v);
    throw e;
  }
}

const TOO_DEEP = Symbol('too deep');

/**
 * structuredClone's copy of plain data, made directly (it is most of a pod's admission otherwise):
 * plain objects and arrays member by member (holes kept); a Map, Date or other non-plain value through
 * structuredClone; deeper than 64 levels (a cycle) the whole value goes through structuredClone.
 */
function copyPlain(v: unknown, depth: number): unknown {
  if (typeof v !== 'object' || v === null)
    return typeof v === 'function' || typeof v === 'symbol' ? structuredClone(v) : v;
  if (depth > 64) throw TOO_DEEP;
  if (Array.isArray(v)) {
    const out: unknown[] = new Array(v.length);
    for (let i = 0; i < v.length; i++) if (i in v) out[i] = copyPlain(v[i], depth + 1);
    return out;
  }
  const proto: unknown = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return structuredClone(v);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) {
    const x = copyPlain((v as Record<string, unknown>)[k], depth + 1);
    // An own "__proto__" key (JSON.parse makes one) stays a key, as structuredClone keeps it.
    if (k === '__proto__')
      Object.defineProperty(out, k, { value: x, enumerable: true, writable: true, configurable: true });
    else out[k] = x;
  }
  return out;
}

function defaultContainer(c: Container): void {
  const limits = c.resources?.limits;
  if (!limits || Object.keys(limits).length === 0) return;
  const resources = (c.resources ??= {});
  const requests = (resources.requests ??= {});
  // A resource with a limit but no request gets request = limit (SetDefaults_Pod).
  for (const [k, v] of Object.entries(limits)) if (!(k in requests)) requests[k] = v;
}

/** Returns a defaulted copy of the pod. */
export function defaultPod(pod: Pod, opts: { podLevelResources?: boolean } = {}): Pod {
  const out = clone(pod);
  for (const c of out.spec.containers) defaultContainer(c);
  for (const c of out.spec.initContainers ?? []) defaultContainer(c);
  // Pod-level resources (beta, on by default since 1.34): only when pod-level limits are set.
  const podRes = out.spec.resources;
  if ((opts.podLevelResources ?? true) && podRes?.limits && Object.keys(podRes.limits).length > 0) {
    const aggregate = podRequests(out, { podLevelResources: false, excludeOverhead: true });
    const requests = (podRes.requests ??= {});
    for (const name of ['cpu', 'memory']) {
      if (name in requests) continue;
      const agg = aggregate.get(name);
      if (agg) requests[name] = agg.toString();
      else if (name in podRes.limits) requests[name] = podRes.limits[name]!;
    }
  }
  return out;
}

/** SetDefaults_LimitRangeItem: Container items get default := max, defaultRequest := default, then min. */
export function defaultLimitRangeItem(item: LimitRangeItem): LimitRangeItem {
  if (item.type !== 'Container') return item;
  const out = clone(item);
  const def = { ...(out.default ?? {}) };
  const defReq = { ...(out.defaultRequest ?? {}) };
  for (const [k, v] of Object.entries(out.max ?? {})) if (!(k in def)) def[k] = v;
  for (const [k, v] of Object.entries(def)) if (!(k in defReq)) defReq[k] = v;
  for (const [k, v] of Object.entries(out.min ?? {})) if (!(k in defReq)) defReq[k] = v;
  // Maps left empty are omitted when serialised (omitempty).
  if (Object.keys(def).length > 0) out.default = def;
  if (Object.keys(defReq).length > 0) out.defaultRequest = defReq;
  return out;
}

export function defaultLimitRange(lr: LimitRange): LimitRange {
  return { ...lr, spec: { ...lr.spec, limits: lr.spec.limits.map(defaultLimitRangeItem) } };
}
