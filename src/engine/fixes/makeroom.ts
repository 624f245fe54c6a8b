/**
 * "Make room" for a pod no node fits: scale down another workload of the pod's own namespace (never
 * another namespace's: that is not the asker's to change) whose bound pods sit on a node that fails the
 * pod only for lack of room (resourceOnlyNodes), by the fewest replicas verification shows end the
 * incident. The scale command goes through the controllers like every fix: the ReplicaSet controller
 * (controller.ActivePodsWithRanks) or the StatefulSet controller (highest ordinals first) picks which
 * pods go, not us — what they would pick only orders the replica counts tried, verification decides.
 *
 * Bounded: at most MAX_CANDIDATES workloads (the most room freed on their best node first), at most
 * MAX_COUNTS replica counts each, tried fewest-removed first, the next only when the one before does not
 * verify (Plan.orElse). Jobs and CronJobs are not scaled (running fewer at a time is their own fix),
 * DaemonSets never, bare pods and static pods have no replicas.
 */
import type { Pod } from '../../k8s/objects.ts';
import { rankPodsForDeletion } from '../controllers/replica_set.ts';
import { ordinalOf } from '../controllers/stateful_set.ts';
import { isTerminal, podRequests } from '../pod-resources.ts';
import { podPriority } from '../priority.ts';
import {
  nodeInfoIndex,
  projectResources,
  type NodeInfo,
  type NodeInfoIndex,
  type PodRequest,
} from '../scheduler/node-info.ts';
import { ownerOf, refOf } from './owners.ts';
import { paysWords } from './quota.ts';
import { judgedState } from './settle.ts';
import type { FixContext, Plan } from './types.ts';

/** Workloads tried at most, and replica counts tried at most for each. */
export const MAX_CANDIDATES = 3;
export const MAX_COUNTS = 3;

interface Candidate {
  namespace: string;
  kind: 'Deployment' | 'StatefulSet' | 'ReplicaSet';
  name: string;
  ref: string;
  /** Its live pods (bound and Pending). */
  pods: Pod[];
  /** Its pods on each room-only node. */
  on: Map<string, Pod[]>;
  /** The node where its pods free the most of what the subject's pod lacks, and that share (≥ 1: it fits). */
  best: string;
  room: number;
  /** Pods of it that must leave the best node at the least. */
  least: number;
}

type Vec = { cpu: number; memory: number; ephemeralStorage: number; scalars: ReadonlyMap<string, number> };

/** What the pod lacks on the node, per resource it requests (empty: it fits). */
function shortOn(info: NodeInfo, req: Vec): Map<string, number> {
  const out = new Map<string, number>();
  const a = info.allocatable;
  const r = info.requested;
  const add = (k: string, want: number, alloc: number, used: number) => {
    if (want > 0 && want > alloc - used) out.set(k, want - (alloc - used));
  };
  add('cpu', req.cpu, a.cpu, r.cpu);
  add('memory', req.memory, a.memory, r.memory);
  add('ephemeral-storage', req.ephemeralStorage, a.ephemeralStorage, r.ephemeralStorage);
  for (const [k, v] of req.scalars) add(k, v, a.scalars.get(k) ?? 0, r.scalars.get(k) ?? 0);
  return out;
}

function amountOf(v: PodRequest, k: string): number {
  if (k === 'cpu') return v.cpu;
  if (k === 'memory') return v.memory;
  if (k === 'ephemeral-storage') return v.ephemeralStorage;
  return v.scalars.get(k) ?? 0;
}

/** Whether taking `gone` off the node covers what the pod lacks there. */
function covers(short: Map<string, number>, gone: readonly PodRequest[]): boolean {
  for (const [k, v] of short) {
    let freed = 0;
    for (const g of gone) freed += amountOf(g, k);
    if (freed < v) return false;
  }
  return true;
}

/** The share of what the pod lacks that `gone` frees (1 per resource covered, summed over the resources short). */
function share(short: Map<string, number>, gone: readonly PodRequest[]): number {
  let s = 0;
  for (const [k, v] of short) {
    let freed = 0;
    for (const g of gone) freed += amountOf(g, k);
    s += Math.min(1, freed / v);
  }
  return s / Math.max(1, short.size);
}

/** The fewest of `pods` (largest first) whose leaving covers what the pod lacks, or 0 when all of them do not. */
function fewest(short: Map<string, number>, pods: readonly PodRequest[]): number {
  const sorted = [...pods].sort((a, b) => share(short, [b]) - share(short, [a]));
  for (let k = 1; k <= sorted.length; k++) if (covers(short, sorted.slice(0, k))) return k;
  return 0;
}

/** The pods a scale to `to` replicas deletes, as its controller picks them. */
function deletedAt(c: Candidate, to: number): Pod[] {
  if (c.kind === 'StatefulSet') return c.pods.filter((p) => ordinalOf(c.name, p.metadata.name ?? '') >= to);
  return rankPodsForDeletion(c.pods, c.pods).slice(0, Math.max(0, c.pods.length - to));
}

/** The room-only nodes where the pod fits once `gone` leaves, by most room after it. */
function nodesMadeRoom(gone: readonly Pod[], shorts: Map<string, Map<string, number>>, index: NodeInfoIndex): string[] {
  const out: string[] = [];
  for (const [node, short] of shorts) {
    const info = index.get(node)!;
    const left = gone.filter((p) => p.spec.nodeName === node);
    if (left.length === 0) continue;
    const reqs = left.map((p) => info.pods.get(`${p.metadata.namespace ?? ''}/${p.metadata.name ?? ''}`)?.request);
    if (reqs.some((r) => !r)) continue;
    if (covers(short, reqs as PodRequest[])) out.push(node);
  }
  return out.sort();
}

/**
 * Scale-down plans that make room for the subject's pod on a node it fails only for lack of room: `nodes`
 * are those nodes (resourceOnlyNodes), `pending` the subject's pods to place (only one is made room for).
 */
export function makeRoomPlans(ctx: FixContext, nodes: readonly string[], pending: number): Plan[] {
  if (nodes.length === 0 || pending !== 1) return [];
  const s = ctx.subject;
  const judged = judgedState(ctx.state, s, ctx.opts);
  const index = nodeInfoIndex(judged);
  // The subject's pod as the scheduler counts it: the admitted pod's requests.
  const req: Vec = projectResources(podRequests(ctx.admitted));
  const roomOnly = new Set(nodes);
  const isSubject = (kind: string, name: string) => s.kind === 'workload' && s.ref.kind === kind && s.ref.name === name;
  // One pass over the namespace's pods (never another namespace's: not the asker's to change): every live
  // pod of each workload that may be scaled (Pending ones too: their controller deletes those first), and
  // which of them are bound to a room-only node.
  const live = new Map<string, Pod[]>();
  const owners = new Map<string, { kind: Candidate['kind']; name: string }>();
  const onNode = new Map<string, { key: string; pod: Pod }[]>();
  for (const p of judged.iterate('Pod', ctx.ns)) {
    if (isTerminal(p) || p.metadata.deletionTimestamp) continue;
    const o = ownerOf(judged, p);
    if (!o || (o.kind !== 'Deployment' && o.kind !== 'StatefulSet' && o.kind !== 'ReplicaSet')) continue;
    if (isSubject(o.kind, o.name)) continue;
    const key = `${o.kind}/${o.name}`;
    owners.set(key, { kind: o.kind, name: o.name });
    const l = live.get(key);
    if (l) l.push(p);
    else live.set(key, [p]);
    const n = p.spec.nodeName;
    if (!n || !roomOnly.has(n)) continue;
    const list = onNode.get(n);
    if (list) list.push({ key, pod: p });
    else onNode.set(n, [{ key, pod: p }]);
  }
  if (onNode.size === 0) return [];
  // What the pod lacks on each of those nodes; a node whose lack exceeds everything requested on it is
  // left out (freeing it whole does not hold the pod).
  const shorts = new Map<string, Map<string, number>>();
  for (const node of [...onNode.keys()].sort()) {
    const info = index.get(node);
    if (!info?.node) continue;
    const short = shortOn(info, req);
    // The pod fits it already (the state moved since the message): nothing to make room for.
    if (short.size === 0) return [];
    let holds = true;
    for (const [k, v] of short) if (v > amountOf(info.requested, k)) holds = false;
    if (holds) shorts.set(node, short);
  }
  if (shorts.size === 0) return [];
  // The candidates: their pods on each such node, by owner.
  const byOwner = new Map<string, Candidate>();
  for (const node of shorts.keys()) {
    for (const { key, pod } of onNode.get(node)!) {
      let c = byOwner.get(key);
      if (!c) {
        const o = owners.get(key)!;
        c = {
          namespace: ctx.ns,
          kind: o.kind,
          name: o.name,
          ref: refOf(o.kind, o.name),
          pods: live.get(key)!,
          on: new Map(),
          best: '',
          room: 0,
          least: 0,
        };
        byOwner.set(key, c);
      }
      const list = c.on.get(node);
      if (list) list.push(pod);
      else c.on.set(node, [pod]);
    }
  }
  const candidates: Candidate[] = [];
  for (const c of byOwner.values()) {
    for (const [node, pods] of c.on) {
      const info = index.get(node)!;
      const short = shorts.get(node)!;
      const reqs = pods.map((p) => info.pods.get(`${p.metadata.namespace ?? ''}/${p.metadata.name ?? ''}`)!.request);
      const least = fewest(short, reqs);
      if (least === 0) continue;
      const room = share(short, reqs);
      if (room > c.room || (room === c.room && (least < c.least || (least === c.least && node < c.best)))) {
        c.room = room;
        c.best = node;
        c.least = least;
      }
    }
    if (c.best) candidates.push(c);
  }
  candidates.sort((a, b) => b.room - a.room || a.least - b.least || (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0));
  const chosen = candidates.slice(0, MAX_CANDIDATES);
  const own = ctx.pod.spec.priority ?? podPriority(ctx.state, ctx.pod.spec).priority;
  const out: Plan[] = [];
  for (const c of chosen) {
    const w = judged.get(c.kind, c.namespace, c.name);
    const replicas = (w?.spec as { replicas?: number | null } | undefined)?.replicas ?? 1;
    const live = Math.min(replicas, c.pods.length);
    const pendingPods = c.pods.filter((p) => !p.spec.nodeName).length;
    // A StatefulSet keeps ordinals below the new count: its Pending pods are not removed first.
    const start = c.kind === 'StatefulSet' ? live - c.least : live - pendingPods - c.least;
    const counts: { to: number; nodes: string[] }[] = [];
    for (let to = start; to >= 0 && counts.length < MAX_COUNTS; to--) {
      const gone = deletedAt(c, to);
      counts.push({ to, nodes: nodesMadeRoom(gone, shorts, index) });
    }
    // The counts its controller's pick makes room with, fewest pods first; when it picks none of them,
    // every count (verification says).
    const made = counts.filter((x) => x.nodes.length > 0);
    const tried = made.length > 0 ? made : counts;
    const priority = Math.max(...c.pods.map((p) => p.spec.priority ?? 0));
    const pcName = c.pods.find((p) => (p.spec.priority ?? 0) === priority)?.spec.priorityClassName;
    let next: Plan | undefined;
    for (const { to, nodes: made } of [...tried].reverse()) {
      // How many running pods go does not depend on which: Pending pods first (ReplicaSet), ordinals ≥ to (StatefulSet).
      const stopping = deletedAt(c, to).filter((p) => p.spec.nodeName).length;
      const pays = paysWords(ctx, { ref: c.ref, priority, ...(pcName ? { priorityClassName: pcName } : {}) }, own, to);
      const where = made.length ? made : [c.best];
      const plan: Plan = {
        who: 'app-team',
        summary: `scale ${c.ref} ${replicas} → ${to} (makes room on ${where.join(', ')} for the pod; stops ${stopping} running pod${stopping === 1 ? '' : 's'}${pays})`,
        changes: [{ kind: 'scale', target: { kind: c.kind, namespace: c.namespace, name: c.name }, replicas: to }],
        cost: 2,
        alone: true,
        ...(pays ? { harm: true } : {}),
        ...(next ? { orElse: next } : {}),
      };
      next = plan;
    }
    if (next) out.push(next);
  }
  return out;
}
