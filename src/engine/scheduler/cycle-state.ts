/**
 * Per-attempt state shared by the plugins (the scheduler's CycleState): the incoming pod projected once,
 * the version profile, and each plugin's PreFilter result. Plugins whose PreFilter depends on other pods
 * (topology spread, inter-pod affinity) also expose add/remove updates so preemption can simulate
 * removing victims (framework PreFilterExtensions.AddPod / RemovePod).
 */
import type { Pod } from '../../k8s/objects.ts';
import type { Snapshot } from '../../k8s/snapshot.ts';
import type { NodeInfoIndex, PodEntry } from './node-info.ts';
import type { InterPodAffinityState } from './plugins/inter-pod-affinity.ts';
import type { NodeAffinityState } from './plugins/node-affinity.ts';
import type { TopologySpreadState } from './plugins/pod-topology-spread.ts';
import type { VolumeBindingState } from './plugins/volume-binding.ts';
import type { SchedulerProfile } from './version.ts';

export interface CycleState {
  readonly pod: Pod;
  /** The incoming pod projected with spec resources only (no status resources: it is not running). */
  readonly entry: PodEntry;
  /** Resolved priority (spec.priority, else its PriorityClass, else the global default, else 0). */
  readonly priority: number;
  readonly preemptionPolicy: string;
  readonly profile: SchedulerProfile;
  readonly snapshot: Snapshot;
  readonly index: NodeInfoIndex;
  nodeAffinity: NodeAffinityState | null;
  volumeBinding: VolumeBindingState | null;
  topologySpread: TopologySpreadState | null;
  interPodAffinity: InterPodAffinityState | null;
}
