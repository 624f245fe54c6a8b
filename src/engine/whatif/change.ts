/**
 * A what-if as a change: the question's change applied to a copy of the state, the controllers run to a
 * fixpoint (engine/converge.ts), and what happened reported per workload. The same machinery verifies a
 * fix; a what-if answer is its outcome, with the one command that makes the change.
 */
import type { Snapshot } from '../../k8s/snapshot.ts';
import { renderCommand } from '../changes/command.ts';
import type { Change } from '../changes/types.ts';
import type { VerifiedFix } from '../fixes/types.ts';
import {
  type ConvergeEvent,
  type ConvergeOptions,
  type Convergence,
  converge,
  type WorkloadOutcome,
} from '../converge.ts';

export interface ChangeAnswer {
  change: Change;
  /** The exact command ('' for a node-pool change). */
  command: string;
  /** The API server's refusal of the change itself. */
  refused?: string;
  steps: number;
  bounded: boolean;
  workloads: WorkloadOutcome[];
  /** Pods that were Pending before and now run ("ns/name" → node). */
  nowScheduled: { pod: string; node: string }[];
  /** Pods deleted on the way: evicted, preempted, replaced. */
  evicted: string[];
  preempted: { pod: string; by: string; node: string }[];
  events: ConvergeEvent[];
  /** Pods the controllers created, with their controller. */
  created: Convergence['created'];
  /** The state after convergence (the input itself when the change was refused). */
  state: Snapshot;
}

export function whatIfChange(
  state: Snapshot,
  change: Change,
  opts: ConvergeOptions = {},
  also: readonly Change[] = [],
): ChangeAnswer {
  const r = converge(state, [...also, change], opts);
  const command = renderCommand(change);
  if (r.refused)
    return {
      change,
      command,
      refused: r.refused.message,
      steps: 0,
      bounded: false,
      workloads: [],
      nowScheduled: [],
      evicted: [],
      preempted: [],
      events: [],
      created: [],
      state,
    };
  const nowScheduled: { pod: string; node: string }[] = [];
  const seen = new Set<string>();
  for (const e of r.events) {
    if (e.type !== 'Scheduled' || seen.has(e.pod)) continue;
    seen.add(e.pod);
    const slash = e.pod.indexOf('/');
    const before = state.get('Pod', e.pod.slice(0, slash), e.pod.slice(slash + 1));
    if (before && !before.spec.nodeName) nowScheduled.push({ pod: e.pod, node: e.node });
  }
  const preempted = r.events.flatMap((e) => (e.type === 'Preempted' ? [{ pod: e.pod, by: e.by, node: e.node }] : []));
  return {
    change,
    command,
    steps: r.steps,
    bounded: r.bounded,
    workloads: r.workloads,
    nowScheduled,
    evicted: r.evicted,
    preempted,
    events: r.events,
    created: r.created,
    state: r.state,
  };
}

/**
 * The JSON form for `whatif --json` (docs/contract.md): the change and its one command, the outcome per
 * workload the controllers touched (wanted, admitted, scheduled, the refusal that stops it, whether it
 * stalls), and the fixes in `diagnose --json`'s shape when the what-if leaves something failing.
 */
export function changeAnswerJson(
  a: ChangeAnswer,
  fixes: readonly VerifiedFix[] = [],
  /** A drain's evictions a PodDisruptionBudget refuses (429): the pods stay on the cordoned node. */
  evictionsRefused: readonly { pod: string; pdb: string; message: string }[] = [],
): WhatifJson {
  return {
    change: { ...a.change, command: a.command },
    ...(a.refused ? { refused: a.refused } : {}),
    steps: a.steps,
    bounded: a.bounded,
    outcome: a.workloads.map((w) => ({
      kind: w.kind,
      namespace: w.namespace,
      name: w.name,
      wanted: w.wanted,
      admitted: w.pods,
      scheduled: w.scheduled,
      updated: w.updated,
      created: w.created,
      refused: w.failedCreate ?? null,
      pending: w.pending,
      stalled: !w.complete,
    })),
    nowScheduled: a.nowScheduled,
    evicted: a.evicted,
    preempted: a.preempted,
    ...(evictionsRefused.length
      ? { evictionsRefused: evictionsRefused.map((e) => ({ pod: e.pod, pdb: e.pdb, message: e.message })) }
      : {}),
    fixes: [...fixes],
  };
}

export interface WhatifJson {
  change: Change & { command: string };
  refused?: string;
  steps: number;
  bounded: boolean;
  outcome: {
    kind: string;
    namespace: string;
    name: string;
    wanted: number;
    /** Its active pods at the end: admitted, bound or not. */
    admitted: number;
    scheduled: number;
    updated: number;
    created: number;
    /** The last refused create's message while it still lacks pods, else null. */
    refused: string | null;
    pending: { pod: string; message: string }[];
    /** It does not reach every wanted pod of its current template, bound. */
    stalled: boolean;
  }[];
  nowScheduled: { pod: string; node: string }[];
  evicted: string[];
  preempted: { pod: string; by: string; node: string }[];
  /** A drain's evictions refused by a PodDisruptionBudget (kubectl drain retries them every 5 s). */
  evictionsRefused?: { pod: string; pdb: string; message: string }[];
  fixes: VerifiedFix[];
}
