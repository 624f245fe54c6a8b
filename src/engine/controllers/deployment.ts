/**
 * The Deployment controller (pkg/controller/deployment): syncDeployment → rolloutRolling (rolling.go) or
 * rolloutRecreate (recreate.go), with the arithmetic of util/deployment_util.go: ResolveFenceposts,
 * MaxUnavailable, MaxSurge, NewRSNewReplicas, EqualIgnoreHash. The ReplicaSets' replica counts are the
 * only thing it writes; the ReplicaSet controller (replica_set.ts) makes the pods follow.
 */
import type { Deployment, PodTemplate, ReplicaSet } from '../../k8s/objects.ts';
import type { KObject } from '../../k8s/snapshot.ts';
import { admitObject, commitAdmission } from '../admit.ts';
import { clone } from '../defaults.ts';
import { podTemplateHash } from '../workloads.ts';
import type { ObjectRef, IntOrPercent } from '../changes/types.ts';
import { type ControllerContext, controllerOf } from './context.ts';
import { replicaSetStatus } from './replica_set.ts';

/**
 * intstr.GetScaledValueFromIntOrPercent: an int as is; "N%" of `total`, rounded up or down.
 * An unparsable value is an error upstream (the Deployment would not validate); taken as 0 here.
 */
export function scaledValue(
  v: IntOrPercent | null | undefined,
  dflt: IntOrPercent,
  total: number,
  roundUp: boolean,
): number {
  const val = v ?? dflt;
  if (typeof val === 'number') return val;
  const m = /^(\d+)%$/.exec(val);
  if (!m) return /^\d+$/.test(val) ? Number(val) : 0;
  const raw = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(raw) : Math.floor(raw);
}

/** ResolveFenceposts: maxSurge rounds up, maxUnavailable down; both 0 → maxUnavailable 1. */
export function resolveFenceposts(
  maxSurge: IntOrPercent | null | undefined,
  maxUnavailable: IntOrPercent | null | undefined,
  desired: number,
): { surge: number; unavailable: number } {
  const surge = scaledValue(maxSurge, '25%', desired, true);
  let unavailable = scaledValue(maxUnavailable, '25%', desired, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable };
}

function isRolling(d: Deployment): boolean {
  return (d.spec.strategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
}

function replicasOf(d: Deployment): number {
  return Math.max(0, d.spec.replicas ?? 1);
}

/** MaxUnavailable (deployment_util.go): 0 unless rolling with replicas; never above replicas. */
export function maxUnavailable(d: Deployment): number {
  const r = replicasOf(d);
  if (!isRolling(d) || r === 0) return 0;
  const ru = d.spec.strategy?.rollingUpdate;
  const { unavailable } = resolveFenceposts(ru?.maxSurge, ru?.maxUnavailable, r);
  return Math.min(unavailable, r);
}

/** MaxSurge: 0 unless rolling. */
export function maxSurge(d: Deployment): number {
  if (!isRolling(d)) return 0;
  const ru = d.spec.strategy?.rollingUpdate;
  return resolveFenceposts(ru?.maxSurge, ru?.maxUnavailable, replicasOf(d)).surge;
}

/**
 * NewRSNewReplicas for RollingUpdate: scale the new ReplicaSet up by as much as keeps every
 * ReplicaSet's replicas within replicas + maxSurge, never above replicas.
 */
export function newRSNewReplicas(d: Deployment, allReplicas: number, newRSReplicas: number): number {
  if (!isRolling(d)) return replicasOf(d);
  const r = replicasOf(d);
  const maxTotal = r + maxSurge(d);
  if (allReplicas >= maxTotal) return newRSReplicas;
  const scaleUp = Math.min(maxTotal - allReplicas, r - newRSReplicas);
  return newRSReplicas + Math.max(0, scaleUp);
}

function withoutHash(t: PodTemplate): string {
  const c = clone(t);
  if (c.metadata?.labels) {
    const { 'pod-template-hash': _h, ...rest } = c.metadata.labels as Record<string, string>;
    void _h;
    c.metadata.labels = rest;
    if (Object.keys(rest).length === 0) delete c.metadata.labels;
  }
  if (c.metadata && Object.keys(c.metadata).length === 0) delete c.metadata;
  return stable(c);
}

/** JSON with sorted keys: two templates equal as objects compare equal as text. */
function stable(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined && o[k] !== null)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stable(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

/** EqualIgnoreHash: the templates equal once pod-template-hash is left out. */
export function equalIgnoreHash(a: PodTemplate, b: PodTemplate): boolean {
  return withoutHash(a) === withoutHash(b);
}

export function replicaSetsOf(ctx: ControllerContext, d: Deployment): ReplicaSet[] {
  const ns = d.metadata.namespace ?? 'default';
  const out: ReplicaSet[] = [];
  for (const rs of ctx.state.iterate('ReplicaSet', ns)) {
    const o = controllerOf(rs);
    if (o?.kind === 'Deployment' && o.name === d.metadata.name) out.push(rs);
  }
  // Oldest first (controller.ReplicaSetsByCreationTimestamp), then by name.
  return out.sort((a, b) => {
    const ca = String(a.metadata.creationTimestamp ?? '');
    const cb = String(b.metadata.creationTimestamp ?? '');
    if (ca !== cb) return ca < cb ? -1 : 1;
    return (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1;
  });
}

/** FindNewReplicaSet: the oldest ReplicaSet whose template equals the Deployment's. */
export function findNewReplicaSet(d: Deployment, rss: readonly ReplicaSet[]): ReplicaSet | undefined {
  return rss.find((rs) => equalIgnoreHash(rs.spec.template, d.spec.template));
}

function rsRef(rs: ReplicaSet): ObjectRef {
  return { kind: 'ReplicaSet', namespace: rs.metadata.namespace ?? 'default', name: rs.metadata.name ?? '' };
}

function createNewReplicaSet(ctx: ControllerContext, d: Deployment & KObject, dref: ObjectRef): ReplicaSet | null {
  const tpl = clone(d.spec.template);
  const hash = podTemplateHash(tpl);
  const labels = { ...((tpl.metadata?.labels ?? {}) as Record<string, string>), 'pod-template-hash': hash };
  const ns = dref.namespace ?? 'default';
  const rs: ReplicaSet & KObject = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: `${dref.name}-${hash}`,
      namespace: ns,
      labels,
      // Sorts after every existing ReplicaSet (RFC 3339 timestamps of the cluster are years earlier).
      creationTimestamp: `9999-12-31T00:00:00.${String(ctx.nextSeq()).padStart(6, '0')}Z`,
      annotations: { 'deployment.kubernetes.io/desired-replicas': String(replicasOf(d)) },
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'Deployment', name: dref.name, controller: true, blockOwnerDeletion: true },
      ],
    },
    spec: {
      replicas: 0,
      selector: {
        ...(d.spec.selector ?? {}),
        matchLabels: { ...((d.spec.selector?.matchLabels ?? {}) as Record<string, string>), 'pod-template-hash': hash },
      },
      template: { ...tpl, metadata: { ...(tpl.metadata ?? {}), labels } },
    },
  };
  const a = admitObject(rs, ctx.state, { ...ctx.opts, operation: 'CREATE', dryRun: false });
  if (!a.allowed) {
    ctx.events.push({ type: 'FailedCreate', object: dref, message: a.message ?? 'refused', count: 1, layer: a.layer });
    return null;
  }
  commitAdmission(ctx.state, a);
  return a.object as ReplicaSet;
}

/** scaleReplicaSetAndRecordEvent. */
function scaleRS(ctx: ControllerContext, dref: ObjectRef, rs: ReplicaSet, to: number): void {
  const from = rs.spec.replicas ?? 1;
  if (from === to) return;
  ctx.state.put({ ...rs, spec: { ...rs.spec, replicas: to } } as KObject);
  ctx.events.push({
    type: to > from ? 'ScaledUp' : 'ScaledDown',
    object: dref,
    replicaSet: rs.metadata.name ?? '',
    from,
    to,
  });
  ctx.markDirty(rsRef(rs));
}

function specReplicas(rss: readonly ReplicaSet[]): number {
  return rss.reduce((n, rs) => n + Math.max(0, rs.spec.replicas ?? 1), 0);
}

/** syncDeployment for one Deployment. Returns whether it changed anything. */
export function syncDeployment(ctx: ControllerContext, ref: ObjectRef): boolean {
  const d = ctx.state.get('Deployment', ref.namespace ?? 'default', ref.name);
  if (!d) return false;
  const dref: ObjectRef = {
    kind: 'Deployment',
    namespace: d.metadata.namespace ?? 'default',
    name: d.metadata.name ?? '',
  };
  if ((d.spec as { paused?: boolean }).paused) return false;
  let rss = replicaSetsOf(ctx, d);
  let newRS = findNewReplicaSet(d, rss);
  const R = replicasOf(d);
  if (!isRolling(d)) return rolloutRecreate(ctx, d, dref, rss, newRS, R);
  if (!newRS) {
    const created = createNewReplicaSet(ctx, d, dref);
    if (!created) return false;
    newRS = created;
    rss = [...rss, created];
  }
  const oldRSs = rss.filter((rs) => rs !== newRS);
  // reconcileNewReplicaSet.
  const newReplicas = Math.max(0, newRS.spec.replicas ?? 1);
  if (newReplicas > R) {
    scaleRS(ctx, dref, newRS, R);
    return true;
  }
  if (newReplicas < R) {
    const next = newRSNewReplicas(d, specReplicas(rss), newReplicas);
    if (next !== newReplicas) {
      scaleRS(ctx, dref, newRS, next);
      return true;
    }
  }
  // reconcileOldReplicaSets.
  const oldPods = specReplicas(oldRSs);
  if (oldPods === 0) return false;
  const allPods = specReplicas(rss);
  const minAvailable = R - maxUnavailable(d);
  const newStatus = replicaSetStatus(ctx, newRS);
  const newUnavailable = Math.max(0, (newRS.spec.replicas ?? 1) - newStatus.available);
  const maxScaledDown = allPods - minAvailable - newUnavailable;
  if (maxScaledDown <= 0) return false;
  let changed = false;
  // cleanupUnhealthyReplicas: old ReplicaSets' unavailable pods go first, up to maxScaledDown.
  let cleaned = 0;
  const current = new Map<string, number>();
  for (const rs of oldRSs) {
    const spec = Math.max(0, rs.spec.replicas ?? 1);
    current.set(rs.metadata.name ?? '', spec);
    if (cleaned >= maxScaledDown || spec === 0) continue;
    const st = replicaSetStatus(ctx, rs);
    const unhealthy = spec - st.available;
    if (unhealthy <= 0) continue;
    const down = Math.min(maxScaledDown - cleaned, unhealthy);
    scaleRS(ctx, dref, rs, spec - down);
    current.set(rs.metadata.name ?? '', spec - down);
    cleaned += down;
    changed = true;
  }
  // scaleDownOldReplicaSetsForRollingUpdate: then as far as availability allows.
  let available = newStatus.available;
  for (const rs of oldRSs) available += replicaSetStatus(ctx, rs).available;
  const total = available - minAvailable;
  if (total > 0) {
    let done = 0;
    for (const rs of oldRSs) {
      if (done >= total) break;
      const name = rs.metadata.name ?? '';
      const spec = current.get(name) ?? 0;
      if (spec === 0) continue;
      const down = Math.min(spec, total - done);
      const latest = ctx.state.get('ReplicaSet', dref.namespace, name) ?? rs;
      scaleRS(ctx, dref, latest, spec - down);
      done += down;
      changed = true;
    }
  }
  return changed;
}

/** rolloutRecreate: every old ReplicaSet to 0, wait until their pods are gone, then the new one to replicas. */
function rolloutRecreate(
  ctx: ControllerContext,
  d: Deployment & KObject,
  dref: ObjectRef,
  rss: ReplicaSet[],
  newRS: ReplicaSet | undefined,
  R: number,
): boolean {
  const oldRSs = rss.filter((rs) => rs !== newRS);
  let scaled = false;
  for (const rs of oldRSs) {
    if ((rs.spec.replicas ?? 1) !== 0) {
      scaleRS(ctx, dref, rs, 0);
      scaled = true;
    }
  }
  if (scaled) return true;
  if (oldRSs.some((rs) => replicaSetStatus(ctx, rs).replicas > 0)) return false;
  if (!newRS) {
    const created = createNewReplicaSet(ctx, d, dref);
    if (!created) return false;
    newRS = created;
  }
  if ((newRS.spec.replicas ?? 1) !== R) {
    scaleRS(ctx, dref, ctx.state.get('ReplicaSet', dref.namespace, newRS.metadata.name ?? '') ?? newRS, R);
    return true;
  }
  return false;
}
