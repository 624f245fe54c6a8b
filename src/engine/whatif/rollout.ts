/**
 * "roll out web (with 500m cpu)": the template change as its one command (engine/changes), converged
 * through the controllers (engine/converge.ts) with the workload's own strategy and, when it stalls, with
 * maxSurge 0 / growing maxUnavailable and Recreate.
 */
import type { Deployment, Workload } from '../../k8s/objects.ts';
import type { KObject, Snapshot } from '../../k8s/snapshot.ts';
import { Quantity } from '../../quantity.ts';
import { clone } from '../defaults.ts';
import { nodeInfoIndex } from '../scheduler/node-info.ts';
import type { SimOptions } from '../simulate.ts';
import { surgeBudget, workloadTemplate } from '../workloads.ts';
import { admitObject } from '../admit.ts';
import { renderCommand } from '../changes/command.ts';
import type { Change, ObjectRef } from '../changes/types.ts';
import { controllerOf } from '../controllers/context.ts';
import { equalIgnoreHash } from '../controllers/deployment.ts';
import type { VerifiedFix } from '../fixes/types.ts';
import { type ChangeAnswer, whatIfChange } from './change.ts';
import {
  emptyTally,
  outcomeFor,
  ownedBy,
  perPodOf,
  probePod,
  replicaSetRefs,
  targetOf,
  workloadPods,
  type PodTally,
  type WorkloadRef,
} from './shared.ts';

export type TemplateChange =
  | { field: 'requests' | 'limits'; resource: string; value: string; container?: string }
  | { field: 'image'; value: string; container?: string };

/**
 * The template change as its one command: `kubectl set resources` when it only sets requests / limits of
 * one container, else a strategic merge patch of the template's containers (by name), and for a plain
 * restart the restartedAt annotation `kubectl rollout restart` writes, as a merge patch.
 */
export function rolloutChange(w: WorkloadRef, changes: readonly TemplateChange[], restartedAt: string): Change {
  const target = targetOf(w);
  const first = workloadTemplate(w.object).spec.containers[0]?.name ?? '*';
  const nameOf = (c: TemplateChange) => c.container ?? first;
  if (changes.length === 0)
    return {
      kind: 'patch',
      target,
      type: 'merge',
      body: { spec: { template: { metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': restartedAt } } } } },
    };
  const containers = [...new Set(changes.map(nameOf))];
  if (containers.length === 1 && changes.every((c) => c.field !== 'image')) {
    const change: Change & { kind: 'setResources' } = { kind: 'setResources', target, container: containers[0]! };
    for (const c of changes) {
      if (c.field !== 'requests' && c.field !== 'limits') continue;
      change[c.field] = { ...(change[c.field] ?? {}), [c.resource]: c.value };
    }
    // A request above the limit sets the limit with it (changedWorkload).
    const lims = workloadTemplate(w.object).spec.containers.find((x) => x.name === containers[0])?.resources?.limits;
    for (const [k, v] of Object.entries(change.requests ?? {})) {
      const lim = Quantity.tryParse(change.limits?.[k] ?? lims?.[k]);
      if (lim && lim.cmp(Quantity.parse(v)) < 0) change.limits = { ...(change.limits ?? {}), [k]: v };
    }
    return change;
  }
  const byName = new Map<string, Record<string, unknown>>();
  for (const c of changes) {
    const n = nameOf(c);
    const e = byName.get(n) ?? { name: n };
    if (c.field === 'image') e.image = c.value;
    else {
      const res = (e.resources ?? {}) as Record<string, Record<string, string>>;
      res[c.field] = { ...(res[c.field] ?? {}), [c.resource]: c.value };
      e.resources = res;
    }
    byName.set(n, e);
  }
  return {
    kind: 'patch',
    target,
    type: 'strategic',
    body: { spec: { template: { spec: { containers: [...byName.values()] } } } },
  };
}

export function describeChanges(changes: readonly TemplateChange[]): string {
  return changes
    .map(
      (c) =>
        `${c.field === 'image' ? 'image' : `${c.field}.${c.resource}`}=${c.value}${c.container ? ` on ${c.container}` : ''}`,
    )
    .join(', ');
}

/**
 * The workload with its template changed (a request above the limit raises the limit with it, as in
 * whatIfRequests). With no effective change it is `kubectl rollout restart`: the restartedAt annotation,
 * so the template — and the ReplicaSet — is new all the same.
 */
export function changedWorkload(
  w: Workload & KObject,
  changes: readonly TemplateChange[],
  restartedAt: string,
): { object: Workload & KObject; unknownContainers: string[] } {
  const obj = clone(w);
  const tpl = workloadTemplate(obj as Workload);
  const before = JSON.stringify(tpl);
  const unknownContainers: string[] = [];
  for (const ch of changes) {
    const targets = ch.container
      ? tpl.spec.containers.filter((c) => c.name === ch.container)
      : tpl.spec.containers.slice(0, 1);
    if (ch.container && targets.length === 0 && !unknownContainers.includes(ch.container))
      unknownContainers.push(ch.container);
    for (const c of targets) {
      if (ch.field === 'image') {
        c.image = ch.value;
        continue;
      }
      const res = (c.resources ??= {});
      const list = (res[ch.field] ??= {});
      list[ch.resource] = ch.value;
      if (ch.field === 'requests') {
        const lim = Quantity.tryParse(res.limits?.[ch.resource]);
        if (lim && lim.cmp(Quantity.parse(ch.value)) < 0) res.limits![ch.resource] = ch.value;
      }
    }
  }
  if (JSON.stringify(tpl) === before) {
    const meta = (tpl.metadata ??= {});
    meta.annotations = { ...(meta.annotations ?? {}), 'kubectl.kubernetes.io/restartedAt': restartedAt };
  }
  return { object: obj, unknownContainers };
}

export interface RolloutSetting {
  strategy: 'RollingUpdate' | 'Recreate';
  maxSurge: number;
  maxUnavailable: number;
}

export interface RolloutRun extends RolloutSetting {
  completed: boolean;
  /** Controller rounds (scale the new ReplicaSet up, create its pods, scale the old down) until done or stuck. */
  rounds: number;
  /** Most pods existing at once (old + new). */
  peakPods: number;
  /** Fewest pods running (bound to a node) at any point: the capacity dip of the rollout. */
  minRunning: number;
  /** Creations refused over the whole rollout (FailedCreate events), and the first refusal's text. */
  refusedCreates: number;
  firstRefusal?: { message: string; layer: string | null };
  /** Round 1: the new pods created next to the old ones (the surge). */
  firstRound: PodTally;
  /** Where it stopped, when it does not complete. */
  stall?: {
    oldPods: number;
    newRunning: number;
    newPending: number;
    /** What blocks the next new pod, one line each: the quota and its numbers, the LimitRange, the scheduler. */
    blockers: string[];
  };
}

export interface RolloutAnswer {
  workload: WorkloadRef;
  strategy: string;
  maxSurge: number;
  maxUnavailable: number;
  /** Pods running now (all of the old template). */
  replicas: number;
  /** Pods the rollout ends with (spec.replicas). */
  target: number;
  /** The template change (`requests.cpu=500m`), null for a plain restart. */
  change: string | null;
  perPodBefore: Record<string, string>;
  perPodAfter: Record<string, string>;
  /** Round 1's new pods next to the old ones. */
  surgeTally: PodTally;
  /** The rollout with the workload's own strategy, step by step. */
  run: RolloutRun;
  /** When it stalls: settings that replace in place, each re-simulated (Deployments only). */
  alternatives: { setting: RolloutSetting; patch: string; run: RolloutRun }[];
  advice?: string;
  unknownContainers: string[];
  /** The rollout's one command (engine/changes). */
  command: string;
  /** Set when the kind does not roll out a template (ReplicaSet, Job, DaemonSet, CronJob). */
  unsupported?: string;
  /** The template change converged with the workload's own strategy: its outcome per workload. */
  converged: ChangeAnswer;
}

/**
 * A rollout converged (engine/converge.ts): the template change — with `strategy` set first when it is an
 * alternative — applied, then the Deployment controller (controllers/deployment.ts, after upstream
 * pkg/controller/deployment/rolling.go rolloutRolling and recreate.go rolloutRecreate) or the StatefulSet
 * controller drives it, the ReplicaSet controller creates the pods through admission, the scheduler binds
 * them. The run's figures are read off the controllers' events in order.
 */
function convergeRollout(
  state: Snapshot,
  w: WorkloadRef,
  change: Change,
  setting: RolloutSetting,
  own: boolean,
  opts: SimOptions,
): { run: RolloutRun; converged: ChangeAnswer } {
  const also: Change[] = own
    ? []
    : [
        setting.strategy === 'Recreate'
          ? { kind: 'rolloutStrategy', target: targetOf(w), strategy: 'Recreate' }
          : {
              kind: 'rolloutStrategy',
              target: targetOf(w),
              strategy: 'RollingUpdate',
              maxSurge: setting.maxSurge,
              maxUnavailable: setting.maxUnavailable,
            },
      ];
  const objects = [targetOf(w), ...replicaSetRefs(state, w)];
  const converged = whatIfChange(state, change, { ...opts, resync: { namespaces: [], objects } }, also);
  return { run: runOf(state, w, converged, setting), converged };
}

/** The ReplicaSet (or the StatefulSet itself) whose pods are of the template the change left. */
function newOwner(a: ChangeAnswer, w: WorkloadRef): string | null {
  if (w.kind !== 'Deployment') return `${w.kind}/${w.name}`;
  const d = a.state.get('Deployment', w.namespace, w.name) as (Deployment & KObject) | undefined;
  if (!d) return null;
  for (const rs of a.state.iterate('ReplicaSet', w.namespace)) {
    const o = controllerOf(rs);
    if (o?.kind === 'Deployment' && o.name === w.name && equalIgnoreHash(rs.spec.template, d.spec.template))
      return `ReplicaSet/${rs.metadata.name ?? ''}`;
  }
  return null;
}

function runOf(state: Snapshot, w: WorkloadRef, a: ChangeAnswer, setting: RolloutSetting): RolloutRun {
  const old = workloadPods(state, w);
  const mine = (o: ObjectRef) => ownedBy(a.state, o, w) || ownedBy(state, o, w);
  const fresh = newOwner(a, w);
  const isNew = (o: ObjectRef) => fresh !== null && `${o.kind}/${o.name}` === fresh;
  const run: RolloutRun = {
    ...setting,
    completed: false,
    rounds: a.steps,
    peakPods: old.length,
    minRunning: old.filter((p) => !!p.spec.nodeName).length,
    refusedCreates: 0,
    firstRound: emptyTally(),
  };
  if (a.refused) {
    run.stall = { oldPods: old.length, newRunning: 0, newPending: 0, blockers: [a.refused] };
    return run;
  }
  // Replay the controllers' events: pods of the workload that exist and that run, after each event.
  const live = new Set(old.map((p) => `${w.namespace}/${p.metadata.name ?? ''}`));
  const running = new Set(old.filter((p) => !!p.spec.nodeName).map((p) => `${w.namespace}/${p.metadata.name ?? ''}`));
  const createdBy = new Map<string, ObjectRef>();
  for (const c of a.created) if (mine(c.owner)) createdBy.set(c.pod, c.owner);
  let total = old.length;
  // Round 1 as the reply shows it: the first creates of the new pods, until the controller scales again.
  let firstOpen = true;
  let firstSeen = false;
  const firstPods: string[] = [];
  const newCreated = [...a.created].filter((c) => isNew(c.owner)).map((c) => c.pod);
  for (const e of a.events) {
    if ((e.type === 'ScaledUp' || e.type === 'ScaledDown') && e.object.name === w.name && firstSeen) firstOpen = false;
    if (e.type === 'SuccessfulCreate' && mine(e.object)) {
      total += e.count;
      run.peakPods = Math.max(run.peakPods, total);
      if (isNew(e.object) && firstOpen) {
        firstSeen = true;
        run.firstRound.attempted += e.count;
        run.firstRound.admitted += e.count;
        firstPods.push(...newCreated.splice(0, e.count));
      }
    } else if (e.type === 'FailedCreate' && mine(e.object)) {
      run.refusedCreates += e.count;
      run.firstRefusal ??= { message: e.message, layer: e.layer ?? null };
      if (isNew(e.object) && firstOpen) {
        firstSeen = true;
        run.firstRound.attempted += e.count;
        run.firstRound.rejected += e.count;
        const m = e.message.replace(/^pods "[^"]*"/, 'pods');
        const r = run.firstRound.rejections.find((x) => x.message.replace(/^pods "[^"]*"/, 'pods') === m);
        if (r) r.count += e.count;
        else run.firstRound.rejections.push({ message: e.message, count: e.count, layer: e.layer ?? null });
      }
    } else if (e.type === 'Scheduled' && (live.has(e.pod) || createdBy.has(e.pod))) {
      live.add(e.pod);
      running.add(e.pod);
    } else if ((e.type === 'Killing' || e.type === 'Preempted') && (live.has(e.pod) || createdBy.has(e.pod))) {
      total--;
      live.delete(e.pod);
      running.delete(e.pod);
      run.minRunning = Math.min(run.minRunning, running.size);
    }
  }
  // Where round 1's pods went: the first node each was bound to, or the scheduler's message.
  for (const pod of firstPods) {
    const bound = a.events.find((e) => e.type === 'Scheduled' && e.pod === pod);
    if (bound && bound.type === 'Scheduled') {
      run.firstRound.scheduled++;
      run.firstRound.nodes[bound.node] = (run.firstRound.nodes[bound.node] ?? 0) + 1;
    } else {
      run.firstRound.pending++;
      const f = a.events.find((e) => e.type === 'FailedScheduling' && e.pod === pod);
      const m = f && f.type === 'FailedScheduling' ? f.message : 'not scheduled';
      const x = run.firstRound.pendingMessages.find((y) => y.message === m);
      if (x) x.count++;
      else run.firstRound.pendingMessages.push({ message: m, count: 1 });
    }
  }
  const out = outcomeFor(a, w);
  run.completed = !!out?.complete;
  if (run.completed || !out) return run;
  const newPending = out.pending.filter((p) => {
    const o = createdBy.get(p.pod);
    return o ? isNew(o) : false;
  });
  const newRunning = Math.max(0, out.updated - newPending.length);
  run.stall = {
    oldPods: Math.max(0, out.pods - out.updated),
    newRunning,
    newPending: newPending.length,
    blockers: blockersOf(a, w, newPending),
  };
  return run;
}

/** The lines that say why the next new pod is not running: quota numbers, LimitRange or scheduler text. */
function blockersOf(a: ChangeAnswer, w: WorkloadRef, pending: readonly { message: string }[]): string[] {
  const out: string[] = [];
  const d = a.state.get(w.kind, w.namespace, w.name) as (Workload & KObject) | undefined;
  const out0 = outcomeFor(a, w);
  if (d && out0?.failedCreate) {
    // The next pod of the new template against the state the rollout stopped in.
    const adm = admitObject(probePod({ ...w, object: d }), a.state, { dryRun: true });
    const f = adm.quota?.failure;
    if (!adm.allowed && f?.type === 'exceeded')
      out.push(
        f.exceeded
          .map(
            (k) =>
              `${f.quota} ${k}: ${f.used.get(k)?.toString() ?? '0'} of ${f.hard.get(k)?.toString() ?? '?'} used, a new pod needs ${f.requested.get(k)?.toString() ?? '?'}`,
          )
          .join('; '),
      );
    else
      out.push(
        `${adm.layer === 'limitrange' ? 'LimitRange: ' : ''}${(adm.message ?? out0.failedCreate).replace(/^pods "[^"]*" is forbidden: /, '')}`,
      );
  }
  for (const p of pending) if (!out.includes(`Pending: ${p.message}`)) out.push(`Pending: ${p.message}`);
  return out;
}

/** The strategy change's one command (engine/changes renderCommand). */
function strategyPatch(w: WorkloadRef, s: RolloutSetting): string {
  return renderCommand(
    s.strategy === 'Recreate'
      ? { kind: 'rolloutStrategy', target: targetOf(w), strategy: 'Recreate' }
      : {
          kind: 'rolloutStrategy',
          target: targetOf(w),
          strategy: 'RollingUpdate',
          maxSurge: s.maxSurge,
          maxUnavailable: s.maxUnavailable,
        },
  );
}

/**
 * Rolling out a new template (or a restart): the rollout simulated round by round with the workload's
 * own strategy; when it stalls, maxSurge 0 with growing maxUnavailable and Recreate, each re-simulated.
 */
export function whatIfRollout(
  state: Snapshot,
  w: WorkloadRef,
  opts: SimOptions = {},
  changes: readonly TemplateChange[] = [],
): RolloutAnswer {
  const restartedAt = new Date(opts.now ?? Date.UTC(2026, 0, 1)).toISOString();
  const { object: next, unknownContainers } = changedWorkload(w.object, changes, restartedAt);
  nodeInfoIndex(state);
  const replicas = workloadPods(state, w).length;
  const perPodBefore = perPodOf(state, w, opts);
  const perPodAfter = perPodOf(state, { ...w, object: next }, opts);
  const change = changes.length ? describeChanges(changes) : null;
  const target =
    w.kind === 'Deployment' || w.kind === 'StatefulSet'
      ? Math.max(0, (next as Deployment).spec.replicas ?? 1)
      : replicas;
  const templateChange = rolloutChange(w, changes, restartedAt);
  const base = {
    command: renderCommand(templateChange),
    workload: w,
    replicas,
    target,
    change,
    perPodBefore,
    perPodAfter,
    alternatives: [],
    unknownContainers,
  };
  if (w.kind === 'StatefulSet') {
    const setting: RolloutSetting = { strategy: 'RollingUpdate', maxSurge: 0, maxUnavailable: 1 };
    const { run, converged } = convergeRollout(state, w, templateChange, setting, true, opts);
    const answer: RolloutAnswer = {
      ...base,
      strategy: 'RollingUpdate',
      maxSurge: 0,
      maxUnavailable: 1,
      surgeTally: run.firstRound,
      run,
      converged,
    };
    if (!run.completed)
      answer.advice =
        'A StatefulSet replaces pods one by one: the new pod itself does not fit — no strategy helps; make room or lower its requests.';
    return answer;
  }
  if (w.kind !== 'Deployment') {
    const run: RolloutRun = {
      strategy: 'RollingUpdate',
      maxSurge: 0,
      maxUnavailable: 0,
      completed: false,
      rounds: 0,
      peakPods: replicas,
      minRunning: replicas,
      refusedCreates: 0,
      firstRound: emptyTally(),
    };
    return {
      ...base,
      strategy: 'none',
      maxSurge: 0,
      maxUnavailable: 0,
      surgeTally: run.firstRound,
      run,
      converged: whatIfChange(state, templateChange, opts),
      unsupported: `A ${w.kind} does not roll out a new template: its new pods get it as they are created.`,
    };
  }
  const d = next as Deployment & KObject;
  const b = surgeBudget(d);
  const setting: RolloutSetting = {
    strategy: b.strategy === 'Recreate' ? 'Recreate' : 'RollingUpdate',
    maxSurge: b.maxSurge,
    maxUnavailable: b.maxUnavailable,
  };
  const { run, converged } = convergeRollout(state, w, templateChange, setting, true, opts);
  const answer: RolloutAnswer = {
    ...base,
    alternatives: [],
    strategy: b.strategy,
    maxSurge: b.maxSurge,
    maxUnavailable: b.maxUnavailable,
    surgeTally: run.firstRound,
    run,
    converged,
  };
  if (run.completed) return answer;
  // Replace in place: maxSurge 0, maxUnavailable from max(1, current) doubling up to replicas — the first that completes.
  const R = Math.max(1, d.spec.replicas ?? 1);
  const tried: RolloutAnswer['alternatives'] = [];
  if (setting.strategy === 'RollingUpdate') {
    const candidates: number[] = [];
    for (let u = Math.max(1, b.maxUnavailable); u < R; u *= 2) candidates.push(u);
    candidates.push(R);
    let lastTried: RolloutAnswer['alternatives'][number] | null = null;
    for (const u of candidates) {
      const s: RolloutSetting = { strategy: 'RollingUpdate', maxSurge: 0, maxUnavailable: u };
      if (s.maxSurge === setting.maxSurge && s.maxUnavailable === setting.maxUnavailable) continue;
      const r = convergeRollout(state, w, templateChange, s, false, opts);
      lastTried = { setting: s, patch: strategyPatch(w, s), run: r.run };
      if (lastTried.run.completed) break;
    }
    if (lastTried) tried.push(lastTried);
    const rec: RolloutSetting = { strategy: 'Recreate', maxSurge: 0, maxUnavailable: R };
    tried.push({
      setting: rec,
      patch: strategyPatch(w, rec),
      run: convergeRollout(state, w, templateChange, rec, false, opts).run,
    });
  }
  answer.alternatives = tried;
  const ok = tried.find((t) => t.run.completed);
  answer.advice = ok
    ? ok.setting.strategy === 'Recreate'
      ? `Only Recreate completes (all ${R} pods down at once).`
      : `Set strategy.rollingUpdate.maxSurge: 0 with maxUnavailable: ${ok.setting.maxUnavailable} (replace in place)${tried.some((t) => t.setting.strategy === 'Recreate' && t.run.completed) ? ', or strategy Recreate' : ''}.`
    : 'No strategy completes: the new pods do not fit even with every old pod gone — make room or lower their requests.';
  return answer;
}

/** The settings that complete the rollout, as fixes in diagnose's shape (each converged). */
export function rolloutFixes(a: RolloutAnswer): VerifiedFix[] {
  return a.alternatives
    .filter((alt) => alt.run.completed)
    .map((alt) => ({
      who: 'app-team' as const,
      summary:
        alt.setting.strategy === 'Recreate'
          ? `strategy Recreate (all ${a.target} down at once)`
          : `maxSurge 0, maxUnavailable ${alt.setting.maxUnavailable} (replace in place)`,
      change: alt.patch,
      verified: true,
      outcome: `completes in ${alt.run.rounds} controller step${alt.run.rounds === 1 ? '' : 's'}, never fewer than ${alt.run.minRunning} running`,
      sideEffects:
        alt.setting.strategy === 'Recreate'
          ? [`all ${a.target} pods of ${a.workload.namespace}/${a.workload.name} are down together`]
          : [],
    }));
}
