/**
 * Fixes for a pod no node fits. Within the namespace: drop the workload's own Pending replicas (they
 * never ran: no running capacity lost), or request what the roomiest fitting node has free. For the
 * platform team: uncordon a cordoned node, a PriorityClass that lets the pod preempt lower-priority
 * pods, or a node of an existing pool's shape — and when no node shape of the cluster can hold the pod,
 * that is said instead of offering one. Tolerating a taint comes last, and only for nodes the pod
 * plausibly belongs on (it selects them, or asks for the resource only they have).
 */
import type { Node, Pod, Taint, Toleration } from '../../k8s/objects.ts';
import { admitObject } from '../admit.ts';
import { DAEMONSET_TOLERATIONS, shouldRun } from '../controllers/daemon_set.ts';
import type { Snapshot } from '../../k8s/snapshot.ts';
import { Quantity } from '../../quantity.ts';
import type { Change, ObjectRef } from '../changes/types.ts';
import { matchesRequiredNodeAffinity, readRequiredNodeAffinity } from '../scheduler/plugins/node-affinity.ts';
import { isTaintTolerated } from '../scheduler/plugins/taint-toleration.ts';
import { subjectWords } from '../diagnose/goal.ts';
import { podRequests } from '../pod-resources.ts';
import {
  freeResources,
  nodeInfoIndex,
  projectResources,
  type NodeInfo,
  type ResourceVector,
} from '../scheduler/node-info.ts';
import { podPriority } from '../priority.ts';
import { resourceChanges, templateMutable } from './changes.ts';
import { makeRoomPlans } from './makeroom.ts';
import { ownerOf, refOf } from './owners.ts';
import {
  biggestContainer,
  formatMemoryFloor,
  keepLimitRatio,
  podRequestVector,
  setContainerValue,
} from './pod-edit.ts';
import type { FixContext, Plan } from './types.ts';

export interface NodeGap {
  node: string;
  reasons: string[];
  /** For Insufficient cpu/memory: free now and how much is missing (canonical strings). */
  free?: Record<string, string>;
  short?: Record<string, string>;
}

/** Per node, what stops the pod and by how much (from the scheduler's per-node statuses). */
export function nodeGaps(state: Snapshot, pod: Pod, statuses: Map<string, { reasons: string[] }>): NodeGap[] {
  const index = nodeInfoIndex(state);
  const req = podRequestVector(pod);
  const out: NodeGap[] = [];
  for (const [node, st] of statuses) {
    const info = index.get(node);
    const gap: NodeGap = { node, reasons: st.reasons };
    if (info && st.reasons.some((r) => r.startsWith('Insufficient'))) {
      const f = freeResources(info);
      gap.free = {
        cpu: Quantity.fromMilli(Math.max(0, f.cpu)).toString(),
        memory: formatMemoryFloor(Math.max(0, f.memory)),
      };
      gap.short = {};
      if (req.cpu > f.cpu) gap.short.cpu = Quantity.fromMilli(req.cpu - Math.max(0, f.cpu)).toString();
      if (req.memory > f.memory)
        gap.short.memory = Quantity.fromInt(req.memory - Math.max(0, f.memory), 'BinarySI').toString();
    }
    out.push(gap);
  }
  return out;
}

/** The pod's request as the scheduler counts it (cpu in milli, memory in bytes, extended in units). */
const INSUFFICIENT = /^Insufficient /;

function requestOf(pod: Pod): ResourceVector {
  return projectResources(podRequests(pod));
}

/** Whether a node's allocatable holds the request at all (an empty node of this shape would fit it). */
function shapeHolds(alloc: ResourceVector, req: ResourceVector): boolean {
  if (req.cpu > alloc.cpu || req.memory > alloc.memory || req.ephemeralStorage > alloc.ephemeralStorage) return false;
  for (const [k, v] of req.scalars) if (v > (alloc.scalars.get(k) ?? 0)) return false;
  return true;
}

function words(resource: string, v: number): string {
  if (resource === 'cpu') return `${Quantity.fromMilli(v)} CPU`;
  if (resource === 'memory' || resource === 'ephemeral-storage')
    return `${Quantity.fromInt(v, 'BinarySI')} ${resource}`;
  return `${v} ${resource}`;
}

function allocWords(resource: string, v: number): string {
  if (resource === 'cpu') return v % 1000 === 0 ? `${v / 1000} CPU` : `${Quantity.fromMilli(v)}`;
  if (resource === 'memory' || resource === 'ephemeral-storage') return `${Quantity.fromInt(v, 'BinarySI')}`;
  return `${v}`;
}

/**
 * When no node the pod may use (it fails them on resources only, or they are cordoned), even empty,
 * could hold it: "requests 1500 CPU; the largest node allocates 7910m", for each resource no such node
 * shape reaches. Empty when some shape holds it. Nodes it may not use at all (tainted, not selected)
 * are not counted: a bigger GPU node does not make room for a pod that cannot go there.
 */
export function noShapeHolds(state: Snapshot, pod: Pod, statuses: Map<string, { reasons: string[] }>): string[] {
  const index = nodeInfoIndex(state);
  const req = requestOf(pod);
  // A cordoned node reports only NodeUnschedulable (the first filter that fails): it is usable only if
  // the pod's node selection matches it too (a GPU pod does not count a cordoned general node).
  const aff = readRequiredNodeAffinity(pod);
  const usable = [...statuses]
    .filter(([, s]) => s.reasons.length > 0 && s.reasons.every((r) => INSUFFICIENT.test(r) || /unschedulable/.test(r)))
    .map(([n]) => index.get(n))
    .filter(
      (i): i is NodeInfo =>
        !!i?.node &&
        (!statuses.get(i.name)!.reasons.some((r) => /unschedulable/.test(r)) ||
          matchesRequiredNodeAffinity(aff, { name: i.name, labels: i.labels })),
    );
  if (usable.length === 0 || usable.some((i) => shapeHolds(i.allocatable, req))) return [];
  const out: string[] = [];
  const check = (resource: string, want: number, get: (a: ResourceVector) => number) => {
    let most = usable[0]!;
    for (const i of usable) if (get(i.allocatable) > get(most.allocatable)) most = i;
    if (want > get(most.allocatable))
      out.push(
        `requests ${words(resource, want)}; the largest node allocates ${allocWords(resource, get(most.allocatable))} (${most.name}, of the ${usable.length} node${usable.length === 1 ? '' : 's'} it may use): no node can hold it, whatever is freed`,
      );
  };
  check('cpu', req.cpu, (a) => a.cpu);
  check('memory', req.memory, (a) => a.memory);
  check('ephemeral-storage', req.ephemeralStorage, (a) => a.ephemeralStorage);
  for (const [k, v] of req.scalars) check(k, v, (a) => a.scalars.get(k) ?? 0);
  return out;
}

/** Nodes whose only reasons are Insufficient resources: the pod would fit them with room. */
export function resourceOnlyNodes(statuses: Map<string, { reasons: string[] }>): string[] {
  return [...statuses]
    .filter(([, s]) => s.reasons.length > 0 && s.reasons.every((r) => INSUFFICIENT.test(r)))
    .map(([n]) => n)
    .sort();
}

function poolOf(labels: Record<string, string>): string | undefined {
  return (
    labels.pool ??
    labels['node-pool'] ??
    labels['cloud.google.com/gke-nodepool'] ??
    labels['eks.amazonaws.com/nodegroup'] ??
    labels.agentpool
  );
}

/** The subject's pods that are Pending, or missing (a workload short of replicas). */
function podsToPlace(ctx: FixContext): number {
  const s = ctx.subject;
  if (s.kind !== 'workload') return 1;
  let pending = 0;
  for (const p of ctx.state.iterate('Pod', s.ref.namespace)) {
    if (p.spec.nodeName || p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed') continue;
    const w = ownerOf(ctx.state, p);
    if (w?.kind === s.ref.kind && w.name === s.ref.name) pending++;
  }
  return Math.max(1, pending);
}

/** Dropping the subject's own Pending replicas: the workload runs what it runs now. */
function scalePendingPlan(ctx: FixContext): Plan | null {
  const s = ctx.subject;
  if (s.kind !== 'workload' || !['Deployment', 'StatefulSet', 'ReplicaSet'].includes(s.ref.kind)) return null;
  const w = ctx.state.get(s.ref.kind, s.ref.namespace, s.ref.name);
  const replicas = (w?.spec as { replicas?: number | null } | undefined)?.replicas ?? 1;
  const pending = podsToPlace(ctx);
  const to = replicas - pending;
  if (to < 1) return null;
  return {
    who: 'app-team',
    summary: `scale ${subjectWords(s)} ${replicas} → ${to}: drops ${pending === 1 ? 'the Pending replica' : `the ${pending} Pending replicas`} (costs no running capacity: ${to} run${to === 1 ? 's' : ''} as now)`,
    changes: [{ kind: 'scale', target: s.ref, replicas: to }],
    cost: 0,
  };
}

/** Requesting what the roomiest fitting node has free. */
/**
 * Requesting what fits: with `pods` pods to place, each on its own node among the roomiest that refuse
 * it on cpu/memory only — the request comes down to what the `pods`-th of them has free (the least of
 * those nodes), so every one of the pods fits one of them.
 */
export function lowerPlan(ctx: FixContext, statuses: Map<string, { reasons: string[] }>, pods = 1): Plan | null {
  if (!templateMutable(ctx.subject)) return null;
  const index = nodeInfoIndex(ctx.base);
  const req = podRequestVector(ctx.admitted);
  const candidates: { node: string; cpu: number; memory: number; cut: number }[] = [];
  for (const node of resourceOnlyNodes(statuses)) {
    const info = index.get(node);
    if (!info) continue;
    const reasons = statuses.get(node)!.reasons;
    if (reasons.some((r) => r !== 'Insufficient cpu' && r !== 'Insufficient memory')) continue;
    const f = freeResources(info);
    if ((req.cpu > f.cpu && f.cpu <= 0) || (req.memory > f.memory && f.memory <= 0)) continue;
    const cut =
      (req.cpu > f.cpu ? (req.cpu - f.cpu) / Math.max(req.cpu, 1) : 0) +
      (req.memory > f.memory ? (req.memory - f.memory) / Math.max(req.memory, 1) : 0);
    candidates.push({ node, cpu: f.cpu, memory: f.memory, cut });
  }
  if (candidates.length === 0) return null;
  candidates.sort((a, b) => a.cut - b.cut || (a.node < b.node ? -1 : 1));
  const chosen = candidates.slice(0, Math.max(1, Math.min(pods, candidates.length)));
  const best = {
    node: chosen.map((c) => c.node).join(', '),
    cpu: Math.min(...chosen.map((c) => c.cpu)),
    memory: Math.min(...chosen.map((c) => c.memory)),
  };
  let p = ctx.pod;
  const parts: string[] = [];
  for (const [res, want, free] of [
    ['cpu', req.cpu, best.cpu],
    ['memory', req.memory, best.memory],
  ] as const) {
    if (want <= free) continue;
    const big = biggestContainer(p, 'requests', res) ?? biggestContainer(ctx.admitted, 'requests', res);
    if (!big) return null;
    const over = want - free;
    const curr = res === 'cpu' ? Number(big.value.milliValue()) : Number(big.value.value());
    if (curr <= over) return null;
    // Memory reads like a request: whole Mi, rounded down (still ≤ what fits).
    const target = res === 'cpu' ? Quantity.fromMilli(curr - over) : Quantity.parse(formatMemoryFloor(curr - over));
    p = setContainerValue(p, big.name, 'requests', res, target.toString());
    // A limit below the lowered request stays valid; a request above its limit cannot happen (lowered).
    parts.push(`requests.${res} of ${big.name} to ≤ ${target}`);
    // A limit now more than the LimitRange's maxLimitRequestRatio times the request comes down with it.
    const kept = keepLimitRatio(ctx.base, ctx.ns, p, ctx.admitted, big.name, res);
    const lim = kept.spec.containers.find((c) => c.name === big.name)?.resources?.limits?.[res];
    if (kept !== p) parts.push(`limits.${res} to ${lim} (the LimitRange's max limit/request ratio)`);
    p = kept;
  }
  const changes = resourceChanges(ctx.subject, ctx.pod, p);
  if (!changes || parts.length === 0) return null;
  return {
    who: 'app-team',
    summary: `lower ${parts.join(' and ')} (fits ${best.node})`,
    changes,
    cost: 1,
    obvious: true,
    pod: p,
  };
}

/** Cordoned nodes that, uncordoned, could hold the pod (their allocatable does; verification says whether it fits now). */
export function uncordonPlans(ctx: FixContext, pod: Pod, statuses: Map<string, { reasons: string[] }>): Plan[] {
  const index = nodeInfoIndex(ctx.base);
  const req = requestOf(pod);
  const out: Plan[] = [];
  for (const [node, st] of [...statuses].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (!st.reasons.some((r) => /unschedulable/.test(r))) continue;
    const info = index.get(node);
    if (!info?.node || !shapeHolds(info.allocatable, req)) continue;
    const f = freeResources(info);
    out.push({
      who: 'platform',
      summary: `uncordon ${node} (cordoned; ${Quantity.fromMilli(Math.max(0, f.cpu))} CPU / ${formatMemoryFloor(Math.max(0, f.memory))} memory free)`,
      changes: [{ kind: 'uncordon', node }],
      cost: 0,
    });
  }
  return out.slice(0, 2);
}

const ANTI_AFFINITY =
  /^node\(s\) didn't (match pod anti-affinity rules|satisfy existing pods anti-affinity rules|match pod affinity\/anti-affinity)$/;

/**
 * Nodes whose shape, added empty, would take the pod: those that refuse it only for resources, and —
 * when every required pod anti-affinity term of the pod is per node (topologyKey kubernetes.io/hostname)
 * — those that refuse it only for anti-affinity (an empty node holds no pod it repels; InterPodAffinity
 * counts matching pods per topology domain, and a new hostname is a new domain).
 */
export function newNodeHelps(pod: Pod, statuses: Map<string, { reasons: string[] }>): string[] {
  const terms = pod.spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
  const perNode = terms.every((t) => t.topologyKey === 'kubernetes.io/hostname');
  return [...statuses]
    .filter(
      ([, s]) =>
        s.reasons.length > 0 && s.reasons.every((r) => INSUFFICIENT.test(r) || (perNode && ANTI_AFFINITY.test(r))),
    )
    .map(([n]) => n)
    .sort();
}

/** A DaemonSet pod a new node would get, and whether admission lets its controller create it. */
export interface DaemonPodOnNewNode {
  /** `kube-system/ds/kube-proxy`. */
  ref: string;
  pod: Pod;
  /** The quota that refuses it, when one does. */
  refused?: Extract<NonNullable<NonNullable<ReturnType<typeof admitObject>['quota']>['failure']>, { type: 'exceeded' }>;
}

/**
 * The DaemonSet pods a node shaped like `like` gets: one per DaemonSet that should run on it, as the
 * DaemonSet controller decides (pkg/controller/daemon/daemon_controller.go NodeShouldRunDaemonPod: the
 * template's nodeSelector and required node affinity match the node's labels, and its taints are
 * tolerated with the tolerations the controller adds), each admitted as its controller would create it.
 */
export function daemonPodsOnNewNode(state: Snapshot, like: Node, opts: FixContext['opts']): DaemonPodOnNewNode[] {
  const out: DaemonPodOnNewNode[] = [];
  for (const ds of state.list('DaemonSet')) {
    const ns = ds.metadata.namespace ?? 'default';
    const name = ds.metadata.name ?? '';
    const t = (ds.spec as { template: { metadata?: Pod['metadata']; spec: Pod['spec'] } }).template;
    const pod: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        ...(t.metadata ?? {}),
        name: `${name}-new-node`,
        namespace: ns,
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'DaemonSet', name, uid: ds.metadata.uid ?? '', controller: true },
        ],
      },
      spec: { ...structuredClone(t.spec), tolerations: [...(t.spec.tolerations ?? []), ...DAEMONSET_TOLERATIONS] },
    };
    if (!shouldRun(pod, like)) continue;
    const a = admitObject(pod, state, { ...opts, dryRun: true });
    const f = a.quota?.failure;
    out.push({
      ref: `${ns}/${refOf('DaemonSet', name)}`,
      pod: (a.object as Pod | undefined) ?? pod,
      ...(!a.allowed && f?.type === 'exceeded' ? { refused: f } : {}),
    });
  }
  return out.sort((a, b) => (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0));
}

/**
 * A node of an existing pool's shape that holds the pod: the smallest such shape among the nodes it fits,
 * as many as the pods need once each new node's DaemonSet pods are placed on it. When a quota refuses a
 * DaemonSet pod the new node wants, that is said, and a second plan raises the quota for it too.
 */
export function addNodePlans(
  ctx: FixContext,
  pod: Pod,
  statuses: Map<string, { reasons: string[] }>,
  pods = 1,
): Plan[] {
  const index = nodeInfoIndex(ctx.base);
  const req = requestOf(pod);
  let best: NodeInfo | null = null;
  for (const node of newNodeHelps(pod, statuses)) {
    const info = index.get(node);
    if (!info?.node || !shapeHolds(info.allocatable, req)) continue;
    if (
      !best ||
      info.allocatable.cpu < best.allocatable.cpu ||
      (info.allocatable.cpu === best.allocatable.cpu && info.name < best.name)
    )
      best = info;
  }
  if (!best?.node) return [];
  const daemons = daemonPodsOnNewNode(ctx.base, best.node, ctx.opts);
  // What the node's admitted DaemonSet pods take before the subject's pods are placed.
  const left = { ...best.allocatable, scalars: new Map(best.allocatable.scalars) };
  for (const d of daemons) {
    if (d.refused) continue;
    const r = requestOf(d.pod);
    left.cpu -= r.cpu;
    left.memory -= r.memory;
    for (const [k, v] of r.scalars) left.scalars.set(k, (left.scalars.get(k) ?? 0) - v);
  }
  const perNode = Math.min(
    req.cpu > 0 ? Math.floor(left.cpu / req.cpu) : pods,
    req.memory > 0 ? Math.floor(left.memory / req.memory) : pods,
    ...[...req.scalars].map(([k, v]) => (v > 0 ? Math.floor((left.scalars.get(k) ?? 0) / v) : pods)),
  );
  if (perNode < 1) return [];
  const count = Math.max(1, Math.ceil(pods / perNode));
  const pool = poolOf(best.labels);
  const nodes = count === 1 ? 'a node' : `${count} nodes`;
  const runs = daemons.length
    ? `; ${count === 1 ? 'it' : 'each'} also runs ${daemons.length} DaemonSet pod${daemons.length === 1 ? '' : 's'}: ${daemons.map((d) => d.ref).join(', ')}`
    : '';
  const refused = daemons.filter((d) => d.refused);
  const plain: Plan = {
    who: 'platform',
    summary: `add ${nodes} like ${best.name}${pool ? ` to pool ${pool}` : ''} (${Quantity.fromMilli(best.allocatable.cpu)} CPU / ${formatMemoryFloor(best.allocatable.memory)} allocatable${runs})`,
    changes: [{ kind: 'addNode', like: best.name, count }],
    cost: 3,
    sideEffects: refused.map(
      (d) =>
        `${d.ref}'s pod on the new node${count === 1 ? '' : 's'} is refused: exceeded quota: ${d.refused!.quota} (${d.refused!.exceeded.map((r) => `${r} ${d.refused!.used.get(r)}/${d.refused!.hard.get(r)}`).join(', ')})`,
    ),
  };
  if (refused.length === 0) return [plain];
  // The quotas raised by what the new nodes' DaemonSet pods add (one per node per DaemonSet).
  const raises = new Map<string, { namespace: string; name: string; hard: Map<string, Quantity>; for: string[] }>();
  for (const d of refused) {
    const f = d.refused!;
    const ns = d.pod.metadata.namespace ?? '';
    const key = `${ns}/${f.quota}`;
    const e = raises.get(key) ?? { namespace: ns, name: f.quota, hard: new Map<string, Quantity>(), for: [] };
    for (const r of f.exceeded) {
      const prev = e.hard.get(r) ?? f.used.get(r)!;
      e.hard.set(r, prev.add(f.requested.get(r)!.times(count)));
    }
    e.for.push(d.ref);
    raises.set(key, e);
  }
  const quotaChanges: Change[] = [...raises.values()].map((e) => ({
    kind: 'quota',
    namespace: e.namespace,
    name: e.name,
    hard: Object.fromEntries([...e.hard].map(([r, v]) => [r, v.toString()])),
  }));
  return [
    plain,
    {
      who: 'platform',
      summary: `${plain.summary}, and raise ${[...raises.values()]
        .map(
          (e) =>
            `${e.namespace}/${e.name} ${[...e.hard].map(([r, v]) => `${r} to ${v}`).join(', ')} for ${e.for.join(', ')} on the new node${count === 1 ? '' : 's'}`,
        )
        .join('; ')}`,
      changes: [plain.changes[0]!, ...quotaChanges],
      cost: 3,
    },
  ];
}

/**
 * The lowest PriorityClass that lets the pod preempt: above its own priority and above some pod on the
 * nodes it fits by everything but resources, not `Never`, not a system class. A template change (a
 * rollout) of a Deployment or StatefulSet; PriorityClass-scoped quotas are checked by the convergence.
 */
function priorityPlan(ctx: FixContext, statuses: Map<string, { reasons: string[] }>): Plan | null {
  const s = ctx.subject;
  if (s.kind !== 'workload' || (s.ref.kind !== 'Deployment' && s.ref.kind !== 'StatefulSet')) return null;
  const own = podPriority(ctx.state, ctx.pod.spec).priority;
  const index = nodeInfoIndex(ctx.base);
  let lowestVictim = Number.POSITIVE_INFINITY;
  for (const node of resourceOnlyNodes(statuses))
    for (const e of index.get(node)?.pods.values() ?? []) lowestVictim = Math.min(lowestVictim, e.priority);
  if (!Number.isFinite(lowestVictim)) return null;
  const classes = ctx.state
    .list('PriorityClass')
    .filter(
      (c) =>
        !(c.metadata.name ?? '').startsWith('system-') &&
        c.value > own &&
        c.value > lowestVictim &&
        (c.preemptionPolicy ?? 'PreemptLowerPriority') !== 'Never',
    )
    .sort((a, b) => a.value - b.value);
  const pc = classes[0];
  if (!pc) return null;
  return {
    who: 'platform',
    summary: `give ${subjectWords(s)} PriorityClass ${pc.metadata.name} (${pc.value}): it may preempt lower-priority pods`,
    changes: [{ kind: 'priorityClass', target: s.ref, className: pc.metadata.name ?? '' }],
    cost: 1,
  };
}

/** The pod's node selection in words: `nodeSelector pool=gpu`, or its required node affinity. */
function selectionWords(pod: Pod): string {
  const sel = Object.entries(pod.spec.nodeSelector ?? {});
  if (sel.length) return `nodeSelector ${sel.map(([k, v]) => `${k}=${v}`).join(',')}`;
  return 'required node affinity';
}

/**
 * Why the pod plausibly belongs on these tainted nodes, or null: its nodeSelector / required node affinity
 * matches every one of them (NodeAffinity's RequiredNodeAffinity.Match on their labels — the scheduler
 * reports only the first failing filter, TaintToleration before NodeAffinity, so "untolerated taint" alone
 * does not say the pod selects them), or it asks for an extended resource only they offer.
 */
export function belongsOn(pod: Pod, infos: readonly NodeInfo[]): string | null {
  const aff = readRequiredNodeAffinity(pod);
  const matches = infos.every((i) => matchesRequiredNodeAffinity(aff, { name: i.name, labels: i.labels }));
  if (!matches) return null;
  if (aff) return `the pod's ${selectionWords(pod)} selects them`;
  const req = requestOf(pod);
  const only = [...req.scalars.keys()].filter((k) => infos.every((i) => (i.allocatable.scalars.get(k) ?? 0) > 0));
  return only.length ? `only they offer ${only.join(', ')}` : null;
}

/** The nodes in words from their labels: "the 3 nodes of pool gpu", or "the 2 nodes tainted k=v" when they share no pool. */
export function taintedNodesWords(infos: readonly NodeInfo[], taint: string): string {
  const n = infos.length;
  const pools = new Set(infos.map((i) => poolOf(i.labels)));
  const pool = pools.size === 1 ? [...pools][0] : undefined;
  const count = n === 1 ? `node ${infos[0]!.name}` : `the ${n} nodes`;
  return pool ? `${count} of pool ${pool}, tainted ${taint}` : `${count} tainted ${taint}`;
}

/**
 * The change that adds one toleration to the subject's stored pod spec. PodSpec.tolerations carries no
 * patchStrategy (k8s.io/api core/v1 types.go: `json:"tolerations,omitempty" protobuf:"bytes,22,opt,…"`),
 * so a strategic merge patch would replace the list as a merge patch does: a JSON patch appends with
 * `/-` to a list that exists, and adds the whole list where the stored object has none (`/-` on a missing
 * list is refused: "add operation does not apply: doc is missing path").
 */
export function addTolerationChange(
  stored: { readonly tolerations?: readonly unknown[] | null } | undefined,
  target: ObjectRef,
  path: string,
  tol: Toleration,
): Change {
  const has = Array.isArray(stored?.tolerations);
  return {
    kind: 'patch',
    target,
    type: 'json',
    body: has ? [{ op: 'add', path: `${path}/-`, value: tol }] : [{ op: 'add', path, value: [tol] }],
  };
}

/** Tolerating the taint of nodes that refuse the pod only for it, where the pod plausibly belongs. */
function tolerationPlans(ctx: FixContext, statuses: Map<string, { reasons: string[] }>): Plan[] {
  const index = nodeInfoIndex(ctx.base);
  const s = ctx.subject;
  if (s.kind === 'object' || !templateMutable(s)) return [];
  const groups = new Map<string, { taint: Taint; nodes: NodeInfo[] }>();
  for (const [node, st] of statuses) {
    if (!st.reasons.length || !st.reasons.every((r) => /untolerated taint/.test(r))) continue;
    const info = index.get(node);
    if (!info) continue;
    for (const t of info.taints) {
      if (t.effect !== 'NoSchedule' && t.effect !== 'NoExecute') continue;
      if (t.key.startsWith('node-role.kubernetes.io/') || t.key.startsWith('node.kubernetes.io/')) continue;
      if (isTaintTolerated(ctx.pod.spec.tolerations ?? [], t)) continue;
      const k = `${t.key}=${t.value ?? ''}:${t.effect}`;
      const g = groups.get(k) ?? { taint: t, nodes: [] };
      g.nodes.push(info);
      groups.set(k, g);
    }
  }
  const out: Plan[] = [];
  for (const { taint: t, nodes } of groups.values()) {
    const why = belongsOn(ctx.pod, nodes);
    if (!why) continue;
    const tol: Toleration = {
      key: t.key,
      operator: t.value ? 'Equal' : 'Exists',
      ...(t.value ? { value: t.value } : {}),
      effect: t.effect,
    };
    // What the API server stores, not the pod as defaulted: a workload's template, a bare Pod's spec.
    const change =
      s.kind === 'workload'
        ? addTolerationChange(
            (
              ctx.state.get(s.ref.kind, s.ref.namespace, s.ref.name)?.spec as {
                template?: { spec?: { tolerations?: unknown[] } };
              }
            )?.template?.spec,
            s.ref,
            '/spec/template/spec/tolerations',
            tol,
          )
        : addTolerationChange(
            ctx.state.get('Pod', s.namespace, s.name)?.spec as { tolerations?: unknown[] } | undefined,
            { kind: 'Pod', namespace: s.namespace, name: s.name },
            '/spec/tolerations',
            tol,
          );
    const p: Pod = { ...ctx.pod, spec: { ...ctx.pod.spec, tolerations: [...(ctx.pod.spec.tolerations ?? []), tol] } };
    const taint = `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`;
    out.push({
      who: 'app-team',
      summary: `tolerate ${taint} (${taintedNodesWords(nodes, taint.replace(/:.*$/, ''))}; ${why})`,
      changes: [change],
      cost: 1,
      last: true,
      pod: p,
    });
  }
  return out;
}

export interface UnschedulablePlans {
  plans: Plan[];
  /** Said in the reply instead of a node: no node shape of the cluster can hold the pod. */
  lines: string[];
}

/** Every plan for a pod no node fits. */
export function unschedulablePlans(ctx: FixContext, statuses: Map<string, { reasons: string[] }>): UnschedulablePlans {
  const plans: Plan[] = [];
  const lines = noShapeHolds(ctx.base, ctx.admitted, statuses);
  const scale = scalePendingPlan(ctx);
  if (scale) plans.push(scale);
  const lower = lowerPlan(ctx, statuses, podsToPlace(ctx));
  if (lower) plans.push(lower);
  if (lines.length === 0) plans.push(...makeRoomPlans(ctx, resourceOnlyNodes(statuses), podsToPlace(ctx)));
  plans.push(...uncordonPlans(ctx, ctx.admitted, statuses));
  const pc = priorityPlan(ctx, statuses);
  if (pc) plans.push(pc);
  if (lines.length === 0) {
    plans.push(...addNodePlans(ctx, ctx.admitted, statuses, podsToPlace(ctx)));
  }
  plans.push(...tolerationPlans(ctx, statuses));
  return { plans, lines };
}
