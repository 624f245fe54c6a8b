/**
 * NodeName Filter (pkg/scheduler/framework/plugins/nodename): a pod that names a node fits only that
 * node, UnschedulableAndUnresolvable elsewhere.
 */
import type { CycleState } from '../cycle-state.ts';
import type { SchedulerPlugin } from '../plugin.ts';
import type { NodeInfo } from '../node-info.ts';
import { OK, unresolvable, type PluginStatus } from '../plugin-status.ts';

export const NAME = 'NodeName';
export const ERR_REASON = "node(s) didn't match the requested node name";

function filter(state: CycleState, node: NodeInfo): PluginStatus {
  const pod = state.pod;
  const want = pod.spec.nodeName;
  if (!want || want === node.name) return OK;
  return unresolvable(NAME, ERR_REASON);
}

export const NodeName: SchedulerPlugin = { name: NAME, filter };
