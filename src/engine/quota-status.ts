/**
 * The quota controller's job, for states that lack it: `status.hard` from `spec.hard`, and `status.used`
 * recomputed from the namespace's objects when absent (docs/kubernetes-semantics.md §4.9). A state file's given
 * `status.used` is taken as is (docs/contract.md).
 */
import type { ResourceQuota } from '../k8s/objects.ts';
import type { KObject, Snapshot } from '../k8s/snapshot.ts';
import { Quantity, addLists, type ResourceList } from '../quantity.ts';
import { evaluatorFor, quotaMatches } from './admission/resourcequota.ts';

/** Kinds whose objects are charged to quotas when present in a state. */
const CHARGED_KINDS = ['Pod', 'PersistentVolumeClaim', 'Service', 'Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob'];

/** Usage of every object of a namespace that a quota matches, for that quota's hard names. */
export function computeQuotaUsed(snapshot: Snapshot, quota: ResourceQuota, now?: number): ResourceList {
  const ns = quota.metadata.namespace ?? '';
  const hardNames = Object.keys(quota.status?.hard ?? quota.spec?.hard ?? {});
  const q: ResourceQuota = { ...quota, status: { ...(quota.status ?? {}), hard: quota.status?.hard ?? quota.spec?.hard ?? {} } };
  let used: ResourceList = new Map(hardNames.map((n) => [n, Quantity.zero()]));
  for (const kind of CHARGED_KINDS) {
    for (const obj of snapshot.iterate<KObject>(kind, ns)) {
      const ev = evaluatorFor(obj);
      if (!ev || !quotaMatches(ev, q, obj)) continue;
      const usage = ev.usage(obj, { now });
      const masked: ResourceList = new Map();
      for (const n of hardNames) {
        const v = usage.get(n);
        if (v) masked.set(n, v);
      }
      used = addLists(used, masked);
    }
  }
  return used;
}

/**
 * The quota as the controller would have it: status.hard from spec.hard, status.used recomputed when
 * absent. Null when it needs nothing (already reconciled, or no hard limits at all).
 */
export function reconciledQuota(snapshot: Snapshot, quota: ResourceQuota, now?: number): ResourceQuota | null {
  const hard = quota.status?.hard ?? quota.spec?.hard;
  if (!hard || (quota.status?.hard && quota.status?.used)) return null;
  const withHard: ResourceQuota = { ...quota, status: { ...(quota.status ?? {}), hard } };
  const used = quota.status?.used ?? Object.fromEntries([...computeQuotaUsed(snapshot, withHard, now)].map(([k, v]) => [k, v.toString()]));
  return { ...quota, status: { ...(quota.status ?? {}), hard, used } };
}

/** Fills in missing status.hard / status.used of every quota in the snapshot (in place). */
export function reconcileQuotaStatus(snapshot: Snapshot, now?: number): string[] {
  const notes: string[] = [];
  for (const quota of snapshot.list<ResourceQuota & KObject>('ResourceQuota')) {
    const next = reconciledQuota(snapshot, quota, now);
    if (!next) continue;
    snapshot.put(next as KObject);
    if (!quota.status?.used) notes.push(`ResourceQuota ${quota.metadata.namespace}/${quota.metadata.name}: status.used computed from the objects in the state`);
  }
  return notes;
}

/**
 * Sets one hard limit of a quota (spec and status, as the controller mirrors them). A resource the quota
 * did not track before gets its status.used computed from the namespace, as the controller would.
 */
export function withQuotaHard(state: Snapshot, ns: string, name: string, resource: string, value: Quantity, now?: number): Snapshot {
  const q = state.get<ResourceQuota & KObject>('ResourceQuota', ns, name);
  if (!q) return state;
  const v = value.toString();
  const next: ResourceQuota = {
    ...q,
    spec: { ...(q.spec ?? {}), hard: { ...(q.spec?.hard ?? {}), [resource]: v } },
    status: { ...(q.status ?? {}), hard: { ...(q.status?.hard ?? {}), [resource]: v } },
  };
  if (q.status?.used?.[resource] === undefined) {
    const used = computeQuotaUsed(state, { ...next, status: { ...next.status, hard: { [resource]: v } } }, now).get(resource) ?? Quantity.zero();
    next.status = { ...next.status, used: { ...(q.status?.used ?? {}), [resource]: used.toString() } };
  }
  state.put(next as KObject);
  return state;
}
