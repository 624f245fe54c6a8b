/**
 * Verification: a fix is `verified` only when, after its changes are applied as the API server would and
 * the controllers run to a fixpoint (engine/converge.ts), the incident's subject reaches its goal
 * (engine/diagnose/goal.ts) and no other workload is left with a refused or Pending pod it did not have.
 * A plan that does not end the incident gets its follow-ups tried as combinations (its changes first).
 *
 * Fixes are judged against the settled state (settle.ts, docs/kubernetes-semantics.md §9.1): the state
 * with every Pending pod our model says fits bound, as kube-scheduler would have done before any fix.
 * Every plan is tried on a fork of it, and the goal, new failures, evictions and who pays are measured
 * against it — a pod the settle bound or preempted is no side effect of any fix. When the settle moved
 * the subject's own pods, the plans are tried on the state as it is instead.
 */
import type { Workload } from '../../k8s/objects.ts';
import type { Snapshot } from '../../k8s/snapshot.ts';
import { renderCommand } from '../changes/command.ts';
import { converge, type ConvergeOptions, type Convergence, type WorkloadOutcome } from '../converge.ts';
import {
  apiRefusedGoal,
  goalAfter,
  resyncOf,
  staticOutcome,
  subjectWords,
  type FixSubject,
  type Goal,
  type GoalStage,
} from '../diagnose/goal.ts';
import type { SimOptions } from '../simulate.ts';
import { podPriority } from '../priority.ts';
import { ownerOf } from './owners.ts';
import { daemonWanted } from './quota.ts';
import { rankPlans } from './rank.ts';
import { judgedState } from './settle.ts';
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
    const before = staticOutcome(base, { kind: w.kind, namespace: w.namespace, name: w.name });
    const why = w.failedCreate
      ? `a pod is refused: ${w.failedCreate}`
      : `${w.pending.length} pod${w.pending.length === 1 ? '' : 's'} Pending: ${w.pending[0]!.message}`;
    if (w.kind === 'DaemonSet') {
      // A DaemonSet wants one pod per node that should run it (daemon_controller.go
      // NodeShouldRunDaemonPod), before and after the change (an added node may want one more): it is
      // left short by the change only when more of its pods are missing than before.
      const ds = conv.state.get('DaemonSet', w.namespace, w.name) as Workload | undefined;
      const was = base.get('DaemonSet', w.namespace, w.name) as Workload | undefined;
      if (!ds || !was) continue;
      const wantedAfter = daemonWanted(conv.state, ds);
      const wantedBefore = daemonWanted(base, was);
      const scheduledBefore = before?.scheduled ?? 0;
      if (wantedAfter - w.scheduled <= wantedBefore - scheduledBefore) continue;
      out.push({
        w,
        words: `${w.namespace}/${shortRef(w)} is left short (${w.scheduled}/${wantedAfter} scheduled, was ${scheduledBefore}/${wantedBefore}): ${why}`,
      });
      continue;
    }
    const wasShort = before ? !before.complete || before.pending.length > 0 : false;
    if (wasShort && (before?.pending.length ?? 0) >= w.pending.length) continue;
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
    const goal: Goal = apiRefusedGoal(conv.refused.message);
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

/**
 * Bounds of the combination search (issue #15): a combination holds at most MAX_CHANGES changes, and is
 * extended by one more only when its last change was a step toward the goal (progressOf: the subject got
 * further — past a layer, or more pods scheduled). At most MAX_DEEP_FOLLOW_UPS extensions are tried per
 * combination below the first level, and at most MAX_TRIES convergences per finding, whatever the plans.
 */
export const MAX_CHANGES = 3;
/** Levels of follow-ups below a plan (the last may only grow a node count: MAX_CHANGES still holds). */
export const MAX_LEVELS = 3;
export const MAX_DEEP_FOLLOW_UPS = 3;
export const MAX_TRIES = 30;

/**
 * How far a try got the subject: [stage, pods scheduled]. Stages: the API server refuses the change (0),
 * the subject gone (1), refused at a layer before quota (LimitRange, validation: 2), refused by a quota (3),
 * admitted and Pending (4), the goal (5) — the Goal's own `stage` and `scheduled`, set where it is computed.
 */
const STAGE_RANK: Record<GoalStage, number> = {
  'api-refused': 0,
  gone: 1,
  admission: 2,
  quota: 3,
  pending: 4,
  reached: 5,
};

export function progressOf(refused: boolean, goal: Goal): [number, number] {
  if (refused) return [0, 0];
  return [STAGE_RANK[goal.stage], goal.scheduled];
}

/** Whether `after` got the subject further than `before` (a step toward the goal). */
export function isStep(before: [number, number], after: [number, number]): boolean {
  return after[0] > before[0] || (after[0] === before[0] && after[1] > before[1]);
}

/**
 * Who pays for a fix that stops running pods of a workload of higher priority than the subject, or of
 * another namespace (another team): the words, or null when the fix costs only the subject's own team at
 * its own priority or below.
 */
function whoPays(base: Snapshot, conv: Convergence, subject: FixSubject): string | null {
  const ns = subject.kind === 'workload' ? subject.ref.namespace : subject.namespace;
  const own = subject.pod.spec.priority ?? podPriority(base, subject.pod.spec).priority;
  const payers = new Map<string, { words: string; pods: number }>();
  for (const key of conv.evicted) {
    const slash = key.indexOf('/');
    const p = base.get('Pod', key.slice(0, slash), key.slice(slash + 1));
    if (!p?.spec.nodeName) continue;
    const owner = ownerOf(base, p);
    if (subject.kind === 'workload' && owner && sameWorkload({ ...owner, namespace: p.metadata.namespace }, subject))
      continue;
    const pns = p.metadata.namespace ?? '';
    const prio = p.spec.priority ?? podPriority(base, p.spec).priority;
    const ref = owner ? shortRef(owner) : `pod/${p.metadata.name ?? ''}`;
    let words: string | null = null;
    if (pns !== ns) words = `${pns}/${ref} (another team's namespace)`;
    else if (prio > own)
      words = `${ref} (priority ${p.spec.priorityClassName ? `${p.spec.priorityClassName} ` : ''}${prio}, above ${subjectWords(subject)}'s ${subject.pod.spec.priorityClassName ? `${subject.pod.spec.priorityClassName} ` : ''}${own})`;
    if (!words) continue;
    const k = `${pns}/${ref}`;
    const e = payers.get(k) ?? { words, pods: 0 };
    e.pods++;
    payers.set(k, e);
  }
  // Preemption victims the convergence itself had scheduled (Pending before the change): by namespace.
  for (const e of conv.events) {
    if (e.type !== 'Preempted') continue;
    const pns = e.pod.slice(0, e.pod.indexOf('/'));
    if (pns === ns || base.get('Pod', pns, e.pod.slice(pns.length + 1))?.spec.nodeName) continue;
    const k = `${pns} preempted`;
    const entry = payers.get(k) ?? { words: `pods of ${pns} (another team's namespace)`, pods: 0 };
    entry.pods++;
    payers.set(k, entry);
  }
  if (payers.size === 0) return null;
  return `who pays: ${[...payers.values()].map((e) => `${e.words} — ${e.pods} running pod${e.pods === 1 ? '' : 's'} stop`).join('; ')}`;
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
  // Fixes paid by others (a higher-priority workload, another team) rank after every other verified fix.
  const gentle: VerifiedFix[] = [];
  const paid: VerifiedFix[] = [];
  const notWorking: VerifiedFix[] = [];
  const planOf = new Map<Plan, VerifiedFix>();
  const seen = new Set<string>();
  let tries = 0;
  // Every plan is tried from the settled state (settle.ts): what the scheduler would already have done is
  // no part of any fix. When the settle moved the subject's own pods, the state as it is instead.
  const from = judgedState(base, subject, opts);
  const resync = resyncOf(
    subject.kind === 'workload' ? subject.ref.namespace : subject.namespace,
    subject.kind === 'workload' ? subject.ref : undefined,
  );
  const done = () => gentle.length >= max || tries >= MAX_TRIES;
  const attempt = (plan: Plan): Tried | null => {
    const key = `${plan.who} ${planCommand(plan)} ${plan.summary}`;
    if (seen.has(key) || tries >= MAX_TRIES) return null;
    seen.add(key);
    tries++;
    const t = tryPlan(from, subject, plan, opts, resync);
    vopts.trace?.(t.fix);
    if (t.fix.verified) {
      // A combination that scales a workload further than a single scale of it already verified does the same
      // and more: not offered (it would take a slot from a fix of another kind); a single scale verified after
      // such combinations takes their places.
      if ([...planOf.keys()].some((p) => dominates(p, plan))) return t;
      for (const [p, f] of [...planOf]) {
        if (!dominates(plan, p)) continue;
        planOf.delete(p);
        for (const list of [gentle, paid]) {
          const i = list.indexOf(f);
          if (i >= 0) list.splice(i, 1);
        }
      }
      const pays = whoPays(from, t.conv, subject);
      const fix = pays ? { ...t.fix, sideEffects: [pays, ...t.fix.sideEffects] } : t.fix;
      planOf.set(plan, fix);
      (pays ? paid : gentle).push(fix);
    }
    return t;
  };
  // Combinations of `parent` with what stops the subject after it, one change deeper each level.
  const extend = (parent: Plan, t: Tried, level: number) => {
    let found = 0;
    let tried = 0;
    const from = progressOf(!!t.conv.refused, t.goal);
    for (const combo of rankPlans(vopts.followUps?.(parent, t.conv, t.goal) ?? [])) {
      if (done() || found >= 2 || (level > 1 && tried >= MAX_DEEP_FOLLOW_UPS)) break;
      if (combo.changes.length > MAX_CHANGES) continue;
      const c = attempt(combo);
      if (!c) continue;
      tried++;
      if (c.fix.verified) {
        found++;
        continue;
      }
      // A pasted object the state does not hold has no command for its own edits (they are what to submit
      // instead): its combinations stay one level deep, so the printed command still says what it does.
      if (subject.kind !== 'object' && level < MAX_LEVELS && isStep(from, progressOf(!!c.conv.refused, c.goal)))
        extend(combo, c, level + 1);
    }
  };
  for (const plan of rankPlans(plans)) {
    if (done()) break;
    let t = attempt(plan);
    // A chain of the same change a step further each (Plan.orElse): the first that verifies is offered.
    for (let next = plan.orElse; t && !t.fix.verified && next && !done(); next = next.orElse) t = attempt(next);
    if (!t || t.fix.verified) continue;
    if (plan.obvious && notWorking.length < maxNotWorking) notWorking.push(t.fix);
    if (!plan.alone) extend(plan, t, 1);
  }
  // Follow-ups are tried right after their plan; what is offered is in rank order (rank.ts), paid last.
  const order = new Map(rankPlans([...planOf.keys()]).map((p, i) => [planOf.get(p)!, i]));
  const ranked = (xs: VerifiedFix[]) => [...xs].sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
  return [...[...ranked(gentle), ...ranked(paid)].slice(0, max), ...notWorking];
}

/**
 * Whether `a`, one scale of a workload, makes the combination `b` needless: `b` scales the same workload to as few
 * replicas or fewer, and changes something else besides.
 */
function dominates(a: Plan, b: Plan): boolean {
  if (a.changes.length !== 1 || b.changes.length < 2) return false;
  const s = a.changes[0]!;
  if (s.kind !== 'scale') return false;
  return b.changes.some(
    (c) =>
      c.kind === 'scale' &&
      c.target.kind === s.target.kind &&
      c.target.namespace === s.target.namespace &&
      c.target.name === s.target.name &&
      c.replicas <= s.replicas,
  );
}
