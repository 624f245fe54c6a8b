/**
 * VolumeRestrictions (pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go).
 *
 * PreFilter: every `persistentVolumeClaim` volume's claim must exist (`persistentvolumeclaim "<name>"
 * not found`, UnschedulableAndUnresolvable: the lister's NotFound text); the claims with the
 * ReadWriteOncePod access mode are remembered with the number of scheduled pods (anywhere in the
 * cluster: StorageInfos().IsPVCUsedByPods) that already use them. Skip when the pod has neither
 * such a claim in use nor an inline disk that needs the conflict check.
 *
 * Filter (both Unschedulable, so preemption may help):
 * - satisfyVolumeConflicts, against the pods on the node: the same GCE PD unless both mount it
 *   read-only, the same AWS EBS volume ID, the same iSCSI IQN unless both read-only, the same RBD image
 *   (overlapping monitors, same pool and image) unless both read-only → `node(s) had no available disk`;
 * - satisfyReadWriteOncePod: a ReadWriteOncePod claim already in use →
 *   `node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode`.
 * AddPod / RemovePod keep the in-use count in step (preemption of the pod holding the claim helps).
 */
import type { Pod } from '../../../k8s/objects.ts';
import { stateKey, type CycleState, type StateData } from '../cycle-state.ts';
import type { NodeInfo, PodEntry } from '../node-info.ts';
import type { SchedulerPlugin } from '../plugin.ts';
import { OK, unresolvable, unschedulable, type PluginStatus, type PreFilterOutcome } from '../plugin-status.ts';

export const NAME = 'VolumeRestrictions';
export const ERR_REASON_DISK_CONFLICT = 'node(s) had no available disk';
export const ERR_REASON_RWOP_CONFLICT =
  'node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode';

/** preFilterState: the pod's ReadWriteOncePod claim names and how many scheduled pods reference them. */
export class VolumeRestrictionsState implements StateData {
  constructor(
    readonly readWriteOncePodPVCs: ReadonlySet<string>,
    public conflictingPVCRefCount: number,
  ) {}
  clone(): VolumeRestrictionsState {
    return new VolumeRestrictionsState(this.readWriteOncePodPVCs, this.conflictingPVCRefCount);
  }
  /** conflictingPVCRefCountForPod: the pod's volumes naming one of the claims (by name only, as upstream). */
  refsOf(p: PodEntry): number {
    let n = 0;
    for (const v of p.pod.spec.volumes ?? []) {
      const c = v.persistentVolumeClaim?.claimName;
      if (c !== undefined && this.readWriteOncePodPVCs.has(c)) n++;
    }
    return n;
  }
}

const PRE_FILTER_STATE_KEY = stateKey<VolumeRestrictionsState>(`PreFilter${NAME}`);

interface GcePd {
  pdName?: string;
  readOnly?: boolean;
}
interface AwsEbs {
  volumeID?: string;
}
interface Iscsi {
  iqn?: string;
  readOnly?: boolean;
}
interface Rbd {
  monitors?: string[];
  pool?: string;
  image?: string;
  readOnly?: boolean;
}
interface InlineDisks {
  gcePersistentDisk?: GcePd;
  awsElasticBlockStore?: AwsEbs;
  iscsi?: Iscsi;
  rbd?: Rbd;
}

function record(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const bool = (v: unknown): boolean => v === true;

/** The inline disk sources of a volume that the conflict check looks at (API defaults: RBD pool "rbd"). */
function inlineDisks(v: Record<string, unknown>): InlineDisks {
  const out: InlineDisks = {};
  const gce = record(v.gcePersistentDisk);
  if (gce) out.gcePersistentDisk = { pdName: str(gce.pdName), readOnly: bool(gce.readOnly) };
  const ebs = record(v.awsElasticBlockStore);
  if (ebs) out.awsElasticBlockStore = { volumeID: str(ebs.volumeID) };
  const iscsi = record(v.iscsi);
  if (iscsi) out.iscsi = { iqn: str(iscsi.iqn), readOnly: bool(iscsi.readOnly) };
  const rbd = record(v.rbd);
  if (rbd) {
    const mons = Array.isArray(rbd.monitors) ? rbd.monitors.filter((m): m is string => typeof m === 'string') : [];
    out.rbd = { monitors: mons, pool: str(rbd.pool) ?? 'rbd', image: str(rbd.image), readOnly: bool(rbd.readOnly) };
  }
  return out;
}

/** needsRestrictionsCheck. */
function needsCheck(d: InlineDisks): boolean {
  return !!(d.gcePersistentDisk || d.awsElasticBlockStore || d.iscsi || d.rbd);
}

function haveOverlap(a: readonly string[], b: readonly string[]): boolean {
  const s = new Set(a);
  return b.some((x) => s.has(x));
}

/** isVolumeConflict: the volume against every volume of an existing pod. */
export function isVolumeConflict(d: InlineDisks, existing: Pod): boolean {
  for (const raw of existing.spec.volumes ?? []) {
    const e = inlineDisks(raw);
    if (d.gcePersistentDisk && e.gcePersistentDisk) {
      if (
        d.gcePersistentDisk.pdName === e.gcePersistentDisk.pdName &&
        !(d.gcePersistentDisk.readOnly && e.gcePersistentDisk.readOnly)
      )
        return true;
    }
    if (d.awsElasticBlockStore && e.awsElasticBlockStore) {
      if (d.awsElasticBlockStore.volumeID === e.awsElasticBlockStore.volumeID) return true;
    }
    if (d.iscsi && e.iscsi) {
      if (d.iscsi.iqn === e.iscsi.iqn && !(d.iscsi.readOnly && e.iscsi.readOnly)) return true;
    }
    if (d.rbd && e.rbd) {
      if (
        haveOverlap(d.rbd.monitors ?? [], e.rbd.monitors ?? []) &&
        d.rbd.pool === e.rbd.pool &&
        d.rbd.image === e.rbd.image &&
        !(d.rbd.readOnly && e.rbd.readOnly)
      )
        return true;
    }
  }
  return false;
}

function podInlineDisks(pod: Pod): InlineDisks[] {
  return (pod.spec.volumes ?? []).map((v) => inlineDisks(v)).filter(needsCheck);
}

/** StorageInfos().IsPVCUsedByPods over every scheduled pod of the snapshot. */
function isPVCUsedByPods(state: CycleState, namespace: string, claim: string): boolean {
  for (const name of state.index.nodeNames()) {
    for (const p of state.index.get(name)?.pods.values() ?? []) {
      if (p.namespace !== namespace) continue;
      if ((p.pod.spec.volumes ?? []).some((v) => v.persistentVolumeClaim?.claimName === claim)) return true;
    }
  }
  return false;
}

function preFilter(state: CycleState): PreFilterOutcome {
  const pod = state.pod;
  const ns = pod.metadata.namespace ?? '';
  const rwop = new Set<string>();
  for (const v of pod.spec.volumes ?? []) {
    const name = v.persistentVolumeClaim?.claimName;
    if (name === undefined) continue;
    const pvc = state.snapshot.get('PersistentVolumeClaim', ns, name);
    if (!pvc) return { status: unresolvable(NAME, `persistentvolumeclaim "${name}" not found`) };
    if ((pvc.spec.accessModes ?? []).includes('ReadWriteOncePod')) rwop.add(name);
  }
  let conflicts = 0;
  for (const c of rwop) if (isPVCUsedByPods(state, ns, c)) conflicts++;
  if (podInlineDisks(pod).length === 0 && conflicts === 0) return {}; // Skip
  state.write(PRE_FILTER_STATE_KEY, new VolumeRestrictionsState(rwop, conflicts));
  return {};
}

function filter(state: CycleState, node: NodeInfo): PluginStatus {
  const s = state.read(PRE_FILTER_STATE_KEY);
  if (!s) return OK; // skipped at PreFilter
  for (const d of podInlineDisks(state.pod)) {
    for (const p of node.pods.values())
      if (isVolumeConflict(d, p.pod)) return unschedulable(NAME, ERR_REASON_DISK_CONFLICT);
  }
  if (s.conflictingPVCRefCount > 0) return unschedulable(NAME, ERR_REASON_RWOP_CONFLICT);
  return OK;
}

function addPod(state: CycleState, p: PodEntry): void {
  const s = state.read(PRE_FILTER_STATE_KEY);
  if (s) s.conflictingPVCRefCount += s.refsOf(p);
}

function removePod(state: CycleState, p: PodEntry): void {
  const s = state.read(PRE_FILTER_STATE_KEY);
  if (s) s.conflictingPVCRefCount -= s.refsOf(p);
}

export const VolumeRestrictions: SchedulerPlugin = { name: NAME, preFilter, filter, addPod, removePod };
