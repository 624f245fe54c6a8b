/**
 * What the controllers share while a change converges: the state (a fork), the events they record, an
 * index of pods by controlling owner (the informers' `controllerRef` lookups), the work queues (objects
 * to sync, pods to schedule) and the creations and deletions they make — each through admission
 * (engine/admit.ts) or the quota ledger (engine/release.ts), never around them.
 */
import type { Pod } from '../../k8s/objects.ts';
import type { KObject, Snapshot } from '../../k8s/snapshot.ts';
import { admitObject, commitAdmission, generateNameSuffix } from '../admit.ts';
import { isTerminal } from '../pod-resources.ts';
import { releasePod } from '../release.ts';
import { ScheduleCache } from '../scheduler/schedule.ts';
import type { AdmitOptions } from '../admit.ts';
import type { ObjectRef } from '../changes/types.ts';

/** What the controllers need of the simulation options (engine/simulate.ts SimOptions is one). */
export interface ControllerOptions extends AdmitOptions {
  namespace?: string;
  draEnabled?: boolean;
  /**
   * The scheduler reuses per-node verdicts between identical pods (engine/scheduler/schedule.ts
   * ScheduleCache; default true). Off, every attempt runs every plugin: the same results, slower — the
   * reference the equivalence test compares against.
   */
  scheduleCache?: boolean;
  /**
   * A convergence takes what does not depend on its changes from the state it forks (default true):
   * the pods-by-owner index and Pending pods of namespaces it did not write (Snapshot.memoNs), and the
   * scheduler's verdicts on nodes it did not write (schedule.ts SharedRow). Off, it computes everything
   * from its own fork: the same results, slower — the reference the shared-base test compares against.
   */
  shareBase?: boolean;
}

export type ConvergeEvent =
  /** A controller's create was refused (admission): the controller's own event, with the API server's message. */
  | { type: 'FailedCreate'; object: ObjectRef; message: string; count: number; layer?: string | null }
  | { type: 'SuccessfulCreate'; object: ObjectRef; count: number }
  | { type: 'FailedScheduling'; pod: string; message: string }
  | { type: 'Scheduled'; pod: string; node: string }
  /** A pod deleted by the scheduler's preemption so that `by` fits on `node`. */
  | { type: 'Preempted'; pod: string; by: string; node: string }
  /** A pod deleted by a controller scaling down, or by the change itself (drain, delete). */
  | { type: 'Killing'; pod: string; by: ObjectRef | null }
  /** The Deployment controller scaled a ReplicaSet (ScalingReplicaSet events). */
  | { type: 'ScaledUp' | 'ScaledDown'; object: ObjectRef; replicaSet: string; from: number; to: number }
  /** A rollout that cannot progress, with the reason (what blocks its next pod). */
  | { type: 'RolloutStalled'; object: ObjectRef; reason: string };

export function refKey(r: ObjectRef): string {
  return `${r.kind}/${r.namespace ?? ''}/${r.name}`;
}

export function podKey(p: Pod): string {
  return `${p.metadata.namespace ?? 'default'}/${p.metadata.name ?? ''}`;
}

/** The controlling owner of an object (the ownerReference with controller: true). */
export function controllerOf(o: KObject): ObjectRef | null {
  const refs = o.metadata.ownerReferences;
  if (!Array.isArray(refs)) return null;
  for (const r of refs as { kind?: string; name?: string; controller?: boolean }[]) {
    if (r.controller && r.kind && r.name) return { kind: r.kind, namespace: o.metadata.namespace, name: r.name };
  }
  return null;
}

/** Pod names of a namespace by their controlling owner's key, each list sorted. */
function podsByOwner(pods: IterableIterator<Pod>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const p of pods) {
    const o = controllerOf(p);
    if (!o) continue;
    const k = refKey(o);
    let names = out.get(k);
    if (!names) {
      names = [];
      out.set(k, names);
    }
    names.push(p.metadata.name ?? '');
  }
  for (const names of out.values()) names.sort();
  return out;
}

/** A pod that counts toward its controller: not terminal, not being deleted (controller.FilterActivePods). */
export function isActive(p: Pod): boolean {
  return !isTerminal(p) && !p.metadata.deletionTimestamp;
}

/**
 * Available: bound to a node and not reported unready. A pod the simulation created is ready once bound
 * (probes and minReadySeconds are not modelled); a pod from the cluster counts as its Ready condition says.
 */
export function isAvailable(p: Pod): boolean {
  if (!p.spec.nodeName || !isActive(p)) return false;
  const ready = p.status?.conditions?.find((c) => c.type === 'Ready');
  if (ready) return ready.status === 'True';
  const phase = p.status?.phase;
  return phase === undefined || phase === null || phase === 'Running';
}

export class ControllerContext {
  readonly events: ConvergeEvent[] = [];
  /** Pods deleted during convergence (eviction, preemption, scale-down), "ns/name". */
  readonly deleted: string[] = [];
  /** Pods created during convergence, by controlling owner key. */
  readonly createdBy = new Map<string, string[]>();
  /** Objects to sync next step, by key. */
  private dirty = new Map<string, ObjectRef>();
  /** Pods to try to schedule next step, by key. */
  readonly schedQueue = new Set<string>();
  /** Something freed capacity or changed nodes this step: unschedulable pods are retried (MoveAllToActiveQueue). */
  capacityChanged = false;
  /** Whether the unbound pods of the whole state were queued once already (on the first cluster event). */
  pendingScanned = false;
  /** The scheduler's verdicts per pod shape and node, kept for the whole convergence (schedule.ts). */
  readonly scheduleCache: ScheduleCache;
  /** Namespaces where quota usage went down this step: controllers refused by quota there retry. */
  readonly quotaFreed = new Set<string>();
  /** Controllers whose last create was refused, by key → namespace. */
  readonly blocked = new Map<string, ObjectRef>();
  /** Last FailedScheduling message per pod key. */
  readonly pendingMessage = new Map<string, string>();
  /**
   * Pod names by controlling owner key: a sorted list shared with the base state's namespace (read
   * only), or this convergence's own set once it adds to or drops from it.
   */
  private podsByOwner = new Map<string, Set<string> | readonly string[]>();
  private indexedNs = new Set<string>();
  /** Namespaces whose pods differed from the base state's when the convergence started. */
  private readonly divergedAtStart: ReadonlySet<string>;
  private nameSeed = 0;
  /** The admission layer of the last refused create (limitrange, api-validation, quota …). */
  lastRefusalLayer: string | null = null;
  private seq = 0;
  /** Template hashes of StatefulSets and DaemonSets as the convergence found them (their pods' revision). */
  readonly startRevision = new Map<string, string>();

  /**
   * `base`: the state `state` was forked from, if any. A namespace whose pods were the base's when the
   * convergence started takes its owner index from the base's namespace, built once for every fork of
   * it: the controllers change which pods an owner has only through `createPod` and `deletePod`
   * (binding and nominating keep a pod's owner), so the index is the one `state` would give.
   */
  constructor(
    readonly state: Snapshot,
    readonly opts: ControllerOptions,
    private readonly base?: Snapshot,
  ) {
    this.divergedAtStart = base ? state.divergedNamespaces(base, 'Pod') : new Set();
    this.scheduleCache = new ScheduleCache({ shared: opts.shareBase !== false });
  }

  /** Order of objects created during convergence (their creationTimestamp sorts after the cluster's). */
  nextSeq(): number {
    return ++this.seq;
  }

  markDirty(r: ObjectRef): void {
    this.dirty.set(refKey(r), r);
  }

  takeDirty(): ObjectRef[] {
    const out = [...this.dirty.values()];
    this.dirty.clear();
    return out;
  }

  hasWork(): boolean {
    return this.dirty.size > 0 || this.schedQueue.size > 0;
  }

  private indexNs(ns: string): void {
    if (this.indexedNs.has(ns)) return;
    this.indexedNs.add(ns);
    const from = this.base && !this.divergedAtStart.has(ns) ? this.base : this.state;
    const index =
      this.opts.shareBase === false
        ? podsByOwner(this.state.iterate('Pod', ns))
        : from.memoNs('Pod', ns, 'controllers.pods-by-owner', podsByOwner);
    for (const [k, names] of index) this.podsByOwner.set(k, names);
  }

  private addToIndex(o: ObjectRef, name: string): void {
    const k = refKey(o);
    const had = this.podsByOwner.get(k);
    const s = had instanceof Set ? had : new Set(had ?? []);
    if (s !== had) this.podsByOwner.set(k, s);
    s.add(name);
  }

  /** Pods whose controller is `owner` (active or not), sorted by name. */
  podsOf(owner: ObjectRef): Pod[] {
    const ns = owner.namespace ?? 'default';
    this.indexNs(ns);
    const names = this.podsByOwner.get(refKey({ ...owner, namespace: ns }));
    if (!names) return [];
    const out: Pod[] = [];
    const own = names instanceof Set;
    for (const n of own ? [...names].sort() : names) {
      const p = this.state.get('Pod', ns, n);
      // A name whose pod is gone (deleted: dropped from an own set), or that a new pod of another owner took.
      const o = p ? controllerOf(p) : null;
      if (p && o?.kind === owner.kind && o.name === owner.name) out.push(p);
      else if (!p && own) names.delete(n);
    }
    return out;
  }

  /** A fresh name for a generated pod: `<base>-<5 chars>`, not taken in the namespace. */
  podName(ns: string, base: string): string {
    for (;;) {
      const name = `${base}-${generateNameSuffix(`${ns}/${base}/${this.nameSeed++}`)}`;
      if (!this.state.get('Pod', ns, name)) return name;
    }
  }

  /**
   * Creates a pod through admission (LimitRanger → validation → ResourceQuota) as `owner` would; on
   * success it is stored, indexed and queued for the scheduler. Returns the refusal message, or null.
   */
  createPod(owner: ObjectRef, pod: Pod): string | null {
    const a = admitObject(pod, this.state, { ...this.opts, operation: 'CREATE', dryRun: false });
    if (!a.allowed) {
      this.lastRefusalLayer = a.layer;
      return a.message ?? 'refused';
    }
    commitAdmission(this.state, a);
    const stored = a.object as Pod;
    const ns = stored.metadata.namespace ?? 'default';
    this.indexNs(ns);
    this.addToIndex({ ...owner, namespace: ns }, stored.metadata.name ?? '');
    const k = refKey({ ...owner, namespace: ns });
    const list = this.createdBy.get(k) ?? [];
    list.push(stored.metadata.name ?? '');
    this.createdBy.set(k, list);
    if (!stored.spec.nodeName) this.schedQueue.add(podKey(stored));
    return null;
  }

  /** Deletes a pod (its quota usage and node room given back); its controller is told. */
  deletePod(p: Pod, reason: ConvergeEvent | null): void {
    releasePod(this.state, p, this.opts.now);
    const key = podKey(p);
    this.deleted.push(key);
    this.schedQueue.delete(key);
    this.pendingMessage.delete(key);
    if (reason) this.events.push(reason);
    if (p.spec.nodeName) this.capacityChanged = true;
    this.quotaFreed.add(p.metadata.namespace ?? 'default');
    const o = controllerOf(p);
    if (o) this.markDirty(o);
  }
}
