/**
 * Verification: a fix is `verified` only when, after its changes are applied as the API server would and
 * the controllers run to a fixpoint (engine/converge.ts), the incident's subject reaches its goal
 * (engine/diagnose/goal.ts) and no other workload is left with a refused or Pending pod it did not have.
 * A plan that does not end the incident gets its follow-ups tried as combinations (its changes first).
 */
import type { Snapshot } from '../../k8s/snapshot.ts';
import { renderCommand } from '../changes/command.ts';
import { converge, type ConvergeOptions, type Convergence, type WorkloadOutcome } from '../converge.ts';
import { goalAfter, resyncOf, workloadOutcome, type FixSubject, type Goal } from '../diagnose/goal.ts';
import type { SimOptions } from '../simulate.ts';
import { rankPlans } from './rank.ts';
import type { Plan, VerifiedFix } from './types.ts';

export interface VerifyOptions {
  /** Verified fixes offered at most. */
  max?: number;
  /** Plans that do not work shown at most (with the reason), when they are `obvious`. */
  maxNotWorking?: number;
  /** Combinations to try for a plan that does not end the incident. */
  followUps?: (plan: Plan, conv: Convergence, goal: Goal) => Plan[];
  /** Sees every plan tried and what verification found (tests and debugging). */
  trace?: (fix: VerifiedFix) => void;
}

/** The one line of commands a plan prints: its changes' commands joined by `&&`, in order. */
export function planCommand(plan: Plan): string {
  const cmds = plan.changes.map(renderCommand);
  if (cmds.every((c) => c === '')) return '';
  return cmds.filter((c) => c !== '').join(' && ');
}

function shortRef(w: { kind: string; name: string }): string {
  const short: Record<string, string> = {
    Deployment: 'deploy',
    StatefulSet: 'statefulset',
    Job: 'job',
    DaemonSet: 'ds',
    ReplicaSet: 'rs',
  };
  return `${short[w.kind] ?? w.kind.toLowerCase()}/${w.name}`;
}

function sameWorkload(a: { kind: string; namespace?: string; name: string }, b: FixSubject): boolean {
  return b.kind === 'workload' && a.kind === b.ref.kind && a.namespace === b.ref.namespace && a.name === b.ref.name;
}

/** Workloads other than the subject left short by the change that were whole before it. */
function newFailures(base: Snapshot, conv: Convergence, subject: FixSubject): { w: WorkloadOutcome; words: string }[] {
  const out: { w: WorkloadOutcome; words: string }[] = [];
  for (const w of conv.workloads) {
    if (w.complete || sameWorkload(w, subject)) continue;
    if (w.failedCreate === undefined && w.pending.length === 0) continue;
    const before = workloadOutcome(
      { state: base, steps: 0, bounded: false, workloads: [], events: [], evicted: [], created: [] },
      { kind: w.kind, namespace: w.namespace, name: w.name },
    );
    const wasShort = before ? !before.complete || before.pending.length > 0 : false;
    if (wasShort && (before?.pending.length ?? 0) >= w.pending.length) continue;
    const why = w.failedCreate
      ? `a pod is refused: ${w.failedCreate}`
      : `${w.pending.length} pod${w.pending.length === 1 ? '' : 's'} Pending: ${w.pending[0]!.message}`;
    out.push({
      w,
      words: `${w.namespace}/${shortRef(w)} is left short (${w.scheduled}/${w.wanted} scheduled): ${why}`,
    });
  }
  return out;
}

/** What else a convergence did: pods preempted or deleted that are not the subject's own. */
function evictionWords(base: Snapshot, conv: Convergence, subject: FixSubject): string[] {
  const out: string[] = [];
  const preempted = new Set<string>();
  for (const e of conv.events) {
    if (e.type !== 'Preempted') continue;
    preempted.add(e.pod);
    out.push(`preempts ${e.pod} on ${e.node} (its controller, if any, re-creates it)`);
  }
  for (const key of conv.evicted) {
    if (preempted.has(key)) continue;
    const slash = key.indexOf('/');
    const p = base.get('Pod', key.slice(0, slash), key.slice(slash + 1));
    if (!p) continue;
    if (subject.kind !== 'workload' && subject.kind !== 'object' && subject.name === p.metadata.name) continue;
    out.push(
      p.spec.nodeName
        ? `stops ${key}, running on ${p.spec.nodeName}`
        : `deletes ${key}, which was Pending (it never ran)`,
    );
  }
  return out;
}

interface Tried {
  fix: VerifiedFix;
  conv: Convergence;
  goal: Goal;
}

function tryPlan(
  base: Snapshot,
  subject: FixSubject,
  plan: Plan,
  opts: SimOptions,
  resync: NonNullable<ConvergeOptions['resync']>,
): Tried {
  // What decides the subject is resynced after the change, as `now` does: a controller refused before the
  // snapshot (a FailedCreate) tries again once the change frees what refused it.
  const conv = converge(base, plan.changes, { ...opts, resync });
  const change = planCommand(plan);
  const fix = (verified: boolean, outcome: string, sideEffects: string[]): VerifiedFix => ({
    who: plan.who,
    summary: plan.summary,
    change,
    verified,
    outcome,
    sideEffects,
  });
  if (conv.refused) {
    const goal: Goal = { reached: false, outcome: `the API server refuses the change: ${conv.refused.message}` };
    return { fix: fix(false, goal.outcome, plan.sideEffects ?? []), conv, goal };
  }
  const goal = goalAfter(conv, subject.kind === 'object' && plan.pod ? { ...subject, pod: plan.pod } : subject, opts);
  const failures = newFailures(base, conv, subject);
  const sideEffects = [
    ...(plan.sideEffects ?? []),
    ...evictionWords(base, conv, subject),
    ...failures.map((f) => f.words),
  ];
  if (conv.bounded)
    return {
      fix: fix(false, `${goal.outcome}; the controllers did not settle within the step bound`, sideEffects),
      conv,
      goal,
    };
  if (!goal.reached) return { fix: fix(false, goal.outcome, sideEffects), conv, goal };
  if (failures.length)
    return { fix: fix(false, `${goal.outcome}, but ${failures[0]!.words}`, sideEffects), conv, goal };
  return { fix: fix(true, goal.outcome, sideEffects), conv, goal };
}

/** Ranks the plans, verifies each, tries combinations for those that do not work, and keeps what to show. */
export function verifyPlans(
  base: Snapshot,
  subject: FixSubject,
  plans: readonly Plan[],
  opts: SimOptions,
  vopts: VerifyOptions = {},
): VerifiedFix[] {
  const max = vopts.max ?? 4;
  const maxNotWorking = vopts.maxNotWorking ?? 2;
  const verified: VerifiedFix[] = [];
  const notWorking: VerifiedFix[] = [];
  const seen = new Set<string>();
  const resync = resyncOf(
    subject.kind === 'workload' ? subject.ref.namespace : subject.namespace,
    subject.kind === 'workload' ? subject.ref : undefined,
  );
  for (const plan of rankPlans(plans)) {
    if (verified.length >= max) break;
    const key = `${plan.who} ${planCommand(plan)} ${plan.summary}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const t = tryPlan(base, subject, plan, opts, resync);
    vopts.trace?.(t.fix);
    if (t.fix.verified) {
      verified.push(t.fix);
      continue;
    }
    if (plan.obvious && notWorking.length < maxNotWorking) notWorking.push(t.fix);
    let combos = 0;
    for (const combo of rankPlans(vopts.followUps?.(plan, t.conv, t.goal) ?? [])) {
      if (verified.length >= max || combos >= 2) break;
      const ck = `${combo.who} ${planCommand(combo)} ${combo.summary}`;
      if (seen.has(ck)) continue;
      seen.add(ck);
      const c = tryPlan(base, subject, combo, opts, resync);
      vopts.trace?.(c.fix);
      if (c.fix.verified) {
        verified.push(c.fix);
        combos++;
      }
    }
  }
  return [...verified, ...notWorking];
}
