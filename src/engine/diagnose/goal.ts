/**
 * The incident's subject and its goal, shared by `now` (the state as it is) and fix verification (the
 * state after a change): a workload reaches it when every wanted replica exists, is of its current
 * template and is bound to a node; a bare Pod when it is admitted and bound; an object the state does
 * not hold (a pasted error's stand-in) when it would be admitted and scheduled if submitted again.
 */
import type { Pod } from '../../k8s/objects.ts';
import { syncQuotas } from '../quota-ledger.ts';
import { equalIgnoreHash } from '../controllers/deployment.ts';
import type { Snapshot } from '../../k8s/snapshot.ts';
import type { ObjectRef } from '../changes/types.ts';
import type { ConvergeOptions, Convergence, WorkloadOutcome } from '../converge.ts';
import { converge, unreconciledWorkloads } from '../converge.ts';
import { ownerOf } from '../fixes/owners.ts';
import { isTerminal } from '../pod-resources.ts';
import type { SimOptions, SimResult } from '../simulate.ts';
import { replayPod } from './replay.ts';
import { shortRef } from '../changes/command.ts';

export type FixSubject =
  /** The workload whose pods were refused or are Pending (top-level: the Deployment of a ReplicaSet). */
  | { kind: 'workload'; ref: ObjectRef & { namespace: string }; pod: Pod }
  /** A bare Pod of the state. */
  | { kind: 'pod'; namespace: string; name: string; pod: Pod }
  /** An object the state does not hold: the pod the pasted message describes. */
  | { kind: 'object'; namespace: string; pod: Pod };

/**
 * How far the subject got, in the order of its path: the API server refused the change itself
 * ('api-refused'), the subject is gone or could not be replayed ('gone'), a pod of it refused at admission
 * before quota — LimitRange, validation, another plugin ('admission') — or by a ResourceQuota ('quota'),
 * admitted and Pending, or not all of the current template yet ('pending'), the goal ('reached').
 */
export type GoalStage = 'api-refused' | 'gone' | 'admission' | 'quota' | 'pending' | 'reached';

export interface Goal {
  reached: boolean;
  stage: GoalStage;
  /** The subject's pods bound to a node: a workload's active pods, 1 or 0 for a pod. */
  scheduled: number;
  /** What happened to the subject, in words: "3/3 pods of deploy/api scheduled", "schedules on gpu-b-1". */
  outcome: string;
  /** The replay of the subject's pod, when the subject is a pod or an object. */
  replay?: SimResult;
}

const TOP_KINDS: readonly string[] = ['Deployment', 'StatefulSet', 'Job', 'DaemonSet', 'ReplicaSet'];

/** The subject of a finding's pod: its top-level workload, the bare Pod, or the stand-in object. */
export function subjectOf(state: Snapshot, pod: Pod, existing: boolean, ns: string): FixSubject {
  const owner = ownerOf(state, pod);
  if (owner && TOP_KINDS.includes(owner.kind) && state.get(owner.kind, ns, owner.name))
    return { kind: 'workload', ref: { kind: owner.kind, namespace: ns, name: owner.name }, pod };
  if (existing && !owner) return { kind: 'pod', namespace: ns, name: pod.metadata.name ?? '', pod };
  return { kind: 'object', namespace: ns, pod };
}

export function subjectWords(s: FixSubject): string {
  if (s.kind === 'workload') return shortRef(s.ref.kind, s.ref.name);
  return `pod ${s.pod.metadata.name ?? ''}`;
}

/**
 * The convergence options that make the controllers look again at what decides the subject, without a
 * change: every workload of its namespace that is not reconciled (a ReplicaSet, StatefulSet or Job with
 * more or fewer live pods than it wants — a create refused before, which competes for freed quota; a
 * scale-down not yet carried out, which frees it — a Deployment whose ReplicaSets do not add up to its
 * replicas), and the subject itself (its Pending pods are tried again, an edited template rolls out).
 * This is what "replayed against the state as it is" runs, and what verification adds to a fix's changes.
 */
export function resyncOf(ns: string, subject?: ObjectRef): NonNullable<ConvergeOptions['resync']> {
  return { namespaces: [ns], objects: subject ? [subject] : [] };
}

/** A workload's state read from the snapshot alone (when convergence did not touch it, or none ran). */
export function staticOutcome(state: Snapshot, ref: ObjectRef & { namespace: string }): WorkloadOutcome | null {
  const o = state.get(ref.kind, ref.namespace, ref.name);
  if (!o) return null;
  const pods = [...state.iterate('Pod', ref.namespace)].filter((p) => {
    if (isTerminal(p) || p.metadata.deletionTimestamp) return false;
    const w = ownerOf(state, p);
    return w?.kind === ref.kind && w.name === ref.name;
  });
  const spec = o.spec as { replicas?: number | null; parallelism?: number | null };
  const wanted =
    ref.kind === 'Job' ? (spec.parallelism ?? 1) : ref.kind === 'DaemonSet' ? pods.length : (spec.replicas ?? 1);
  const scheduled = pods.filter((p) => !!p.spec.nodeName).length;
  return {
    kind: ref.kind,
    namespace: ref.namespace,
    name: ref.name,
    wanted,
    created: 0,
    scheduled,
    pods: pods.length,
    updated: pods.length,
    pending: pods
      .filter((p) => !p.spec.nodeName)
      .map((p) => ({ pod: `${ref.namespace}/${p.metadata.name ?? ''}`, message: '' })),
    complete: pods.length >= wanted && scheduled >= wanted,
  };
}

/** The subject workload's outcome in a convergence (or read from its final state when it was not touched). */
export function workloadOutcome(conv: Convergence, ref: ObjectRef & { namespace: string }): WorkloadOutcome | null {
  return (
    conv.workloads.find((w) => w.kind === ref.kind && w.namespace === ref.namespace && w.name === ref.name) ??
    staticOutcome(conv.state, ref)
  );
}

/** The goal of a change the API server refuses (nothing of it was applied). */
export function apiRefusedGoal(message: string): Goal {
  return {
    reached: false,
    stage: 'api-refused',
    scheduled: 0,
    outcome: `the API server refuses the change: ${message}`,
  };
}

/**
 * The stage of a controller's refused create, from the API error it recorded (a WorkloadOutcome keeps
 * the message only): the ResourceQuota plugin's own errors (k8s.io/apiserver
 * pkg/admission/plugin/resourcequota/controller.go: exceeded, failed … must specify, insufficient quota to
 * match these scopes, status unknown) are 'quota'; any other refusal came before it.
 */
export function refusalStage(message: string): 'quota' | 'admission' {
  return /(?:^|: )(?:exceeded quota: |failed quota: |insufficient quota to match these scopes: |status unknown for quota: )/.test(
    message,
  )
    ? 'quota'
    : 'admission';
}

function replayOutcome(r: SimResult | undefined): Goal {
  if (!r) return { reached: false, stage: 'gone', scheduled: 0, outcome: 'could not be replayed' };
  if (!r.admission.allowed)
    return {
      reached: false,
      stage: r.admission.layer === 'quota' ? 'quota' : 'admission',
      scheduled: 0,
      outcome: `refused: ${(r.admission.message ?? '').replace(/^.*? is forbidden: /, '')}`,
      replay: r,
    };
  if (r.scheduling && !r.scheduling.scheduled)
    return {
      reached: false,
      stage: 'pending',
      scheduled: 0,
      outcome: `admitted, stays Pending: ${r.scheduling.message ?? ''}`,
      replay: r,
    };
  return {
    reached: true,
    stage: 'reached',
    scheduled: r.scheduling?.node ? 1 : 0,
    outcome: r.scheduling?.node ? `admitted, schedules on ${r.scheduling.node}` : 'admitted',
    replay: r,
  };
}

/** Whether the subject reached its goal after a convergence. */
export function goalAfter(conv: Convergence, s: FixSubject, opts: SimOptions): Goal {
  if (s.kind === 'workload') {
    const w = workloadOutcome(conv, s.ref);
    const name = subjectWords(s);
    if (!w) return { reached: false, stage: 'gone', scheduled: 0, outcome: `${name} is gone` };
    if (w.complete) {
      const nodes = [...new Set(w.pending.length ? [] : nodesOf(conv.state, s.ref))];
      return {
        reached: true,
        stage: 'reached',
        scheduled: w.scheduled,
        outcome: `${w.scheduled}/${w.wanted} pods of ${name} admitted and scheduled${nodes.length && nodes.length <= 3 ? ` (${nodes.join(', ')})` : ''}`,
      };
    }
    if (w.failedCreate) {
      const stalled = w.kind === 'Deployment' && w.pods > w.updated;
      return {
        reached: false,
        stage: refusalStage(w.failedCreate),
        scheduled: w.scheduled,
        outcome: `${stalled ? 'the rollout stalls: ' : ''}${w.scheduled}/${w.wanted} pods scheduled; a new pod is refused: ${w.failedCreate}`,
      };
    }
    if (w.pending.length)
      return {
        reached: false,
        stage: 'pending',
        scheduled: w.scheduled,
        outcome: `${w.scheduled}/${w.wanted} pods scheduled; ${w.pending.length} stay${w.pending.length === 1 ? 's' : ''} Pending: ${w.pending[0]!.message}`,
      };
    return {
      reached: false,
      stage: 'pending',
      scheduled: w.scheduled,
      outcome: `${w.scheduled}/${w.wanted} pods scheduled, ${w.updated} of the current template`,
    };
  }
  if (s.kind === 'pod') {
    const p = conv.state.get('Pod', s.namespace, s.name);
    if (!p) return { reached: false, stage: 'gone', scheduled: 0, outcome: `pod ${s.name} is gone` };
    if (p.spec.nodeName)
      return { reached: true, stage: 'reached', scheduled: 1, outcome: `admitted, runs on ${p.spec.nodeName}` };
    return replayOutcome(replayPod(conv.state, p, true, s.namespace, opts)?.now);
  }
  return replayOutcome(replayPod(conv.state, s.pod, false, s.namespace, opts)?.now);
}

function nodesOf(state: Snapshot, ref: ObjectRef & { namespace: string }): string[] {
  const out: string[] = [];
  for (const p of state.iterate('Pod', ref.namespace)) {
    if (!p.spec.nodeName || isTerminal(p)) continue;
    const w = ownerOf(state, p);
    if (w?.kind === ref.kind && w.name === ref.name) out.push(p.spec.nodeName);
  }
  return out.sort();
}

/** A Deployment whose every ReplicaSet with replicas has its template (no rollout due); other kinds: true. */
function templateCurrent(state: Snapshot, ref: ObjectRef & { namespace: string }): boolean {
  if (ref.kind !== 'Deployment') return true;
  const d = state.get('Deployment', ref.namespace, ref.name);
  if (!d) return false;
  for (const rs of state.iterate('ReplicaSet', ref.namespace)) {
    if (!rs.metadata.ownerReferences?.some((o) => o.kind === 'Deployment' && o.name === ref.name)) continue;
    if ((rs.spec.replicas ?? 1) > 0 && !equalIgnoreHash(rs.spec.template, d.spec.template)) return false;
  }
  return true;
}

/**
 * The subject against the state as it is: the quota controller's sync, then the controllers over what
 * decides the subject (resyncChanges). When nothing but the subject itself is to reconcile and its one
 * unbound pod is the replayed one, the replay is the answer (no controller would change it): `replay`
 * then decides without a convergence.
 */
export function goalNow(input: Snapshot, s: FixSubject, opts: SimOptions, replay?: SimResult): Goal {
  const state = syncQuotas(input, s.kind === 'workload' ? s.ref.namespace : s.namespace, opts.now);
  const none: Convergence = { state, steps: 0, bounded: false, workloads: [], events: [], evicted: [], created: [] };
  if (s.kind !== 'workload') return goalAfter(none, s, opts);
  const others = unreconciledWorkloads(state, s.ref.namespace).filter(
    (w) => !(w.kind === s.ref.kind && w.name === s.ref.name),
  );
  if (replay && state === input && others.length === 0 && templateCurrent(state, s.ref)) {
    const w = staticOutcome(state, s.ref);
    const pendingIsReplayed =
      w !== null &&
      w.pods === w.wanted &&
      w.pending.length === 1 &&
      w.pending[0]!.pod === `${s.ref.namespace}/${s.pod.metadata.name ?? ''}`;
    if (pendingIsReplayed) {
      const g = replayOutcome(replay);
      return {
        ...g,
        scheduled: g.reached ? w.wanted : w.scheduled,
        outcome: `${g.reached ? w.wanted : w.scheduled}/${w.wanted} pods of ${subjectWords(s)} scheduled: ${g.outcome}`,
      };
    }
  }
  return goalAfter(converge(state, [], { ...opts, resync: resyncOf(s.ref.namespace, s.ref) }), s, opts);
}
