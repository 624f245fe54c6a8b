/**
 * NodePorts Filter (pkg/scheduler/framework/plugins/nodeports): every host port the pod wants
 * (containers and sidecars) must be free on the node (HostPortInfo.CheckConflict), else Unschedulable.
 */
import type { CycleState } from '../cycle-state.ts';
import type { SchedulerPlugin } from '../plugin.ts';
import { hostPortConflicts, type NodeInfo } from '../node-info.ts';
import { OK, unschedulable, type PluginStatus } from '../plugin-status.ts';

export const NAME = 'NodePorts';
export const ERR_REASON = "node(s) didn't have free ports for the requested pod ports";

function filter(state: CycleState, node: NodeInfo): PluginStatus {
  const wanted = state.entry.hostPorts;
  if (wanted.length === 0 || node.usedPorts.length === 0) return OK;
  for (const p of wanted) if (hostPortConflicts(node.usedPorts, p)) return unschedulable(NAME, ERR_REASON);
  return OK;
}

export const NodePorts: SchedulerPlugin = { name: NAME, filter };
