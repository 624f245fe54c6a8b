/**
 * Namespace headroom (`/quota team-a`, `quota-doctor quota NS`): per quota hard / used / free, the
 * LimitRange defaults, how many more pods of the namespace's default shape fit and what stops them
 * (a quota resource or the nodes), the same per workload, and the largest pod that schedules now.
 *
 * Quota bounds are exact (⌊free / per-pod usage⌋ for every matching quota). The node bound counts, per
 * node that passes the non-resource filters for the pod, ⌊free / request⌋ of cpu and memory and the
 * free pod slots — the scheduler's own arithmetic, without running it once per replica.
 */
import type { Pod, ResourceQuota, Workload } from '../k8s/objects.ts';
import type { Derived, KObject, Snapshot } from '../k8s/snapshot.ts';
import { Quantity, byteCompare, resourceList, type ResourceList } from '../quantity.ts';
import { evaluatorFor, quotaMatches } from './admission/resourcequota.ts';
import { scopeRequirements } from './admission/scopes.ts';
import { admitObject, type AdmissionResult } from './admit.ts';
import { podUsage } from './admission/evaluators/pods.ts';
import {
  freeResources,
  isScalarResourceName,
  nodeInfoIndex,
  projectResources,
  type NodeInfo,
} from './scheduler/node-info.ts';
import { schedulePod } from './scheduler/schedule.ts';
import { perPodRequests, podRequests, isTerminal } from './pod-resources.ts';
import { expandWorkload, podTemplateHash, workloadReplicas, workloadTemplate } from './workloads.ts';
import { formatMemoryFloor, ownerOf, quotaCounts, quotaHolders, refOf } from './fixes.ts';

export interface QuotaHeadroom {
  name: string;
  scopes: string[];
  resources: Record<string, { hard: string; used: string; free: string }>;
  /** The resource closest to its hard limit (used / hard), null when the quota tracks nothing. */
  tightest: string | null;
  /** Who holds `tightest`: the pods this quota counts (its scopes applied), by owner, largest first. */
  holders: { ref: string; pods: number; pending: number; total: string }[];
  /** Pending pods this quota counts (they hold quota without running) and what they hold of each tracked resource. */
  pending: { pods: string[]; resources: Record<string, string> };
}

/** One node as `kubectl describe node` / kube-capacity show it, for the resources a namespace uses. */
export interface NodeCapacity {
  name: string;
  /** `cordoned`, `NotReady` (empty: schedulable and Ready). */
  status: string[];
  /** `key=value:Effect` (or `key:Effect`). */
  taints: string[];
  pods: { allocatable: number; count: number };
  resources: Record<string, { allocatable: string; requested: string; free: string }>;
}

/** A workload whose controller fails to create pods (FailedCreate events in the namespace). */
export interface FailedCreate {
  /** The workload people name (`deploy/worker` for its ReplicaSet's events). */
  ref: string;
  /** The object the events are about (`rs/worker-5d8c7b9f4`). */
  object: string;
  /** What refuses it, in a few words: `quota team-quota (pods)`, `LimitRange`, … */
  cause: string;
  message: string;
  count: number;
  first: string | null;
  last: string | null;
}

export interface FitCount {
  fits: number;
  /** A quota resource name (`pods`, `requests.cpu` …), `nodes`, or why the pod is refused outright. */
  limitedBy: string | null;
  /** The quota that binds, when limitedBy is a quota resource. */
  quota?: string;
  /** Refusal message when the pod is not admitted at all. */
  message?: string;
}

export interface WorkloadHeadroom extends FitCount {
  ref: string;
  kind: string;
  name: string;
  replicas: number;
  perPod: Record<string, string>;
}

export interface Headroom {
  namespace: string;
  quotas: QuotaHeadroom[];
  limitRanges: {
    name: string;
    type: string;
    default: Record<string, string>;
    defaultRequest: Record<string, string>;
    min: Record<string, string>;
    max: Record<string, string>;
    maxLimitRequestRatio: Record<string, string>;
  }[];
  defaultPod: FitCount & { requests: Record<string, string>; limits: Record<string, string> };
  largestSchedulablePod: { cpu: string; memory: string; node: string } | null;
  workloads: WorkloadHeadroom[];
  pending: { name: string; owner?: string; reason?: string }[];
  /** The resources the namespace uses (its pods' requests, its quotas): cpu, memory, then extended ones. */
  nodeResources: string[];
  /** Every node with a Node object, in name order. */
  nodes: NodeCapacity[];
  failedCreate: FailedCreate[];
  /** Cap on counted fits (a fit count at the cap means "at least"). */
  cap: number;
}

const CAP = 100_000;

function strings(list: Record<string, unknown> | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(list ?? {}).sort(byteCompare)) out[k] = Quantity.parse(list![k]).toString();
  return out;
}

/** How many more copies of `pod` the namespace admits and the nodes hold. */
export function countFits(state: Snapshot, pod: Pod, opts: { now?: number } = {}): FitCount {
  return fitsOf(state, pod, opts).fit;
}

/** Readings of one object that depend on that object alone (snapshot objects are never changed in place). */
interface Readings {
  quotaLists: WeakMap<object, { hard: ResourceList; used: ResourceList }>;
  perPod: WeakMap<object, Record<string, string>>;
  requestVectors: WeakMap<object, ReturnType<typeof projectResources>>;
  signatures: WeakMap<object, string | null>;
  templateHashes: WeakMap<object, string>;
}

type AdmissionMemo = WeakMap<object, { now: number | undefined; result: AdmissionResult<Pod> }>;

/**
 * What headroom remembers between answers, owned by the snapshot (a `Derived`, forked with it and told
 * of every write), never module-level state:
 * - `admissions`: per namespace, per workload object, the dry-run admission of its headroom pod. A
 *   write to an object of that namespace (any kind) drops the namespace's entries, and a write to any
 *   cluster-scoped object drops them all: admission reads only the pod's namespace and cluster-scoped
 *   objects, so a remembered answer is always the one this snapshot would give now, whatever kinds
 *   admission comes to read.
 * - `readings`: per-object readings (parsed quota lists, an admitted pod's per-pod requests, request
 *   vector and scheduling signature, a template's hash). They depend on the object alone (snapshot
 *   objects are never changed in place), so they are kept across writes and shared by every fork.
 */
export class HeadroomMemo implements Derived {
  static readonly KEY = 'headroom.memo';
  readonly readings: Readings;
  /**
   * Shared with the parent or a fork while neither side has written since the fork (both see the same
   * objects, so an admission remembered on one side holds for the other, and is added in place); the
   * first write on a side gives that side its own copy.
   */
  private admissions: Map<string, AdmissionMemo>;
  private ownsAdmissions: boolean;

  constructor(readings?: Readings, admissions?: Map<string, AdmissionMemo>) {
    this.readings = readings ?? {
      quotaLists: new WeakMap(),
      perPod: new WeakMap(),
      requestVectors: new WeakMap(),
      signatures: new WeakMap(),
      templateHashes: new WeakMap(),
    };
    this.admissions = admissions ?? new Map();
    this.ownsAdmissions = !admissions;
  }

  fork(): HeadroomMemo {
    this.ownsAdmissions = false;
    return new HeadroomMemo(this.readings, this.admissions);
  }

  onChange(_kind: string, prev: KObject | undefined, next: KObject | undefined): void {
    const ns = (next ?? prev)?.metadata.namespace;
    if (!ns) {
      this.admissions = new Map();
      this.ownsAdmissions = true;
      return;
    }
    if (!this.ownsAdmissions) {
      // A namespace's map stays shared: the other side has it only while it, too, has not written there.
      this.admissions = new Map(this.admissions);
      this.ownsAdmissions = true;
    }
    this.admissions.delete(ns);
  }

  admission(namespace: string, key: object, now: number | undefined): AdmissionResult<Pod> | undefined {
    const hit = this.admissions.get(namespace)?.get(key);
    return hit && hit.now === now ? hit.result : undefined;
  }

  remember(namespace: string, key: object, now: number | undefined, result: AdmissionResult<Pod>): void {
    let memo = this.admissions.get(namespace);
    if (!memo) this.admissions.set(namespace, (memo = new WeakMap()));
    memo.set(key, { now, result });
  }
}

/** The snapshot's headroom memo. */
export function headroomMemo(state: Snapshot): HeadroomMemo {
  return state.derive(HeadroomMemo.KEY, () => new HeadroomMemo());
}

/** admitObject (dry run); with `memoKey` (the workload the pod is made from), remembered until a write it could read (above). */
function admitDryRun(state: Snapshot, pod: Pod, now: number | undefined, memoKey?: object): AdmissionResult<Pod> {
  if (!memoKey) return admitObject(pod, state, { now, dryRun: true });
  const ns = pod.metadata.namespace ?? 'default';
  const memo = headroomMemo(state);
  const hit = memo.admission(ns, memoKey, now);
  if (hit) return hit;
  const result = admitObject(pod, state, { now, dryRun: true });
  memo.remember(ns, memoKey, now, result);
  return result;
}

/** countFits, and the pod as admission left it (defaults applied), from one dry-run admission. */
function fitsOf(state: Snapshot, pod: Pod, opts: { now?: number }, memoKey?: object): { fit: FitCount; admitted: Pod } {
  const ns = pod.metadata.namespace ?? 'default';
  const adm = admitDryRun(state, pod, opts.now, memoKey);
  const admitted = adm.object;
  if (!adm.allowed) {
    const f = adm.quota?.failure;
    // Full quota: zero more fit, stopped by that resource. Anything else refuses the pod outright.
    if (f?.type === 'exceeded') return { fit: { fits: 0, limitedBy: f.exceeded[0]!, quota: f.quota }, admitted };
    return {
      fit: {
        fits: 0,
        limitedBy: adm.layer === 'limitrange' ? 'limitrange' : f?.type === 'must-specify' ? 'must-specify' : adm.layer,
        message: adm.message ?? undefined,
      },
      admitted,
    };
  }
  // Quota bound: every matching quota, every tracked resource the pod uses.
  let best: FitCount = { fits: CAP, limitedBy: null };
  const ev = evaluatorFor(admitted)!;
  const usage = ev.usage(admitted, { now: opts.now });
  for (const q of state.list('ResourceQuota', ns)) {
    if (!quotaMatches(ev, q, admitted)) continue;
    const { hard, used } = quotaLists(state, q);
    for (const [k, h] of hard) {
      const u = usage.get(k);
      if (!u || u.sign() <= 0) continue;
      const free = h.sub(used.get(k) ?? Quantity.zero());
      const n = free.sign() <= 0 ? 0 : Number(free.nanos / u.nanos);
      if (n < best.fits || (n === best.fits && best.limitedBy === null))
        best = { fits: n, limitedBy: k, quota: q.metadata.name };
    }
  }
  // Node bound.
  const nodes = nodeBound(state, admitted);
  if (nodes < best.fits) best = { fits: nodes, limitedBy: 'nodes' };
  return { fit: best, admitted };
}

/** A quota's status.hard / status.used, parsed once per (immutable) quota object. */
function quotaLists(state: Snapshot, q: ResourceQuota): { hard: ResourceList; used: ResourceList } {
  const cache = headroomMemo(state).readings.quotaLists;
  let hit = cache.get(q);
  if (!hit) cache.set(q, (hit = { hard: resourceList(q.status?.hard), used: resourceList(q.status?.used) }));
  return hit;
}

/**
 * Nodes a pod can never use whatever its size (taints, affinity, cordons…), cached per scheduling
 * signature — for pods whose own spec makes eligibility independent of other pods. Dropped when what
 * the filters read for such a pod changes: a Node, a volume, a Namespace (an existing pod's
 * anti-affinity term may select namespaces by label), or a Pod with required anti-affinity (it can
 * exclude nodes for the incoming pod: InterPodAffinity's existing-anti-affinity check).
 */
class EligibilityCache implements Derived {
  static readonly KEY = 'headroom.eligibility';
  map = new Map<string, Set<string>>();
  fork(): EligibilityCache {
    const c = new EligibilityCache();
    c.map = this.map;
    return c;
  }
  onChange(kind: string, prev: KObject | undefined, next: KObject | undefined): void {
    const drop =
      kind === 'Pod'
        ? hasRequiredAntiAffinity(prev) || hasRequiredAntiAffinity(next)
        : kind === 'Node' || kind === 'PersistentVolumeClaim' || kind === 'PersistentVolume' || kind === 'Namespace';
    if (drop) this.map = new Map();
  }
}

function hasRequiredAntiAffinity(obj: KObject | undefined): boolean {
  return (
    ((obj as Pod | undefined)?.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution
      ?.length ?? 0) > 0
  );
}

function signatureOf(state: Snapshot, pod: Pod): string | null {
  const signatures = headroomMemo(state).readings.signatures;
  let sig = signatures.get(pod);
  if (sig === undefined) signatures.set(pod, (sig = computeSignature(pod)));
  return sig;
}

function computeSignature(pod: Pod): string | null {
  const s = pod.spec;
  if (s.affinity?.podAffinity || s.affinity?.podAntiAffinity || (s.topologySpreadConstraints?.length ?? 0) > 0)
    return null;
  if ((s.volumes ?? []).some((v) => v.persistentVolumeClaim || v.ephemeral)) return null;
  if ([...s.containers, ...(s.initContainers ?? [])].some((c) => (c.ports ?? []).some((p) => p.hostPort))) return null;
  return JSON.stringify([
    s.nodeSelector ?? null,
    s.affinity?.nodeAffinity ?? null,
    s.tolerations ?? null,
    s.nodeName ?? null,
    s.schedulerName ?? null,
    s.schedulingGates ?? null,
  ]);
}

/** The excluded nodes, and whether the set is the EligibilityCache's (so tables built on it may be kept). */
function excludedNodes(state: Snapshot, pod: Pod): { excluded: Set<string>; cached: boolean } {
  const sig = signatureOf(state, pod);
  const cache = sig ? state.derive(EligibilityCache.KEY, () => new EligibilityCache()) : null;
  const hit = sig && cache ? cache.map.get(sig) : undefined;
  if (hit) return { excluded: hit, cached: true };
  // Probe with the pod's requests removed: the nodes that still fail are excluded by taints, affinity…
  // Claims a controller has yet to create (a StatefulSet's volumeClaimTemplates) are left out: the probe
  // asks where another copy could go, not whether its claim exists yet.
  const ns = pod.metadata.namespace ?? 'default';
  const volumes = pod.spec.volumes?.filter(
    (v) => !v.persistentVolumeClaim || state.get('PersistentVolumeClaim', ns, v.persistentVolumeClaim.claimName),
  );
  const probe: Pod = {
    ...pod,
    spec: {
      ...pod.spec,
      nodeName: undefined,
      containers: pod.spec.containers.map((c) => ({ ...c, resources: {} })),
      initContainers: (pod.spec.initContainers ?? []).map((c) => ({ ...c, resources: {} })),
      overhead: undefined,
      resources: undefined,
      ...(pod.spec.volumes ? { volumes } : {}),
    },
  };
  const res = schedulePod(state, probe, { evaluateAllNodes: true });
  const excluded = new Set<string>();
  if (!res.scheduled && res.nodeStatuses.size === 0) for (const n of nodeInfoIndex(state).nodeNames()) excluded.add(n);
  for (const [node, st] of res.nodeStatuses) if (!st.reasons.every((r) => r === 'Too many pods')) excluded.add(node);
  if (sig && cache) cache.map.set(sig, excluded);
  return { excluded, cached: !!(sig && cache) };
}

/** Free capacity of the eligible nodes as flat arrays: one tight loop per pod shape. */
interface FreeTable {
  cpu: Float64Array;
  mem: Float64Array;
  eph: Float64Array;
  pods: Float64Array;
  infos: NodeInfo[];
  /** nodeBound per request shape (cpu/memory/ephemeral-storage, no scalars): the table never changes. */
  bounds: Map<string, number>;
}

/**
 * Free tables per eligible-node set (the EligibilityCache's Set, by identity), kept while no Pod or
 * Node changes: a fork of an unchanged snapshot (every question the live cache answers) shares them.
 */
class FreeTableCache implements Derived {
  static readonly KEY = 'headroom.free-tables';
  /** Shared by every fork until one of them sees a change. */
  shared: { tables: Map<Set<string>, FreeTable>; largest?: { value: Headroom['largestSchedulablePod'] } } = {
    tables: new Map(),
  };
  fork(): FreeTableCache {
    const c = new FreeTableCache();
    c.shared = this.shared;
    return c;
  }
  onChange(kind: string): void {
    if (kind === 'Node' || kind === 'Pod') this.shared = { tables: new Map() };
  }
}

function nodeTables(state: Snapshot): FreeTableCache['shared'] {
  return state.derive(FreeTableCache.KEY, () => new FreeTableCache()).shared;
}

function freeTableFor(state: Snapshot, excluded: Set<string>, keep: boolean): FreeTable {
  const perState = keep ? nodeTables(state).tables : undefined;
  const hit = perState?.get(excluded);
  if (hit) return hit;
  const index = nodeInfoIndex(state);
  const infos: NodeInfo[] = [];
  for (const name of index.nodeNames()) {
    if (excluded.has(name)) continue;
    const info = index.get(name);
    if (info) infos.push(info);
  }
  const t: FreeTable = {
    cpu: new Float64Array(infos.length),
    mem: new Float64Array(infos.length),
    eph: new Float64Array(infos.length),
    pods: new Float64Array(infos.length),
    infos,
    bounds: new Map(),
  };
  // freeResources' arithmetic, without an object per node.
  for (let i = 0; i < infos.length; i++) {
    const info = infos[i]!;
    const a = info.allocatable;
    const r = info.requested;
    t.cpu[i] = Math.max(0, a.cpu - r.cpu);
    t.mem[i] = Math.max(0, a.memory - r.memory);
    t.eph[i] = Math.max(0, a.ephemeralStorage - r.ephemeralStorage);
    t.pods[i] = Math.max(0, info.allowedPods - info.pods.size);
  }
  perState?.set(excluded, t);
  return t;
}

/** Σ over nodes passing the non-resource filters of how many copies fit there. */
export function nodeBound(state: Snapshot, pod: Pod): number {
  const req = requestVectorOf(state, pod);
  const { excluded, cached } = excludedNodes(state, pod);
  const t = freeTableFor(state, excluded, cached);
  const key = req.scalars.size === 0 ? `${req.cpu}/${req.memory}/${req.ephemeralStorage}` : undefined;
  const hit = key === undefined ? undefined : t.bounds.get(key);
  if (hit !== undefined) return hit;
  const total = sumFits(t, req);
  if (key !== undefined) t.bounds.set(key, total);
  return total;
}

function sumFits(t: FreeTable, req: ReturnType<typeof projectResources>): number {
  let total = 0;
  for (let i = 0; i < t.infos.length; i++) {
    let n = t.pods[i]!;
    if (req.cpu > 0) n = Math.min(n, Math.floor(t.cpu[i]! / req.cpu));
    if (req.memory > 0) n = Math.min(n, Math.floor(t.mem[i]! / req.memory));
    if (req.ephemeralStorage > 0) n = Math.min(n, Math.floor(t.eph[i]! / req.ephemeralStorage));
    if (req.scalars.size > 0) {
      const info = t.infos[i]!;
      for (const [r, v] of req.scalars)
        if (v > 0)
          n = Math.min(
            n,
            Math.floor(Math.max(0, (info.allocatable.scalars.get(r) ?? 0) - (info.requested.scalars.get(r) ?? 0)) / v),
          );
    }
    total += n;
    if (total >= CAP) return CAP;
  }
  return total;
}

export function computeHeadroom(state: Snapshot, namespace: string, opts: { now?: number } = {}): Headroom {
  const quotas: QuotaHeadroom[] = state.list('ResourceQuota', namespace).map((q) => {
    const hard = resourceList(q.status?.hard ?? q.spec?.hard);
    const used = resourceList(q.status?.used);
    const resources: QuotaHeadroom['resources'] = {};
    let tightest: string | null = null;
    let tightestFraction = -1n;
    for (const k of [...hard.keys()].sort(byteCompare)) {
      const h = hard.get(k)!;
      const u = used.get(k) ?? Quantity.zero();
      const free = h.sub(u);
      resources[k] = {
        hard: h.toString(),
        used: u.toString(),
        free: (free.sign() < 0 ? Quantity.zero() : free).toString(),
      };
      // used / hard in millionths (a zero hard limit is full).
      const fraction = h.sign() > 0 ? (u.nanos * 1_000_000n) / h.nanos : 1_000_000n;
      if (fraction > tightestFraction) {
        tightestFraction = fraction;
        tightest = k;
      }
    }
    return {
      name: q.metadata.name ?? '',
      scopes: scopeRequirements(q).map((s) =>
        s.operator === 'Exists' ? s.scopeName : `${s.scopeName} ${s.operator} ${(s.values ?? []).join(',')}`,
      ),
      resources,
      tightest,
      holders: tightest
        ? quotaHolders(state, namespace, tightest, opts.now, quotaCounts(state, namespace, q.metadata.name ?? '')).map(
            (h) => ({
              ref: h.ref,
              pods: h.pods,
              pending: h.pending,
              total: h.total.toString(),
            }),
          )
        : [],
      pending: pendingHeld(state, q, [...hard.keys()], opts.now),
    };
  });
  const limitRanges = state.list('LimitRange', namespace).flatMap((lr) =>
    lr.spec.limits.map((item) => ({
      name: lr.metadata.name ?? '',
      type: item.type,
      default: strings(item.default),
      defaultRequest: strings(item.defaultRequest),
      min: strings(item.min),
      max: strings(item.max),
      maxLimitRequestRatio: strings(item.maxLimitRequestRatio),
    })),
  );
  const probe: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'quota-doctor-probe', namespace },
    spec: { containers: [{ name: 'app', image: 'app' }] },
  } as Pod;
  const { fit, admitted } = fitsOf(state, probe, opts);
  const defaultPod = {
    ...fit,
    requests: strings(admitted.spec.containers[0]?.resources?.requests),
    limits: strings(admitted.spec.containers[0]?.resources?.limits),
  };

  const workloads: WorkloadHeadroom[] = [];
  for (const kind of ['Deployment', 'StatefulSet', 'ReplicaSet', 'Job'] as const) {
    for (const w of state.list(kind, namespace)) {
      // ReplicaSets owned by a Deployment are counted under the Deployment.
      if (kind === 'ReplicaSet' && w.metadata.ownerReferences?.some((o) => o.kind === 'Deployment')) continue;
      const pod = headroomPod(state, w);
      if (!pod) continue;
      pod.metadata.name = `${w.metadata.name}-headroom`;
      const { fit: f, admitted: admittedPod } = fitsOf(state, pod, opts, w);
      workloads.push({
        ...f,
        ref: refOf(kind, w.metadata.name ?? ''),
        kind,
        name: w.metadata.name ?? '',
        replicas: workloadReplicas(w),
        perPod: shownPerPod(state, admittedPod),
      });
    }
  }

  const pending: Headroom['pending'] = [];
  for (const p of state.iterate('Pod', namespace)) {
    if (p.spec.nodeName || isTerminal(p)) continue;
    const owner = ownerOf(state, p);
    const cond = p.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False');
    pending.push({
      name: p.metadata.name ?? '',
      owner: owner ? refOf(owner.kind, owner.name) : undefined,
      reason: cond?.message ?? undefined,
    });
  }
  pending.sort((a, b) => byteCompare(a.name, b.name));
  const nodeResources = namespaceResources(state, namespace);
  return {
    namespace,
    quotas,
    limitRanges,
    defaultPod,
    largestSchedulablePod: largestSchedulablePod(state),
    workloads,
    pending,
    nodeResources,
    nodes: nodeCapacities(state, nodeResources),
    failedCreate: failedCreates(state, namespace),
    cap: CAP,
  };
}

/** The Pending pods (not bound to a node, not finished) a quota counts, and their usage of `tracked`. */
function pendingHeld(state: Snapshot, q: ResourceQuota, tracked: string[], now?: number): QuotaHeadroom['pending'] {
  const ns = q.metadata.namespace ?? 'default';
  const pods: string[] = [];
  const sums = new Map<string, Quantity>();
  for (const p of state.iterate('Pod', ns)) {
    if (p.spec.nodeName || isTerminal(p)) continue;
    const ev = evaluatorFor(p);
    if (!ev || !quotaMatches(ev, q, p)) continue;
    pods.push(p.metadata.name ?? '');
    const usage = podUsage(p, { now });
    for (const k of tracked) {
      const u = usage.get(k);
      if (u && u.sign() > 0) sums.set(k, (sums.get(k) ?? Quantity.zero(u.format)).add(u));
    }
  }
  const resources: Record<string, string> = {};
  for (const k of [...sums.keys()].sort(byteCompare)) resources[k] = sums.get(k)!.toString();
  return { pods: pods.sort(byteCompare), resources };
}

const NATIVE = ['cpu', 'memory', 'ephemeral-storage'];

/**
 * The resources a namespace uses: cpu and memory always, ephemeral-storage and extended resources
 * (nvidia.com/gpu, hugepages-…) when a pod or workload template of the namespace requests them or a
 * quota of it tracks them (`requests.nvidia.com/gpu`).
 */
export function namespaceResources(state: Snapshot, ns: string): string[] {
  const found = new Set<string>(['cpu', 'memory']);
  const add = (name: string) => {
    const r = name.replace(/^(requests|limits)\./, '');
    if (NATIVE.includes(r) || isScalarResourceName(r)) found.add(r);
  };
  for (const q of state.list('ResourceQuota', ns))
    for (const k of Object.keys(q.status?.hard ?? q.spec?.hard ?? {})) add(k);
  for (const p of state.iterate('Pod', ns)) {
    if (isTerminal(p)) continue;
    for (const [k, v] of podRequests(p)) if (v.sign() > 0) add(k);
  }
  for (const kind of ['Deployment', 'StatefulSet', 'ReplicaSet', 'Job', 'DaemonSet', 'CronJob'] as const)
    for (const w of state.list(kind, ns)) {
      const spec = workloadTemplate(w).spec;
      for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])])
        for (const k of Object.keys(c.resources?.requests ?? {})) add(k);
    }
  const rank = (r: string) => (NATIVE.includes(r) ? NATIVE.indexOf(r) : NATIVE.length);
  return [...found].sort((a, b) => rank(a) - rank(b) || byteCompare(a, b));
}

function taintText(t: { key: string; value?: string | null; effect: string }): string {
  return `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`;
}

/** Allocatable, requested (by every pod bound there, as the scheduler counts) and free per node. */
export function nodeCapacities(state: Snapshot, resources: string[]): NodeCapacity[] {
  const index = nodeInfoIndex(state);
  const out: NodeCapacity[] = [];
  for (const name of [...index.nodeNames()].sort(byteCompare)) {
    const info = index.get(name);
    if (!info?.node) continue;
    const status: string[] = [];
    if (info.unschedulable) status.push('cordoned');
    const ready = info.node.status?.conditions?.find((c) => c.type === 'Ready');
    if (ready && ready.status !== 'True') status.push('NotReady');
    const res: NodeCapacity['resources'] = {};
    for (const r of resources) {
      const pick = (v: typeof info.allocatable): number =>
        r === 'cpu'
          ? v.cpu
          : r === 'memory'
            ? v.memory
            : r === 'ephemeral-storage'
              ? v.ephemeralStorage
              : (v.scalars.get(r) ?? 0);
      const a = pick(info.allocatable);
      const q = pick(info.requested);
      const f = Math.max(0, a - q);
      res[r] =
        r === 'cpu'
          ? {
              allocatable: Quantity.fromMilli(a).toString(),
              requested: Quantity.fromMilli(q).toString(),
              free: Quantity.fromMilli(f).toString(),
            }
          : r === 'memory' || r === 'ephemeral-storage' || r.startsWith('hugepages-')
            ? { allocatable: formatMemoryFloor(a), requested: formatMemoryFloor(q), free: formatMemoryFloor(f) }
            : { allocatable: String(a), requested: String(q), free: String(f) };
    }
    out.push({
      name,
      status,
      taints: info.taints.map(taintText),
      pods: { allocatable: info.allowedPods, count: info.pods.size },
      resources: res,
    });
  }
  return out;
}

function timestamp(v: string | Date | null | undefined): string | null {
  if (!v) return null;
  return typeof v === 'string' ? v : v.toISOString();
}

/** What a FailedCreate message says refused the pod, in a few words. */
function failedCreateCause(message: string): string {
  let m: RegExpExecArray | null;
  if ((m = /exceeded quota: ([^,\s]+), requested: ([^,\s=]+)/.exec(message))) return `quota ${m[1]} (${m[2]})`;
  if ((m = /failed quota: ([^:\s]+): must specify/.exec(message)))
    return `quota ${m[1]} (must specify limits or requests)`;
  if (/per (?:Container|Pod|PersistentVolumeClaim)|LimitRange/.test(message)) return 'LimitRange';
  if (/admission webhook/.test(message)) return 'admission webhook';
  if (/is invalid:/.test(message)) return 'validation';
  return 'API server';
}

/**
 * Workloads of the namespace whose controller cannot create pods: FailedCreate events, one entry per
 * object (the latest message, the counts summed), for objects that still exist. A ReplicaSet's events
 * are named by its Deployment.
 */
export function failedCreates(state: Snapshot, ns: string): FailedCreate[] {
  const byObject = new Map<string, FailedCreate & { lastSort: string }>();
  for (const e of state.list('Event', ns)) {
    if (e.reason !== 'FailedCreate') continue;
    const obj = e.involvedObject ?? e.regarding;
    const kind = obj?.kind ?? '';
    const name = obj?.name ?? '';
    if (!kind || !name || !state.get(kind, ns, name)) continue;
    const key = `${kind}/${name}`;
    const message = (e.message ?? e.note ?? '').replace(/^\(combined from similar events\): /, '');
    const first = timestamp(e.firstTimestamp ?? e.eventTime);
    const last = timestamp(e.lastTimestamp ?? e.eventTime ?? e.firstTimestamp);
    const count = e.count ?? 1;
    const prev = byObject.get(key);
    if (!prev) {
      let ref = refOf(kind, name);
      if (kind === 'ReplicaSet') {
        const dep = state.get('ReplicaSet', ns, name)?.metadata.ownerReferences?.find((o) => o.kind === 'Deployment');
        if (dep) ref = refOf('Deployment', dep.name);
      }
      byObject.set(key, {
        ref,
        object: refOf(kind, name),
        cause: failedCreateCause(message),
        message,
        count,
        first,
        last,
        lastSort: last ?? '',
      });
      continue;
    }
    prev.count += count;
    if (first && (!prev.first || first < prev.first)) prev.first = first;
    if ((last ?? '') >= prev.lastSort) {
      prev.last = last;
      prev.lastSort = last ?? '';
      prev.message = message;
      prev.cause = failedCreateCause(message);
    }
  }
  return [...byObject.values()]
    .sort((a, b) => byteCompare(b.lastSort, a.lastSort) || byteCompare(a.ref, b.ref))
    .map(({ lastSort: _, ...f }) => f);
}

/** The node with the most free cpu (then memory) that takes ordinary pods; kept while no Pod or Node changes. */
function largestSchedulablePod(state: Snapshot): Headroom['largestSchedulablePod'] {
  const tables = nodeTables(state);
  tables.largest ??= { value: findLargest(state) };
  const v = tables.largest.value;
  return v ? { ...v } : null;
}

function findLargest(state: Snapshot): Headroom['largestSchedulablePod'] {
  const index = nodeInfoIndex(state);
  let largest: Headroom['largestSchedulablePod'] = null;
  let bestCpu = -1;
  let bestMem = -1;
  for (const name of index.nodeNames()) {
    const info = index.get(name);
    if (!info || info.unschedulable || info.taints.some((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute'))
      continue;
    const f = freeResources(info);
    if (f.pods <= 0) continue;
    if (f.cpu > bestCpu || (f.cpu === bestCpu && f.memory > bestMem)) {
      bestCpu = f.cpu;
      bestMem = f.memory;
      largest = {
        cpu: Quantity.fromMilli(Math.max(0, f.cpu)).toString(),
        memory: formatMemoryFloor(Math.max(0, f.memory)),
        node: name,
      };
    }
  }
  return largest;
}

/** The docs/contract.md JSON of `quota NS` (extra fields are extensions). */
export function headroomJson(h: Headroom): Record<string, unknown> {
  return {
    namespace: h.namespace,
    quotas: h.quotas,
    limitRanges: h.limitRanges,
    defaultPod: {
      fits: h.defaultPod.fits,
      limitedBy: h.defaultPod.limitedBy,
      ...(h.defaultPod.quota ? { quota: h.defaultPod.quota } : {}),
    },
    largestSchedulablePod: h.largestSchedulablePod,
    workloads: h.workloads.map((w) => ({
      kind: w.kind,
      name: w.name,
      replicas: w.replicas,
      perPod: w.perPod,
      moreReplicasFit: w.fits,
      limitedBy: w.limitedBy,
      ...(w.quota ? { quota: w.quota } : {}),
    })),
    pendingPods: h.pending.map((p) => p.name),
    nodeResources: h.nodeResources,
    nodes: h.nodes,
    failedCreate: h.failedCreate,
  };
}

/*
 * What is read off an admitted pod is kept per admitted object (HeadroomMemo.readings): a remembered
 * admission (above) hands the same object out again, and it is never changed.
 */

/** An admitted pod's requests shown per pod: cpu, memory and extended resources. */
function shownPerPod(state: Snapshot, admitted: Pod): Record<string, string> {
  const perPod = headroomMemo(state).readings.perPod;
  let v = perPod.get(admitted);
  if (!v) perPod.set(admitted, (v = perPodRequests(admitted, { extended: true })));
  return { ...v };
}

function requestVectorOf(state: Snapshot, pod: Pod): ReturnType<typeof projectResources> {
  const requestVectors = headroomMemo(state).readings.requestVectors;
  let v = requestVectors.get(pod);
  if (!v) requestVectors.set(pod, (v = projectResources(podRequests(pod))));
  return v;
}

/**
 * The first pod the workload's controller would create (what `expandWorkload` makes with one replica),
 * without deep-copying the template's spec: the pod is only read here, and admission copies its input
 * before changing anything. The spec is expanded from a template with an empty spec, then the real
 * one is put in; a StatefulSet with claim templates (which adds volumes to the spec) takes the
 * ordinary path.
 */
function headroomPod(state: Snapshot, w: Workload): Pod | undefined {
  const template = workloadTemplate(w);
  if (
    w.kind === 'CronJob' ||
    ((w as { spec: { volumeClaimTemplates?: unknown[] | null } }).spec.volumeClaimTemplates?.length ?? 0) > 0
  ) {
    return expandWorkload(w, { replicas: 1, nodes: [] }).pods[0];
  }
  let existingReplicaSet: { name: string; hash: string } | undefined;
  if (w.kind === 'Deployment') {
    // The pod-template-hash is of the real template; hash it once per (immutable) template object.
    const templateHashes = headroomMemo(state).readings.templateHashes;
    let hash = templateHashes.get(template);
    if (hash === undefined) templateHashes.set(template, (hash = podTemplateHash(template)));
    existingReplicaSet = { name: `${w.metadata.name ?? 'workload'}-${hash}`, hash };
  }
  const light = { ...w, spec: { ...w.spec, template: { ...template, spec: {} } } } as Workload;
  const pod = expandWorkload(light, { replicas: 1, nodes: [], existingReplicaSet }).pods[0];
  if (pod) pod.spec = template.spec;
  return pod;
}

/** What a new node would take: per Pending pod, the node shapes (one per pool) that would schedule it. */
export interface NewNodeAnswer {
  /** One per pool (label `pool`, a cloud node-group label, else the instance type): the node copied. */
  shapes: { pool: string; like: string; allocatable: Record<string, string>; taints: string[] }[];
  pods: {
    namespace: string;
    name: string;
    requests: Record<string, string>;
    /** Pools whose new node would schedule it. */
    fitsOn: string[];
    /** Resources it requests beyond every node's allocatable (no node of any shape can ever hold it). */
    beyondEveryNode: { resource: string; requested: string; largest: string; node: string }[];
  }[];
}

const POOL_LABELS = [
  'pool',
  'node-pool',
  'cloud.google.com/gke-nodepool',
  'eks.amazonaws.com/nodegroup',
  'karpenter.sh/nodepool',
  'agentpool',
  'node.kubernetes.io/instance-type',
];

/**
 * Adds one node like an existing one of each pool (emptied, uncordoned, its other taints kept) and
 * schedules each Pending pod of `namespaces` on the changed state: which pools' new node would take it.
 * DaemonSet pods a real new node would also run are not counted (said by the reply).
 */
export function whatIfNewNode(state: Snapshot, namespaces: readonly string[], maxPods = 10): NewNodeAnswer {
  const index = nodeInfoIndex(state);
  const byPool = new Map<string, NodeInfo>();
  for (const name of [...index.nodeNames()].sort(byteCompare)) {
    const info = index.get(name);
    if (!info?.node) continue;
    if (info.taints.some((t) => t.key === 'node-role.kubernetes.io/control-plane')) continue;
    const pool = POOL_LABELS.map((l) => info.labels[l]).find((v) => v) ?? name;
    const prev = byPool.get(pool);
    if (!prev || info.allocatable.cpu > prev.allocatable.cpu) byPool.set(pool, info);
  }
  const shapes: NewNodeAnswer['shapes'] = [...byPool.entries()]
    .sort(([a], [b]) => byteCompare(a, b))
    .map(([pool, info]) => ({
      pool,
      like: info.name,
      allocatable: Object.fromEntries(
        Object.entries(strings(info.node!.status?.allocatable)).map(([k, v]) => [
          k,
          k === 'memory' ? formatMemoryFloor(Number(Quantity.parse(v).value())) : v,
        ]),
      ),
      taints: info.taints.filter((t) => t.key !== 'node.kubernetes.io/unschedulable').map(taintText),
    }));
  const pending: Pod[] = [];
  for (const ns of namespaces)
    for (const p of state.iterate('Pod', ns)) {
      if (p.spec.nodeName || isTerminal(p) || (p.spec.schedulingGates?.length ?? 0) > 0) continue;
      pending.push(p);
    }
  pending.sort(
    (a, b) =>
      byteCompare(a.metadata.namespace ?? '', b.metadata.namespace ?? '') ||
      byteCompare(a.metadata.name ?? '', b.metadata.name ?? ''),
  );
  const forks = shapes.map((s) => {
    const fork = state.fork();
    const like = byPool.get(s.pool)!.node!;
    const name = `new-${s.pool.replace(/[^a-z0-9-]/g, '-')}-node`;
    fork.put({
      ...like,
      metadata: {
        ...like.metadata,
        name,
        uid: undefined,
        resourceVersion: undefined,
        labels: { ...like.metadata.labels, 'kubernetes.io/hostname': name },
      },
      spec: {
        ...like.spec,
        unschedulable: false,
        taints: (like.spec?.taints ?? []).filter((t) => t.key !== 'node.kubernetes.io/unschedulable'),
      },
    } as KObject);
    return { pool: s.pool, fork, name };
  });
  // Largest allocatable of each resource over every node (what "beyond every node" compares with).
  const largest = new Map<string, { q: Quantity; node: string }>();
  for (const n of state.list('Node'))
    for (const [k, v] of resourceList(n.status?.allocatable)) {
      const prev = largest.get(k);
      if (!prev || v.cmp(prev.q) > 0) largest.set(k, { q: v, node: n.metadata.name ?? '' });
    }
  const pods: NewNodeAnswer['pods'] = pending.slice(0, maxPods).map((p) => {
    const req = podRequests(p);
    const beyond: NewNodeAnswer['pods'][number]['beyondEveryNode'] = [];
    for (const [k, v] of req) {
      if (v.sign() <= 0) continue;
      const l = largest.get(k);
      if (!l || v.cmp(l.q) > 0)
        beyond.push({ resource: k, requested: v.toString(), largest: l ? l.q.toString() : '0', node: l?.node ?? '' });
    }
    const fitsOn = beyond.length ? [] : forks.filter((f) => schedulePod(f.fork, p).node === f.name).map((f) => f.pool);
    return {
      namespace: p.metadata.namespace ?? '',
      name: p.metadata.name ?? '',
      requests: strings(Object.fromEntries([...req].map(([k, v]) => [k, v.toString()]))),
      fitsOn,
      beyondEveryNode: beyond,
    };
  });
  return { shapes, pods };
}
