/**
 * API defaulting that matters to resources (pkg/apis/core/v1/defaults.go, v1.35). Runs before any
 * admission plugin: SetDefaults_Pod (limits → requests), pod-level resources defaulting, and
 * SetDefaults_LimitRangeItem for LimitRanges created through the engine.
 */
import type { Container, LimitRange, LimitRangeItem, Pod } from '../k8s/objects.ts';
import { podRequests } from './pod-resources.ts';

/** A deep copy of plain JSON-like data (objects from YAML/JSON are plain). */
export function clone<T>(v: T): T {
  return structuredClone(v);
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
