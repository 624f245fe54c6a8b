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
import { freeResources, makePodEntry, nodeInfoIndex, type NodeInfoIndex, type SharedRow } from './node-info.ts';
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
  /**
   * The caller reads `nodeStatuses` only when the pod is not scheduled (the convergence's scheduler):
   * an attempt that binds may then leave them out, which lets it skip the nodes known not to fit.
   */
  statusesOnlyWhenUnscheduled?: boolean;
}

/**
 * Shapes kept per anchor; past it the table starts over. A row being filled holds 9 bytes per node
 * (45 kB at 5,000 nodes; 23 MB for all 512), a complete one 12 bytes per feasible node.
 */
const MAX_SHARED_ROWS = 512;

function lowerBound(xs: ArrayLike<number>, x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (xs[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** One verdict: 1 passed every Filter (its Score sum in `score`), 2 failed (the first failing plugin's `status`). */
interface Verdict {
  known: number;
  score: number;
  status: PluginStatus | undefined;
}

/**
 * Verdicts of one pod shape by node position, each with the node's change count (ScheduleCache
 * `stamps`) it was taken at: one taken at an older count is void. Dense arrays over every node, or — when
 * an anchor's shared rows hold the verdicts of the unchanged nodes, so only changed nodes are kept here —
 * a sparse map (`sparse`).
 */
interface NodeVerdicts {
  readonly known: Uint8Array;
  readonly stamps: Uint32Array;
  readonly score: Float64Array;
  /** The failing status of each position known to fail (most nodes never fail a shape). */
  readonly status: Map<number, PluginStatus | undefined>;
  readonly sparse: Map<number, Verdict & { stamp: number }> | null;
}

const EMPTY_U8 = new Uint8Array(0);
const EMPTY_U32 = new Uint32Array(0);
const EMPTY_F64 = new Float64Array(0);

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
  /** Writes seen per node position since `index` was first seen. */
  private stamps = new Uint32Array(0);
  /** Log position of `index` already applied. */
  private position = 0;
  private readonly byKey = new Map<string, NodeVerdicts>();
  /** The anchor's shared rows for `index` (null when it has none), and its nodes that differ here. */
  private rows: Map<string, SharedRow> | null = null;
  private live: Uint8Array | null = null;
  private livePositions: number[] = [];
  private readonly frameworks = new Map<readonly SchedulerPlugin[], Framework>();
  /** Whether verdicts on an anchor's unchanged nodes are shared with its other forks (SharedRow). */
  private readonly sharing: boolean;

  constructor(opts: { shared?: boolean } = {}) {
    this.sharing = opts.shared ?? true;
  }

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
      this.stamps = new Uint32Array(names.length);
      this.byKey.clear();
      this.position = index.followChanges();
      this.rows = null;
      this.live = null;
      this.livePositions = [];
      const a = this.sharing ? index.anchorOf() : null;
      if (a && names === a.anchor.nodeNames()) {
        const writes = a.anchor.writeCount();
        let t = a.anchor.sharedTables;
        if (!t || t.writes !== writes || t.names !== names) {
          t = { writes, names, rows: new Map() };
          a.anchor.sharedTables = t;
        }
        this.rows = t.rows;
        this.live = new Uint8Array(names.length);
        for (const n of a.touched) this.markLive(n);
      }
    } else {
      const changed = index.changesSince(this.position);
      if (changed.length > 0) {
        this.position += changed.length;
        for (const n of changed) {
          const i = this.positions.get(n);
          if (i !== undefined) this.stamps[i]!++;
          this.markLive(n);
        }
      }
    }
    let kept = this.byKey.get(key);
    if (!kept) {
      const n = names.length;
      kept = this.rows
        ? { known: EMPTY_U8, stamps: EMPTY_U32, score: EMPTY_F64, status: new Map(), sparse: new Map() }
        : {
            known: new Uint8Array(n),
            stamps: new Uint32Array(n),
            score: new Float64Array(n),
            status: new Map(),
            sparse: null,
          };
      this.byKey.set(key, kept);
    }
    return kept;
  }

  /** The node's change count at position `at` (a verdict taken at another count is void). */
  stampAt(at: number): number {
    return this.stamps[at]!;
  }

  private markLive(name: string): void {
    const i = this.positions.get(name);
    if (i === undefined || !this.live || this.live[i] === 1) return;
    this.live[i] = 1;
    this.livePositions.splice(lowerBound(this.livePositions, i), 0, i);
  }

  /**
   * The shared row of `key` for the index of the last `verdicts` call, with the positions whose node
   * differs from the anchor's there (`live`, and the same ascending in `livePositions`); null without one.
   */
  shared(key: string): { row: SharedRow; live: Uint8Array; livePositions: readonly number[] } | null {
    if (!this.rows || !this.live || !this.names) return null;
    let row = this.rows.get(key);
    if (!row) {
      if (this.rows.size >= MAX_SHARED_ROWS) this.rows.clear();
      const n = this.names.length;
      row = {
        known: new Uint8Array(n),
        score: new Float64Array(n),
        status: new Map(),
        filled: 0,
        feasible: null,
        feasibleScore: null,
      };
      this.rows.set(key, row);
    }
    return { row, live: this.live, livePositions: this.livePositions };
  }
}

/**
 * A row whose every node is known keeps only its feasible positions and their scores. A shape that fits
 * no node of the anchor keeps its verdicts too: every attempt of it ends in the loop that reads each
 * node's status for the FitError message, and those of the nodes a fork did not write are the anchor's —
 * so a Pending pod retried on a fork (a fix's try, after the settle) is filtered on the written nodes
 * only, with the message a full scan gives (test/engine/shared-base.test.ts).
 */
function compact(row: SharedRow): void {
  const known = row.known!;
  let m = 0;
  for (let i = 0; i < known.length; i++) if (known[i] === 1) m++;
  if (m === 0) {
    row.feasible = new Int32Array(0);
    row.feasibleScore = new Float64Array(0);
    return;
  }
  const feasible = new Int32Array(m);
  const scores = new Float64Array(m);
  m = 0;
  for (let i = 0; i < known.length; i++) {
    if (known[i] !== 1) continue;
    feasible[m] = i;
    scores[m++] = row.score![i]!;
  }
  row.feasible = feasible;
  row.feasibleScore = scores;
  row.known = null;
  row.score = null;
  row.status = null;
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
  const cache = opts.cache;
  const shared = kept ? cache!.shared(key!) : null;
  // findNodesThatPassFilters: stop once numFeasibleNodesToFind nodes passed, starting where the last
  // cycle stopped. An unschedulable pod is still checked against every node (the message needs them).
  const toFind = opts.evaluateAllNodes ? candidates.length : numFeasibleNodesToFind(candidates.length);
  const start = candidates.length > 0 ? index.nextStartNodeIndex % candidates.length : 0;
  let reused = 0;
  /** The verdict at position `at` as this fork's nodes stand: kept, shared (an anchor's node), or filtered now. */
  const verdictAt = (at: number): Verdict => {
    if (kept?.sparse) {
      const v = kept.sparse.get(at);
      if (v && v.stamp === cache!.stampAt(at)) {
        reused++;
        return v;
      }
    }
    let known = kept && !kept.sparse && kept.stamps[at] === cache!.stampAt(at) ? kept.known[at]! : 0;
    if (known !== 0) {
      reused++;
      return known === 1
        ? { known, score: kept!.score[at]!, status: undefined }
        : { known, score: 0, status: kept!.status.get(at) };
    }
    const row = shared && shared.live[at] === 0 ? shared.row : null;
    if (row?.known && row.known[at] !== 0) {
      reused++;
      known = row.known[at]!;
      return known === 1
        ? { known, score: row.score![at]!, status: undefined }
        : { known, score: 0, status: row.status!.get(at) };
    }
    const info = index.get(candidates[at]!)!;
    const st = fw.runFiltersWithNominatedPods(state, info);
    let score = 0;
    let status: PluginStatus | undefined;
    if (st.code === 'ok') {
      known = 1;
      score = fw.score(state, info);
    } else {
      known = 2;
      status = st;
    }
    // Nominated pods make the verdict depend on which pod asks (its own nomination is left out).
    if (kept && info.nominated.size === 0) {
      if (kept.sparse) kept.sparse.set(at, { known, score, status, stamp: cache!.stampAt(at) });
      else {
        kept.known[at] = known;
        kept.stamps[at] = cache!.stampAt(at);
        kept.score[at] = score;
        if (known === 2) kept.status.set(at, status);
      }
      if (row?.known) {
        row.known[at] = known;
        row.score![at] = score;
        if (known === 2) row.status!.set(at, status);
        if (++row.filled === row.known.length) compact(row);
      }
    }
    return { known, score, status };
  };
  if (shared?.row.feasible && opts.statusesOnlyWhenUnscheduled) {
    // Every node's verdict on the anchor is known: visit, in the order the loop below would, only the
    // nodes that fit there and the nodes that changed here; the others fail their filters as they did.
    const fast = visitShared(shared.row, shared.livePositions, candidates.length, start, toFind, verdictAt);
    if (fast.best !== null) {
      if (opts.cache) opts.cache.reused += reused;
      index.nextStartNodeIndex = (start + fast.processed) % candidates.length;
      const unknown = draUnknown(state);
      if (unknown !== null) return { scheduled: false, node: null, message: null, nodeStatuses, unknown };
      return { scheduled: true, node: candidates[fast.best]!, message: null, nodeStatuses };
    }
    // Nothing fits: the loop below visits every node for the statuses the message needs.
    reused = 0;
  }
  let feasible = 0;
  let processed = 0;
  for (let i = 0; i < candidates.length; i++) {
    const at = (start + i) % candidates.length;
    const name = candidates[at]!;
    processed++;
    const { known, score, status } = verdictAt(at);
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

/**
 * The nodes the Filter loop visits, from `start` round the node list, as their verdicts say: positions
 * `live` are judged by `verdictAt`, the others by the shared row (feasible there, with its score, or
 * not). Stops at the `toFind`-th feasible node as the loop does. Returns the best position (ties: the
 * smaller position, as node names are sorted) and how many positions the loop would have processed.
 */
function visitShared(
  row: SharedRow,
  live: readonly number[],
  n: number,
  start: number,
  toFind: number,
  verdictAt: (at: number) => { known: number; score: number },
): { best: number | null; processed: number } {
  const feasible = row.feasible!;
  const scores = row.feasibleScore!;
  let best: number | null = null;
  let bestScore = -1;
  let found = 0;
  for (const [lo, hi] of [
    [start, n],
    [0, start],
  ] as const) {
    let i = lowerBound(feasible, lo);
    let j = lowerBound(live, lo);
    for (;;) {
      const pf = i < feasible.length && feasible[i]! < hi ? feasible[i]! : n;
      const pl = j < live.length && live[j]! < hi ? live[j]! : n;
      if (pf === n && pl === n) break;
      let at: number;
      let score: number;
      if (pl <= pf) {
        at = pl;
        j++;
        if (pf === pl) i++;
        const v = verdictAt(at);
        if (v.known !== 1) continue;
        score = v.score;
      } else {
        at = pf;
        score = scores[i]!;
        i++;
      }
      if (score > bestScore || (score === bestScore && best !== null && at < best)) {
        best = at;
        bestScore = score;
      }
      if (++found >= toFind) return { best, processed: ((at - start + n) % n) + 1 };
    }
  }
  return { best, processed: n };
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
