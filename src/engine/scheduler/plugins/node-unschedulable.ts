/**
 * NodeUnschedulable Filter (pkg/scheduler/framework/plugins/nodeunschedulable): a cordoned node
 * (`spec.unschedulable`) rejects pods that do not tolerate `node.kubernetes.io/unschedulable:NoSchedule`,
 * UnschedulableAndUnresolvable.
 */
import type { CycleState } from '../cycle-state.ts';
import type { SchedulerPlugin } from '../plugin.ts';
import type { NodeInfo } from '../node-info.ts';
import { OK, unresolvable, type PluginStatus } from '../plugin-status.ts';
import { isTaintTolerated } from './taint-toleration.ts';

export const NAME = 'NodeUnschedulable';
export const ERR_REASON_UNSCHEDULABLE = 'node(s) were unschedulable';
const UNSCHEDULABLE_TAINT = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' };

function filter(state: CycleState, node: NodeInfo): PluginStatus {
  const pod = state.pod;
  if (!node.unschedulable) return OK;
  if (isTaintTolerated(pod.spec.tolerations ?? [], UNSCHEDULABLE_TAINT)) return OK;
  return unresolvable(NAME, ERR_REASON_UNSCHEDULABLE);
}

export const NodeUnschedulable: SchedulerPlugin = { name: NAME, filter };
