/**
 * One scheduling attempt, as kube-scheduler's schedulingCycle (pkg/scheduler/schedule_one.go) runs it
 * with the default profile: scheduling gates → PreFilter → Filter on every node → (if none fits)
 * PostFilter (DynamicResources, then DefaultPreemption) → FailedScheduling text; or score the feasible
 * nodes and pick the best. Pure: reads the snapshot (and its node-info index), never the clock.
 */
import type { Pod } from '../../k8s/objects.ts';
import type { Snapshot } from '../../k8s/snapshot.ts';
import { podPriority } from '../priority.ts';
import { CycleState } from './cycle-state.ts';
import { Framework } from './framework.ts';
import { formatFitError, NO_NODES_AVAILABLE } from './fit-error.ts';
import { freeResources, makePodEntry, nodeInfoIndex, type NodeInfoIndex } from './node-info.ts';
import { unresolvable, type PluginStatus } from './plugin-status.ts';
import { preemptPod } from './preemption.ts';
import type { SchedulerPlugin } from './plugin.ts';
import { draPostFilter, draPreEnqueue, draUnknown, NAME as DRA } from './plugins/dynamic-resources.ts';
import { DEFAULT_PLUGINS } from './plugins/registry.ts';
import { resolveProfile, type ProfileOptions, type SchedulerProfile } from './version.ts';

export interface ScheduleOptions extends ProfileOptions {
  /** The registration list the framework runs (default: the default profile, plugins/registry.ts). */
  plugins?: readonly SchedulerPlugin[];
  /**
   * Filter verdicts and scores kept between attempts (one convergence's scheduler passes the same
   * cache to every attempt): an attempt of a pod identical to an earlier one reuses them on every node
   * that has not changed since. Only the result's cost changes, never the result.
   */
  cache?: ScheduleCache;
}

/**
 * Verdicts of one pod shape by node position: `known[i]` 0 (none kept), 1 (passed every Filter, its
 * Score sum in `score[i]`) or 2 (failed, the first failing plugin's status in `status[i]`).
 */
interface NodeVerdicts {
  readonly known: Uint8Array;
  readonly score: Float64Array;
  readonly status: (PluginStatus | undefined)[];
}

/** Volume fields no Filter looks at (the volume plugins read PVCs, generic ephemeral volumes, in-tree disks). */
function nodeLocalVolumeField(k: string): boolean {
  return (
    k === 'name' || k === 'configMap' || k === 'secret' || k === 'emptyDir' || k === 'downwardAPI' || k === 'projected'
  );
}

/**
 * What decides a pod's Filter verdict and Score on a node, when nothing else does: with the default
 * plugins, a pod with no topology spread constraints, no pod (anti-)affinity, no resource claims, no
 * volume a volume plugin reads, not nominated anywhere, in a cluster where no pod has required
 * anti-affinity, gets on each node a verdict and a score that depend only on the pod's spec, labels,
 * namespace, priority and profile and on that node's info (NodeName, NodeUnschedulable, TaintToleration,
 * NodeAffinity, NodePorts and NodeResourcesFit read the node; the volume plugins, PodTopologySpread,
 * InterPodAffinity and DynamicResources pass every node; the scores read the node). Those pods get a
 * key (equal keys: equal verdicts on an equal node); any other pod gets null and is scheduled afresh.
 */
function verdictKey(state: CycleState, plugins: readonly SchedulerPlugin[]): string | null {
  if (plugins !== DEFAULT_PLUGINS) return null;
  const pod = state.pod;
  const spec = pod.spec;
  if (pod.status?.nominatedNodeName) return null;
  if ((spec.topologySpreadConstraints?.length ?? 0) > 0) return null;
  if (spec.affinity?.podAffinity || spec.affinity?.podAntiAffinity) return null;
  const claims: unknown = spec.resourceClaims;
  if (claims !== undefined && claims !== null && !(Array.isArray(claims) && claims.length === 0)) return null;
  for (const v of spec.volumes ?? []) {
    if (!v || typeof v !== 'object') return null;
    for (const k of Object.keys(v)) if (!nodeLocalVolumeField(k)) return null;
  }
  if (state.index.hasRequiredAntiAffinityPods()) return null;
  return JSON.stringify([
    pod.metadata.namespace ?? '',
    pod.metadata.labels ?? {},
    spec,
    state.priority,
    state.preemptionPolicy,
    state.profile,
  ]);
}

/**
 * Filter verdicts and scores per pod shape (`verdictKey`) and node, for one node-info index: a node
 * written since a verdict was taken (a pod bound or removed, the node changed) loses its verdicts, so
 * a reused verdict is the one the plugins would give again. The scheduler of a convergence keeps one
 * for the whole run; the replicas of one template then cost one filter pass per node that changed.
 */
export class ScheduleCache {
  /** Verdicts reused so far (a node not filtered again). */
  reused = 0;
  private index: NodeInfoIndex | null = null;
  /** The index's node names the verdict arrays are aligned with, and each name's position. */
  private names: readonly string[] | null = null;
  private positions = new Map<string, number>();
  /** Log position of `index` already applied. */
  private position = 0;
  private readonly byKey = new Map<string, NodeVerdicts>();
  private readonly frameworks = new Map<readonly SchedulerPlugin[], Framework>();

  /** One Framework per registration list for every attempt (a Framework is immutable once built). */
  framework(plugins: readonly SchedulerPlugin[]): Framework {
    let fw = this.frameworks.get(plugins);
    if (!fw) {
      fw = new Framework(plugins);
      this.frameworks.set(plugins, fw);
    }
    return fw;
  }

  /**
   * The verdicts kept for `key` on `index`, by position in `names` (the index's node list), every
   * node written since the last call forgotten; all of them when the index or its node list is new.
   */
  verdicts(index: NodeInfoIndex, names: readonly string[], key: string): NodeVerdicts {
    if (index !== this.index || names !== this.names) {
      this.index = index;
      this.names = names;
      this.positions = new Map(names.map((n, i) => [n, i]));
      this.byKey.clear();
      this.position = index.followChanges();
    } else {
      const changed = index.changesSince(this.position);
      if (changed.length > 0) {
        this.position += changed.length;
        for (const n of changed) {
          const i = this.positions.get(n);
          if (i !== undefined) for (const kept of this.byKey.values()) kept.known[i] = 0;
        }
      }
    }
    let kept = this.byKey.get(key);
    if (!kept) {
      const n = names.length;
      kept = {
        known: new Uint8Array(n),
        score: new Float64Array(n),
        status: Array<PluginStatus | undefined>(n).fill(undefined),
      };
      this.byKey.set(key, kept);
    }
    return kept;
  }
}

export interface NodeStatus {
  plugin: string;
  reasons: string[];
  /** 'unschedulable' (preemption may help) or 'unresolvable' (it cannot). */
  code: string;
}

export interface ScheduleResult {
  scheduled: boolean;
  node: string | null;
  /** Exact FailedScheduling text (PodScheduled condition message, untruncated). */
  message: string | null;
  nominatedNode?: string;
  /** Preemption victims, "ns/name", most important first. */
  victims?: string[];
  /** Every node that did not fit, with the first failing plugin (nodes a PreFilter excluded included). */
  nodeStatuses: Map<string, NodeStatus>;
  /** The pod has scheduling gates: not attempted, no event (PodScheduled=False, SchedulingGated). */
  gated?: boolean;
  /** A PreEnqueue plugin (DynamicResources: a claim missing or not the pod's) keeps the pod out of the queue: not attempted, no event. */
  preEnqueue?: { plugin: string; reason: string };
  /** The engine cannot judge this attempt (DRA beyond what it models); `scheduled`/`message` say nothing then. */
  unknown?: string;
}

/** DynamicResources' PostFilter for a pod without claims (DRA on by default since 1.34). */
export const DRA_NO_CLAIMS = 'no new claims to deallocate';
/**
 * DynamicResources' PostFilter when its PreFilter never ran (an earlier PreFilter was
 * UnschedulableAndUnresolvable): reading its cycle state fails with framework.ErrNotFound, an Error
 * status that ends the PostFilter phase before DefaultPreemption.
 */
export const DRA_STATE_NOT_FOUND = 'not found';

export function createCycleState(
  snapshot: Snapshot,
  index: NodeInfoIndex,
  pod: Pod,
  profile: SchedulerProfile,
): CycleState {
  const { priority, preemptionPolicy } = podPriority(snapshot, pod.spec);
  const entry = { ...makePodEntry(pod, false), priority };
  return new CycleState({ pod, entry, priority, preemptionPolicy, profile, snapshot, index });
}

function toNodeStatus(s: PluginStatus): NodeStatus {
  return { plugin: s.plugin, reasons: s.reasons, code: s.code };
}

function joinPostFilter(parts: Array<string | null>): string {
  return parts.filter((p): p is string => !!p).join(', ');
}

/**
 * numFeasibleNodesToFind (schedule_one.go, default percentageOfNodesToScore): all nodes below 100,
 * else max(100, n × max(5, 50 − n/125) / 100).
 */
export function numFeasibleNodesToFind(numAllNodes: number): number {
  if (numAllNodes < 100) return numAllNodes;
  const percentage = Math.max(5, 50 - Math.trunc(numAllNodes / 125));
  return Math.max(100, Math.trunc((numAllNodes * percentage) / 100));
}

/** Schedules one pod against the snapshot; never mutates it (see `bindPod`). */
export function schedulePod(snapshot: Snapshot, pod: Pod, opts: ScheduleOptions = {}): ScheduleResult {
  if ((pod.spec.schedulingGates?.length ?? 0) > 0) {
    return { scheduled: false, node: null, message: null, nodeStatuses: new Map(), gated: true };
  }
  const profile = resolveProfile(opts);
  if (profile.draEnabled) {
    const reason = draPreEnqueue(snapshot, pod);
    if (reason !== null)
      return {
        scheduled: false,
        node: null,
        message: null,
        nodeStatuses: new Map(),
        preEnqueue: { plugin: DRA, reason },
      };
  }
  const index = nodeInfoIndex(snapshot);
  const names = index.nodeNames();
  if (names.length === 0) return { scheduled: false, node: null, message: NO_NODES_AVAILABLE, nodeStatuses: new Map() };
  const state = createCycleState(snapshot, index, pod, profile);
  const plugins = opts.plugins ?? DEFAULT_PLUGINS;
  const fw = opts.cache ? opts.cache.framework(plugins) : new Framework(plugins);
  const numAllNodes = names.length;
  const nodeStatuses = new Map<string, NodeStatus>();

  const pre = fw.runPreFilters(state);
  if (pre.status) {
    // Every node carries the PreFilter status; the message shows it once (docs/kubernetes-semantics.md §6.4 step 2).
    for (const n of names) nodeStatuses.set(n, toNodeStatus(pre.status));
    const preFilterMsg = pre.status.reasons.join(', ');
    const dra = profile.draEnabled ? draPostFilter(state) : null;
    let postFilterMsg: string;
    if (dra?.error) {
      postFilterMsg = dra.message;
    } else {
      const p = preemptPod(fw, state, { numAllNodes, statuses: new Map(), absent: pre.status });
      postFilterMsg = joinPostFilter([dra?.message ?? null, p.message]);
    }
    return {
      scheduled: false,
      node: null,
      message: formatFitError({ numAllNodes, preFilterMsg, nodeReasons: new Map(), postFilterMsg }, profile),
      nodeStatuses,
    };
  }

  const unknownBefore = draUnknown(state);
  if (unknownBefore !== null)
    return { scheduled: false, node: null, message: null, nodeStatuses, unknown: unknownBefore };

  let candidates: readonly string[] = names;
  let absent: PluginStatus | null = null;
  if (pre.nodeNames) {
    const allowed = pre.nodeNames;
    candidates = names.filter((n) => allowed.has(n));
    // schedule_one.go: nodes outside the PreFilterResult get this status (Go %v of the sorted plugin list).
    absent = unresolvable(
      pre.narrowedBy.join(','),
      `node(s) didn't satisfy plugin(s) [${[...pre.narrowedBy].sort().join(' ')}]`,
    );
    for (const n of names) if (!allowed.has(n)) nodeStatuses.set(n, toNodeStatus(absent));
  }

  const statuses = new Map<string, PluginStatus>();
  let best: string | null = null;
  let bestScore = -1;
  const key = opts.cache ? verdictKey(state, plugins) : null;
  // Verdicts by position in `names`: kept only when no PreFilter narrowed the nodes.
  const kept = key !== null && candidates === names ? opts.cache!.verdicts(index, names, key) : null;
  // findNodesThatPassFilters: stop once numFeasibleNodesToFind nodes passed, starting where the last
  // cycle stopped. An unschedulable pod is still checked against every node (the message needs them).
  const toFind = opts.evaluateAllNodes ? candidates.length : numFeasibleNodesToFind(candidates.length);
  const start = candidates.length > 0 ? index.nextStartNodeIndex % candidates.length : 0;
  let feasible = 0;
  let processed = 0;
  let reused = 0;
  for (let i = 0; i < candidates.length; i++) {
    const at = (start + i) % candidates.length;
    const name = candidates[at]!;
    processed++;
    let known = kept ? kept.known[at]! : 0;
    let score = 0;
    let status: PluginStatus | undefined;
    if (known !== 0) {
      reused++;
      if (known === 1) score = kept!.score[at]!;
      else status = kept!.status[at];
    } else {
      const info = index.get(name)!;
      const st = fw.runFiltersWithNominatedPods(state, info);
      if (st.code === 'ok') {
        known = 1;
        score = fw.score(state, info);
      } else {
        known = 2;
        status = st;
      }
      // Nominated pods make the verdict depend on which pod asks (its own nomination is left out).
      if (kept && info.nominated.size === 0) {
        kept.known[at] = known;
        kept.score[at] = score;
        kept.status[at] = status;
      }
    }
    if (known === 2) {
      statuses.set(name, status!);
      nodeStatuses.set(name, toNodeStatus(status!));
      continue;
    }
    // Ties keep the smallest node name, whatever the visiting order.
    if (score > bestScore || (score === bestScore && best !== null && name < best)) {
      best = name;
      bestScore = score;
    }
    if (++feasible >= toFind) break;
  }
  if (opts.cache) opts.cache.reused += reused;
  if (candidates.length > 0) index.nextStartNodeIndex = (start + processed) % candidates.length;
  const unknownAfter = draUnknown(state);
  if (unknownAfter !== null)
    return { scheduled: false, node: null, message: null, nodeStatuses, unknown: unknownAfter };
  if (best !== null) return { scheduled: true, node: best, message: null, nodeStatuses };

  const nodeReasons = new Map<string, string[]>();
  for (const [n, s] of statuses) nodeReasons.set(n, s.reasons);
  const fitError = { numAllNodes, nodeReasons, absentReasons: absent?.reasons ?? [] };
  const dra = profile.draEnabled ? draPostFilter(state) : null;
  if (dra?.error)
    return {
      scheduled: false,
      node: null,
      message: formatFitError({ ...fitError, postFilterMsg: dra.message }, profile),
      nodeStatuses,
    };
  const p = preemptPod(fw, state, { numAllNodes, statuses, absent });
  if (p.nominatedNode) {
    // A successful PostFilter adds no text in 1.35: the event is the first sentence only.
    return {
      scheduled: false,
      node: null,
      message: formatFitError(fitError, profile),
      nominatedNode: p.nominatedNode,
      victims: p.victims!.map((v) => v.key),
      nodeStatuses,
    };
  }
  const postFilterMsg = joinPostFilter([dra?.message ?? null, p.message]);
  return {
    scheduled: false,
    node: null,
    message: formatFitError({ ...fitError, postFilterMsg }, profile),
    nodeStatuses,
  };
}

/** Binds the pod (spec.nodeName) and stores it; the node-info index follows incrementally. */
export function bindPod(snapshot: Snapshot, pod: Pod, nodeName: string): Pod {
  const bound: Pod = { ...pod, kind: 'Pod', spec: { ...pod.spec, nodeName } };
  snapshot.put(bound);
  return bound;
}

export interface NodeHeadroom {
  node: string;
  /** allocatable − requested, milli-cores. */
  cpuMilli: number;
  /** allocatable − requested, bytes. */
  memoryBytes: number;
  /** pods that still fit by count. */
  pods: number;
}

/**
 * The n schedulable (not cordoned) nodes with the most free cpu, then memory, then by name; from the
 * node-info sums, no pod is visited. Taints are not considered: a tolerating pod may use any of them.
 */
export function findLargestFreeNodes(snapshot: Snapshot, n: number): NodeHeadroom[] {
  const index = nodeInfoIndex(snapshot);
  const out: NodeHeadroom[] = [];
  for (const name of index.nodeNames()) {
    const info = index.get(name)!;
    if (info.unschedulable) continue;
    const free = freeResources(info);
    out.push({ node: name, cpuMilli: free.cpu, memoryBytes: free.memory, pods: free.pods });
  }
  out.sort((a, b) => b.cpuMilli - a.cpuMilli || b.memoryBytes - a.memoryBytes || (a.node < b.node ? -1 : 1));
  return out.slice(0, Math.max(0, n));
}
