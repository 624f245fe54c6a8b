/**
 * NodeName Filter (pkg/scheduler/framework/plugins/nodename): a pod that names a node fits only that
 * node, UnschedulableAndUnresolvable elsewhere.
 */
import type { Pod } from '../../../k8s/objects.ts';
import type { CycleState } from '../cycle-state.ts';
import type { NodeInfo } from '../node-info.ts';
import { OK, unresolvable, type PluginStatus } from '../plugin-status.ts';

export const NAME = 'NodeName';
export const ERR_REASON = "node(s) didn't match the requested node name";

export function filter(pod: Pod, node: NodeInfo, _state: CycleState): PluginStatus {
  const want = pod.spec.nodeName;
  if (!want || want === node.name) return OK;
  return unresolvable(NAME, ERR_REASON);
}
