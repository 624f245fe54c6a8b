/** "roll out web (with 500m cpu)". */
import type { Deployment, ReplicaSet, Workload } from '../../k8s/objects.ts';
import type { KObject, Snapshot } from '../../k8s/snapshot.ts';
import { Quantity, byteCompare } from '../../quantity.ts';
import { clone } from '../defaults.ts';
import { releasePod } from '../release.ts';
import { schedulePod, bindPod } from '../scheduler/schedule.ts';
import { nodeInfoIndex } from '../scheduler/node-info.ts';
import { simulateWorkloadPods, type SimOptions, type SimResult } from '../simulate.ts';
import { podTemplateHash, surgeBudget, workloadTemplate } from '../workloads.ts';
import { admitObject, commitAdmission } from '../admit.ts';
import { renderCommand } from '../changes/command.ts';
import type { Change } from '../changes/types.ts';
import { tally, emptyTally, workloadPods, perPodOf, type PodTally, type WorkloadRef, targetOf } from './shared.ts';

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
}

/** The lines that say why a new pod is not running: quota numbers, LimitRange or scheduler text. */
function blockersOf(results: SimResult[], pendingMessages: Iterable<string>): string[] {
  const out: string[] = [];
  for (const r of results) {
    if (r.kind !== 'Pod' || r.admission.allowed) continue;
    const f = r.detail.admission.quota?.failure;
    let line: string;
    if (f?.type === 'exceeded') {
      line = f.exceeded
        .map(
          (k) =>
            `${f.quota} ${k}: ${f.used.get(k)?.toString() ?? '0'} of ${f.hard.get(k)?.toString() ?? '?'} used, a new pod needs ${f.requested.get(k)?.toString() ?? '?'}`,
        )
        .join('; ');
    } else
      line = `${r.admission.layer === 'limitrange' ? 'LimitRange: ' : ''}${(r.admission.message ?? '').replace(/^pods "[^"]*" is forbidden: /, '')}`;
    if (!out.includes(line)) out.push(line);
  }
  for (const m of pendingMessages) if (!out.includes(`Pending: ${m}`)) out.push(`Pending: ${m}`);
  return out;
}

interface RolloutSim {
  fork: Snapshot;
  ns: string;
  old: Set<string>;
  created: string[];
  pending: Map<string, string>;
  opts: SimOptions;
}

function running(sim: RolloutSim, name: string): boolean {
  return !!sim.fork.get('Pod', sim.ns, name)?.spec.nodeName;
}

/** The scheduler retries Pending pods as room frees. */
function retryPending(sim: RolloutSim, names: Iterable<string>): void {
  for (const n of names) {
    const p = sim.fork.get('Pod', sim.ns, n);
    if (!p || p.spec.nodeName) continue;
    const r = schedulePod(sim.fork, p, { k8sVersion: sim.opts.k8sVersion, draEnabled: sim.opts.draEnabled });
    if (r.scheduled && r.node) {
      bindPod(sim.fork, p, r.node);
      sim.pending.delete(n);
    } else sim.pending.set(n, r.message ?? 'not scheduled');
  }
}

/** Creates pods of `owner` (a ReplicaSet, or a StatefulSet ordinal), records what ran and what waits. */
function createPods(sim: RolloutSim, owner: Workload, count: number, seed: { n: number }): SimResult[] {
  const results: SimResult[] = [];
  simulateWorkloadPods(sim.fork, owner, { ...sim.opts, namespace: sim.ns }, results, [], seed, count);
  const pods = results.filter((r) => r.kind === 'Pod');
  for (const r of pods) {
    if (!r.admission.allowed) continue;
    sim.created.push(r.name);
    if (!r.scheduling?.scheduled) sim.pending.set(r.name, r.scheduling?.message ?? 'not scheduled');
  }
  return pods;
}

/**
 * The ReplicaSet controller's choice when scaling down (ActivePodsWithRanks): unassigned before
 * assigned, then pods doubled up on a node with more of their siblings, then by name.
 */
function removeOld(sim: RolloutSim, count: number, unhealthyOnly: boolean): number {
  const perNode = new Map<string, number>();
  for (const n of sim.old) {
    const node = sim.fork.get('Pod', sim.ns, n)?.spec.nodeName;
    if (node) perNode.set(node, (perNode.get(node) ?? 0) + 1);
  }
  const nodeOf = (n: string) => sim.fork.get('Pod', sim.ns, n)?.spec.nodeName ?? null;
  const order = [...sim.old].sort((a, b) => {
    const na = nodeOf(a);
    const nb = nodeOf(b);
    if (!na !== !nb) return na ? 1 : -1;
    return (na && nb ? (perNode.get(nb) ?? 0) - (perNode.get(na) ?? 0) : 0) || byteCompare(a, b);
  });
  let removed = 0;
  for (const n of order) {
    if (removed >= count) break;
    if (unhealthyOnly && running(sim, n)) continue;
    const p = sim.fork.get('Pod', sim.ns, n);
    if (p) releasePod(sim.fork, p, sim.opts.now);
    sim.old.delete(n);
    sim.pending.delete(n);
    removed++;
  }
  return removed;
}

function newRun(setting: RolloutSetting, sim: RolloutSim): RolloutRun {
  return {
    ...setting,
    completed: false,
    rounds: 0,
    peakPods: sim.old.size,
    minRunning: [...sim.old].filter((n) => running(sim, n)).length,
    refusedCreates: 0,
    firstRound: emptyTally(),
  };
}

function countRefusals(run: RolloutRun, results: SimResult[]): void {
  for (const r of results) {
    if (r.admission.allowed) continue;
    run.refusedCreates++;
    run.firstRefusal ??= { message: r.admission.message ?? '', layer: r.admission.layer };
  }
}

function stallOf(sim: RolloutSim, last: SimResult[]): NonNullable<RolloutRun['stall']> {
  const newRunning = sim.created.filter((n) => running(sim, n)).length;
  return {
    oldPods: sim.old.size,
    newRunning,
    newPending: sim.created.length - newRunning,
    blockers: blockersOf(last, new Set(sim.created.filter((n) => sim.pending.has(n)).map((n) => sim.pending.get(n)!))),
  };
}

/** A rollout's working state: a fork of the cluster, and the workload's pods as they are now (the old ones). */
function newRolloutSim(state: Snapshot, w: WorkloadRef, opts: SimOptions): RolloutSim {
  return {
    fork: state.fork(),
    ns: w.namespace,
    old: new Set(workloadPods(state, w).map((p) => p.metadata.name ?? '')),
    created: [],
    pending: new Map(),
    opts,
  };
}

/**
 * A Deployment's rollout as its controller drives it (pkg/controller/deployment/rolling.go,
 * recreate.go), one round per sync: NewRSNewReplicas scales the new ReplicaSet up to at most
 * replicas + maxSurge pods in all; the ReplicaSet controller creates the missing pods (each through
 * admission — quota counts the old pods still there — and the scheduler); reconcileOldReplicaSets scales
 * the old ones down while at least replicas − maxUnavailable pods stay available (unhealthy old pods
 * first). A pod counts as available once bound to a node (minReadySeconds and probes are not modelled).
 * It stops when nothing moves.
 */
function simulateDeploymentRollout(
  state: Snapshot,
  w: WorkloadRef,
  next: Deployment & KObject,
  setting: RolloutSetting,
  opts: SimOptions,
): RolloutRun {
  const ns = w.namespace;
  const sim = newRolloutSim(state, w, opts);
  const R = Math.max(0, next.spec.replicas ?? 1);
  const run = newRun(setting, sim);
  // The new ReplicaSet, as the deployment controller makes it: the template plus pod-template-hash.
  const tpl = clone(next.spec.template);
  const hash = podTemplateHash(tpl);
  const labels = { ...(tpl.metadata?.labels ?? {}), 'pod-template-hash': hash };
  const rsObj: ReplicaSet = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: `${w.name}-${hash}`,
      namespace: ns,
      labels,
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: w.name, controller: true }],
    },
    spec: {
      replicas: 0,
      selector: {
        ...(next.spec.selector ?? {}),
        matchLabels: { ...(next.spec.selector?.matchLabels ?? {}), 'pod-template-hash': hash },
      },
      template: { ...tpl, metadata: { ...(tpl.metadata ?? {}), labels } },
    },
  };
  const rsAdm = admitObject(rsObj, sim.fork, { ...opts });
  if (!rsAdm.allowed) {
    run.rounds = 1;
    run.stall = {
      oldPods: sim.old.size,
      newRunning: 0,
      newPending: 0,
      blockers: [rsAdm.message ?? 'the new ReplicaSet is refused'],
    };
    return run;
  }
  commitAdmission(sim.fork, rsAdm);
  const rs = rsAdm.object;
  const seed = { n: 9000 };
  const newRunning = () => sim.created.filter((n) => running(sim, n)).length;
  const oldRunning = () => [...sim.old].filter((n) => running(sim, n)).length;
  let last: SimResult[] = [];

  if (setting.strategy === 'Recreate') {
    // Round 1: every old pod goes (the controller waits for them to be gone); round 2: all new ones.
    removeOld(sim, sim.old.size, false);
    run.minRunning = 0;
    last = createPods(sim, rs, R, seed);
    run.firstRound = tally(last);
    countRefusals(run, last);
    run.rounds = 2;
    run.peakPods = Math.max(run.peakPods, sim.created.length);
    if (newRunning() === R) run.completed = true;
    else run.stall = stallOf(sim, last);
    return run;
  }

  const minAvailable = R - setting.maxUnavailable;
  let newSpec = 0;
  const maxRounds = 2 * (R + sim.old.size) + 10;
  for (let round = 1; round <= maxRounds; round++) {
    const key = () => `${sim.old.size}/${newSpec}/${sim.created.length}/${newRunning()}/${oldRunning()}`;
    const before = key();
    run.rounds = round;
    // NewRSNewReplicas: up to replicas + maxSurge pods in all, never more than replicas new ones.
    const total = sim.old.size + newSpec;
    if (total < R + setting.maxSurge) newSpec = Math.min(R, newSpec + (R + setting.maxSurge - total));
    // The scheduler retries what waits; the ReplicaSet controller creates what is missing.
    retryPending(sim, [...sim.created, ...sim.old]);
    const results = newSpec > sim.created.length ? createPods(sim, rs, newSpec - sim.created.length, seed) : [];
    if (round === 1) run.firstRound = tally(results);
    if (results.length) last = results;
    countRefusals(run, results);
    run.peakPods = Math.max(run.peakPods, sim.old.size + sim.created.length);
    // reconcileOldReplicaSets: how far the old ones may shrink.
    if (sim.old.size > 0) {
      const newAvail = newRunning();
      const oldAvail = oldRunning();
      const maxScaledDown = sim.old.size + newSpec - minAvailable - (newSpec - newAvail);
      if (maxScaledDown > 0) {
        // cleanupUnhealthyReplicas first, then scaleDownOldReplicaSetsForRollingUpdate.
        removeOld(sim, Math.min(maxScaledDown, sim.old.size - oldAvail), true);
        const available = oldAvail + newAvail;
        if (available > minAvailable) removeOld(sim, Math.min(sim.old.size, available - minAvailable), false);
      }
    }
    run.minRunning = Math.min(run.minRunning, oldRunning() + newRunning());
    if (sim.old.size === 0 && newSpec === R && newRunning() === R) {
      run.completed = true;
      break;
    }
    if (key() === before) break;
  }
  if (!run.completed) run.stall = stallOf(sim, last);
  return run;
}

/**
 * A StatefulSet's RollingUpdate: from the highest ordinal down, one pod deleted and re-created with the
 * new template, the next only once it runs. No surge: quota needs no room beyond the difference.
 */
function simulateStatefulSetRollout(
  state: Snapshot,
  w: WorkloadRef,
  next: Workload & KObject,
  opts: SimOptions,
): RolloutRun {
  const ns = w.namespace;
  const sim = newRolloutSim(state, w, opts);
  const run = newRun({ strategy: 'RollingUpdate', maxSurge: 0, maxUnavailable: 1 }, sim);
  const ordinal = (n: string) => Number(/-(\d+)$/.exec(n)?.[1] ?? -1);
  const order = [...sim.old].sort((a, b) => ordinal(b) - ordinal(a));
  let last: SimResult[] = [];
  for (const name of order) {
    run.rounds++;
    const p = sim.fork.get('Pod', ns, name);
    if (p) releasePod(sim.fork, p, opts.now);
    sim.old.delete(name);
    run.minRunning = Math.min(run.minRunning, [...sim.old, ...sim.created].filter((n) => running(sim, n)).length);
    last = createPods(sim, next as Workload, 1, { n: ordinal(name) });
    if (run.rounds === 1) run.firstRound = tally(last);
    countRefusals(run, last);
    if (!last.every((r) => r.admission.allowed && r.scheduling?.scheduled)) {
      run.stall = stallOf(sim, last);
      return run;
    }
  }
  run.completed = true;
  return run;
}

function strategyPatch(w: WorkloadRef, s: RolloutSetting): string {
  const body =
    s.strategy === 'Recreate'
      ? '{"spec":{"strategy":{"type":"Recreate","rollingUpdate":null}}}'
      : `{"spec":{"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":${s.maxSurge},"maxUnavailable":${s.maxUnavailable}}}}}`;
  return `kubectl -n ${w.namespace} patch deploy ${w.name} --type merge -p '${body}'`;
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
  const base = {
    command: renderCommand(rolloutChange(w, changes, restartedAt)),
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
    const run = simulateStatefulSetRollout(state, w, next, opts);
    const answer: RolloutAnswer = {
      ...base,
      strategy: 'RollingUpdate',
      maxSurge: 0,
      maxUnavailable: 1,
      surgeTally: run.firstRound,
      run,
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
  const run = simulateDeploymentRollout(state, w, d, setting, opts);
  const answer: RolloutAnswer = {
    ...base,
    alternatives: [],
    strategy: b.strategy,
    maxSurge: b.maxSurge,
    maxUnavailable: b.maxUnavailable,
    surgeTally: run.firstRound,
    run,
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
      lastTried = { setting: s, patch: strategyPatch(w, s), run: simulateDeploymentRollout(state, w, d, s, opts) };
      if (lastTried.run.completed) break;
    }
    if (lastTried) tried.push(lastTried);
    const rec: RolloutSetting = { strategy: 'Recreate', maxSurge: 0, maxUnavailable: R };
    tried.push({ setting: rec, patch: strategyPatch(w, rec), run: simulateDeploymentRollout(state, w, d, rec, opts) });
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
