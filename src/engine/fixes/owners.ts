/** Who owns a pod and who holds a quota: the workloads a fix names and scales. */
import type { Pod } from '../../k8s/objects.ts';
import type { Snapshot } from '../../k8s/snapshot.ts';
import { Quantity, byteCompare } from '../../quantity.ts';
import { podUsage } from '../admission/evaluators/pods.ts';
import { isTerminal } from '../pod-resources.ts';
import { releasePod } from '../release.ts';
import { shortRef } from '../changes/command.ts';

/** Owner workload of a pod, as `kind/name` of the top controller (Deployment for ReplicaSet pods). */
export function ownerOf(state: Snapshot, pod: Pod): { kind: string; name: string } | null {
  const ref = pod.metadata.ownerReferences?.find((o) => o.controller) ?? pod.metadata.ownerReferences?.[0];
  if (!ref) return null;
  if (ref.kind === 'ReplicaSet') {
    const rs = state.get('ReplicaSet', pod.metadata.namespace, ref.name);
    const dep = rs?.metadata.ownerReferences?.find((o) => o.kind === 'Deployment');
    if (dep) return { kind: 'Deployment', name: dep.name };
    // Without the ReplicaSet object, a `<deploy>-<hash>` name still names its Deployment.
    const m = /^(.*)-[a-z0-9]{5,10}$/.exec(ref.name);
    if (!rs && m && state.get('Deployment', pod.metadata.namespace, m[1]!)) return { kind: 'Deployment', name: m[1]! };
  }
  return { kind: ref.kind, name: ref.name };
}

/** Owners a fix may scale down. */
export function scalable(kind: string): kind is 'Deployment' | 'StatefulSet' | 'ReplicaSet' {
  return kind === 'Deployment' || kind === 'StatefulSet' || kind === 'ReplicaSet';
}

export function refOf(kind: string, name: string): string {
  return shortRef(kind, name);
}

export interface Holder {
  ref: string;
  kind: string;
  name: string;
  pods: number;
  pending: number;
  perPod: Quantity;
  total: Quantity;
  /** Its pods' priority (the highest) and PriorityClass, as admission resolved them. */
  priority: number;
  priorityClassName?: string;
}

/**
 * A pod predicate that may say what it decides on (`key`): quotaCounts' (its quota's hard names and
 * scopes). With a key, or without a predicate, quotaHolders keeps its answer with the namespace's stores.
 */
export type PodFilter = ((pod: Pod) => boolean) & { key?: string };

/** Whether a namespace has a pod being deleted (what `now` decides of its quota usage: isQuotaActive). */
export function nsTerminating(state: Snapshot, ns: string): boolean {
  return state.memoNs('Pod', ns, 'fixes.terminating', hasTerminating);
}

function hasTerminating(pods: IterableIterator<Pod>): boolean {
  for (const p of pods) if (p.metadata.deletionTimestamp) return true;
  return false;
}

/**
 * Who holds a quota resource in a namespace: pods grouped by owner, largest first. `counts` keeps only
 * the pods a quota counts (its scopes); without it every pod of the namespace is read. Kept with the
 * namespace's Pod, ReplicaSet and Deployment stores (Snapshot.memoNs: the forks of a state that did not
 * write them share it) when `counts` says what it decides on; `now` is part of the key only when a pod
 * of the namespace is being deleted (the one thing it decides).
 */
export function quotaHolders(
  state: Snapshot,
  ns: string,
  resource: string,
  now?: number,
  counts?: PodFilter,
): Holder[] {
  if (counts && counts.key === undefined) return computeHolders(state, ns, resource, now, counts);
  const at = now !== undefined && nsTerminating(state, ns) ? String(now) : '';
  const key = `fixes.quota-holders\u0000${resource}\u0000${at}\u0000${counts?.key ?? '*'}`;
  // ownerOf reads the namespace's ReplicaSets (and Deployments): one token per store of each (a store
  // this state may still write gives a new token each call, so nothing is kept for it).
  const rs = state.memoNs('ReplicaSet', ns, 'fixes.store-token', () => ({}));
  const deploy = state.memoNs('Deployment', ns, 'fixes.store-token', () => ({}));
  const byRs = state.memoNs('Pod', ns, key, () => new WeakMap<object, WeakMap<object, Holder[]>>());
  let byDeploy = byRs.get(rs);
  if (!byDeploy) {
    byDeploy = new WeakMap();
    byRs.set(rs, byDeploy);
  }
  let out = byDeploy.get(deploy);
  if (!out) {
    out = computeHolders(state, ns, resource, now, counts);
    byDeploy.set(deploy, out);
  }
  return out.map((h) => ({ ...h }));
}

function computeHolders(
  state: Snapshot,
  ns: string,
  resource: string,
  now: number | undefined,
  counts: ((pod: Pod) => boolean) | undefined,
): Holder[] {
  const groups = new Map<string, Holder>();
  for (const pod of state.iterate('Pod', ns)) {
    if (isTerminal(pod)) continue;
    if (counts && !counts(pod)) continue;
    const u = podUsage(pod, { now }).get(resource);
    if (!u || u.isZero()) continue;
    const owner = ownerOf(state, pod) ?? { kind: 'Pod', name: pod.metadata.name ?? '' };
    const key = `${owner.kind}/${owner.name}`;
    let h = groups.get(key);
    if (!h)
      groups.set(
        key,
        (h = {
          ref: refOf(owner.kind, owner.name),
          kind: owner.kind,
          name: owner.name,
          pods: 0,
          pending: 0,
          perPod: u,
          total: Quantity.zero(u.format),
          priority: pod.spec.priority ?? 0,
          ...(pod.spec.priorityClassName ? { priorityClassName: pod.spec.priorityClassName } : {}),
        }),
      );
    h.pods++;
    if ((pod.spec.priority ?? 0) > h.priority) {
      h.priority = pod.spec.priority ?? 0;
      if (pod.spec.priorityClassName) h.priorityClassName = pod.spec.priorityClassName;
    }
    if (!pod.spec.nodeName) h.pending++;
    h.total = h.total.add(u);
    if (u.cmp(h.perPod) > 0) h.perPod = u;
  }
  return [...groups.values()].sort((a, b) => b.total.cmp(a.total) || byteCompare(a.ref, b.ref));
}

/** The live pods of a workload, in the order its controller deletes them when scaling down. */
export function podsToDelete(state: Snapshot, ns: string, kind: string, name: string): Pod[] {
  // Unscheduled before scheduled, then the newest first: the ActivePods ranking of the ReplicaSet
  // controller (pkg/controller/controller_utils.go ActivePodsWithRanks.Less), reduced to what a snapshot holds.
  return [...state.iterate('Pod', ns)]
    .filter((p) => {
      const o = ownerOf(state, p);
      return o && o.kind === kind && o.name === name && !isTerminal(p);
    })
    .sort(
      (a, b) =>
        Number(!!a.spec.nodeName) - Number(!!b.spec.nodeName) ||
        byteCompare(String(b.metadata.creationTimestamp ?? ''), String(a.metadata.creationTimestamp ?? '')) ||
        byteCompare(b.metadata.name ?? '', a.metadata.name ?? ''),
    );
}

/** Scaling down by `count`: the pods its controller deletes first leave, and give their usage back. */
export function removeWorkloadPods(state: Snapshot, ns: string, holder: Holder, count: number): Snapshot {
  for (const p of podsToDelete(state, ns, holder.kind, holder.name).slice(0, count)) releasePod(state, p);
  return state;
}
