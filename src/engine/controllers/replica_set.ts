/**
 * The ReplicaSet controller (pkg/controller/replicaset/replica_set.go, syncReplicaSet → manageReplicas):
 * too few active pods → create the difference in slow-start batches (1, 2, 4, … — slowStartBatch; the
 * first refused create ends the sync, a FailedCreate event with the API server's message); too many →
 * delete the difference, chosen by getPodsToDelete (controller.ActivePodsWithRanks ordering).
 */
import type { Pod, ReplicaSet } from '../../k8s/objects.ts';
import { clone } from '../defaults.ts';
import { type ControllerContext, isActive, isAvailable, refKey } from './context.ts';
import type { ObjectRef } from '../changes/types.ts';

/** controller.SlowStartInitialBatchSize. */
export const SLOW_START_INITIAL_BATCH_SIZE = 1;

/** The pod a ReplicaSet creates: its template, its labels, itself as controller (controller.GetPodFromTemplate). */
export function podFromTemplate(
  ctx: ControllerContext,
  owner: ObjectRef & { apiVersion: string },
  template: ReplicaSet['spec']['template'],
  base: string,
  extraLabels: Record<string, string> = {},
  name?: string,
): Pod {
  const ns = owner.namespace ?? 'default';
  const t = clone(template);
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: name ?? ctx.podName(ns, base),
      namespace: ns,
      labels: { ...(t.metadata?.labels ?? {}), ...extraLabels },
      ...(t.metadata?.annotations ? { annotations: t.metadata.annotations } : {}),
      ownerReferences: [
        {
          apiVersion: owner.apiVersion,
          kind: owner.kind,
          name: owner.name,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: t.spec,
  } as Pod;
}

/**
 * slowStartBatch: creates `count` pods in batches of 1, 2, 4 …, stopping after the first batch with a
 * refusal. Returns how many were created and the first refusal's message.
 */
export function slowStartCreate(
  ctx: ControllerContext,
  owner: ObjectRef,
  count: number,
  make: () => Pod,
): { created: number; refused: number; message: string | null } {
  let created = 0;
  let message: string | null = null;
  let refused = 0;
  for (let batch = Math.min(count, SLOW_START_INITIAL_BATCH_SIZE); count - created - refused > 0 && batch > 0; ) {
    let failedThisBatch = 0;
    for (let i = 0; i < batch; i++) {
      const err = ctx.createPod(owner, make());
      if (err) {
        failedThisBatch++;
        message ??= err;
      } else created++;
    }
    refused += failedThisBatch;
    if (failedThisBatch > 0) break;
    batch = Math.min(2 * batch, count - created - refused);
  }
  const skipped = count - created - refused;
  void skipped;
  if (created > 0) ctx.events.push({ type: 'SuccessfulCreate', object: owner, count: created });
  if (message !== null)
    ctx.events.push({ type: 'FailedCreate', object: owner, message, count: refused, layer: ctx.lastRefusalLayer });
  return { created, refused, message };
}

function podPhaseRank(p: Pod): number {
  const phase = p.status?.phase ?? (p.spec.nodeName ? 'Running' : 'Pending');
  return phase === 'Pending' ? 0 : phase === 'Unknown' ? 1 : phase === 'Running' ? 2 : 3;
}

/**
 * controller.ActivePodsWithRanks' Less, as getPodsToDelete sorts (deleted first): unassigned before
 * assigned; Pending < Unknown < Running; not ready before ready; more pods of the same owner on the
 * node (the rank) first; more restarts first; newer first; then by name.
 */
export function rankPodsForDeletion(pods: readonly Pod[], related: readonly Pod[]): Pod[] {
  const perNode = new Map<string, number>();
  for (const p of related) {
    if (p.spec.nodeName && isActive(p)) perNode.set(p.spec.nodeName, (perNode.get(p.spec.nodeName) ?? 0) + 1);
  }
  const restarts = (p: Pod) => (p.status?.containerStatuses ?? []).reduce((n, c) => n + (c.restartCount ?? 0), 0);
  const created = (p: Pod) => String(p.metadata.creationTimestamp ?? '');
  return [...pods].sort((a, b) => {
    const ua = a.spec.nodeName ? 1 : 0;
    const ub = b.spec.nodeName ? 1 : 0;
    if (ua !== ub) return ua - ub;
    const pa = podPhaseRank(a);
    const pb = podPhaseRank(b);
    if (pa !== pb) return pa - pb;
    const ra = isAvailable(a) ? 1 : 0;
    const rb = isAvailable(b) ? 1 : 0;
    if (ra !== rb) return ra - rb;
    const na = a.spec.nodeName ? (perNode.get(a.spec.nodeName) ?? 0) : 0;
    const nb = b.spec.nodeName ? (perNode.get(b.spec.nodeName) ?? 0) : 0;
    if (na !== nb) return nb - na;
    const xa = restarts(a);
    const xb = restarts(b);
    if (xa !== xb) return xb - xa;
    const ca = created(a);
    const cb = created(b);
    if (ca !== cb) return ca < cb ? 1 : -1;
    const ma = a.metadata.name ?? '';
    const mb = b.metadata.name ?? '';
    return ma < mb ? -1 : ma > mb ? 1 : 0;
  });
}

export interface ReplicaSetStatus {
  replicas: number;
  available: number;
}

export function replicaSetStatus(ctx: ControllerContext, rs: ReplicaSet): ReplicaSetStatus {
  const pods = ctx
    .podsOf({ kind: 'ReplicaSet', namespace: rs.metadata.namespace, name: rs.metadata.name ?? '' })
    .filter(isActive);
  return { replicas: pods.length, available: pods.filter(isAvailable).length };
}

/** syncReplicaSet for one ReplicaSet. Returns whether it changed anything. */
export function syncReplicaSet(ctx: ControllerContext, ref: ObjectRef): boolean {
  const rs = ctx.state.get('ReplicaSet', ref.namespace ?? 'default', ref.name);
  if (!rs) return false;
  const owner = { kind: 'ReplicaSet', namespace: rs.metadata.namespace ?? 'default', name: rs.metadata.name ?? '' };
  const all = ctx.podsOf(owner);
  const active = all.filter(isActive);
  const want = Math.max(0, rs.spec.replicas ?? 1);
  const diff = active.length - want;
  if (diff < 0) {
    const r = slowStartCreate(ctx, owner, -diff, () =>
      podFromTemplate(ctx, { ...owner, apiVersion: 'apps/v1' }, rs.spec.template, owner.name),
    );
    if (r.message !== null) ctx.blocked.set(refKey(owner), owner);
    else ctx.blocked.delete(refKey(owner));
    return r.created > 0;
  }
  ctx.blocked.delete(refKey(owner));
  if (diff > 0) {
    // getPodsToDelete ranks against the pods of the ReplicaSet's siblings too (other ReplicaSets of the
    // same Deployment): "related pods".
    const related = relatedPods(ctx, rs);
    for (const p of rankPodsForDeletion(active, related).slice(0, diff))
      ctx.deletePod(p, { type: 'Killing', pod: `${owner.namespace}/${p.metadata.name ?? ''}`, by: owner });
    return true;
  }
  return false;
}

/** Pods of every ReplicaSet with the same controlling owner (getIndirectlyRelatedPods). */
function relatedPods(ctx: ControllerContext, rs: ReplicaSet): Pod[] {
  const ns = rs.metadata.namespace ?? 'default';
  const dep = rs.metadata.ownerReferences?.find((o) => o.controller);
  if (!dep) return ctx.podsOf({ kind: 'ReplicaSet', namespace: ns, name: rs.metadata.name ?? '' });
  const out: Pod[] = [];
  for (const other of ctx.state.iterate('ReplicaSet', ns)) {
    const o = other.metadata.ownerReferences?.find((x) => x.controller);
    if (o?.kind === dep.kind && o.name === dep.name)
      out.push(...ctx.podsOf({ kind: 'ReplicaSet', namespace: ns, name: other.metadata.name ?? '' }));
  }
  return out;
}
