/**
 * NodeResourcesBalancedAllocation Score (pkg/scheduler/framework/plugins/noderesources/
 * balanced_allocation.go, resource_allocation.go): favours nodes whose cpu and memory fractions stay
 * close after placing the pod, from actual requests; pods requesting no cpu or memory score 0 (since
 * v1.32, issue #129138). No filter.
 */
import type { CycleState } from '../cycle-state.ts';
import type { NodeInfo } from '../node-info.ts';
import type { SchedulerPlugin } from '../plugin.ts';

export const NAME = 'NodeResourcesBalancedAllocation';

const MAX_NODE_SCORE = 100;

/** balancedResourceScorer: (1 − |f_cpu − f_mem| / 2) · 100, fractions capped at 1. */
function score(state: CycleState, node: NodeInfo): number {
  const req = state.entry.request;
  if (req.cpu === 0 && req.memory === 0) return 0;
  const cpuCap = node.allocatable.cpu;
  const memCap = node.allocatable.memory;
  // With one resource (the other's allocatable is 0) the deviation is 0.
  if (cpuCap === 0 || memCap === 0) return MAX_NODE_SCORE;
  const fCpu = Math.min((node.requested.cpu + req.cpu) / cpuCap, 1);
  const fMem = Math.min((node.requested.memory + req.memory) / memCap, 1);
  return Math.trunc((1 - Math.abs((fCpu - fMem) / 2)) * MAX_NODE_SCORE);
}

export const NodeResourcesBalancedAllocation: SchedulerPlugin = { name: NAME, score };
