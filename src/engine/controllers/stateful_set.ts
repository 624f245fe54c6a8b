/**
 * The StatefulSet controller (pkg/controller/statefulset/stateful_set_control.go, updateStatefulSet):
 * pods `<name>-<ordinal>` for ordinals 0…replicas−1, each with its claims from volumeClaimTemplates
 * (`<template>-<name>-<ordinal>`, created first); OrderedReady creates the lowest missing ordinal only
 * once every lower one is Running and Ready, and deletes from the highest ordinal down, one at a time;
 * Parallel creates and deletes all at once. RollingUpdate replaces the highest-ordinal pod of the old
 * revision once every pod is available (one at a time, as maxUnavailable 1).
 */
import type { PersistentVolumeClaim, Pod, StatefulSet } from '../../k8s/objects.ts';
import type { KObject } from '../../k8s/snapshot.ts';
import { admitObject, commitAdmission } from '../admit.ts';
import { clone } from '../defaults.ts';
import { podTemplateHash } from '../workloads.ts';
import type { ObjectRef } from '../changes/types.ts';
import { type ControllerContext, isActive, isAvailable, refKey } from './context.ts';
import { podFromTemplate } from './replica_set.ts';

const REVISION_LABEL = 'controller-revision-hash';

export function ordinalOf(setName: string, podName: string): number {
  if (!podName.startsWith(`${setName}-`)) return -1;
  const s = podName.slice(setName.length + 1);
  return /^\d+$/.test(s) ? Number(s) : -1;
}

/** Whether a pod is of the StatefulSet's current template (created by us with its hash, or unchanged since the start). */
export function isCurrentRevision(ctx: ControllerContext, key: string, hash: string, p: Pod): boolean {
  const label = (p.metadata.labels as Record<string, string> | undefined)?.[REVISION_LABEL];
  if (label === hash) return true;
  // Pods from the cluster carry the cluster's revision name: theirs is the template as it was at the start.
  if (!ctx.startRevision.has(key)) ctx.startRevision.set(key, hash);
  return ctx.startRevision.get(key) === hash;
}

function createOrdinal(
  ctx: ControllerContext,
  set: StatefulSet,
  ref: ObjectRef,
  ordinal: number,
  hash: string,
): string | null {
  const ns = ref.namespace ?? 'default';
  const podName = `${ref.name}-${ordinal}`;
  const pod = podFromTemplate(
    ctx,
    { ...ref, apiVersion: 'apps/v1' },
    set.spec.template,
    ref.name,
    {
      'statefulset.kubernetes.io/pod-name': podName,
      'apps.kubernetes.io/pod-index': String(ordinal),
      [REVISION_LABEL]: hash,
    },
    podName,
  );
  for (const raw of (set.spec.volumeClaimTemplates ?? []) as PersistentVolumeClaim[]) {
    const tplName = raw.metadata?.name ?? 'data';
    const claimName = `${tplName}-${podName}`;
    const vols = (pod.spec.volumes ??= []);
    if (!vols.some((v) => v.name === tplName)) vols.push({ name: tplName, persistentVolumeClaim: { claimName } });
    if (ctx.state.get('PersistentVolumeClaim', ns, claimName)) continue;
    const claim = {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { ...(raw.metadata ?? {}), name: claimName, namespace: ns },
      spec: clone(raw.spec ?? {}),
    } as KObject;
    const a = admitObject(claim, ctx.state, { ...ctx.opts, operation: 'CREATE', dryRun: false });
    if (!a.allowed) {
      ctx.lastRefusalLayer = a.layer;
      return a.message ?? 'refused';
    }
    commitAdmission(ctx.state, a);
  }
  return ctx.createPod(ref, pod);
}

export function syncStatefulSet(ctx: ControllerContext, r: ObjectRef): boolean {
  const set = ctx.state.get('StatefulSet', r.namespace ?? 'default', r.name);
  if (!set) return false;
  const ref: ObjectRef = {
    kind: 'StatefulSet',
    namespace: set.metadata.namespace ?? 'default',
    name: set.metadata.name ?? '',
  };
  const key = refKey(ref);
  const hash = podTemplateHash(set.spec.template);
  const R = Math.max(0, set.spec.replicas ?? 1);
  const parallel = (set.spec as { podManagementPolicy?: string }).podManagementPolicy === 'Parallel';
  const pods = ctx.podsOf(ref).filter(isActive);
  const byOrdinal = new Map<number, Pod>();
  for (const p of pods) byOrdinal.set(ordinalOf(ref.name, p.metadata.name ?? ''), p);
  // Creations, lowest ordinal first.
  for (let i = 0; i < R; i++) {
    const p = byOrdinal.get(i);
    if (p) {
      if (!parallel && !isAvailable(p)) return false;
      continue;
    }
    const err = createOrdinal(ctx, set, ref, i, hash);
    if (err) {
      ctx.events.push({ type: 'FailedCreate', object: ref, message: err, count: 1, layer: ctx.lastRefusalLayer });
      ctx.blocked.set(key, ref);
      return false;
    }
    ctx.events.push({ type: 'SuccessfulCreate', object: ref, count: 1 });
    ctx.blocked.delete(key);
    if (!parallel) return true;
  }
  // Condemned pods (ordinal ≥ replicas), highest first.
  const condemned = pods
    .filter((p) => ordinalOf(ref.name, p.metadata.name ?? '') >= R)
    .sort((a, b) => ordinalOf(ref.name, b.metadata.name ?? '') - ordinalOf(ref.name, a.metadata.name ?? ''));
  if (condemned.length) {
    if (!parallel && pods.some((p) => ordinalOf(ref.name, p.metadata.name ?? '') < R && !isAvailable(p))) return false;
    for (const p of parallel ? condemned : condemned.slice(0, 1))
      ctx.deletePod(p, { type: 'Killing', pod: `${ref.namespace}/${p.metadata.name ?? ''}`, by: ref });
    return true;
  }
  // RollingUpdate: the highest ordinal not of the current revision, once all are available.
  const strategy = (set.spec as { updateStrategy?: { type?: string } }).updateStrategy?.type ?? 'RollingUpdate';
  if (strategy !== 'RollingUpdate') return false;
  const stale = pods
    .filter((p) => !isCurrentRevision(ctx, key, hash, p))
    .sort((a, b) => ordinalOf(ref.name, b.metadata.name ?? '') - ordinalOf(ref.name, a.metadata.name ?? ''));
  if (stale.length === 0 || pods.some((p) => !isAvailable(p))) return false;
  const victim = stale[0]!;
  ctx.deletePod(victim, { type: 'Killing', pod: `${ref.namespace}/${victim.metadata.name ?? ''}`, by: ref });
  return true;
}
