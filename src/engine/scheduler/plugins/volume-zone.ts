/**
 * VolumeZone (pkg/scheduler/framework/plugins/volumezone/volume_zone.go).
 *
 * PreFilter (getPVbyPod), for each `persistentVolumeClaim` volume, UnschedulableAndUnresolvable on:
 * a claim without a name (`PersistentVolumeClaim had no name`), a missing claim / class / PV (the
 * listers' NotFound texts), an unbound claim without a class (`PersistentVolumeClaim had no pv name and
 * storageClass name`), an unbound claim of an Immediate class (`PersistentVolume had no name`); unbound
 * WaitForFirstConsumer claims are skipped. The bound PV's zone/region labels (failure-domain.beta.
 * kubernetes.io/{zone,region}, topology.kubernetes.io/{zone,region}; "a__b" lists several zones) are
 * remembered; none → Skip.
 *
 * Filter: a node with none of the four labels passes (single-zone clusters); otherwise each PV label
 * must be on the node (a beta PV label also matches the node's GA label) with one of the PV's values,
 * else `node(s) had no available volume zone` (UnschedulableAndUnresolvable).
 */
import type { PersistentVolumeClaim } from '../../../k8s/objects.ts';
import type { Snapshot } from '../../../k8s/snapshot.ts';
import { stateKey, type CycleState, type StateData } from '../cycle-state.ts';
import type { NodeInfo } from '../node-info.ts';
import type { SchedulerPlugin } from '../plugin.ts';
import { OK, unresolvable, type PluginStatus, type PreFilterOutcome } from '../plugin-status.ts';

export const NAME = 'VolumeZone';
export const ERR_REASON_CONFLICT = 'node(s) had no available volume zone';

export const LABEL_FAILURE_DOMAIN_BETA_ZONE = 'failure-domain.beta.kubernetes.io/zone';
export const LABEL_FAILURE_DOMAIN_BETA_REGION = 'failure-domain.beta.kubernetes.io/region';
export const LABEL_TOPOLOGY_ZONE = 'topology.kubernetes.io/zone';
export const LABEL_TOPOLOGY_REGION = 'topology.kubernetes.io/region';

/** topologyLabels, in upstream's order. */
const TOPOLOGY_LABELS = [
  LABEL_FAILURE_DOMAIN_BETA_ZONE,
  LABEL_FAILURE_DOMAIN_BETA_REGION,
  LABEL_TOPOLOGY_ZONE,
  LABEL_TOPOLOGY_REGION,
] as const;

function translateToGALabel(label: string): string {
  if (label === LABEL_FAILURE_DOMAIN_BETA_REGION) return LABEL_TOPOLOGY_REGION;
  if (label === LABEL_FAILURE_DOMAIN_BETA_ZONE) return LABEL_TOPOLOGY_ZONE;
  return label;
}

interface PVTopology {
  pvName: string;
  key: string;
  values: ReadonlySet<string>;
}

class VolumeZoneState implements StateData {
  constructor(readonly podPVTopologies: readonly PVTopology[]) {}
  clone(): VolumeZoneState {
    return this;
  }
}

const PRE_FILTER_STATE_KEY = stateKey<VolumeZoneState>(`PreFilter${NAME}`);

/** volumehelpers.LabelZonesToSet: "a__b" → {a, b}; an empty member makes the label unusable (null). */
export function labelZonesToSet(value: string): Set<string> | null {
  const out = new Set<string>();
  for (const z of value.split('__')) {
    const t = z.trim();
    if (t === '') return null;
    out.add(t);
  }
  return out;
}

/** storagehelpers.GetPersistentVolumeClaimClass: the beta annotation wins over spec.storageClassName. */
export function claimClass(pvc: PersistentVolumeClaim): string {
  const ann = pvc.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'];
  if (ann !== undefined) return ann;
  return pvc.spec.storageClassName ?? '';
}

function getPVbyPod(state: CycleState, snapshot: Snapshot): PVTopology[] | PluginStatus {
  const pod = state.pod;
  const ns = pod.metadata.namespace ?? '';
  const out: PVTopology[] = [];
  for (const v of pod.spec.volumes ?? []) {
    if (!v.persistentVolumeClaim) continue;
    const pvcName = v.persistentVolumeClaim.claimName;
    if (pvcName === '') return unresolvable(NAME, 'PersistentVolumeClaim had no name');
    const pvc = snapshot.get('PersistentVolumeClaim', ns, pvcName);
    if (!pvc) return unresolvable(NAME, `persistentvolumeclaim "${pvcName}" not found`);
    const pvName = pvc.spec.volumeName ?? '';
    if (pvName === '') {
      const scName = claimClass(pvc);
      if (scName === '') return unresolvable(NAME, 'PersistentVolumeClaim had no pv name and storageClass name');
      const sc = snapshot.get('StorageClass', undefined, scName);
      if (!sc) return unresolvable(NAME, `storageclass.storage.k8s.io "${scName}" not found`);
      // The API server defaults volumeBindingMode to Immediate; a state file may leave it out.
      if (sc.volumeBindingMode === 'WaitForFirstConsumer') continue;
      return unresolvable(NAME, 'PersistentVolume had no name');
    }
    const pv = snapshot.get('PersistentVolume', undefined, pvName);
    if (!pv) return unresolvable(NAME, `persistentvolume "${pvName}" not found`);
    const labels = pv.metadata.labels ?? {};
    for (const key of TOPOLOGY_LABELS) {
      const value = labels[key];
      if (value === undefined) continue;
      const values = labelZonesToSet(value);
      if (values) out.push({ pvName, key, values });
    }
  }
  return out;
}

function preFilter(state: CycleState): PreFilterOutcome {
  const r = getPVbyPod(state, state.snapshot);
  if (!Array.isArray(r)) return { status: r };
  if (r.length === 0) return {}; // Skip
  state.write(PRE_FILTER_STATE_KEY, new VolumeZoneState(r));
  return {};
}

function filter(state: CycleState, node: NodeInfo): PluginStatus {
  if ((state.pod.spec.volumes?.length ?? 0) === 0) return OK;
  const s = state.read(PRE_FILTER_STATE_KEY);
  if (!s) return OK;
  const labels = node.labels;
  if (!TOPOLOGY_LABELS.some((l) => labels[l] !== undefined)) return OK;
  for (const t of s.podPVTopologies) {
    const v = labels[t.key] ?? labels[translateToGALabel(t.key)];
    if (v === undefined || !t.values.has(v)) return unresolvable(NAME, ERR_REASON_CONFLICT);
  }
  return OK;
}

export const VolumeZone: SchedulerPlugin = { name: NAME, preFilter, filter };
