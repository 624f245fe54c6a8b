/**
 * What-if simulations over a copy-on-write fork: scale a workload, change a quota or a LimitRange value,
 * change a container's requests, lose a node, roll out a new template. Each answer comes with
 * hand-checkable numbers.
 */
import {
  isKind,
  isWorkloadKind,
  type Deployment,
  type LimitRange,
  type LimitRangeItem,
  type Pod,
  type ReplicaSet,
  type Workload,
} from '../k8s/objects.ts';
import type { KObject, Snapshot } from '../k8s/snapshot.ts';
import { Quantity, byteCompare } from '../quantity.ts';
import { clone, defaultLimitRange } from './defaults.ts';
import { ownerOf, refOf } from './fixes.ts';
import { releasePod } from './release.ts';
import { isTerminal, perPodRequests, podRequests } from './pod-resources.ts';
import { schedulePod, bindPod } from './scheduler/schedule.ts';
import { nodeInfoIndex } from './scheduler/node-info.ts';
import { withQuotaHard } from './quota-ledger.ts';
import { interchangeablePods, simulate, simulateWorkloadPods, type SimOptions, type SimResult } from './simulate.ts';
import { expandWorkload, podTemplateHash, surgeBudget, workloadTemplate } from './workloads.ts';
import { countFits, type FitCount } from './headroom.ts';
import { admitObject, commitAdmission } from './admit.ts';

export interface PodTally {
  attempted: number;
  admitted: number;
  rejected: number;
  /** Rejection messages with counts (first message of each kind). */
  rejections: { message: string; count: number; layer: string | null }[];
  scheduled: number;
  pending: number;
  nodes: Record<string, number>;
  pendingMessages: { message: string; count: number }[];
}

export function tally(results: SimResult[]): PodTally {
  const t: PodTally = {
    attempted: 0,
    admitted: 0,
    rejected: 0,
    rejections: [],
    scheduled: 0,
    pending: 0,
    nodes: {},
    pendingMessages: [],
  };
  const rej = new Map<string, { message: string; count: number; layer: string | null }>();
  const pend = new Map<string, { message: string; count: number }>();
  for (const r of results) {
    if (r.kind !== 'Pod') continue;
    t.attempted++;
    if (!r.admission.allowed) {
      t.rejected++;
      // Group by the message without the generated pod name.
      const key = (r.admission.message ?? '').replace(/^pods "[^"]*"/, 'pods');
      const e = rej.get(key) ?? { message: r.admission.message ?? '', count: 0, layer: r.admission.layer };
      e.count++;
      rej.set(key, e);
      continue;
    }
    t.admitted++;
    if (r.scheduling?.scheduled && r.scheduling.node) {
      t.scheduled++;
      t.nodes[r.scheduling.node] = (t.nodes[r.scheduling.node] ?? 0) + 1;
    } else if (r.scheduling) {
      t.pending++;
      const key = r.scheduling.message ?? 'not scheduled';
      const e = pend.get(key) ?? { message: key, count: 0 };
      e.count++;
      pend.set(key, e);
    }
  }
  t.rejections = [...rej.values()];
  t.pendingMessages = [...pend.values()];
  return t;
}

export interface WorkloadRef {
  kind: string;
  name: string;
  namespace: string;
  object: Workload & KObject;
}

/** Finds a workload by name (and kind hint) in a namespace, or in any allowed namespace. */
export function findWorkload(
  state: Snapshot,
  name: string,
  kind: string | undefined,
  namespaces: readonly string[],
): WorkloadRef | null {
  const kinds = kind ? [kind] : ['Deployment', 'StatefulSet', 'ReplicaSet', 'Job', 'DaemonSet', 'CronJob'];
  for (const ns of namespaces) {
    for (const k of kinds) {
      const o = isWorkloadKind(k) ? state.get(k, ns, name) : undefined;
      if (o) return { kind: k, name, namespace: ns, object: o };
    }
  }
  return null;
}

/** Live (non-terminal) pods a workload owns now. */
export function workloadPods(state: Snapshot, w: WorkloadRef): Pod[] {
  const out: Pod[] = [];
  for (const p of state.iterate('Pod', w.namespace)) {
    if (isTerminal(p)) continue;
    const o = ownerOf(state, p);
    if (o && o.kind === w.kind && o.name === w.name) out.push(p);
  }
  return out.sort((a, b) => byteCompare(a.metadata.name ?? '', b.metadata.name ?? ''));
}

export interface ScaleAnswer {
  workload: WorkloadRef;
  from: number;
  to: number;
  perPod: Record<string, string>;
  tally: PodTally;
  /** When some did not fit: what it would take. */
  toGetAll?: string[];
  /** The same scale re-simulated with the quota raised as `toGetAll` says. */
  withRaisedQuota?: PodTally;
}

/** The workload template's pod as admission leaves it (defaults applied), shown per pod: cpu and memory. */
function perPodOf(state: Snapshot, w: WorkloadRef, opts: SimOptions): Record<string, string> {
  const tpl = workloadTemplate(w.object);
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `${w.name}-probe`, namespace: w.namespace },
    spec: clone(tpl.spec),
  };
  const adm = admitObject(pod, state, { ...opts, dryRun: true });
  return perPodRequests(adm.object, { extended: false });
}

/**
 * `count` new pods of a workload (a scale-up), as simulateWorkloadPods runs them — in growing batches for
 * a Deployment or ReplicaSet (each batch scales the same ReplicaSet on), so that once a pod is refused at
 * admission the rest need not even be built: interchangeable pods are all refused the same way
 * (simulate.ts, `repeatOutcomes`). "what if web scales to 10000000" on a full quota is one refused pod
 * and a count, not thousands of pod objects.
 */
function addPods(
  state: Snapshot,
  w: WorkloadRef,
  opts: SimOptions,
  results: SimResult[],
  warnings: string[],
  seed: { n: number },
  count: number,
): void {
  const object = w.object;
  if (w.kind !== 'Deployment' && w.kind !== 'ReplicaSet') {
    simulateWorkloadPods(state, object, opts, results, warnings, seed, count, true);
    return;
  }
  // Pod i is named from seed `base + i`, batch or not: the same pods as one call would make.
  const base = seed.n;
  let done = 0;
  let batch = 16;
  while (done < count) {
    const n = Math.min(count - done, batch);
    const at = results.length;
    simulateWorkloadPods(state, object, opts, results, warnings, { n: base + done }, n, true);
    done += n;
    batch *= 2;
    const last = results[results.length - 1];
    // A refusal repeated within the batch (simulate.ts) holds for every later pod of the workload too.
    if (
      done < count &&
      results.length > at &&
      last &&
      last.kind === 'Pod' &&
      !last.admission.allowed &&
      (last.admission.layer === 'quota' || last.admission.layer === 'limitrange')
    ) {
      const pods = results.slice(at).flatMap((r) => (r.kind === 'Pod' && isKind(r.object, 'Pod') ? [r.object] : []));
      if (!interchangeablePods(object, pods, 0)) continue;
      for (; done < count; done++) results.push(last);
    }
  }
  seed.n = base + 2 * count;
}

export function whatIfScale(state: Snapshot, w: WorkloadRef, target: number, opts: SimOptions = {}): ScaleAnswer {
  const current = workloadPods(state, w);
  const from = current.length;
  nodeInfoIndex(state);
  const fork = state.fork();
  const results: SimResult[] = [];
  const warnings: string[] = [];
  if (target > from) {
    addPods(fork, w, { ...opts, namespace: w.namespace }, results, warnings, { n: 1000 + from }, target - from);
  } else {
    for (const p of current.slice(target)) releasePod(fork, p);
  }
  const podResults = results.filter((r) => r.kind === 'Pod');
  const t = tally(podResults);
  const answer: ScaleAnswer = { workload: w, from, to: target, perPod: perPodOf(state, w, opts), tally: t };
  if (t.rejected > 0 || t.pending > 0) {
    const hints: string[] = [];
    const raises: { quota: string; resource: string; value: Quantity }[] = [];
    for (const r of podResults) {
      const f = r.detail.admission.quota?.failure;
      if (f?.type === 'exceeded') {
        // The first refusal's `used` already holds every pod admitted before it; each later pod needs the same again.
        for (const k of f.exceeded) {
          const need = f.used.get(k)!.add(f.requested.get(k)!.times(t.rejected));
          hints.push(`raise ${f.quota} ${k} to ${need}`);
          raises.push({ quota: f.quota, resource: k, value: need });
        }
        break;
      }
    }
    if (raises.length > 0) {
      // Re-simulate with the raised quota before saying it. Raising a quota changes nothing for the pods
      // already admitted (same order, same placements), so only the refused ones run again, on top of the
      // state the first run left.
      const again = fork.fork();
      for (const { quota, resource, value } of raises)
        withQuotaHard(again, w.namespace, quota, resource, value, opts.now);
      const rerun: SimResult[] = [];
      addPods(again, w, { ...opts, namespace: w.namespace }, rerun, [], { n: 1000 + target }, t.rejected);
      const t2 = tally(rerun.filter((r) => r.kind === 'Pod'));
      answer.withRaisedQuota = {
        ...t2,
        attempted: t.attempted,
        admitted: t.admitted + t2.admitted,
        scheduled: t.scheduled + t2.scheduled,
        pending: t.pending + t2.pending,
      };
    }
    if (t.pending > 0)
      hints.push(
        `${t.pending} pod${t.pending === 1 ? '' : 's'} would need node capacity (${Object.entries(answer.perPod)
          .map(([k, v]) => `${v} ${k}`)
          .join(', ')} each)`,
      );
    answer.toGetAll = [...new Set(hints)];
  }
  return answer;
}

export interface QuotaChangeAnswer {
  namespace: string;
  quota: string;
  resource: string;
  from: string | null;
  to: string;
  defaultPodBefore: number;
  defaultPodAfter: number;
  limitedByAfter: string | null;
}

export function whatIfQuota(
  state: Snapshot,
  namespace: string,
  quotaName: string,
  resource: string,
  value: string,
  opts: SimOptions = {},
): QuotaChangeAnswer | null {
  const q = state.get('ResourceQuota', namespace, quotaName);
  if (!q) return null;
  const v = Quantity.parse(value).toString();
  nodeInfoIndex(state);
  const fork = withQuotaHard(state.fork(), namespace, quotaName, resource, Quantity.parse(value), opts.now);
  const probe = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'quota-doctor-probe', namespace },
    spec: { containers: [{ name: 'app', image: 'app' }] },
  } as Pod;
  const before = countFits(state, probe, opts);
  const after = countFits(fork, probe, opts);
  return {
    namespace,
    quota: quotaName,
    resource,
    from: q.status?.hard?.[resource] !== undefined ? Quantity.parse(q.status.hard[resource]).toString() : null,
    to: v,
    defaultPodBefore: before.fits,
    defaultPodAfter: after.fits,
    limitedByAfter: after.limitedBy,
  };
}

export interface RequestsChangeAnswer {
  workload: WorkloadRef;
  change: string;
  /** Replacing every pod with the new template (a rollout), then how many fit. */
  tally: PodTally;
}

export function whatIfRequests(
  state: Snapshot,
  w: WorkloadRef,
  which: 'requests' | 'limits',
  resource: string,
  value: string,
  container: string | undefined,
  opts: SimOptions = {},
): RequestsChangeAnswer {
  const obj = clone(w.object) as Workload & KObject;
  const tpl = workloadTemplate(obj as Workload);
  for (const c of tpl.spec.containers) {
    if (container && c.name !== container) continue;
    const res = (c.resources ??= {});
    const list = (res[which] ??= {});
    list[resource] = value;
    if (which === 'requests') {
      const lim = Quantity.tryParse(res.limits?.[resource]);
      if (lim && lim.cmp(Quantity.parse(value)) < 0) res.limits![resource] = value;
    }
    if (!container) break;
  }
  nodeInfoIndex(state);
  const fork = state.fork();
  const current = workloadPods(state, w);
  for (const p of current) releasePod(fork, p);
  const results: SimResult[] = [];
  simulateWorkloadPods(
    fork,
    obj as Workload,
    { ...opts, namespace: w.namespace },
    results,
    [],
    { n: 5000 },
    Math.max(current.length, 1),
  );
  return {
    workload: w,
    change: `${which}.${resource}=${value}${container ? ` on ${container}` : ''}`,
    tally: tally(results.filter((r) => r.kind === 'Pod')),
  };
}

export interface DrainAnswer {
  node: string;
  pods: number;
  rescheduled: Record<string, number>;
  stranded: { pod: string; message: string }[];
}

/** Losing a node: can its pods land elsewhere? (DaemonSet pods are left out: they die with the node.) */
/**
 * `drain`: kubectl cordons the node (spec.unschedulable, the `node.kubernetes.io/unschedulable` taint) and
 * evicts its pods. `down`: the node stops reporting; the node lifecycle controller taints it
 * `node.kubernetes.io/unreachable` (NoSchedule and NoExecute) and its pods are evicted once their
 * tolerationSeconds (300 s by default) run out. Either way the node stays in the scheduler's list, so
 * messages count it (`1 node(s) were unschedulable` / `1 node(s) had untolerated taint(s)`).
 */
export function whatIfDrain(
  state: Snapshot,
  node: string,
  opts: SimOptions = {},
  how: 'drain' | 'down' = 'drain',
): DrainAnswer | null {
  const nodeObj = state.get('Node', undefined, node);
  if (!nodeObj) return null;
  nodeInfoIndex(state);
  const fork = state.fork();
  const pods: Pod[] = [];
  for (const p of state.iterate('Pod')) {
    if (p.spec.nodeName !== node || isTerminal(p)) continue;
    if (p.metadata.ownerReferences?.some((o) => o.kind === 'DaemonSet')) continue;
    pods.push(p);
  }
  const taints = (nodeObj.spec?.taints ?? []).filter(
    (t) => !t.key.startsWith('node.kubernetes.io/unschedulable') && !t.key.startsWith('node.kubernetes.io/unreachable'),
  );
  const added =
    how === 'drain'
      ? [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }]
      : [
          { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' },
          { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' },
        ];
  fork.put({
    ...nodeObj,
    spec: {
      ...(nodeObj.spec ?? {}),
      ...(how === 'drain' ? { unschedulable: true } : {}),
      taints: [...taints, ...added],
    },
  });
  for (const p of pods) fork.put({ ...p, spec: { ...p.spec, nodeName: undefined } });
  const out: DrainAnswer = { node, pods: pods.length, rescheduled: {}, stranded: [] };
  // Bigger pods first, as a human would place them (and kube-scheduler's queue tends to by priority).
  const ordered = pods
    .slice()
    .sort(
      (a, b) =>
        (b.spec.priority ?? 0) - (a.spec.priority ?? 0) || byteCompare(a.metadata.name ?? '', b.metadata.name ?? ''),
    );
  for (const p of ordered) {
    const unbound = fork.get('Pod', p.metadata.namespace, p.metadata.name ?? '')!;
    const r = schedulePod(fork, unbound, { k8sVersion: opts.k8sVersion, draEnabled: opts.draEnabled });
    if (r.scheduled && r.node) {
      bindPod(fork, unbound, r.node);
      out.rescheduled[r.node] = (out.rescheduled[r.node] ?? 0) + 1;
    } else
      out.stranded.push({ pod: `${p.metadata.namespace}/${p.metadata.name}`, message: r.message ?? 'not schedulable' });
  }
  return out;
}

/** A change to a workload's pod template: a new version's requests, limits or image. */
export type TemplateChange =
  | { field: 'requests' | 'limits'; resource: string; value: string; container?: string }
  | { field: 'image'; value: string; container?: string };

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
  /** Set when the kind does not roll out a template (ReplicaSet, Job, DaemonSet, CronJob). */
  unsupported?: string;
}

function emptyTally(): PodTally {
  return tally([]);
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

export type LimitRangeField = 'min' | 'max' | 'default' | 'defaultRequest' | 'maxLimitRequestRatio';
export type LimitRangeType = 'Container' | 'Pod' | 'PersistentVolumeClaim';

export interface PodShapeFit extends FitCount {
  /** The first container's requests and limits after API defaulting and LimitRange defaults. */
  requests: Record<string, string>;
  limits: Record<string, string>;
}

/** A new pod (and claim) of a workload against LimitRanger. */
export interface LimitVerdict {
  limitRange: 'pass' | 'fail';
  /** LimitRanger's message when it fails. */
  message?: string;
  /** Passed the LimitRange but refused by this quota (not the LimitRange's doing). */
  quota?: string;
}

export interface LimitRangeWorkloadCheck {
  ref: string;
  kind: string;
  name: string;
  /** Pods it runs now: untouched, LimitRanger only sees pods being created. */
  pods: number;
  perPodBefore: Record<string, string>;
  perPodAfter: Record<string, string>;
  before: LimitVerdict;
  after: LimitVerdict;
}

export interface LimitRangeChangeAnswer {
  namespace: string;
  limitRange: string;
  /** No LimitRange (of that name) existed: this one would be created. */
  created: boolean;
  type: LimitRangeType;
  field: LimitRangeField;
  resource: string;
  from: string | null;
  to: string;
  /** Values SetDefaults_LimitRangeItem fills in the stored item (`default.cpu=4`), absent before. */
  filled: string[];
  /** Why the API server would refuse the changed LimitRange (ValidateLimitRange); empty when it is valid. */
  invalid: string[];
  defaultPodBefore: PodShapeFit;
  defaultPodAfter: PodShapeFit;
  workloads: LimitRangeWorkloadCheck[];
  /** Live pods in the namespace: LimitRanger validates only new pods, these keep running. */
  existingPods: number;
  /** The change as a command. */
  patch: string;
}

function quantityStrings(list: Record<string, unknown> | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(list ?? {}).sort(byteCompare)) out[k] = Quantity.parse(list![k]).toString();
  return out;
}

/** ValidateLimitRange's checks of one item (pkg/apis/core/validation), messages as the API server words them. */
export function limitRangeItemProblems(item: LimitRangeItem, index: number): string[] {
  const out: string[] = [];
  const at = (f: string, k?: string) => `spec.limits[${index}].${f}${k ? `[${k}]` : ''}`;
  if (item.type === 'Pod') {
    if (Object.keys(item.default ?? {}).length)
      out.push(`${at('default')}: may not be specified when \`type\` is 'Pod'`);
    if (Object.keys(item.defaultRequest ?? {}).length)
      out.push(`${at('defaultRequest')}: may not be specified when \`type\` is 'Pod'`);
  }
  if (item.type === 'PersistentVolumeClaim' && item.min?.storage === undefined && item.max?.storage === undefined) {
    out.push(`${at('limits')}: either minimum or maximum storage value is required, but neither was provided`);
  }
  const q = (l: Record<string, unknown> | null | undefined, k: string) =>
    l && l[k] !== undefined ? Quantity.parse(l[k]) : undefined;
  const keys = new Set<string>();
  for (const f of ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio'] as const)
    for (const k of Object.keys(item[f] ?? {})) keys.add(k);
  for (const k of [...keys].sort(byteCompare)) {
    const min = q(item.min, k);
    const max = q(item.max, k);
    const def = item.type === 'Pod' ? undefined : q(item.default, k);
    const defReq = item.type === 'Pod' ? undefined : q(item.defaultRequest, k);
    const ratio = q(item.maxLimitRequestRatio, k);
    if (min && max && min.cmp(max) > 0) out.push(`${at('min', k)}: min value ${min} is greater than max value ${max}`);
    if (defReq && min && min.cmp(defReq) > 0)
      out.push(`${at('defaultRequest', k)}: min value ${min} is greater than default request value ${defReq}`);
    if (defReq && max && defReq.cmp(max) > 0)
      out.push(`${at('defaultRequest', k)}: default request value ${defReq} is greater than max value ${max}`);
    if (defReq && def && defReq.cmp(def) > 0)
      out.push(
        `${at('defaultRequest', k)}: default request value ${defReq} is greater than default limit value ${def}`,
      );
    if (def && min && min.cmp(def) > 0)
      out.push(`${at('default', k)}: min value ${min} is greater than default value ${def}`);
    if (def && max && def.cmp(max) > 0)
      out.push(`${at('default', k)}: default value ${def} is greater than max value ${max}`);
    if (ratio && ratio.cmp(Quantity.fromInt(1)) < 0)
      out.push(`${at('maxLimitRequestRatio', k)}: ratio ${ratio} is less than 1`);
    if (ratio && min && max && min.sign() > 0) {
      const limit = Number(max.milliValue()) / Number(min.milliValue());
      if (Number(ratio.milliValue()) / 1000 > limit)
        out.push(`${at('maxLimitRequestRatio', k)}: ratio ${ratio} is greater than max/min = ${limit.toFixed(6)}`);
    }
  }
  return out;
}

function limitVerdict(adm: ReturnType<typeof admitObject>): LimitVerdict {
  if (adm.layer === 'limitrange')
    return { limitRange: 'fail', message: (adm.message ?? '').replace(/^[a-z]+ "[^"]*" is forbidden: /, '') };
  if (adm.layer === 'quota') {
    const f = adm.quota?.failure;
    return { limitRange: 'pass', quota: f && 'quota' in f ? f.quota : 'quota' };
  }
  return { limitRange: 'pass' };
}

function defaultPodShape(state: Snapshot, namespace: string, opts: SimOptions): PodShapeFit {
  const probe = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'quota-doctor-probe', namespace },
    spec: { containers: [{ name: 'app', image: 'app' }] },
  } as Pod;
  const fit = countFits(state, probe, opts);
  const admitted = admitObject(probe, state, { ...opts, dryRun: true }).object;
  const c = admitted.spec.containers[0];
  return { ...fit, requests: quantityStrings(c?.resources?.requests), limits: quantityStrings(c?.resources?.limits) };
}

/** A workload's next pod (and its claims) admitted dry-run: LimitRanger's verdict and the pod's requests. */
function checkWorkload(
  state: Snapshot,
  w: Workload & KObject,
  opts: SimOptions,
): { verdict: LimitVerdict; perPod: Record<string, string> } {
  const nodes = state.list('Node').slice(0, 1);
  const exp = expandWorkload(w as Workload, { replicas: 1, nodes });
  for (const claim of exp.claims) {
    if (state.get('PersistentVolumeClaim', claim.metadata.namespace, claim.metadata.name ?? '')) continue;
    const a = admitObject(claim, state, { ...opts, dryRun: true });
    if (a.layer === 'limitrange') return { verdict: limitVerdict(a), perPod: {} };
  }
  const pod = exp.pods[0];
  if (!pod) return { verdict: { limitRange: 'pass' }, perPod: {} };
  const a = admitObject(pod, state, { ...opts, dryRun: true });
  const req = podRequests(a.object);
  const perPod: Record<string, string> = {};
  for (const k of ['cpu', 'memory']) {
    const v = req.get(k);
    if (v) perPod[k] = v.toString();
  }
  return { verdict: limitVerdict(a), perPod };
}

function jsonPointer(s: string): string {
  return s.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * A LimitRange value changed (or a LimitRange added): stored as the API server would store it
 * (SetDefaults_LimitRangeItem fills default from max, defaultRequest from default then min), checked as
 * ValidateLimitRange would, then per workload of the namespace whether its next pod still passes
 * LimitRanger, and the default pod's shape and fit count before → after.
 * Without a name: the LimitRange that sets this value, else one with an item of the type, else the first,
 * else a new one named `limits`. A named LimitRange that is not there: null.
 */
export function whatIfLimitRange(
  state: Snapshot,
  namespace: string,
  lrName: string | undefined,
  field: LimitRangeField,
  type: LimitRangeType | undefined,
  resource: string,
  value: string,
  opts: SimOptions = {},
): LimitRangeChangeAnswer | null {
  const itemType: LimitRangeType = type ?? (resource === 'storage' ? 'PersistentVolumeClaim' : 'Container');
  const all = state
    .list('LimitRange', namespace)
    .sort((a, b) => byteCompare(a.metadata.name ?? '', b.metadata.name ?? ''));
  const existing = lrName
    ? all.find((l) => l.metadata.name === lrName)
    : (all.find((l) => l.spec.limits.some((i) => i.type === itemType && i[field]?.[resource] !== undefined)) ??
      all.find((l) => l.spec.limits.some((i) => i.type === itemType)) ??
      all[0]);
  if (lrName && !existing) return null;
  const name = existing?.metadata.name ?? 'limits';
  const v = Quantity.parse(value).toString();
  const changed = clone(
    existing ??
      ({ apiVersion: 'v1', kind: 'LimitRange', metadata: { name, namespace }, spec: { limits: [] } } as LimitRange &
        KObject),
  );
  let idx = changed.spec.limits.findIndex((i) => i.type === itemType);
  const itemExisted = idx >= 0;
  if (idx < 0) idx = changed.spec.limits.push({ type: itemType }) - 1;
  const item = changed.spec.limits[idx]!;
  const mapExisted = !!item[field];
  const prev = item[field]?.[resource];
  item[field] = { ...(item[field] ?? {}), [resource]: v };
  const stored = defaultLimitRange(changed) as LimitRange & KObject;
  const storedItem = stored.spec.limits[idx]!;
  const filled: string[] = [];
  for (const f of ['default', 'defaultRequest'] as const) {
    for (const [k, q] of Object.entries(storedItem[f] ?? {}))
      if (item[f]?.[k] === undefined) filled.push(`${f}.${k}=${Quantity.parse(q).toString()}`);
  }
  const invalid = stored.spec.limits.flatMap((it, i) => limitRangeItemProblems(it, i));

  nodeInfoIndex(state);
  const fork = state.fork();
  fork.put(stored);
  const workloads: LimitRangeWorkloadCheck[] = [];
  for (const kind of ['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job', 'CronJob'] as const) {
    for (const wo of state
      .list(kind, namespace)
      .sort((a, b) => byteCompare(a.metadata.name ?? '', b.metadata.name ?? ''))) {
      // Pods of a Deployment's ReplicaSets, a CronJob's Jobs: counted under the owner.
      if (
        (kind === 'ReplicaSet' || kind === 'Job') &&
        wo.metadata.ownerReferences?.some((o) => o.kind === 'Deployment' || o.kind === 'CronJob')
      )
        continue;
      const wname = wo.metadata.name ?? '';
      const before = checkWorkload(state, wo, opts);
      const after = checkWorkload(fork, wo, opts);
      const pods = workloadPods(state, { kind, name: wname, namespace, object: wo }).length;
      workloads.push({
        ref: refOf(kind, wname),
        kind,
        name: wname,
        pods,
        perPodBefore: before.perPod,
        perPodAfter: after.perPod,
        before: before.verdict,
        after: after.verdict,
      });
    }
  }
  let existingPods = 0;
  for (const p of state.iterate('Pod', namespace)) if (!isTerminal(p)) existingPods++;

  let patch: string;
  if (!existing) {
    const body = JSON.stringify({
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name },
      spec: { limits: [{ type: itemType, [field]: { [resource]: v } }] },
    });
    patch = `echo '${body}' | kubectl -n ${namespace} create -f -`;
  } else {
    const op = !itemExisted
      ? { op: 'add', path: '/spec/limits/-', value: { type: itemType, [field]: { [resource]: v } } }
      : !mapExisted
        ? { op: 'add', path: `/spec/limits/${idx}/${field}`, value: { [resource]: v } }
        : { op: 'add', path: `/spec/limits/${idx}/${field}/${jsonPointer(resource)}`, value: v };
    patch = `kubectl -n ${namespace} patch limitrange ${name} --type json -p '${JSON.stringify([op])}'`;
  }
  return {
    namespace,
    limitRange: name,
    created: !existing,
    type: itemType,
    field,
    resource,
    from: prev !== undefined ? Quantity.parse(prev).toString() : null,
    to: v,
    filled,
    invalid,
    defaultPodBefore: defaultPodShape(state, namespace, opts),
    defaultPodAfter: defaultPodShape(fork, namespace, opts),
    workloads,
    existingPods,
    patch,
  };
}

/** Applying manifests is plain `simulate`. */
export function whatIfApply(state: Snapshot, objects: KObject[], opts: SimOptions = {}) {
  return simulate(state, objects, opts);
}
