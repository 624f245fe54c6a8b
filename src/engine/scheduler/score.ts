/**
 * Node scoring for placement among feasible nodes: NodeResourcesFit with the default LeastAllocated
 * strategy (cpu and memory, weight 1 each; non-zero defaults 100m / 200Mi for containers without
 * requests) plus NodeResourcesBalancedAllocation (actual requests; skipped for pods requesting no cpu
 * or memory, as since v1.32, issue #129138) — pkg/scheduler/framework/plugins/noderesources/
 * {least_allocated.go,balanced_allocation.go,resource_allocation.go}. Both plugins have weight 1.
 *
 * Not modelled: TaintToleration (PreferNoSchedule), preferred node/pod affinity, ImageLocality and the
 * ScheduleAnyway system-default topology spread; ties go to the smallest node name instead of
 * upstream's random choice.
 */
import type { CycleState } from './cycle-state.ts';
import type { NodeInfo } from './node-info.ts';

const MAX_NODE_SCORE = 100;

/** leastRequestedScore: ((capacity − requested) · 100) / capacity, integer division; 0 if over. */
function leastRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0 || requested > capacity) return 0;
  return Math.floor(((capacity - requested) * MAX_NODE_SCORE) / capacity);
}

export function scoreLeastAllocated(state: CycleState, node: NodeInfo): number {
  const cpuCap = node.allocatable.cpu;
  const memCap = node.allocatable.memory;
  let score = 0;
  let weights = 0;
  if (cpuCap !== 0) {
    score += leastRequestedScore(node.nonZeroRequested.cpu + state.entry.nonZeroCpu, cpuCap);
    weights += 1;
  }
  if (memCap !== 0) {
    score += leastRequestedScore(node.nonZeroRequested.memory + state.entry.nonZeroMemory, memCap);
    weights += 1;
  }
  return weights === 0 ? 0 : Math.floor(score / weights);
}

/** balancedResourceScorer: (1 − |f_cpu − f_mem| / 2) · 100, fractions capped at 1. */
export function scoreBalancedAllocation(state: CycleState, node: NodeInfo): number {
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

export function scoreNode(state: CycleState, node: NodeInfo): number {
  return scoreLeastAllocated(state, node) + scoreBalancedAllocation(state, node);
}
