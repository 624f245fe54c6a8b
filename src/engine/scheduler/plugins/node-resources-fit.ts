/**
 * NodeResourcesFit Filter (pkg/scheduler/framework/plugins/noderesources/fit.go `fitsRequest`, v1.35;
 * docs/kubernetes-semantics.md §6.2). Reasons in upstream order: `Too many pods`, then — unless the pod requests
 * nothing — cpu, memory, ephemeral-storage, then scalar resources (sorted by name here; Go map order
 * upstream, irrelevant after the FitError histogram sort). Equality fits.
 *
 * Code: UnschedulableAndUnresolvable when some insufficient resource is requested beyond the node's
 * whole allocatable (PR #131345, 1.34+; "Too many pods" never is), else Unschedulable.
 *
 * Score: the default LeastAllocated strategy (noderesources/least_allocated.go): cpu and memory, weight 1
 * each, with the non-zero defaults (100m / 200Mi) for containers without requests.
 */
import type { CycleState } from '../cycle-state.ts';
import type { SchedulerPlugin } from '../plugin.ts';
import type { NodeInfo, PodRequest } from '../node-info.ts';
import { OK, unresolvable, unschedulable, type PluginStatus } from '../plugin-status.ts';

export const NAME = 'NodeResourcesFit';

export interface InsufficientResource {
  resource: string;
  reason: string;
  requested: number;
  used: number;
  capacity: number;
  /** The request exceeds the node's allocatable: no preemption can help. */
  unresolvable: boolean;
}

function requestsNothing(r: PodRequest): boolean {
  return r.cpu === 0 && r.memory === 0 && r.ephemeralStorage === 0 && r.scalars.size === 0;
}

function pushIfInsufficient(
  out: InsufficientResource[],
  resource: string,
  want: number,
  capacity: number,
  inUse: number,
): void {
  if (want > 0 && want > capacity - inUse) {
    out.push({
      resource,
      reason: `Insufficient ${resource}`,
      requested: want,
      used: inUse,
      capacity,
      unresolvable: want > capacity,
    });
  }
}

/** fitsRequest: every insufficient resource, in upstream order. */
export function findInsufficientResources(request: PodRequest, node: NodeInfo): InsufficientResource[] {
  const out: InsufficientResource[] = [];
  if (node.pods.size + 1 > node.allowedPods) {
    out.push({
      resource: 'pods',
      reason: 'Too many pods',
      requested: 1,
      used: node.pods.size,
      capacity: node.allowedPods,
      unresolvable: false,
    });
  }
  if (requestsNothing(request)) return out;
  const alloc = node.allocatable;
  const used = node.requested;
  pushIfInsufficient(out, 'cpu', request.cpu, alloc.cpu, used.cpu);
  pushIfInsufficient(out, 'memory', request.memory, alloc.memory, used.memory);
  pushIfInsufficient(out, 'ephemeral-storage', request.ephemeralStorage, alloc.ephemeralStorage, used.ephemeralStorage);
  if (request.scalars.size > 0) {
    for (const name of [...request.scalars.keys()].sort()) {
      // Absent allocatable counts as 0 (nvidia.com/gpu on a node without GPUs).
      pushIfInsufficient(
        out,
        name,
        request.scalars.get(name)!,
        alloc.scalars.get(name) ?? 0,
        used.scalars.get(name) ?? 0,
      );
    }
  }
  return out;
}

/** The same test without allocating: the hot path when most nodes fit. */
function fitsAll(r: PodRequest, node: NodeInfo): boolean {
  if (node.pods.size + 1 > node.allowedPods) return false;
  const a = node.allocatable;
  const u = node.requested;
  if (r.cpu > 0 && r.cpu > a.cpu - u.cpu) return false;
  if (r.memory > 0 && r.memory > a.memory - u.memory) return false;
  if (r.ephemeralStorage > 0 && r.ephemeralStorage > a.ephemeralStorage - u.ephemeralStorage) return false;
  if (r.scalars.size > 0) {
    for (const [name, want] of r.scalars)
      if (want > 0 && want > (a.scalars.get(name) ?? 0) - (u.scalars.get(name) ?? 0)) return false;
  }
  return true;
}

const MAX_NODE_SCORE = 100;

/** leastRequestedScore: ((capacity − requested) · 100) / capacity, integer division; 0 if over. */
function leastRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0 || requested > capacity) return 0;
  return Math.floor(((capacity - requested) * MAX_NODE_SCORE) / capacity);
}

function score(state: CycleState, node: NodeInfo): number {
  const cpuCap = node.allocatable.cpu;
  const memCap = node.allocatable.memory;
  let total = 0;
  let weights = 0;
  if (cpuCap !== 0) {
    total += leastRequestedScore(node.nonZeroRequested.cpu + state.entry.nonZeroCpu, cpuCap);
    weights += 1;
  }
  if (memCap !== 0) {
    total += leastRequestedScore(node.nonZeroRequested.memory + state.entry.nonZeroMemory, memCap);
    weights += 1;
  }
  return weights === 0 ? 0 : Math.floor(total / weights);
}

function filter(state: CycleState, node: NodeInfo): PluginStatus {
  if (fitsAll(state.entry.request, node)) return OK;
  const insufficient = findInsufficientResources(state.entry.request, node);
  if (insufficient.length === 0) return OK;
  const reasons = insufficient.map((i) => i.reason);
  if (state.profile.fitUnresolvable && insufficient.some((i) => i.unresolvable)) return unresolvable(NAME, ...reasons);
  return unschedulable(NAME, ...reasons);
}

export const NodeResourcesFit: SchedulerPlugin = { name: NAME, filter, score };
