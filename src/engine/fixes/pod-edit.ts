/** Editing a pod's containers and reading its requests: the building blocks of resource fixes. */
import type { Pod } from '../../k8s/objects.ts';
import { Quantity } from '../../quantity.ts';
import { podUsage } from '../admission/evaluators/pods.ts';
import { clone } from '../defaults.ts';
import type { Snapshot } from '../../k8s/snapshot.ts';

export function containerNames(pod: Pod): string[] {
  return pod.spec.containers.map((c) => c.name);
}

export function setContainerValue(
  pod: Pod,
  container: string,
  which: 'requests' | 'limits',
  resource: string,
  value: string,
): Pod {
  const out = clone(pod);
  for (const c of [...out.spec.containers, ...(out.spec.initContainers ?? [])]) {
    if (c.name !== container) continue;
    const res = (c.resources ??= {});
    const list = (res[which] ??= {});
    list[resource] = value;
  }
  return out;
}

/** The container carrying the most of a resource (the one to lower). */
export function biggestContainer(
  pod: Pod,
  which: 'requests' | 'limits',
  resource: string,
): { name: string; value: Quantity } | null {
  let best: { name: string; value: Quantity } | null = null;
  for (const c of pod.spec.containers) {
    const v = Quantity.tryParse(c.resources?.[which]?.[resource]);
    if (v && (!best || v.cmp(best.value) > 0)) best = { name: c.name, value: v };
  }
  return best;
}

export function podRequestVector(pod: Pod): { cpu: number; memory: number } {
  let cpu = 0;
  let memory = 0;
  const u = podUsage(pod);
  const c = u.get('requests.cpu');
  const m = u.get('requests.memory');
  if (c) cpu = Number(c.milliValue());
  if (m) memory = Number(m.value());
  return { cpu, memory };
}

export function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

/** Free memory read as a request bound: whole Mi (rounded down) from 1Mi up, like people write requests. */
export function formatMemoryFloor(bytes: number): string {
  const mi = 1024 * 1024;
  return (
    bytes >= mi
      ? Quantity.fromInt(Math.floor(bytes / mi) * mi, 'BinarySI')
      : Quantity.fromInt(Math.max(0, Math.floor(bytes)), 'BinarySI')
  ).toString();
}

/**
 * After a request of `container` was lowered: a limit more than the namespace's LimitRange
 * `maxLimitRequestRatio` times the request would be refused (plugin/pkg/admission/limitranger
 * limitRequestRatioConstraint: limit/request must not exceed the ratio), so lower the limit to
 * request × ratio. The limit is the pod's own, else what the LimitRange defaults it to (`admitted`).
 */
export function keepLimitRatio(
  state: Snapshot,
  ns: string,
  pod: Pod,
  admitted: Pod,
  container: string,
  resource: string,
): Pod {
  const c = pod.spec.containers.find((x) => x.name === container);
  const req = Quantity.tryParse(c?.resources?.requests?.[resource]);
  const lim = Quantity.tryParse(
    c?.resources?.limits?.[resource] ??
      admitted.spec.containers.find((x) => x.name === container)?.resources?.limits?.[resource],
  );
  if (!req || !lim || req.isZero()) return pod;
  let out = pod;
  for (const lr of state.list('LimitRange', ns)) {
    for (const item of lr.spec.limits) {
      if (item.type !== 'Container') continue;
      const ratio = Quantity.tryParse(item.maxLimitRequestRatio?.[resource]);
      if (!ratio) continue;
      // Most the limit may be: request × ratio, rounded down (a milli for cpu, a byte — whole Mi — for memory).
      const max = Quantity.fromNanos((req.nanos * ratio.nanos) / 1_000_000_000n, lim.format);
      const cur =
        Quantity.tryParse(out.spec.containers.find((x) => x.name === container)?.resources?.limits?.[resource]) ?? lim;
      if (cur.cmp(max) <= 0) continue;
      const v =
        resource === 'cpu'
          ? Quantity.fromMilli(max.nanos / 1_000_000n, lim.format)
          : Quantity.parse(formatMemoryFloor(Number(max.nanos / 1_000_000_000n)));
      out = setContainerValue(out, container, 'limits', resource, v.toString());
    }
  }
  return out;
}
