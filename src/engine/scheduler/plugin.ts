/**
 * A scheduler plugin, as kube-scheduler's framework interfaces (pkg/scheduler/framework/interface.go):
 * one object with a name and the extension points it implements. The framework (framework.ts) runs
 * them in the order of the registration list (plugins/registry.ts) and never names one.
 *
 * - preFilter (PreFilterPlugin): once per attempt; may reject the pod for every node, narrow the node
 *   set, and store what the filter needs with `state.write(key, data)`.
 * - filter (FilterPlugin): per node; the first plugin whose status is not ok decides the node.
 * - addPod / removePod (PreFilterExtensions): keep the plugin's stored state in step when the framework
 *   adds a pod to a node (nominated pods) or removes one (preemption's victims); the node itself is
 *   already updated when they are called. Only plugins whose PreFilter state depends on other pods need them.
 * - score (ScorePlugin, weight 1): per feasible node, 0–100; the node with the highest sum wins.
 */
import type { CycleState } from './cycle-state.ts';
import type { NodeInfo, PodEntry } from './node-info.ts';
import type { PluginStatus, PreFilterOutcome } from './plugin-status.ts';

export interface SchedulerPlugin {
  readonly name: string;
  preFilter?(state: CycleState): PreFilterOutcome;
  filter?(state: CycleState, node: NodeInfo): PluginStatus;
  addPod?(state: CycleState, podToAdd: PodEntry, node: NodeInfo): void;
  removePod?(state: CycleState, podToRemove: PodEntry, node: NodeInfo): void;
  score?(state: CycleState, node: NodeInfo): number;
}
