/**
 * The scheduler's view of each node (pkg/scheduler/framework/types.go `NodeInfo`), kept as a `Derived`
 * index of the snapshot: allocatable parsed once, `requested` / `nonZeroRequested` sums, pod count, used
 * host ports and the non-terminal pods bound to the node. It is updated incrementally on every Pod or
 * Node change and forks copy-on-write per node, so a what-if fork costs one Map copy of node pointers
 * and a write clones only the node it touches.
 *
 * Projection as the scheduler does it (docs/kubernetes-semantics.md §6.1/§6.2): cpu in milli (`MilliValue`), every other
 * resource in units (`Value`). Sums are JS numbers: exact for integers below 2^53 (9 PiB of memory,
 * 9·10^12 cores), which is far above any real node; int64 wrap-around of absurd quantities is not modelled.
 */
import type { Node, Pod, Taint } from '../../k8s/objects.ts';
import type { Derived, KObject, Snapshot } from '../../k8s/snapshot.ts';
import type { ResourceList } from '../../quantity.ts';
import { resourceList } from '../../quantity.ts';
import { isTerminal, podRequests, type AggregateOptions } from '../pod-resources.ts';
import { compileAffinityTerm, type AffinityTerm } from './affinity-term.ts';
import type { Labels } from './label-selectors.ts';
import type { PluginStatus } from './plugin-status.ts';

/** schedutil.DefaultMilliCPURequest / DefaultMemoryRequest: used for scoring only, never for fitting. */
export const DEFAULT_MILLI_CPU_REQUEST = 100;
export const DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024;

export interface ResourceVector {
  /** milli-cores */
  cpu: number;
  /** bytes */
  memory: number;
  /** bytes */
  ephemeralStorage: number;
  /** extended resources, hugepages-*, attachable-volumes-*, prefixed native: units. */
  scalars: Map<string, number>;
}

/** A pod's request as its entry keeps it: never written (entries may share one). */
export interface PodRequest {
  readonly cpu: number;
  readonly memory: number;
  readonly ephemeralStorage: number;
  readonly scalars: ReadonlyMap<string, number>;
}

export interface HostPort {
  ip: string;
  protocol: string;
  port: number;
}

/** One assigned (or nominated) pod, projected once when it enters the index. */
export interface PodEntry {
  readonly key: string;
  readonly namespace: string;
  readonly name: string;
  readonly pod: Pod;
  readonly labels: Labels;
  readonly priority: number;
  readonly request: PodRequest;
  readonly nonZeroCpu: number;
  readonly nonZeroMemory: number;
  readonly hostPorts: readonly HostPort[];
  /** Has required pod affinity or anti-affinity terms (NodeInfo.PodsWithAffinity). */
  readonly hasRequiredAffinity: boolean;
  /**
   * Required anti-affinity terms compiled as an existing pod's (PodInfo.RequiredAntiAffinityTerms: no
   * matchLabelKeys merge), for InterPodAffinity's count of existing pods' anti-affinity. Non-empty is
   * what NodeInfo.PodsWithRequiredAntiAffinity counts (see `hasRequiredAntiAffinity`).
   */
  readonly requiredAntiAffinityTerms: readonly AffinityTerm[];
  /** deletionTimestamp set: still counted, but ignored by topology spread and eligible as a terminating victim. */
  readonly terminating: boolean;
  /** status.startTime, for preemption's "more important pod" tie-break. */
  readonly startTime: string;
}

export interface NodeInfo {
  readonly name: string;
  /** null while pods name a node the snapshot has no Node object for. */
  node: Node | null;
  labels: Labels;
  taints: readonly Taint[];
  unschedulable: boolean;
  allocatable: ResourceVector;
  /** status.allocatable.pods (0 when absent, like AllowedPodNumber). */
  allowedPods: number;
  requested: ResourceVector;
  nonZeroRequested: { cpu: number; memory: number };
  pods: Map<string, PodEntry>;
  usedPorts: Array<HostPort & { podKey: string }>;
  podsWithAffinity: number;
  podsWithRequiredAntiAffinity: number;
  /** Pods nominated to this node by an earlier preemption and not yet bound. */
  nominated: Map<string, PodEntry>;
}

/** v1helper.IsScalarResourceName: extended, hugepages-*, attachable-volumes-*, or prefixed native. */
export function isScalarResourceName(name: string): boolean {
  return name.includes('/') || name.startsWith('hugepages-') || name.startsWith('attachable-volumes-');
}

/** framework.NewResource: cpu → MilliValue, memory / ephemeral-storage / scalars → Value. */
export function projectResources(list: ResourceList): ResourceVector {
  const out: ResourceVector = { cpu: 0, memory: 0, ephemeralStorage: 0, scalars: new Map() };
  for (const [name, q] of list) {
    if (name === 'cpu') out.cpu = Number(q.milliValue());
    else if (name === 'memory') out.memory = Number(q.value());
    else if (name === 'ephemeral-storage') out.ephemeralStorage = Number(q.value());
    else if (isScalarResourceName(name)) out.scalars.set(name, Number(q.value()));
  }
  return out;
}

function emptyVector(): ResourceVector {
  return { cpu: 0, memory: 0, ephemeralStorage: 0, scalars: new Map() };
}

export function formatPodKey(pod: { metadata: { namespace?: string; name?: string } }): string {
  return `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;
}

/** corev1helpers.PodPriority: spec.priority, 0 when unset (admission resolves classes before binding). */
export function readPodPriority(pod: Pod): number {
  return pod.spec.priority ?? 0;
}

/**
 * Host ports a pod occupies: containers and restartable init containers (schedutil.GetHostPorts),
 * with the defaults HostPortInfo.sanitize applies (IP 0.0.0.0, protocol TCP).
 */
export function listHostPorts(pod: Pod): HostPort[] {
  const out: HostPort[] = [];
  const visit = (
    ports:
      | ReadonlyArray<{ hostPort?: number | null; hostIP?: string | null; protocol?: string | null }>
      | null
      | undefined,
  ) => {
    for (const p of ports ?? []) {
      if (!p.hostPort || p.hostPort <= 0) continue;
      out.push({ ip: p.hostIP || '0.0.0.0', protocol: p.protocol || 'TCP', port: p.hostPort });
    }
  };
  for (const c of pod.spec.initContainers ?? []) if (c.restartPolicy === 'Always') visit(c.ports);
  for (const c of pod.spec.containers) visit(c.ports);
  return out;
}

/**
 * Requests with the scoring defaults (PodRequests with NonMissingContainerRequests): a container that
 * states no cpu (memory) request counts 100m (200Mi). An explicit 0 stays 0.
 */
export function computeNonZeroRequests(
  pod: Pod,
  opts: AggregateOptions,
  requests: ResourceList,
): { cpu: number; memory: number } {
  const missing = (c: Pod['spec']['containers'][number]) => {
    const r = c.resources?.requests;
    return !r || r.cpu === undefined || r.memory === undefined;
  };
  const anyMissing = pod.spec.containers.some(missing) || (pod.spec.initContainers ?? []).some(missing);
  if (!anyMissing) {
    const v = projectResources(requests);
    return { cpu: v.cpu, memory: v.memory };
  }
  const fill = (c: Pod['spec']['containers'][number]) => {
    if (!missing(c)) return c;
    const req: Record<string, string | number> = { ...(c.resources?.requests ?? {}) };
    if (req.cpu === undefined) req.cpu = `${DEFAULT_MILLI_CPU_REQUEST}m`;
    if (req.memory === undefined) req.memory = String(DEFAULT_MEMORY_REQUEST);
    return { ...c, resources: { ...(c.resources ?? {}), requests: req } };
  };
  const filled: Pod = {
    ...pod,
    spec: {
      ...pod.spec,
      containers: pod.spec.containers.map(fill),
      initContainers: pod.spec.initContainers?.map(fill) ?? pod.spec.initContainers,
    },
  };
  const v = projectResources(podRequests(filled, opts));
  return { cpu: v.cpu, memory: v.memory };
}

function hasTerms(
  x: { requiredDuringSchedulingIgnoredDuringExecution?: unknown[] | null } | null | undefined,
): boolean {
  return (x?.requiredDuringSchedulingIgnoredDuringExecution?.length ?? 0) > 0;
}

function startTimeOf(pod: Pod): string {
  const st = pod.status?.startTime;
  return typeof st === 'string' ? st : '';
}

const NO_SCALARS: ReadonlyMap<string, number> = new Map();
const NO_HOST_PORTS: readonly HostPort[] = Object.freeze([]);
const NO_LABELS: Labels = Object.freeze({});
const NO_TERMS: readonly AffinityTerm[] = Object.freeze([]);

/**
 * Request vectors without scalars, shared between the entries that request the same (most pods of a
 * cluster ask for one of a few shapes). One pool belongs to a node-info index and every fork of it;
 * entries are immutable, so a vector interned by a fork is as good for its parent.
 */
export class RequestPool {
  /** Distinct shapes kept at most; past it the pool starts over (entries keep the vectors they hold). */
  static readonly MAX_SHAPES = 10_000;
  private readonly byShape = new Map<string, PodRequest>();

  intern(v: PodRequest): PodRequest {
    if (v.scalars.size > 0) return v;
    const key = `${v.cpu}/${v.memory}/${v.ephemeralStorage}`;
    const hit = this.byShape.get(key);
    if (hit) return hit;
    if (this.byShape.size >= RequestPool.MAX_SHAPES) this.byShape.clear();
    const out: PodRequest = { cpu: v.cpu, memory: v.memory, ephemeralStorage: v.ephemeralStorage, scalars: NO_SCALARS };
    this.byShape.set(key, out);
    return out;
  }

  get size(): number {
    return this.byShape.size;
  }
}

/**
 * Projects a pod once. Assigned pods use status resources (in-place resize) like NodeInfo.update;
 * the incoming pod uses its spec only (docs/kubernetes-semantics.md §5.4).
 */
export function makePodEntry(pod: Pod, assigned: boolean, pool?: RequestPool): PodEntry {
  const opts: AggregateOptions = { useStatusResources: assigned };
  const requests = podRequests(pod, opts);
  const nz = computeNonZeroRequests(pod, opts, requests);
  const affinity = pod.spec.affinity;
  const hasAnti = hasTerms(affinity?.podAntiAffinity);
  const hostPorts = listHostPorts(pod);
  return {
    // Array.join makes one flat string; a template literal makes a rope that the Map flattens into a
    // second string, and the entry would keep both.
    key: [pod.metadata.namespace ?? '', pod.metadata.name ?? ''].join('/'),
    namespace: pod.metadata.namespace ?? '',
    name: pod.metadata.name ?? '',
    pod,
    labels: pod.metadata.labels ?? NO_LABELS,
    priority: readPodPriority(pod),
    request: pool ? pool.intern(projectResources(requests)) : projectResources(requests),
    nonZeroCpu: nz.cpu,
    nonZeroMemory: nz.memory,
    hostPorts: hostPorts.length > 0 ? hostPorts : NO_HOST_PORTS,
    hasRequiredAffinity: hasAnti || hasTerms(affinity?.podAffinity),
    requiredAntiAffinityTerms: hasAnti ? compileExistingAntiTerms(pod) : NO_TERMS,
    terminating: !!pod.metadata.deletionTimestamp,
    startTime: startTimeOf(pod),
  };
}

/** Has required anti-affinity terms (counted by NodeInfo.PodsWithRequiredAntiAffinity). */
export function hasRequiredAntiAffinity(e: PodEntry): boolean {
  return e.requiredAntiAffinityTerms.length > 0;
}

function compileExistingAntiTerms(pod: Pod): AffinityTerm[] {
  const owner = { namespace: pod.metadata.namespace ?? '', labels: pod.metadata.labels ?? NO_LABELS };
  return (pod.spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []).map((t) =>
    compileAffinityTerm(t, owner, false),
  );
}

function newNodeInfo(name: string): NodeInfo {
  return {
    name,
    node: null,
    labels: {},
    taints: [],
    unschedulable: false,
    allocatable: emptyVector(),
    allowedPods: 0,
    requested: emptyVector(),
    nonZeroRequested: { cpu: 0, memory: 0 },
    pods: new Map(),
    usedPorts: [],
    podsWithAffinity: 0,
    podsWithRequiredAntiAffinity: 0,
    nominated: new Map(),
  };
}

function setNode(info: NodeInfo, node: Node | null): void {
  info.node = node;
  info.labels = node?.metadata.labels ?? {};
  info.taints = node?.spec?.taints ?? [];
  info.unschedulable = !!node?.spec?.unschedulable;
  const alloc = resourceList(node?.status?.allocatable);
  info.allocatable = projectResources(alloc);
  const pods = alloc.get('pods');
  info.allowedPods = pods ? Number(pods.value()) : 0;
}

/** A private copy that may be mutated without touching `info` (pod entries themselves are immutable). */
export function cloneNodeInfo(info: NodeInfo): NodeInfo {
  return {
    ...info,
    allocatable: info.allocatable,
    requested: { ...info.requested, scalars: new Map(info.requested.scalars) },
    nonZeroRequested: { ...info.nonZeroRequested },
    pods: new Map(info.pods),
    usedPorts: info.usedPorts.slice(),
    nominated: new Map(info.nominated),
  };
}

/** NodeInfo.AddPodInfo: sums, count, ports, affinity counters. */
export function addPodToNode(info: NodeInfo, e: PodEntry): void {
  if (info.pods.has(e.key)) removePodFromNode(info, e.key);
  info.pods.set(e.key, e);
  updateSums(info, e, 1);
  for (const p of e.hostPorts) info.usedPorts.push({ ...p, podKey: e.key });
}

/** NodeInfo.RemovePod; returns the removed entry. */
export function removePodFromNode(info: NodeInfo, key: string): PodEntry | undefined {
  const e = info.pods.get(key);
  if (!e) return undefined;
  info.pods.delete(key);
  updateSums(info, e, -1);
  if (e.hostPorts.length > 0) info.usedPorts = info.usedPorts.filter((p) => p.podKey !== key);
  return e;
}

function updateSums(info: NodeInfo, e: PodEntry, sign: 1 | -1): void {
  const r = info.requested;
  r.cpu += sign * e.request.cpu;
  r.memory += sign * e.request.memory;
  r.ephemeralStorage += sign * e.request.ephemeralStorage;
  for (const [k, v] of e.request.scalars) {
    const next = (r.scalars.get(k) ?? 0) + sign * v;
    if (next === 0) r.scalars.delete(k);
    else r.scalars.set(k, next);
  }
  info.nonZeroRequested.cpu += sign * e.nonZeroCpu;
  info.nonZeroRequested.memory += sign * e.nonZeroMemory;
  if (e.hasRequiredAffinity) info.podsWithAffinity += sign;
  if (hasRequiredAntiAffinity(e)) info.podsWithRequiredAntiAffinity += sign;
}

/** HostPortInfo.CheckConflict: 0.0.0.0 conflicts with any IP on the same protocol/port. */
export function hostPortConflicts(used: readonly HostPort[], want: HostPort): boolean {
  if (want.port <= 0) return false;
  for (const u of used) {
    if (u.port !== want.port || u.protocol !== want.protocol) continue;
    if (want.ip === '0.0.0.0' || u.ip === '0.0.0.0' || u.ip === want.ip) return true;
  }
  return false;
}

function isBound(pod: Pod | undefined): pod is Pod {
  return !!pod && !!pod.spec.nodeName && !isTerminal(pod);
}

function nominatedNodeOf(pod: Pod | undefined): string | null {
  if (!pod || pod.spec.nodeName || isTerminal(pod)) return null;
  return pod.status?.nominatedNodeName || null;
}

/**
 * One pod shape's verdicts on the nodes of an anchor index (`anchorOf`), by position in its
 * node list, shared by the schedulers of every fork of it (each fix a convergence verifies is one; engine/scheduler/schedule.ts fills and reads them):
 * filled on the nodes a fork visits that are still the anchor's own, so each is filtered once for all
 * forks. Once every node is known, only the feasible positions and their scores are kept (and, for a
 * shape that fits no node, every node's verdict: its attempts read them all for the message), and an
 * attempt visits those and the fork's changed nodes, nothing else.
 */
export interface SharedRow {
  known: Uint8Array | null;
  score: Float64Array | null;
  /** The failing status of each position known to fail. */
  status: Map<number, PluginStatus | undefined> | null;
  filled: number;
  /** Once every node is known: the feasible positions, ascending, with their scores. */
  feasible: Int32Array | null;
  feasibleScore: Float64Array | null;
}

/** The Derived index; obtain it with `nodeInfoIndex(snapshot)`. */
export class NodeInfoIndex implements Derived {
  static readonly KEY = 'scheduler.node-info';
  private nodes: Map<string, NodeInfo>;
  /** `nodes` is shared with a fork (or the index forked from): copy it before the next write. */
  private nodesShared = false;
  /** node names whose NodeInfo this fork may mutate in place. */
  private owned: Set<string>;
  private names: readonly string[] | null;
  /** Number of assigned pods with required anti-affinity, cluster-wide (InterPodAffinity PreFilter shortcut). */
  private antiAffinityPods: number;
  /** The request vectors this index's entries share, with every fork of it. */
  private readonly requests: RequestPool;
  /**
   * Names of the nodes written (in write order, repeats kept) since a scheduling cache started following
   * this index (`followChanges`); null while none does, so an index nobody follows keeps no log.
   */
  private changeLog: string[] | null = null;
  /** Writes so far (every `writable` call): an index whose count moved is not the one a table was built on. */
  private writes = 0;
  /**
   * The index this one was forked from (directly or through forks that had not diverged from it) as it
   * stood then, and the nodes written on the way since: every other node's info is the anchor's own
   * object. Null on an index built from a snapshot. Schedulers of many forks of one state share what
   * they learn of its unchanged nodes through it (schedule.ts SharedVerdicts).
   */
  private lineage: { anchor: NodeInfoIndex; anchorWrites: number; touched: Set<string> } | null = null;
  /** What schedulers of forks anchored here learned (schedule.ts), with `writes` when it was started. */
  sharedTables: { writes: number; names: readonly string[]; rows: Map<string, SharedRow> } | null = null;

  private constructor(
    nodes: Map<string, NodeInfo>,
    owned: Set<string>,
    names: readonly string[] | null,
    antiAffinityPods: number,
    requests: RequestPool,
  ) {
    this.nodes = nodes;
    this.requests = requests;
    this.owned = owned;
    this.names = names;
    this.antiAffinityPods = antiAffinityPods;
  }

  static build(snapshot: Snapshot): NodeInfoIndex {
    const index = new NodeInfoIndex(new Map(), new Set(), null, 0, new RequestPool());
    for (const n of snapshot.iterate('Node')) index.onChange('Node', undefined, n);
    for (const p of snapshot.iterate('Pod')) index.onChange('Pod', undefined, p);
    return index;
  }

  /**
   * Where the next scheduling cycle starts looking (schedule_one.go nextStartNodeIndex): kube-scheduler
   * stops after numFeasibleNodesToFind feasible nodes and rotates the start, so placements spread.
   */
  nextStartNodeIndex = 0;

  fork(): NodeInfoIndex {
    // The sorted names are computed once here, so every fork of an unchanged index shares them; the
    // node map itself is shared until either side writes (a question's fork usually never does).
    const f = new NodeInfoIndex(this.nodes, new Set(), this.nodeNames(), this.antiAffinityPods, this.requests);
    f.nodesShared = true;
    this.nodesShared = true;
    f.nextStartNodeIndex = this.nextStartNodeIndex;
    const l = this.anchorOf();
    f.lineage = l
      ? { anchor: l.anchor, anchorWrites: this.lineage!.anchorWrites, touched: new Set(l.touched) }
      : { anchor: this, anchorWrites: this.writes, touched: new Set() };
    // NodeInfos are now shared: this side must copy before its next change too.
    this.owned.clear();
    return f;
  }

  /**
   * The anchor (see `lineage`) while it has not been written since, with the nodes whose info here may
   * differ from its; null when there is none or it changed.
   */
  anchorOf(): { anchor: NodeInfoIndex; touched: ReadonlySet<string> } | null {
    const l = this.lineage;
    if (!l || l.anchor.writes !== l.anchorWrites) return null;
    return { anchor: l.anchor, touched: l.touched };
  }

  /** Writes to this index so far (a table built on it holds while this is unchanged). */
  writeCount(): number {
    return this.writes;
  }

  onChange(kind: string, prev: KObject | undefined, next: KObject | undefined): void {
    if (kind === 'Pod') this.changePod(prev as Pod | undefined, next as Pod | undefined);
    else if (kind === 'Node') this.changeNode(prev as Node | undefined, next as Node | undefined);
  }

  /**
   * Starts logging which nodes are written (if not already) and returns the log's current position:
   * `changesSince(position)` then names every node whose info changed after this call.
   */
  followChanges(): number {
    this.changeLog ??= [];
    return this.changeLog.length;
  }

  /** Nodes written since `position` (from `followChanges`, plus what earlier calls returned). */
  changesSince(position: number): readonly string[] {
    const log = this.changeLog;
    return log && position < log.length ? log.slice(position) : [];
  }

  private writable(name: string): NodeInfo {
    // Every change to a node's info comes through here (fresh, cloned or owned alike).
    this.changeLog?.push(name);
    this.writes++;
    this.lineage?.touched.add(name);
    if (this.nodesShared) {
      this.nodes = new Map(this.nodes);
      this.nodesShared = false;
    }
    let info = this.nodes.get(name);
    if (!info) {
      info = newNodeInfo(name);
      this.nodes.set(name, info);
      this.owned.add(name);
    } else if (!this.owned.has(name)) {
      info = cloneNodeInfo(info);
      this.nodes.set(name, info);
      this.owned.add(name);
    }
    return info;
  }

  private changeNode(prev: Node | undefined, next: Node | undefined): void {
    const name = (next ?? prev)?.metadata.name ?? '';
    const info = this.writable(name);
    setNode(info, next ?? null);
    if (!prev || !next) this.names = null;
  }

  private changePod(prev: Pod | undefined, next: Pod | undefined): void {
    if (isBound(prev)) {
      const removed = removePodFromNode(this.writable(prev.spec.nodeName!), formatPodKey(prev));
      if (removed && hasRequiredAntiAffinity(removed)) this.antiAffinityPods--;
    }
    const prevNominated = nominatedNodeOf(prev);
    if (prevNominated && prev) this.writable(prevNominated).nominated.delete(formatPodKey(prev));
    if (isBound(next)) {
      const e = makePodEntry(next, true, this.requests);
      addPodToNode(this.writable(next.spec.nodeName!), e);
      if (hasRequiredAntiAffinity(e)) this.antiAffinityPods++;
    }
    const nextNominated = nominatedNodeOf(next);
    if (nextNominated && next)
      this.writable(nextNominated).nominated.set(formatPodKey(next), makePodEntry(next, false, this.requests));
  }

  /** Names of the nodes that have a Node object, sorted (the scheduler snapshot's node list). */
  nodeNames(): readonly string[] {
    if (!this.names) {
      const out: string[] = [];
      for (const [name, info] of this.nodes) if (info.node) out.push(name);
      this.names = out.sort();
    }
    return this.names;
  }

  /** A node's info (read-only: clone it with `cloneNodeInfo` before simulating changes). */
  get(name: string): NodeInfo | undefined {
    const info = this.nodes.get(name);
    return info?.node ? info : undefined;
  }

  hasRequiredAntiAffinityPods(): boolean {
    return this.antiAffinityPods > 0;
  }
}

export function nodeInfoIndex(snapshot: Snapshot): NodeInfoIndex {
  return snapshot.derive(NodeInfoIndex.KEY, (s) => NodeInfoIndex.build(s));
}

/** Allocatable minus requested for cpu (milli) and memory (bytes): the headroom a new pod can use. */
export function freeResources(info: NodeInfo): { cpu: number; memory: number; pods: number } {
  return {
    cpu: info.allocatable.cpu - info.requested.cpu,
    memory: info.allocatable.memory - info.requested.memory,
    pods: info.allowedPods - info.pods.size,
  };
}
