/**
 * The settled state a fix is judged against (docs/kubernetes-semantics.md, "fixes are judged against the
 * settled state"). A snapshot can hold Pending pods our model says fit: kube-scheduler would have bound
 * them already (they are older than any fix, so they also take capacity first). Settling converges the
 * state with no change but every unbound active pod queued for the scheduler, as on a scheduler's start
 * (its informer's initial list queues every unbound pod), the controllers running on what that does (a
 * bound pod's owner syncs to a no-op; a preemption victim's owner re-creates it). Every fix then forks
 * the settled state, and what the fix changes is measured against it: a pod the settle bound is no side
 * effect of any fix, and a fix that frees capacity is not credited with binding pods that fit anyway.
 *
 * Kept with the state it settles (FixMemo, through Snapshot.derive: every fork of a state not written
 * since shares it), per the options that decide a convergence: the engine keeps no state of its own.
 */
import type { Derived, Snapshot } from '../../k8s/snapshot.ts';
import { converge, type Convergence } from '../converge.ts';
import type { FixSubject } from '../diagnose/goal.ts';
import type { SimOptions } from '../simulate.ts';
import { nsTerminating, ownerOf } from './owners.ts';

export interface Settled {
  /** The state fixes are tried from: the settled fork, or `base` itself when the settle changed nothing. */
  state: Snapshot;
  /** The settle's convergence (its state is `state`); null when nothing was to schedule. */
  conv: Convergence | null;
  /** Pods ("ns/name") the settle bound, preempted or deleted, and pods its controllers created. */
  touched: ReadonlySet<string>;
}

/**
 * What fix generation and verification keep with a state (Snapshot.derive, as the node-info index is
 * kept): a fork that has not been written shares its parent's values (the live cache's per-question forks
 * of one generation all do), and any write drops them for the side written.
 */
class FixMemo implements Derived {
  static readonly KEY = 'fixes.memo';
  /** Whether `values` is this memo's alone (a fork shares it with its parent until either side is written). */
  private owned = true;
  constructor(public values: Map<string, unknown> = new Map()) {}
  fork(): FixMemo {
    this.owned = false;
    const child = new FixMemo(this.values);
    child.owned = false;
    return child;
  }
  onChange(): void {
    // A written side leaves the shared map even while it is empty: the other side may fill it later
    // (a question still answering on a superseded generation) with values of the other content.
    if (!this.owned || this.values.size > 0) {
      this.values = new Map();
      this.owned = true;
    }
  }
}

/**
 * Lets a superseded state go of what fixes kept with it (its settled fork, ~4.5 MB at 5,000 nodes /
 * 150,000 pods): the live cache calls it on the generation a newer one replaces, so at most the newest
 * generation (and forks in use) hold a settle, not every generation since the last compaction.
 */
export function forgetFixMemo(state: Snapshot): void {
  state.dropDerived(FixMemo.KEY);
}

/** `compute()` once per state content and `key` (the caller's key says everything else it depends on). */
export function memoOnContent<T>(state: Snapshot, key: string, compute: () => T): T {
  const m = state.derive(FixMemo.KEY, () => new FixMemo()).values;
  if (m.has(key)) return m.get(key) as T;
  const v = compute();
  m.set(key, v);
  return v;
}

/**
 * The options that decide a settle, as a memo key. `now` decides only what a terminating pod still
 * counts toward its quotas (pods.go isQuotaActive: deletionTimestamp + grace period passed): a state with
 * no pod being deleted settles the same at any time, so the bot's answers (each with its own `now`) share one.
 */
export function optionsKey(base: Snapshot, opts: SimOptions): string {
  const { resync: _r, now, ...rest } = opts as SimOptions & { resync?: unknown };
  void _r;
  const entries = Object.entries(rest).sort(([a], [b]) => (a < b ? -1 : 1));
  return JSON.stringify([now !== undefined && anyTerminating(base) ? now : null, entries]);
}

function anyTerminating(state: Snapshot): boolean {
  for (const ns of state.storeNamespaces('Pod')) if (nsTerminating(state, ns)) return true;
  return false;
}

/** `base` settled (see the header): computed once per state content and options. */
export function settledState(base: Snapshot, opts: SimOptions): Settled {
  return memoOnContent(base, `fixes.settled ${optionsKey(base, opts)}`, () => settle(base, opts));
}

function settle(base: Snapshot, opts: SimOptions): Settled {
  const conv = converge(base, [], { ...opts, scheduleAllPending: true, outcomes: false });
  const touched = new Set<string>();
  for (const e of conv.events) {
    if (e.type === 'Scheduled' || e.type === 'Preempted' || e.type === 'Killing') touched.add(e.pod);
  }
  for (const k of conv.evicted) touched.add(k);
  for (const c of conv.created) touched.add(c.pod);
  if (touched.size === 0) return { state: base, conv: null, touched };
  // The settled state is only ever forked (each try is a fork of it): forked once here, its stores are
  // shared from the start, so what is memoised on them (Snapshot.memoNs) is kept for every answer.
  return { state: conv.state.fork(), conv, touched };
}

/**
 * Whether the settle bound, preempted or re-created a pod of the subject (its workload's pods, or the
 * bare pod): the subject is then no longer what the paste describes in the settled state, and its fixes
 * are verified from the state as it is (verify.ts).
 */
export function settleTouchesSubject(base: Snapshot, settled: Settled, subject: FixSubject): boolean {
  if (settled.touched.size === 0 || subject.kind === 'object') return false;
  const ns = subject.kind === 'workload' ? subject.ref.namespace : subject.namespace;
  for (const key of settled.touched) {
    const slash = key.indexOf('/');
    if (key.slice(0, slash) !== ns) continue;
    const name = key.slice(slash + 1);
    if (subject.kind === 'pod') {
      if (name === subject.name) return true;
      continue;
    }
    const p = base.get('Pod', ns, name) ?? settled.state.get('Pod', ns, name);
    const o = p ? (ownerOf(settled.state, p) ?? ownerOf(base, p)) : null;
    if (o && o.kind === subject.ref.kind && o.name === subject.ref.name) return true;
  }
  return false;
}

/**
 * The state fixes for `subject` are judged against: `base` settled, or `base` itself when the settle
 * moved the subject's own pods (verify.ts). Plan generation reads who holds what from it too (quota.ts:
 * a Pending replica the settle binds is a running pod, not one that holds quota without running).
 */
export function judgedState(base: Snapshot, subject: FixSubject, opts: SimOptions): Snapshot {
  const settled = settledState(base, opts);
  return settleTouchesSubject(base, settled, subject) ? base : settled.state;
}
