/**
 * The quota ledger: the one place that writes a ResourceQuota's `status.used` in a snapshot.
 *
 * - `chargeQuotas`: an admitted object's usage, as the quota admission plugin records it (the new
 *   `status.used` per quota that `checkQuota` computed; docs/kubernetes-semantics.md §4.5).
 * - `releaseQuotas`: a deleted pod's usage given back to every quota that matches it (what the quota
 *   controller's recompute would do).
 * - `reconcileQuotaStatus` / `reconciledQuota`: the quota controller's job for states that lack it —
 *   `status.hard` from `spec.hard`, and `status.used` recomputed from the namespace's objects when absent
 *   (docs/kubernetes-semantics.md §4.9). A state file's given `status.used` is taken as is (docs/contract.md).
 * - `withQuotaHard`: one hard limit set (spec and status); a newly tracked resource gets its used computed.
 *
 * Everything else reads `status.used` (admission, headroom, fixes) and never writes it.
 */
import type { Pod, ResourceQuota } from '../k8s/objects.ts';
import type { Snapshot } from '../k8s/snapshot.ts';
import { Quantity, addLists, resourceList, type ResourceList } from '../quantity.ts';
import { podEvaluator, podUsage } from './admission/evaluators/pods.ts';
import { evaluatorFor, quotaMatches } from './admission/resourcequota.ts';

/** Kinds whose objects are charged to quotas when present in a state. */
const CHARGED_KINDS = [
  'Pod',
  'PersistentVolumeClaim',
  'Service',
  'Deployment',
  'ReplicaSet',
  'StatefulSet',
  'DaemonSet',
  'Job',
  'CronJob',
];

function usedRecord(used: ResourceList): Record<string, string> {
  return Object.fromEntries([...used].map(([k, v]) => [k, v.toString()]));
}

/** Writes a quota's new status.used (the only `status.used` write in the engine). */
function putUsed(snapshot: Snapshot, q: ResourceQuota, used: Record<string, string>): void {
  snapshot.put({ ...q, status: { ...(q.status ?? {}), used } });
}

/**
 * Charge: records an admission's new usage. `usedAfter` is, per quota name in `namespace`, the
 * status.used the quota admission computed (QuotaDecision.usedAfter); resources it does not name keep
 * their value. A quota no longer in the snapshot is skipped.
 */
export function chargeQuotas(
  snapshot: Snapshot,
  namespace: string | undefined,
  usedAfter: ReadonlyMap<string, ResourceList>,
): void {
  for (const [name, used] of usedAfter) {
    const q = snapshot.get('ResourceQuota', namespace, name);
    if (!q) continue;
    const next: Record<string, string> = { ...(q.status?.used ?? {}) } as Record<string, string>;
    for (const [k, v] of used) next[k] = v.toString();
    putUsed(snapshot, q, next);
  }
}

/**
 * Release: gives a pod's usage back to every quota of its namespace that matches it, for the resources
 * the quota tracks and already counts. The pod itself is not touched (see `releasePod`).
 */
export function releaseQuotas(snapshot: Snapshot, pod: Pod, now?: number): void {
  const ns = pod.metadata.namespace ?? 'default';
  const usage = podUsage(pod, { now });
  const ev = podEvaluator();
  for (const q of snapshot.list('ResourceQuota', ns)) {
    if (!quotaMatches(ev, q, pod)) continue;
    const used = resourceList(q.status?.used);
    let changed = false;
    for (const [k, v] of usage) {
      const cur = used.get(k);
      if (cur && q.status?.hard && k in q.status.hard) {
        used.set(k, cur.sub(v));
        changed = true;
      }
    }
    if (changed) putUsed(snapshot, q, usedRecord(used));
  }
}

/** Usage of every object of a namespace that a quota matches, for that quota's hard names. */
export function computeQuotaUsed(snapshot: Snapshot, quota: ResourceQuota, now?: number): ResourceList {
  const ns = quota.metadata.namespace ?? '';
  const hardNames = Object.keys(quota.status?.hard ?? quota.spec?.hard ?? {});
  const q: ResourceQuota = {
    ...quota,
    status: { ...(quota.status ?? {}), hard: quota.status?.hard ?? quota.spec?.hard ?? {} },
  };
  let used: ResourceList = new Map(hardNames.map((n) => [n, Quantity.zero()]));
  for (const kind of CHARGED_KINDS) {
    for (const obj of snapshot.iterate(kind, ns)) {
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
 * Reconcile one quota: as the controller would have it, status.hard from spec.hard, status.used
 * recomputed when absent. Null when it needs nothing (already reconciled, or no hard limits at all).
 * Returns the object; the caller stores it (a quota created through admission is stored once).
 */
export function reconciledQuota(snapshot: Snapshot, quota: ResourceQuota, now?: number): ResourceQuota | null {
  const hard = quota.status?.hard ?? quota.spec?.hard;
  if (!hard || (quota.status?.hard && quota.status?.used)) return null;
  const withHard: ResourceQuota = { ...quota, status: { ...(quota.status ?? {}), hard } };
  const used = quota.status?.used ?? usedRecord(computeQuotaUsed(snapshot, withHard, now));
  return { ...quota, status: { ...(quota.status ?? {}), hard, used } };
}

/**
 * Reconcile a snapshot: fills in missing status.hard / status.used of every quota (in place). Returns the
 * quotas whose used was computed (the sources warn of each). This is the function answer/ injects into
 * the cluster sources.
 */
export function reconcileQuotaStatus(snapshot: Snapshot, now?: number): { namespace?: string; name: string }[] {
  const computed: { namespace?: string; name: string }[] = [];
  for (const quota of snapshot.list('ResourceQuota')) {
    const next = reconciledQuota(snapshot, quota, now);
    if (!next) continue;
    snapshot.put(next);
    if (!quota.status?.used) computed.push({ namespace: quota.metadata.namespace, name: quota.metadata.name ?? '' });
  }
  return computed;
}

/**
 * Sets one hard limit of a quota (spec and status, as the controller mirrors them). A resource the quota
 * did not track before gets its status.used computed from the namespace, as the controller would.
 */
export function withQuotaHard(
  state: Snapshot,
  ns: string,
  name: string,
  resource: string,
  value: Quantity,
  now?: number,
): Snapshot {
  const q = state.get('ResourceQuota', ns, name);
  if (!q) return state;
  const v = value.toString();
  const next: ResourceQuota = {
    ...q,
    spec: { ...(q.spec ?? {}), hard: { ...(q.spec?.hard ?? {}), [resource]: v } },
    status: { ...(q.status ?? {}), hard: { ...(q.status?.hard ?? {}), [resource]: v } },
  };
  if (q.status?.used?.[resource] === undefined) {
    const used =
      computeQuotaUsed(state, { ...next, status: { ...next.status, hard: { [resource]: v } } }, now).get(resource) ??
      Quantity.zero();
    next.status = { ...next.status, used: { ...(q.status?.used ?? {}), [resource]: used.toString() } };
  }
  state.put(next);
  return state;
}

/**
 * The quota controller's sync of a namespace: a quota whose spec.hard was edited (a `kubectl patch` the
 * controller has not seen yet) gets status.hard from it and its usage recounted. The state itself when
 * nothing is to sync, else a fork.
 */
export function syncQuotas(state: Snapshot, ns: string, now?: number): Snapshot {
  let out = state;
  for (const q of state.list('ResourceQuota', ns) as ResourceQuota[]) {
    const spec = q.spec?.hard ?? {};
    const status = q.status?.hard ?? {};
    const same =
      Object.keys(spec).length === Object.keys(status).length &&
      Object.entries(spec).every(([k, v]) => {
        const a = Quantity.tryParse(String(v));
        const b = Quantity.tryParse(status[k] === undefined ? undefined : String(status[k]));
        return a && b ? a.eq(b) : String(v) === String(status[k]);
      });
    if (same) continue;
    if (out === state) out = state.fork();
    const withHard: ResourceQuota = { ...q, status: { ...(q.status ?? {}), hard: { ...spec } } };
    const used = Object.fromEntries([...computeQuotaUsed(out, withHard, now)].map(([k, v]) => [k, v.toString()]));
    out.put({ ...withHard, status: { ...withHard.status, used } });
  }
  return out;
}
