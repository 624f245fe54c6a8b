/**
 * "what if node-3 is drained / goes down", as a change run through the controllers (engine/converge.ts).
 *
 * `drain` is `kubectl drain NODE --ignore-daemonsets --delete-emptydir-data` (`--force` when a pod there has
 * no controller): the node is cordoned (spec.unschedulable, the `node.kubernetes.io/unschedulable` taint),
 * then every pod but DaemonSet and mirror pods is evicted through the eviction API — which refuses (429)
 * an eviction a PodDisruptionBudget does not allow (controllers/disruption.ts); kubectl drain retries those
 * every 5 s, so they go once the replacements of the pods already evicted are available, or never.
 * `down`: the node stops reporting; the node lifecycle controller taints it `node.kubernetes.io/unreachable`
 * (NoSchedule and NoExecute) and its pods are deleted once their tolerationSeconds (300 s by default) run
 * out — no budget is asked. Either way the node stays in the scheduler's list, so messages count it. The
 * evicted pods' controllers create replacements (through admission, then the scheduler); a pod with no
 * controller is gone for good.
 */
import type { Node, Pod } from '../../k8s/objects.ts';
import type { KObject, Snapshot } from '../../k8s/snapshot.ts';
import { byteCompare } from '../../quantity.ts';
import { renderCommand } from '../changes/command.ts';
import type { Change, ObjectRef } from '../changes/types.ts';
import { type BudgetStatus, budgetsFor, evict } from '../controllers/disruption.ts';
import { controllerOf, isActive } from '../controllers/context.ts';
import type { WorkloadOutcome } from '../converge.ts';
import { subjectOf } from '../diagnose/goal.ts';
import { replayPod } from '../diagnose/replay.ts';
import { fixesFor } from '../fixes/generate.ts';
import type { VerifiedFix } from '../fixes/types.ts';
import { isTerminal } from '../pod-resources.ts';
import { nodeInfoIndex } from '../scheduler/node-info.ts';
import type { SimOptions } from '../simulate.ts';
import { type ChangeAnswer, whatIfChange } from './change.ts';

/** What became of one pod the drain took off the node. */
export type DrainFate =
  | { pod: string; fate: 'moved'; replacement: string; node: string }
  | { pod: string; fate: 'pending'; replacement: string; message: string }
  /** Its controller's create of the replacement was refused (admission), or nothing re-created it. */
  | { pod: string; fate: 'refused'; message: string }
  /** No controller: deleted for good (`--force`). */
  | { pod: string; fate: 'deleted' }
  /** The eviction was refused (a PodDisruptionBudget): it stays on the cordoned node. */
  | { pod: string; fate: 'stays'; pdb: string; message: string };

export interface DrainAnswer {
  node: string;
  /** Pods to place elsewhere: the node's live pods but DaemonSet and mirror pods. */
  pods: number;
  /** Replacements bound, by node. */
  rescheduled: Record<string, number>;
  /** Pods whose replacement stays Pending (the scheduler's message) or is refused at admission (its message). */
  stranded: { pod: string; message: string }[];
  /** Pods with no controller: the drain deletes them and nothing re-creates them. */
  deleted: string[];
  /** Evictions a PodDisruptionBudget refuses as the drain ends (429); kubectl drain keeps retrying them. */
  refusedEvictions: { pod: string; pdb: string; message: string; cause?: string }[];
  fates: DrainFate[];
  /** The drain as its one command (`kubectl drain … --force` when a pod has no controller); '' for a node going down. */
  command: string;
  /** The change converged: its outcome per workload (a drain refused by budgets: every round, merged). */
  converged: ChangeAnswer;
}

function key(p: Pod): string {
  return `${p.metadata.namespace ?? 'default'}/${p.metadata.name ?? ''}`;
}

function isDaemonSetPod(p: Pod): boolean {
  return !!p.metadata.ownerReferences?.some((o) => o.kind === 'DaemonSet' && o.controller !== false);
}

function isMirrorPod(p: Pod): boolean {
  const a = p.metadata.annotations;
  return typeof a === 'object' && a !== null && 'kubernetes.io/config.mirror' in a;
}

function hasController(p: Pod): boolean {
  return !!p.metadata.ownerReferences?.some((o) => o.controller);
}

const UNREACHABLE = 'node.kubernetes.io/unreachable';

/** The node lifecycle controller's taints on a node that stopped reporting, as a merge patch of spec.taints. */
function downChange(node: Node): Change {
  const taints = (node.spec?.taints ?? []).filter((t) => t.key !== UNREACHABLE);
  return {
    kind: 'patch',
    target: { kind: 'Node', name: node.metadata.name ?? '' },
    type: 'merge',
    body: {
      spec: {
        taints: [...taints, { key: UNREACHABLE, effect: 'NoSchedule' }, { key: UNREACHABLE, effect: 'NoExecute' }],
      },
    },
  };
}

/** Rounds of a drain a budget slowed down, as one answer: the last round's state, every round's work. */
function mergeRounds(input: Snapshot, change: Change, command: string, rounds: ChangeAnswer[]): ChangeAnswer {
  const last = rounds[rounds.length - 1]!;
  const byRef = new Map<string, WorkloadOutcome>();
  for (const r of rounds)
    for (const w of r.workloads) {
      const k = `${w.kind}/${w.namespace}/${w.name}`;
      byRef.set(k, { ...w, created: (byRef.get(k)?.created ?? 0) + w.created });
    }
  const events = rounds.flatMap((r) => r.events);
  const nowScheduled: ChangeAnswer['nowScheduled'] = [];
  const seen = new Set<string>();
  for (const e of events) {
    if (e.type !== 'Scheduled' || seen.has(e.pod)) continue;
    seen.add(e.pod);
    const slash = e.pod.indexOf('/');
    const before = input.get('Pod', e.pod.slice(0, slash), e.pod.slice(slash + 1));
    if (before && !before.spec.nodeName) nowScheduled.push({ pod: e.pod, node: e.node });
  }
  return {
    change,
    command,
    steps: rounds.reduce((n, r) => n + r.steps, 0),
    bounded: rounds.some((r) => r.bounded),
    workloads: [...byRef.values()].sort((a, b) =>
      byteCompare(`${a.kind}/${a.namespace}/${a.name}`, `${b.kind}/${b.namespace}/${b.name}`),
    ),
    nowScheduled,
    evicted: rounds.flatMap((r) => r.evicted),
    preempted: rounds.flatMap((r) => r.preempted),
    events,
    created: rounds.flatMap((r) => r.created),
    state: last.state,
  };
}

/** The top-level workload of a controller (a Deployment for its ReplicaSet). */
function topOf(state: Snapshot, o: ObjectRef): ObjectRef {
  if (o.kind !== 'ReplicaSet') return o;
  const rs = state.get('ReplicaSet', o.namespace ?? 'default', o.name);
  const up = rs ? controllerOf(rs) : null;
  return up?.kind === 'Deployment' ? { ...up, namespace: o.namespace } : o;
}

/**
 * What became of each evicted pod: its controller's replacements (in the order it created them) bound or
 * Pending at the end; a replacement never created is refused with the controller's last FailedCreate.
 */
function fatesOf(input: Snapshot, a: ChangeAnswer, evicted: readonly Pod[]): DrainFate[] {
  const out: DrainFate[] = [];
  const byOwner = new Map<string, { owner: ObjectRef; pods: Pod[] }>();
  for (const p of evicted) {
    const o = controllerOf(p as KObject);
    if (!o) {
      out.push({ pod: key(p), fate: 'deleted' });
      continue;
    }
    const ref = { ...o, namespace: p.metadata.namespace ?? 'default' };
    const k = `${ref.kind}/${ref.namespace}/${ref.name}`;
    const e = byOwner.get(k) ?? { owner: ref, pods: [] };
    e.pods.push(p);
    byOwner.set(k, e);
  }
  for (const { owner, pods } of byOwner.values()) {
    const top = topOf(input, owner);
    const outcome = a.workloads.find(
      (w) => w.kind === top.kind && w.namespace === (top.namespace ?? 'default') && w.name === top.name,
    );
    const pending = new Map((outcome?.pending ?? []).map((x) => [x.pod, x.message]));
    const replacements: Pod[] = [];
    for (const c of a.created) {
      if (c.owner.kind !== owner.kind || c.owner.name !== owner.name || c.owner.namespace !== owner.namespace) continue;
      const slash = c.pod.indexOf('/');
      const p = a.state.get('Pod', c.pod.slice(0, slash), c.pod.slice(slash + 1));
      if (p && isActive(p) && !replacements.includes(p)) replacements.push(p);
    }
    // Bound replacements first, so that "moved" is claimed before "pending".
    replacements.sort((x, y) => (x.spec.nodeName ? 0 : 1) - (y.spec.nodeName ? 0 : 1));
    pods.forEach((p, i) => {
      const r = replacements[i];
      if (r?.spec.nodeName) out.push({ pod: key(p), fate: 'moved', replacement: key(r), node: r.spec.nodeName });
      else if (r)
        out.push({
          pod: key(p),
          fate: 'pending',
          replacement: key(r),
          message: pending.get(key(r)) ?? 'not scheduled',
        });
      else
        out.push({
          pod: key(p),
          fate: 'refused',
          message: outcome?.failedCreate ?? `not re-created by ${owner.kind} ${owner.name}`,
        });
    });
  }
  return out.sort((x, y) => byteCompare(x.pod, y.pod));
}

/** Draining (or losing) a node, converged: where its pods' replacements land, which stay Pending. */
export function whatIfDrain(
  state: Snapshot,
  node: string,
  opts: SimOptions = {},
  how: 'drain' | 'down' = 'drain',
): DrainAnswer | null {
  const nodeObj = state.get('Node', undefined, node);
  if (!nodeObj) return null;
  nodeInfoIndex(state);
  const onNode: Pod[] = [];
  for (const p of state.iterate('Pod')) if (p.spec.nodeName === node && !isMirrorPod(p)) onNode.push(p);
  onNode.sort((a, b) => byteCompare(key(a), key(b)));
  const toPlace = onNode.filter((p) => !isTerminal(p) && !isDaemonSetPod(p));
  // kubectl drain refuses pods without a controller unless --force (k8s.io/kubectl/pkg/drain, unreplicatedFilter).
  const force = onNode.some((p) => !isDaemonSetPod(p) && !hasController(p));
  const refusedEvictions: DrainAnswer['refusedEvictions'] = [];
  let converged: ChangeAnswer;
  let command: string;
  let evicted: Pod[] = toPlace;
  if (how === 'down') {
    // The taint manager deletes the pods that do not tolerate NoExecute unreachable (DaemonSet pods do).
    const change = downChange(nodeObj);
    const deletes: Change[] = toPlace.map((p) => ({
      kind: 'deletePod',
      namespace: p.metadata.namespace ?? 'default',
      name: p.metadata.name ?? '',
    }));
    command = '';
    converged = { ...whatIfChange(state, change, opts, deletes), command };
  } else {
    const change: Change = { kind: 'drain', node, ...(force ? { force: true } : {}) };
    command = renderCommand(change);
    const guarded = onNode.some((p) => budgetsFor(state, p).length > 0);
    if (!guarded) converged = whatIfChange(state, change, opts);
    else {
      // Each round: evict what the budgets allow now, converge (replacements created and bound), retry the rest.
      const rounds: ChangeAnswer[] = [];
      let st = state;
      let remaining = onNode.filter((p) => !isDaemonSetPod(p));
      evicted = [];
      for (let round = 0; round <= onNode.length; round++) {
        const budgets = new Map<string, BudgetStatus>();
        const allowed: Pod[] = [];
        const refused: DrainAnswer['refusedEvictions'] = [];
        for (const p0 of remaining) {
          const p = st.get('Pod', p0.metadata.namespace, p0.metadata.name ?? '') ?? p0;
          const v = evict(st, p, budgets);
          if (v.allowed) allowed.push(p);
          else
            refused.push({
              pod: key(p),
              pdb: v.pdb,
              message: `error when evicting pods/"${p.metadata.name ?? ''}" -n "${p.metadata.namespace ?? 'default'}" (will retry after 5s): ${v.message}`,
              ...(v.cause ? { cause: v.cause } : {}),
            });
        }
        const deletes: Change[] = allowed.map((p) => ({
          kind: 'deletePod',
          namespace: p.metadata.namespace ?? 'default',
          name: p.metadata.name ?? '',
        }));
        if (round > 0 && deletes.length === 0) {
          refusedEvictions.push(...refused);
          break;
        }
        const a =
          round === 0
            ? whatIfChange(st, { kind: 'cordon', node }, opts, deletes)
            : whatIfChange(st, deletes[0]!, opts, deletes.slice(1));
        rounds.push(a);
        st = a.state;
        evicted.push(...allowed.filter((p) => !isTerminal(p)));
        remaining = refused.map((r) => remaining.find((p) => key(p) === r.pod)!);
        if (remaining.length === 0) break;
      }
      converged = mergeRounds(state, change, command, rounds);
    }
  }
  const fates = fatesOf(state, converged, evicted);
  for (const r of refusedEvictions) fates.push({ pod: r.pod, fate: 'stays', pdb: r.pdb, message: r.message });
  fates.sort((x, y) => byteCompare(x.pod, y.pod));
  const rescheduled: Record<string, number> = {};
  const stranded: DrainAnswer['stranded'] = [];
  const deleted: string[] = [];
  for (const f of fates) {
    if (f.fate === 'moved') rescheduled[f.node] = (rescheduled[f.node] ?? 0) + 1;
    else if (f.fate === 'pending' || f.fate === 'refused') stranded.push({ pod: f.pod, message: f.message });
    else if (f.fate === 'deleted') deleted.push(f.pod);
  }
  return {
    node,
    pods: toPlace.length,
    rescheduled,
    stranded,
    deleted,
    refusedEvictions,
    fates,
    command,
    converged,
  };
}

/** At most this many stranded workloads get fixes (each runs its own verification). */
const MAX_FIXED_WORKLOADS = 2;

/**
 * Verified fixes for what a drain strands: for each workload whose replacement stays Pending or is refused
 * (the first MAX_FIXED_WORKLOADS, in pod order; only namespaces `allows` admits), the fixes `diagnose` would
 * offer for it on the drained state — a node of the pool, uncordoning another node, a quota raise, a scale
 * down, lower requests — each verified by converging it after the drain (engine/fixes verifyPlans), so a
 * fix is "run this after the drain and the pod is back". Uncordoning the drained node itself undoes the
 * drain: never offered.
 */
export function drainFixes(
  input: Snapshot,
  d: DrainAnswer,
  opts: SimOptions = {},
  allows: (ns: string) => boolean = () => true,
): VerifiedFix[] {
  const drained = d.converged.state;
  const out: VerifiedFix[] = [];
  const seen = new Set<string>();
  const workloads = new Set<string>();
  for (const f of d.fates) {
    if (f.fate !== 'pending' && f.fate !== 'refused') continue;
    const ns = f.pod.slice(0, f.pod.indexOf('/'));
    if (!allows(ns)) continue;
    // The Pending replacement as it is, or the evicted pod standing in for the create that was refused.
    const ref = f.fate === 'pending' ? f.replacement : f.pod;
    const name = ref.slice(ref.indexOf('/') + 1);
    const pod = f.fate === 'pending' ? drained.get('Pod', ns, name) : input.get('Pod', ns, name);
    if (!pod) continue;
    const existing = f.fate === 'pending';
    const subject = subjectOf(drained, pod, existing, ns);
    const id = subject.kind === 'workload' ? `${subject.ref.kind}/${ns}/${subject.ref.name}` : `${ns}/${name}`;
    if (workloads.has(id)) continue;
    if (workloads.size >= MAX_FIXED_WORKLOADS) break;
    workloads.add(id);
    const replay = replayPod(drained, pod, existing, ns, opts);
    if (!replay) continue;
    const ctx = {
      state: drained,
      base: replay.base,
      subject,
      pod: replay.submitted,
      admitted: replay.admitted,
      ns,
      opts,
    };
    for (const fix of fixesFor(ctx, replay.now).fixes) {
      if (!fix.verified || fix.change.split(' && ').includes(`kubectl uncordon ${d.node}`)) continue;
      const key = `${fix.who} ${fix.change} ${fix.summary}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(fix);
    }
  }
  return out;
}
