/**
 * NodeVolumeLimits (pkg/scheduler/framework/plugins/nodevolumelimits/csi.go, `CSILimits`): the CSI
 * attach limit of each driver on the node.
 *
 * PreFilter: Skip unless the pod has a PVC, a generic ephemeral volume or an inline in-tree volume that
 * CSI migration can translate.
 *
 * Filter: the pod's attachable volumes (filterAttachableVolumes) as `<driver>/<volumeHandle>`:
 * a bound claim's PV — its `csi` source, or an in-tree source translated to its CSI driver when
 * migration is on for the node (isCSIMigrationOn: a CSINode exists; AWS EBS, GCE PD, Azure Disk and
 * Cinder); an unbound claim (or one whose PV is missing) counts under its StorageClass's provisioner
 * (translated likewise) with a per-claim handle; inline in-tree volumes likewise. A missing claim of the
 * new pod is UnschedulableAndUnresolvable (`looking up PVC <ns>/<name>: persistentvolumeclaim "<name>"
 * not found`); existing pods' missing claims are not counted. Limits (getVolumeLimits): the node's
 * `attachable-volumes-*` allocatable, overridden by CSINode `spec.drivers[].allocatable.count`
 * (GetCSIAttachLimitKey). A volume already used on the node is not counted again; if existing +
 * new volumes of a driver exceed its limit: `node(s) exceed max volume count` (Unschedulable).
 *
 * Not modelled: VolumeAttachment objects (attachments not backed by a pod on the node), the sha1-shortened
 * limit key of driver names of 40+ characters, Portworx/vSphere/Azure File migration (off by default or
 * not counted upstream).
 */
import type { CSINode, PersistentVolume, PersistentVolumeClaim, Pod } from '../../../k8s/objects.ts';
import type { Snapshot } from '../../../k8s/snapshot.ts';
import type { CycleState } from '../cycle-state.ts';
import type { NodeInfo } from '../node-info.ts';
import type { SchedulerPlugin } from '../plugin.ts';
import { OK, unresolvable, unschedulable, type PluginStatus } from '../plugin-status.ts';
import { claimClass } from './volume-zone.ts';

export const NAME = 'NodeVolumeLimits';
export const ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED = 'node(s) exceed max volume count';

const ATTACHABLE_PREFIX = 'attachable-volumes-';
const CSI_ATTACH_LIMIT_PREFIX = 'csi-';

/** volumeutil.GetCSIAttachLimitKey (without the sha1 shortening of very long driver names). */
export function csiAttachLimitKey(driver: string): string {
  return `${ATTACHABLE_PREFIX}${CSI_ATTACH_LIMIT_PREFIX}${driver}`;
}

/** In-tree plugins whose CSI migration is on whenever the node has a CSINode (utils.go isCSIMigrationOn). */
const MIGRATED: Record<string, { field: string; driver: string; handle: (src: Record<string, unknown>) => string }> = {
  'kubernetes.io/aws-ebs': {
    field: 'awsElasticBlockStore',
    driver: 'ebs.csi.aws.com',
    // KubernetesVolumeIDToEBSVolumeID: "aws://<zone>/vol-x" → "vol-x".
    handle: (s) => {
      const id = typeof s.volumeID === 'string' ? s.volumeID : '';
      return id.startsWith('aws://') ? id.slice(id.lastIndexOf('/') + 1) : id;
    },
  },
  'kubernetes.io/gce-pd': {
    field: 'gcePersistentDisk',
    driver: 'pd.csi.storage.gke.io',
    handle: (s) => `projects/UNSPECIFIED/zones/UNSPECIFIED/disks/${typeof s.pdName === 'string' ? s.pdName : ''}`,
  },
  'kubernetes.io/azure-disk': {
    field: 'azureDisk',
    driver: 'disk.csi.azure.com',
    handle: (s) => (typeof s.diskURI === 'string' ? s.diskURI : ''),
  },
  'kubernetes.io/cinder': {
    field: 'cinder',
    driver: 'cinder.csi.openstack.org',
    handle: (s) => (typeof s.volumeID === 'string' ? s.volumeID : ''),
  },
};

function record(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** The in-tree source of a volume or PV spec that migration translates, if any. */
function inTreeSource(spec: Record<string, unknown>): { plugin: string; src: Record<string, unknown> } | null {
  for (const [plugin, m] of Object.entries(MIGRATED)) {
    const src = record(spec[m.field]);
    if (src) return { plugin, src };
  }
  return null;
}

/** isCSIMigrationOn for the four plugins above: on when the node has a CSINode object. */
function migrationOn(csiNode: CSINode | undefined): boolean {
  return csiNode !== undefined;
}

type VolumeMap = Map<string, string>; // volumeUniqueName → limit key

class NotFound {
  constructor(readonly message: string) {}
}

function driverInfoFromClass(
  snapshot: Snapshot,
  csiNode: CSINode | undefined,
  pvc: PersistentVolumeClaim,
): [string, string] | null {
  const scName = claimClass(pvc);
  if (scName === '') return null;
  const sc = snapshot.get('StorageClass', undefined, scName);
  if (!sc) return null;
  const handle = `unbound-${pvc.metadata.namespace ?? ''}/${pvc.metadata.name ?? ''}`;
  const provisioner = sc.provisioner ?? '';
  const m = MIGRATED[provisioner];
  if (m) return migrationOn(csiNode) ? [m.driver, handle] : null;
  if (provisioner.startsWith('kubernetes.io/')) return null; // other in-tree provisioners: not CSI
  return [provisioner, handle];
}

function driverInfo(
  snapshot: Snapshot,
  csiNode: CSINode | undefined,
  pvc: PersistentVolumeClaim,
): [string, string] | null {
  const pvName = pvc.spec.volumeName ?? '';
  if (pvName === '') return driverInfoFromClass(snapshot, csiNode, pvc);
  const pv: PersistentVolume | undefined = snapshot.get('PersistentVolume', undefined, pvName);
  if (!pv) return driverInfoFromClass(snapshot, csiNode, pvc);
  const csi = record(pv.spec.csi);
  if (csi) {
    const driver = typeof csi.driver === 'string' ? csi.driver : '';
    const handle = typeof csi.volumeHandle === 'string' ? csi.volumeHandle : '';
    return driver && handle ? [driver, handle] : null;
  }
  const it = inTreeSource(pv.spec);
  if (!it || !migrationOn(csiNode)) return null;
  const m = MIGRATED[it.plugin]!;
  const handle = m.handle(it.src);
  return handle ? [m.driver, handle] : null;
}

/** filterAttachableVolumes; a NotFound for the new pod's missing claim. */
function attachableVolumes(
  snapshot: Snapshot,
  pod: Pod,
  csiNode: CSINode | undefined,
  newPod: boolean,
  result: VolumeMap,
): NotFound | null {
  const ns = pod.metadata.namespace ?? '';
  for (const v of pod.spec.volumes ?? []) {
    let pvcName: string;
    if (v.persistentVolumeClaim) pvcName = v.persistentVolumeClaim.claimName;
    else if (v.ephemeral !== undefined && v.ephemeral !== null) pvcName = `${pod.metadata.name ?? ''}-${v.name}`;
    else {
      // checkAttachableInlineVolume: a migratable in-tree inline volume counts when migration is on.
      const it = inTreeSource(v);
      if (it && migrationOn(csiNode)) {
        const m = MIGRATED[it.plugin]!;
        result.set(`${m.driver}/${m.handle(it.src)}`, csiAttachLimitKey(m.driver));
      }
      continue;
    }
    const pvc = snapshot.get('PersistentVolumeClaim', ns, pvcName);
    if (!pvc) {
      if (newPod) return new NotFound(`looking up PVC ${ns}/${pvcName}: persistentvolumeclaim "${pvcName}" not found`);
      continue;
    }
    const info = driverInfo(snapshot, csiNode, pvc);
    if (!info) continue;
    result.set(`${info[0]}/${info[1]}`, csiAttachLimitKey(info[0]));
  }
  return null;
}

/** getVolumeLimits: Node allocatable `attachable-volumes-*`, then CSINode counts. */
function volumeLimits(node: NodeInfo, csiNode: CSINode | undefined): Map<string, number> {
  const out = new Map<string, number>();
  for (const [k, v] of node.allocatable.scalars) if (k.startsWith(ATTACHABLE_PREFIX)) out.set(k, v);
  for (const d of csiNode?.spec?.drivers ?? []) {
    const count = d.allocatable?.count;
    if (typeof count === 'number') out.set(csiAttachLimitKey(d.name), count);
  }
  return out;
}

function hasCountableVolume(pod: Pod): boolean {
  return (pod.spec.volumes ?? []).some(
    (v) => !!v.persistentVolumeClaim || (v.ephemeral !== undefined && v.ephemeral !== null) || !!inTreeSource(v),
  );
}

function filter(state: CycleState, node: NodeInfo): PluginStatus {
  const pod = state.pod;
  if (!hasCountableVolume(pod)) return OK; // PreFilter Skip, and the no-volume fast path
  const csiNode = state.snapshot.get('CSINode', undefined, node.name);
  const newVolumes: VolumeMap = new Map();
  const err = attachableVolumes(state.snapshot, pod, csiNode, true, newVolumes);
  if (err) return unresolvable(NAME, err.message);
  if (newVolumes.size === 0) return OK;
  const limits = volumeLimits(node, csiNode);
  if (limits.size === 0) return OK;
  const attached: VolumeMap = new Map();
  for (const p of node.pods.values()) attachableVolumes(state.snapshot, p.pod, csiNode, false, attached);
  const attachedCount = new Map<string, number>();
  for (const [unique, key] of attached) {
    newVolumes.delete(unique);
    attachedCount.set(key, (attachedCount.get(key) ?? 0) + 1);
  }
  const newCount = new Map<string, number>();
  for (const key of newVolumes.values()) newCount.set(key, (newCount.get(key) ?? 0) + 1);
  for (const [key, count] of newCount) {
    const max = limits.get(key);
    if (max !== undefined && (attachedCount.get(key) ?? 0) + count > max)
      return unschedulable(NAME, ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED);
  }
  return OK;
}

export const NodeVolumeLimits: SchedulerPlugin = { name: NAME, filter };
