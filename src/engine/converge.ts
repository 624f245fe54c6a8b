/**
 * Changes applied to a copy of the state, then the controllers run until nothing changes: the Deployment
 * controller scales ReplicaSets, the ReplicaSet / StatefulSet / Job / DaemonSet controllers create and
 * delete pods (each create through admission), the scheduler binds, preempts or leaves pods Pending, and
 * deletions give quota and node room back — which may let a refused controller or a Pending pod through
 * on the next step. One step runs every controller once over what is queued, as their work queues would;
 * it ends when no queue has work (a fixpoint) or after `maxSteps` (reported: `bounded`).
 */
import type { Pod, PodTemplate } from '../k8s/objects.ts';
import type { Snapshot } from '../k8s/snapshot.ts';
import { applyChange } from './changes/apply.ts';
import type { Change, ObjectRef } from './changes/types.ts';
import {
  type ControllerOptions,
  type ConvergeEvent,
  ControllerContext,
  controllerOf,
  isActive,
  isAvailable,
  podKey,
  refKey,
} from './controllers/context.ts';
import { findNewReplicaSet, replicaSetsOf, syncDeployment } from './controllers/deployment.ts';
import { daemonWanted, syncDaemonSet } from './controllers/daemon_set.ts';
import { syncJob, wantedActive } from './controllers/job.ts';
import { syncReplicaSet } from './controllers/replica_set.ts';
import { queueAllPending, runScheduler } from './controllers/scheduler.ts';
import { isCurrentRevision, syncStatefulSet } from './controllers/stateful_set.ts';
import { nodeInfoIndex } from './scheduler/node-info.ts';
import { podTemplateHash } from './workloads.ts';

export type { ConvergeEvent } from './controllers/context.ts';

export interface ConvergeOptions extends ControllerOptions {
  /** Controller steps before giving up (default 200). */
  maxSteps?: number;
  /**
   * The controllers look again at the state as it is, without a change: in these namespaces every
   * workload that is not reconciled is synced (as on a controller's start, when the informer's initial
   * list queues every object), and `objects` are synced with their unbound pods queued for the scheduler.
   */
  resync?: { namespaces: readonly string[]; objects?: readonly ObjectRef[] };
  /**
   * Every unbound active pod of the state is queued for the scheduler at the start, as on a scheduler's
   * start (its informer's initial list queues every unbound pod: pkg/scheduler/eventhandlers.go
   * addPodToSchedulingQueue for each pod of the first list). With no change, this settles the state:
   * what our model says kube-scheduler would already have bound is bound (engine/fixes/settle.ts).
   */
  scheduleAllPending?: boolean;
  /**
   * Compute each affected workload's outcome (`workloads`, and the RolloutStalled events; default true).
   * A settle reads only what was bound and deleted: it skips them.
   */
  outcomes?: boolean;
}

export interface WorkloadOutcome {
  kind: string;
  namespace: string;
  name: string;
  /** Pods the workload asks for (replicas, parallelism, eligible nodes). */
  wanted: number;
  /** Pods the controllers created for it during convergence. */
  created: number;
  /** Its active pods bound to a node at the end. */
  scheduled: number;
  /** Its active pods at the end. */
  pods: number;
  /** Of those, pods of its current template (a rollout's new pods). */
  updated: number;
  /** The last refused create's message, when it still lacks pods. */
  failedCreate?: string;
  /** Its pods still unbound at the end, with the scheduler's message. */
  pending: { pod: string; message: string }[];
  /** Every wanted pod exists, is of the current template and is bound; no old pod left. */
  complete: boolean;
}

export interface Convergence {
  state: Snapshot;
  steps: number;
  /** True when `maxSteps` ran out before the controllers were done. */
  bounded: boolean;
  /** The change the API server would refuse (nothing was applied after it), with its message. */
  refused?: { change: Change; message: string };
  /** Workloads the changes touched, and any whose pods were created, deleted or refused on the way. */
  workloads: WorkloadOutcome[];
  events: ConvergeEvent[];
  /** Pods deleted on the way ("ns/name"): evicted by a drain, preempted, scaled down, rolled out. */
  evicted: string[];
  /** Pods the controllers created on the way ("ns/name"), with the controller that created each. */
  created: { pod: string; owner: ObjectRef }[];
}

const WORKLOAD_KINDS: readonly string[] = ['Deployment', 'ReplicaSet', 'StatefulSet', 'Job', 'DaemonSet'];

/** The workloads a change starts controllers on. */
function seeds(state: Snapshot, c: Change): ObjectRef[] {
  switch (c.kind) {
    case 'scale':
    case 'setResources':
    case 'patch':
    case 'priorityClass':
    case 'rolloutStrategy':
      return WORKLOAD_KINDS.includes(c.target.kind) ? [c.target] : [];
    case 'apply':
      return c.objects
        .filter((o) => WORKLOAD_KINDS.includes(o.kind ?? ''))
        .map((o) => ({
          kind: o.kind ?? '',
          namespace: o.metadata.namespace ?? 'default',
          name: o.metadata.name ?? '',
        }));
    case 'quota':
    case 'limitRange':
      return [];
    case 'cordon':
    case 'uncordon':
    case 'drain':
    case 'addNode':
      // Node changes: every DaemonSet looks at the nodes again.
      return state
        .list('DaemonSet')
        .map((d) => ({ kind: 'DaemonSet', namespace: d.metadata.namespace ?? 'default', name: d.metadata.name ?? '' }));
    case 'deletePod':
    case 'recreatePod':
      return [];
  }
}

/** Workloads of a namespace that have fewer pods than they want (a controller refused before). */
function shortWorkloads(ctx: ControllerContext, ns: string): ObjectRef[] {
  const out: ObjectRef[] = [];
  for (const kind of ['ReplicaSet', 'StatefulSet', 'Job', 'DaemonSet'] as const) {
    for (const o of ctx.state.iterate(kind, ns)) {
      const ref = { kind, namespace: ns, name: o.metadata.name ?? '' };
      if (kind === 'DaemonSet') {
        out.push(ref);
        continue;
      }
      const have = ctx.podsOf(ref).filter(isActive).length;
      const spec = o.spec as { replicas?: number | null; parallelism?: number | null; completions?: number | null };
      const want = kind === 'Job' ? wantedActive(spec, 0) : Math.max(0, spec.replicas ?? 1);
      if (have < want) out.push(ref);
    }
  }
  return out;
}

/**
 * The workloads of a namespace whose controller has work as the state stands: a ReplicaSet or
 * StatefulSet with more or fewer active pods than replicas, an unfinished Job with fewer than it wants, a
 * Deployment whose ReplicaSets' replicas do not add up to its own. A reconciled workload's sync changes
 * nothing, so only these are queued.
 */
function unreconciled(ctx: ControllerContext, ns: string): ObjectRef[] {
  const out: ObjectRef[] = [];
  const sums = new Map<string, number>();
  for (const rs of ctx.state.iterate('ReplicaSet', ns)) {
    const ref = { kind: 'ReplicaSet', namespace: ns, name: rs.metadata.name ?? '' };
    const o = controllerOf(rs);
    if (o?.kind === 'Deployment') sums.set(o.name, (sums.get(o.name) ?? 0) + Math.max(0, rs.spec.replicas ?? 1));
    if (ctx.podsOf(ref).filter(isActive).length !== Math.max(0, rs.spec.replicas ?? 1)) out.push(ref);
  }
  for (const d of ctx.state.iterate('Deployment', ns)) {
    const name = d.metadata.name ?? '';
    if ((sums.get(name) ?? 0) !== Math.max(0, d.spec.replicas ?? 1))
      out.push({ kind: 'Deployment', namespace: ns, name });
  }
  for (const sts of ctx.state.iterate('StatefulSet', ns)) {
    const ref = { kind: 'StatefulSet', namespace: ns, name: sts.metadata.name ?? '' };
    if (ctx.podsOf(ref).filter(isActive).length !== Math.max(0, sts.spec.replicas ?? 1)) out.push(ref);
  }
  for (const job of ctx.state.iterate('Job', ns)) {
    const conds = (job.status as { conditions?: { type?: string; status?: string }[] } | undefined)?.conditions ?? [];
    if (conds.some((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True')) continue;
    const ref = { kind: 'Job', namespace: ns, name: job.metadata.name ?? '' };
    const pods = ctx.podsOf(ref);
    const succeeded = pods.filter((p) => p.status?.phase === 'Succeeded').length;
    if (pods.filter(isActive).length < wantedActive(job.spec, succeeded)) out.push(ref);
  }
  return out;
}

/** The workloads of a namespace a resync would queue (see `unreconciled`). */
export function unreconciledWorkloads(state: Snapshot, ns: string): ObjectRef[] {
  return unreconciled(new ControllerContext(state, {}), ns);
}

function sync(ctx: ControllerContext, r: ObjectRef): boolean {
  switch (r.kind) {
    case 'Deployment':
      return syncDeployment(ctx, r);
    case 'ReplicaSet': {
      const changed = syncReplicaSet(ctx, r);
      // The Deployment controller watches its ReplicaSets' status.
      const rs = ctx.state.get('ReplicaSet', r.namespace ?? 'default', r.name);
      const o = rs ? controllerOf(rs) : null;
      if (o?.kind === 'Deployment') ctx.markDirty(o);
      return changed;
    }
    case 'StatefulSet':
      return syncStatefulSet(ctx, r);
    case 'Job':
      return syncJob(ctx, r);
    case 'DaemonSet':
      return syncDaemonSet(ctx, r);
    default:
      return false;
  }
}

/** The top-level workload of a controller: a Deployment for its ReplicaSets. */
function topOf(ctx: ControllerContext, r: ObjectRef): ObjectRef {
  if (r.kind !== 'ReplicaSet') return r;
  const rs = ctx.state.get('ReplicaSet', r.namespace ?? 'default', r.name);
  const o = rs ? controllerOf(rs) : null;
  return o?.kind === 'Deployment' ? { ...o, namespace: r.namespace } : r;
}

function pendingOf(ctx: ControllerContext, pods: readonly Pod[]): { pod: string; message: string }[] {
  const out: { pod: string; message: string }[] = [];
  for (const p of pods) {
    if (p.spec.nodeName) continue;
    const k = podKey(p);
    const cond = p.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False');
    out.push({ pod: k, message: ctx.pendingMessage.get(k) ?? cond?.message ?? 'not scheduled yet' });
  }
  return out;
}

function lastFailedCreate(ctx: ControllerContext, owners: readonly ObjectRef[]): string | undefined {
  const keys = new Set(owners.map(refKey));
  for (let i = ctx.events.length - 1; i >= 0; i--) {
    const e = ctx.events[i]!;
    if (e.type === 'FailedCreate' && keys.has(refKey(e.object))) return e.message;
  }
  return undefined;
}

function outcomeOf(ctx: ControllerContext, r: ObjectRef): WorkloadOutcome | null {
  const ns = r.namespace ?? 'default';
  const base = { kind: r.kind, namespace: ns, name: r.name };
  const createdFor = (refs: readonly ObjectRef[]) =>
    refs.reduce((n, x) => n + (ctx.createdBy.get(refKey(x))?.length ?? 0), 0);
  if (r.kind === 'Deployment') {
    const d = ctx.state.get('Deployment', ns, r.name);
    if (!d) return null;
    const rss = replicaSetsOf(ctx, d);
    const newRS = findNewReplicaSet(d, rss);
    const refs = rss.map((rs) => ({ kind: 'ReplicaSet', namespace: ns, name: rs.metadata.name ?? '' }));
    const pods = refs.flatMap((x) => ctx.podsOf(x)).filter(isActive);
    const newPods = newRS
      ? ctx.podsOf({ kind: 'ReplicaSet', namespace: ns, name: newRS.metadata.name ?? '' }).filter(isActive)
      : [];
    const wanted = Math.max(0, d.spec.replicas ?? 1);
    const scheduled = pods.filter((p) => !!p.spec.nodeName).length;
    const complete = newPods.length === wanted && pods.length === wanted && newPods.every(isAvailable);
    const out: WorkloadOutcome = {
      ...base,
      wanted,
      created: createdFor(refs),
      scheduled,
      pods: pods.length,
      updated: newPods.length,
      pending: pendingOf(ctx, pods),
      complete,
    };
    const fc = complete ? undefined : lastFailedCreate(ctx, [r, ...refs]);
    if (fc) out.failedCreate = fc;
    return out;
  }
  const o = ctx.state.get(r.kind, ns, r.name);
  if (!o) return null;
  const pods = ctx.podsOf({ ...r, namespace: ns }).filter(isActive);
  const spec = o.spec as {
    replicas?: number | null;
    parallelism?: number | null;
    completions?: number | null;
    template?: unknown;
  };
  let wanted: number;
  let updated = pods.length;
  if (r.kind === 'Job') {
    const succeeded = ctx.podsOf({ ...r, namespace: ns }).filter((p) => p.status?.phase === 'Succeeded').length;
    wanted = wantedActive(spec, succeeded);
  } else if (r.kind === 'DaemonSet') wanted = daemonWanted(ctx.state.list('Node'), spec.template as PodTemplate);
  else wanted = Math.max(0, spec.replicas ?? 1);
  if (r.kind === 'StatefulSet') {
    const hash = podTemplateHash(spec.template);
    updated = pods.filter((p) => isCurrentRevision(ctx, refKey({ ...r, namespace: ns }), hash, p)).length;
  }
  const scheduled = pods.filter((p) => !!p.spec.nodeName).length;
  const complete = pods.length === wanted && updated === wanted && pods.every(isAvailable);
  const out: WorkloadOutcome = {
    ...base,
    wanted,
    created: createdFor([{ ...r, namespace: ns }]),
    scheduled,
    pods: pods.length,
    updated,
    pending: pendingOf(ctx, pods),
    complete,
  };
  const fc = complete ? undefined : lastFailedCreate(ctx, [{ ...r, namespace: ns }]);
  if (fc) out.failedCreate = fc;
  return out;
}

/** Applies `changes` in order to a copy of `state`, then runs the controllers to a fixpoint. */
export function converge(input: Snapshot, changes: readonly Change[], opts: ConvergeOptions = {}): Convergence {
  // Build the node index before forking, so every fork takes a copy-on-write view of it.
  nodeInfoIndex(input);
  let state = input;
  const evicted: string[] = [];
  const touched: ObjectRef[] = [];
  const startRevisions = new Map<string, string>();
  for (const c of changes) {
    for (const s of seeds(state, c)) {
      if (s.kind !== 'StatefulSet' && s.kind !== 'DaemonSet') continue;
      const o = state.get(s.kind, s.namespace ?? 'default', s.name);
      const k = refKey({ ...s, namespace: s.namespace ?? 'default' });
      if (o && !startRevisions.has(k))
        startRevisions.set(k, podTemplateHash((o.spec as { template?: unknown }).template));
    }
    const r = applyChange(state, c, opts);
    if ('error' in r) {
      return {
        state: input,
        steps: 0,
        bounded: false,
        refused: { change: c, message: r.error },
        workloads: [],
        events: [],
        evicted: [],
        created: [],
      };
    }
    state = r.state;
    evicted.push(...r.deleted);
    touched.push(...seeds(state, c));
  }
  if (state === input) state = input.fork();
  const ctx = new ControllerContext(state, opts, opts.shareBase === false ? undefined : input);
  for (const [k, v] of startRevisions) ctx.startRevision.set(k, v);
  for (const t of touched)
    ctx.markDirty({ ...t, namespace: t.namespace ?? (t.kind === 'Node' ? undefined : 'default') });
  const namespaces = new Set<string>();
  let nodesChanged = false;
  for (const c of changes) {
    if (c.kind === 'quota' || c.kind === 'limitRange') namespaces.add(c.namespace);
    if (c.kind === 'cordon' || c.kind === 'uncordon' || c.kind === 'drain' || c.kind === 'addNode') nodesChanged = true;
    if (c.kind === 'deletePod' || c.kind === 'recreatePod') namespaces.add(c.namespace);
  }
  for (const key of evicted) namespaces.add(key.slice(0, key.indexOf('/')));
  for (const ns of namespaces) for (const w of shortWorkloads(ctx, ns)) ctx.markDirty(w);
  // Evicted and deleted pods: their controllers replace them.
  for (const key of evicted) {
    const slash = key.indexOf('/');
    const ns = key.slice(0, slash);
    for (const p of input.iterate('Pod', ns)) {
      if (p.metadata.name !== key.slice(slash + 1)) continue;
      const o = controllerOf(p);
      if (o) ctx.markDirty(o);
    }
  }
  for (const c of changes) if (c.kind === 'recreatePod') ctx.schedQueue.add(`${c.namespace}/${c.name}`);
  if (opts.resync) {
    for (const ns of opts.resync.namespaces) for (const w of unreconciled(ctx, ns)) ctx.markDirty(w);
    for (const o of opts.resync.objects ?? []) {
      const ref = { ...o, namespace: o.namespace ?? 'default' };
      ctx.markDirty(ref);
      touched.push(ref);
    }
  }
  if (nodesChanged || evicted.length) ctx.capacityChanged = true;
  if (opts.scheduleAllPending) queueAllPending(ctx);
  // The pods of touched workloads that wait now: tried at once.
  for (const t of touched) {
    if (!WORKLOAD_KINDS.includes(t.kind)) continue;
    for (const p of workloadPodsNow(ctx, t)) if (!p.spec.nodeName && isActive(p)) ctx.schedQueue.add(podKey(p));
  }

  const maxSteps = opts.maxSteps ?? 200;
  const affected = new Map<string, ObjectRef>();
  for (const t of touched) if (WORKLOAD_KINDS.includes(t.kind)) affected.set(refKey(topOf(ctx, t)), topOf(ctx, t));
  let steps = 0;
  // Namespaces whose workloads refused before the snapshot are known to `ctx.blocked`.
  const primed = new Set<string>();
  while (ctx.hasWork() || ctx.capacityChanged || ctx.quotaFreed.size > 0) {
    if (steps >= maxSteps) break;
    steps++;
    // Controllers refused by quota retry once usage in their namespace went down — those refused during
    // this convergence and those refused before the snapshot alike: a sync that fails to create is
    // requeued rate-limited (replica_set.go processNextWorkItem → handleErr → queue.AddRateLimited), so
    // every controller with missing replicas tries again, whatever freed the room.
    if (ctx.quotaFreed.size > 0) {
      for (const ns of ctx.quotaFreed) {
        if (primed.has(ns)) continue;
        primed.add(ns);
        for (const w of shortWorkloads(ctx, ns)) if (w.kind !== 'DaemonSet') ctx.blocked.set(refKey(w), w);
      }
      for (const [, ref] of ctx.blocked) if (ctx.quotaFreed.has(ref.namespace ?? 'default')) ctx.markDirty(ref);
      ctx.quotaFreed.clear();
    }
    const dirty = ctx.takeDirty();
    // Deployments first (they scale ReplicaSets), then the pod-owning controllers.
    dirty.sort((a, b) => (a.kind === 'Deployment' ? 0 : 1) - (b.kind === 'Deployment' ? 0 : 1));
    for (const r of dirty) {
      sync(ctx, r);
      const top = topOf(ctx, r);
      affected.set(refKey(top), top);
    }
    runScheduler(ctx);
  }
  const bounded = ctx.hasWork() || ctx.capacityChanged || ctx.quotaFreed.size > 0;
  // Workloads whose pods were preempted, evicted or created are affected too.
  for (const e of ctx.events) {
    if (e.type === 'FailedCreate' || e.type === 'SuccessfulCreate') {
      const top = topOf(ctx, e.object);
      affected.set(refKey(top), top);
    }
  }
  for (const key of [...evicted, ...ctx.deleted]) {
    const slash = key.indexOf('/');
    const p = input.get('Pod', key.slice(0, slash), key.slice(slash + 1));
    const o = p ? controllerOf(p) : null;
    if (o) {
      const top = topOf(ctx, { ...o, namespace: key.slice(0, slash) });
      affected.set(refKey(top), top);
    }
  }
  const workloads: WorkloadOutcome[] = [];
  if (opts.outcomes === false) affected.clear();
  for (const r of [...affected.values()].sort((a, b) => (refKey(a) < refKey(b) ? -1 : 1))) {
    const w = outcomeOf(ctx, r);
    if (w) workloads.push(w);
  }
  // A Deployment that does not complete: RolloutStalled, with what blocks it.
  for (const w of workloads) {
    if (w.complete || w.kind !== 'Deployment') continue;
    const reason = w.failedCreate ?? w.pending[0]?.message;
    if (reason)
      ctx.events.push({
        type: 'RolloutStalled',
        object: { kind: w.kind, namespace: w.namespace, name: w.name },
        reason,
      });
  }
  const created: { pod: string; owner: ObjectRef }[] = [];
  for (const [key, names] of ctx.createdBy) {
    const [kind, ns, name] = key.split('/') as [string, string, string];
    for (const n of names) created.push({ pod: `${ns}/${n}`, owner: { kind, namespace: ns, name } });
  }
  return { state, steps, bounded, workloads, events: ctx.events, evicted: [...evicted, ...ctx.deleted], created };
}

function workloadPodsNow(ctx: ControllerContext, r: ObjectRef): Pod[] {
  if (r.kind !== 'Deployment') return ctx.podsOf(r);
  const d = ctx.state.get('Deployment', r.namespace ?? 'default', r.name);
  if (!d) return [];
  return replicaSetsOf(ctx, d).flatMap((rs) =>
    ctx.podsOf({ kind: 'ReplicaSet', namespace: r.namespace, name: rs.metadata.name ?? '' }),
  );
}
