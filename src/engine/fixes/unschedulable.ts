/**
 * Fixes for a pod no node fits. Within the namespace: drop the workload's own Pending replicas (they
 * never ran: no running capacity lost), or request what the roomiest fitting node has free. For the
 * platform team: uncordon a cordoned node, a PriorityClass that lets the pod preempt lower-priority
 * pods, or a node of an existing pool's shape — and when no node shape of the cluster can hold the pod,
 * that is said instead of offering one. Tolerating a taint comes last, and only for nodes the pod
 * plausibly belongs on (it selects them, or asks for the resource only they have).
 */
import type { Pod, Taint } from '../../k8s/objects.ts';
import type { Snapshot } from '../../k8s/snapshot.ts';
import { Quantity } from '../../quantity.ts';
import type { Change } from '../changes/types.ts';
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
import { ownerOf } from './owners.ts';
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
  const usable = [...statuses]
    .filter(([, s]) => s.reasons.length > 0 && s.reasons.every((r) => INSUFFICIENT.test(r) || /unschedulable/.test(r)))
    .map(([n]) => index.get(n))
    .filter((i): i is NodeInfo => !!i?.node);
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
function resourceOnlyNodes(statuses: Map<string, { reasons: string[] }>): string[] {
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
function lowerPlan(ctx: FixContext, statuses: Map<string, { reasons: string[] }>): Plan | null {
  if (!templateMutable(ctx.subject)) return null;
  const index = nodeInfoIndex(ctx.base);
  const req = podRequestVector(ctx.admitted);
  let best: { node: string; cpu: number; memory: number; cut: number } | null = null;
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
    if (!best || cut < best.cut) best = { node, cpu: f.cpu, memory: f.memory, cut };
  }
  if (!best) return null;
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

/** A node of an existing pool's shape that holds the pod: the smallest such shape among the nodes it fits. */
export function addNodePlan(
  ctx: FixContext,
  pod: Pod,
  statuses: Map<string, { reasons: string[] }>,
  pods = 1,
): Plan | null {
  const index = nodeInfoIndex(ctx.base);
  const req = requestOf(pod);
  let best: NodeInfo | null = null;
  for (const node of resourceOnlyNodes(statuses)) {
    const info = index.get(node);
    if (!info?.node || !shapeHolds(info.allocatable, req)) continue;
    if (
      !best ||
      info.allocatable.cpu < best.allocatable.cpu ||
      (info.allocatable.cpu === best.allocatable.cpu && info.name < best.name)
    )
      best = info;
  }
  if (!best) return null;
  const perNode = Math.max(
    1,
    Math.min(
      req.cpu > 0 ? Math.floor(best.allocatable.cpu / req.cpu) : pods,
      req.memory > 0 ? Math.floor(best.allocatable.memory / req.memory) : pods,
      ...[...req.scalars].map(([k, v]) => (v > 0 ? Math.floor((best!.allocatable.scalars.get(k) ?? 0) / v) : pods)),
    ),
  );
  const count = Math.max(1, Math.ceil(pods / perNode));
  const pool = poolOf(best.labels);
  return {
    who: 'platform',
    summary: `add ${count === 1 ? 'a node' : `${count} nodes`} like ${best.name}${pool ? ` to pool ${pool}` : ''} (${Quantity.fromMilli(best.allocatable.cpu)} CPU / ${formatMemoryFloor(best.allocatable.memory)} allocatable)`,
    changes: [{ kind: 'addNode', like: best.name, count }],
    cost: 3,
  };
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

/** Whether the pod plausibly belongs on nodes with this taint: it selects them, or asks for what only they offer. */
function belongsOn(pod: Pod, infos: NodeInfo[]): boolean {
  const selects =
    Object.keys(pod.spec.nodeSelector ?? {}).length > 0 ||
    (pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms?.length ?? 0) >
      0;
  if (selects) return true;
  const req = requestOf(pod);
  return [...req.scalars.keys()].some((k) => infos.every((i) => (i.allocatable.scalars.get(k) ?? 0) > 0));
}

/** Tolerating the taint of nodes that refuse the pod only for it: a patch that works with or without existing tolerations. */
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
      const k = `${t.key}=${t.value ?? ''}:${t.effect}`;
      const g = groups.get(k) ?? { taint: t, nodes: [] };
      g.nodes.push(info);
      groups.set(k, g);
    }
  }
  const out: Plan[] = [];
  for (const { taint: t, nodes } of groups.values()) {
    if (!belongsOn(ctx.pod, nodes)) continue;
    const tol = {
      key: t.key,
      operator: t.value ? 'Equal' : 'Exists',
      ...(t.value ? { value: t.value } : {}),
      effect: t.effect,
    };
    const has = (ctx.pod.spec.tolerations?.length ?? 0) > 0;
    const target = s.kind === 'workload' ? s.ref : { kind: 'Pod', namespace: s.namespace, name: s.name };
    const path = s.kind === 'workload' ? '/spec/template/spec/tolerations' : '/spec/tolerations';
    // With tolerations already there, a JSON patch appends (a merge patch would replace the list); without
    // any, `/-` has no list to append to (the API server refuses it), so a merge patch sets the list.
    const change: Change = has
      ? { kind: 'patch', target, type: 'json', body: [{ op: 'add', path: `${path}/-`, value: tol }] }
      : {
          kind: 'patch',
          target,
          type: 'merge',
          body:
            s.kind === 'workload'
              ? { spec: { template: { spec: { tolerations: [tol] } } } }
              : { spec: { tolerations: [tol] } },
        };
    const p: Pod = { ...ctx.pod, spec: { ...ctx.pod.spec, tolerations: [...(ctx.pod.spec.tolerations ?? []), tol] } };
    const pool = poolOf(nodes[0]!.labels);
    out.push({
      who: 'app-team',
      summary: `tolerate ${t.key}${t.value ? `=${t.value}` : ''}:${t.effect} (${nodes.length} node${nodes.length === 1 ? '' : 's'}${pool ? ` of pool ${pool}` : ''}, which the pod selects)`,
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
  const lower = lowerPlan(ctx, statuses);
  if (lower) plans.push(lower);
  plans.push(...uncordonPlans(ctx, ctx.admitted, statuses));
  const pc = priorityPlan(ctx, statuses);
  if (pc) plans.push(pc);
  if (lines.length === 0) {
    const node = addNodePlan(ctx, ctx.admitted, statuses, podsToPlace(ctx));
    if (node) plans.push(node);
  }
  plans.push(...tolerationPlans(ctx, statuses));
  return { plans, lines };
}
