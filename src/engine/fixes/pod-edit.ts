/** Editing a pod's containers and reading its requests: the building blocks of resource fixes. */
import type { Pod } from '../../k8s/objects.ts';
import { Quantity } from '../../quantity.ts';
import { podUsage } from '../admission/evaluators/pods.ts';
import { clone } from '../defaults.ts';

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
