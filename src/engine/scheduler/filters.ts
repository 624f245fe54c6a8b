/**
 * The default filter chain of kube-scheduler v1.35 (docs/kubernetes-semantics.md §6.3), in profile order, with the
 * framework's PreFilter and Filter loops (pkg/scheduler/framework/runtime/framework.go):
 * PreFilter plugins run in order and the first UnschedulableAndUnresolvable rejection ends the attempt;
 * per node, filters run in order and stop at the first failing plugin; nominated pods of equal or higher
 * priority are added to the node first (RunFilterPluginsWithNominatedPods).
 *
 * Not modelled (they need objects the snapshot does not carry): VolumeRestrictions, NodeVolumeLimits,
 * VolumeZone, DynamicResources Filter.
 */
import type { Pod } from '../../k8s/objects.ts';
import type { CycleState } from './cycle-state.ts';
import { addPodToNode, cloneNodeInfo, removePodFromNode, type NodeInfo, type PodEntry } from './node-info.ts';
import { OK, type PluginStatus, type PreFilterOutcome } from './plugin-status.ts';
import * as interPodAffinity from './plugins/inter-pod-affinity.ts';
import * as nodeAffinity from './plugins/node-affinity.ts';
import * as nodeName from './plugins/node-name.ts';
import * as nodePorts from './plugins/node-ports.ts';
import * as nodeResourcesFit from './plugins/node-resources-fit.ts';
import * as nodeUnschedulable from './plugins/node-unschedulable.ts';
import * as podTopologySpread from './plugins/pod-topology-spread.ts';
import * as taintToleration from './plugins/taint-toleration.ts';
import * as volumeBinding from './plugins/volume-binding.ts';

interface FilterPlugin {
  NAME: string;
  filter(pod: Pod, node: NodeInfo, state: CycleState): PluginStatus;
}

interface PreFilterPlugin {
  NAME: string;
  preFilter(state: CycleState): PreFilterOutcome;
}

/** Filter order of the default profile. */
export const FILTER_PLUGINS: readonly FilterPlugin[] = [
  nodeUnschedulable,
  nodeName,
  taintToleration,
  nodeAffinity,
  nodePorts,
  nodeResourcesFit,
  volumeBinding,
  podTopologySpread,
  interPodAffinity,
];

/** PreFilter order of the default profile (plugins without a PreFilter left out). */
const PRE_FILTER_PLUGINS: readonly PreFilterPlugin[] = [nodeAffinity, volumeBinding, podTopologySpread, interPodAffinity];

export interface PreFilterResult {
  /** The rejection (first UnschedulableAndUnresolvable, else the last Unschedulable). */
  status?: PluginStatus;
  /** Merged (intersected) node-name narrowing, if any plugin narrowed. */
  nodeNames?: Set<string>;
  /** Plugins that narrowed the node set (for the absent-node reason). */
  narrowedBy: string[];
}

/** RunPreFilterPlugins. */
export function runPreFilters(state: CycleState): PreFilterResult {
  const result: PreFilterResult = { narrowedBy: [] };
  for (const pl of PRE_FILTER_PLUGINS) {
    const out = pl.preFilter(state);
    if (out.status && out.status.code !== 'ok') {
      if (out.status.code === 'unresolvable') return { ...result, status: out.status };
      // Unschedulable: keep running the other PreFilters (preemption may still help), issue #119770.
      result.status = out.status;
      continue;
    }
    if (out.nodeNames) {
      result.nodeNames = result.nodeNames ? new Set([...result.nodeNames].filter((n) => out.nodeNames!.has(n))) : out.nodeNames;
      result.narrowedBy.push(pl.NAME);
    }
  }
  return result;
}

/** RunFilterPlugins: the first failing plugin's status. */
export function runFilters(state: CycleState, node: NodeInfo): PluginStatus {
  for (const pl of FILTER_PLUGINS) {
    const s = pl.filter(state.pod, node, state);
    if (s.code !== 'ok') return s;
  }
  return OK;
}

/** A copy of the state whose pod-dependent PreFilter data can be updated without touching the original. */
export function cloneCycleState(state: CycleState): CycleState {
  return {
    ...state,
    topologySpread: state.topologySpread ? podTopologySpread.cloneState(state.topologySpread) : null,
    interPodAffinity: state.interPodAffinity ? interPodAffinity.cloneState(state.interPodAffinity) : null,
  };
}

/** Adds a pod to a private node copy and to the PreFilter data (AddPod extension). */
export function addPodForSimulation(state: CycleState, node: NodeInfo, p: PodEntry): void {
  addPodToNode(node, p);
  podTopologySpread.updateWithPod(state, p, node, 1);
  interPodAffinity.updateWithPod(state, p, node, 1);
}

/** Removes a pod from a private node copy and from the PreFilter data (RemovePod extension). */
export function removePodForSimulation(state: CycleState, node: NodeInfo, p: PodEntry): void {
  if (!removePodFromNode(node, p.key)) return;
  podTopologySpread.updateWithPod(state, p, node, -1);
  interPodAffinity.updateWithPod(state, p, node, -1);
}

/**
 * RunFilterPluginsWithNominatedPods: first with the nominated pods of priority ≥ the pod's added
 * (they will take their place), then — if that passed and pods were added — without them.
 */
export function runFiltersWithNominatedPods(state: CycleState, node: NodeInfo): PluginStatus {
  if (node.nominated.size > 0) {
    const added = [...node.nominated.values()].filter((p) => p.priority >= state.priority && p.key !== state.entry.key);
    if (added.length > 0) {
      const s = cloneCycleState(state);
      const n = cloneNodeInfo(node);
      for (const p of added) addPodForSimulation(s, n, p);
      const status = runFilters(s, n);
      if (status.code !== 'ok') return status;
    }
  }
  return runFilters(state, node);
}
