/**
 * Fixes for one finding: the plans of the layer that stopped the subject (quota.ts, must-specify.ts,
 * limitrange.ts, unschedulable.ts), verified through the controllers (verify.ts). A plan that fixes its
 * layer but not the incident gets follow-ups — what stops the subject next, fixed too — tried as one
 * combined fix: the follow-up's change first (free the quota, set maxSurge 0), then the plan's.
 */
import type { Pod } from '../../k8s/objects.ts';
import type { LimitViolation } from '../admission/limitranger.ts';
import { admitObject } from '../admit.ts';
import type { Convergence } from '../converge.ts';
import type { Goal } from '../diagnose/goal.ts';
import { replayPod } from '../diagnose/replay.ts';
import { schedulePod } from '../scheduler/schedule.ts';
import type { SimResult } from '../simulate.ts';
import type { Change } from '../changes/types.ts';
import type { FieldError } from '../admission/validation.ts';
import { limitRangePlans, validationPlans } from './limitrange.ts';
import { mustSpecifyPlans } from './must-specify.ts';
import { freeQuotaPlans, missingPods, quotaPlans, raiseQuotaPlan } from './quota.ts';
import { addNodePlans, lowerPlan, unschedulablePlans, uncordonPlans } from './unschedulable.ts';
import { MAX_CHANGES, verifyPlans } from './verify.ts';
import type { FixContext, Plan, VerifiedFix } from './types.ts';

export interface FindingFixes {
  fixes: VerifiedFix[];
  /** What the reply says instead of a fix (no node shape holds the pod). */
  lines: string[];
}

/** `must specify limits.cpu for: app; limits.memory for: app,sidecar` → {limits.cpu: [app], …}. */
export function parseMustSpecify(text: string): Record<string, string[]> {
  const body = text.replace(/^must specify /, '');
  const out: Record<string, string[]> = {};
  if (!body.includes(' for: ')) {
    for (const r of body.split(',')) out[r.trim()] = [];
    return out;
  }
  for (const part of body.split('; ')) {
    const [r, cs] = part.split(' for: ');
    out[r!.trim()] = (cs ?? '').split(',').filter(Boolean);
  }
  return out;
}

/** Two `set resources` of one container are one command: the later values win. */
function mergeChanges(first: Change[], then: Change[]): Change[] {
  const out = [...first];
  for (const c of then) {
    const i =
      c.kind === 'setResources'
        ? out.findIndex(
            (o) =>
              o.kind === 'setResources' &&
              o.container === c.container &&
              o.target.kind === c.target.kind &&
              o.target.namespace === c.target.namespace &&
              o.target.name === c.target.name,
          )
        : -1;
    const o = i >= 0 ? out[i] : undefined;
    if (c.kind === 'setResources' && o?.kind === 'setResources') {
      const requests = { ...(o.requests ?? {}), ...(c.requests ?? {}) };
      const limits = { ...(o.limits ?? {}), ...(c.limits ?? {}) };
      out[i] = {
        ...o,
        ...(Object.keys(requests).length ? { requests } : {}),
        ...(Object.keys(limits).length ? { limits } : {}),
      };
    } else out.push(c);
  }
  return out;
}

function combine(first: Plan, then: Plan): Plan {
  return {
    who: first.who === 'platform' || then.who === 'platform' ? 'platform' : 'app-team',
    summary: `${first.summary}, then ${then.summary}`,
    changes: mergeChanges(first.changes, then.changes),
    cost: Math.max(first.cost, then.cost) + 1,
    sideEffects: [...(first.sideEffects ?? []), ...(then.sideEffects ?? [])],
    ...(first.harm || then.harm ? { harm: true } : {}),
    pod: then.pod ?? first.pod,
  };
}

/** What a change acts on: two changes of one combination never act on the same object. */
function changeTarget(c: Change): string {
  switch (c.kind) {
    case 'scale':
    case 'setResources':
    case 'patch':
    case 'priorityClass':
    case 'rolloutStrategy':
      return `${c.kind === 'setResources' || c.kind === 'priorityClass' || c.kind === 'rolloutStrategy' ? c.kind : 'obj'} ${c.target.kind}/${c.target.namespace ?? ''}/${c.target.name}`;
    case 'quota':
      return `quota ${c.namespace}/${c.name}`;
    case 'uncordon':
    case 'cordon':
    case 'drain':
      return `node ${c.node}`;
    default:
      return `${c.kind} ${JSON.stringify(c)}`;
  }
}

/** `combo` adds to `plan` only changes on objects the plan does not change already. */
function addsNew(plan: Plan, f: Plan): boolean {
  const have = new Set(plan.changes.map(changeTarget));
  return f.changes.every((c) => !have.has(changeTarget(c)));
}

/** The subject's pods a convergence left Pending (at least 1). */
function pendingOf(conv: Convergence, ctx: FixContext): number {
  const s = ctx.subject;
  if (s.kind !== 'workload') return 1;
  const w = conv.workloads.find(
    (x) => x.kind === s.ref.kind && x.namespace === s.ref.namespace && x.name === s.ref.name,
  );
  return Math.max(1, w ? w.pending.length : missingPods(ctx));
}

/** What to add to a plan that left the subject short, from why it is short after the plan. */
function followUps(ctx: FixContext): (plan: Plan, conv: Convergence, goal: Goal) => Plan[] {
  return (plan, conv, goal) => {
    if (conv.refused) return [];
    // Below the bound a follow-up adds one change; at it, only a node count can still grow.
    const room = plan.changes.length < MAX_CHANGES;
    const pod: Pod = plan.pod ?? ctx.pod;
    const out: Plan[] = [];
    const s = ctx.subject;
    // The rollout stalls: its surge pod is refused or Pending. Roll without surge (one old pod goes first).
    if (
      s.kind === 'workload' &&
      s.ref.kind === 'Deployment' &&
      /the rollout stalls/.test(goal.outcome) &&
      room &&
      !plan.changes.some((c) => c.kind === 'rolloutStrategy')
    ) {
      out.push(
        combine(
          {
            who: 'app-team',
            summary: `roll ${s.ref.kind === 'Deployment' ? `deploy/${s.ref.name}` : s.ref.name} out without surge (maxSurge 0, maxUnavailable 1)`,
            changes: [
              { kind: 'rolloutStrategy', target: s.ref, strategy: 'RollingUpdate', maxSurge: 0, maxUnavailable: 1 },
            ],
            cost: 1,
          },
          plan,
        ),
      );
    }
    // Refused by a quota next: free it or raise it, for the pod as the plan makes it.
    if (room && /exceeded quota/.test(goal.outcome)) {
      const again = admitObject(pod, conv.state, { ...ctx.opts, dryRun: true });
      const failure = again.quota?.failure;
      if (failure?.type === 'exceeded') {
        // Holders and waiting workloads from the state as it is (a waiting controller that got the room in
        // this convergence may as well not have: the freed room goes to whoever creates first).
        const pc: FixContext = { ...ctx, pod, admitted: again.object as Pod };
        const n = missingPods(ctx);
        for (const f of [...freeQuotaPlans(pc, failure, n), raiseQuotaPlan(pc, failure, n)])
          if (addsNew(plan, f)) out.push(combine(f, plan));
      }
    }
    // Admitted but Pending on capacity: a cordoned node or a node of the pool's shape.
    if (/Pending|stays Pending/.test(goal.outcome) && !/the rollout stalls/.test(goal.outcome)) {
      const r = replayPod(conv.state, pod, false, ctx.ns, ctx.opts)?.now;
      const statuses = r?.detail.schedule?.nodeStatuses;
      if (r && statuses) {
        const left = pendingOf(conv, ctx);
        const added = plan.changes.findIndex((c) => c.kind === 'addNode');
        const c = plan.changes[added];
        if (c?.kind === 'addNode') {
          // Nodes were added and pods are still Pending (other Pending pods took some of the room): as
          // many more nodes of that shape as pods are left.
          const count = c.count + left;
          out.push({
            ...plan,
            summary: plan.summary.replace(/add (a node|\d+ nodes) like/, `add ${count} nodes like`),
            changes: plan.changes.map((x, i) => (i === added ? { ...c, count } : x)),
          });
        } else if (room) {
          const pc: FixContext = { ...ctx, base: conv.state, pod, admitted: r.object as Pod };
          const lower = lowerPlan(pc, statuses, left);
          if (lower) out.push(combine(plan, lower));
          for (const f of uncordonPlans(pc, pc.admitted, statuses)) if (addsNew(plan, f)) out.push(combine(plan, f));
          for (const node of addNodePlans(pc, pc.admitted, statuses, left)) out.push(combine(plan, node));
        }
      }
    }
    // The subject got in only by preempting pods that then have nowhere to go (another workload is left
    // short): a node of its shape instead, so it schedules without preempting.
    if (room && goal.reached && conv.events.some((e) => e.type === 'Preempted')) {
      const statuses = schedulePod(ctx.base, ctx.admitted, ctx.opts).nodeStatuses;
      for (const node of addNodePlans(ctx, ctx.admitted, statuses, missingPods(ctx)))
        if (plan.changes.length + node.changes.length <= MAX_CHANGES) out.push(combine(plan, node));
    }
    return out;
  };
}

/** The verified fixes (and the obvious ones that do not work, with why) for the subject's replay `now`. */
export function fixesFor(ctx: FixContext, now: SimResult, trace?: (fix: VerifiedFix) => void): FindingFixes {
  const failure = now.detail.admission.quota?.failure;
  let plans: Plan[] = [];
  const lines: string[] = [];
  if (failure?.type === 'exceeded') plans = quotaPlans(ctx, failure);
  else if (failure?.type === 'must-specify') plans = mustSpecifyPlans(ctx, parseMustSpecify(failure.text));
  else if (now.admission.layer === 'limitrange' && now.detail.admission.limitViolations)
    plans = limitRangePlans(ctx, now.detail.admission.limitViolations as LimitViolation[]);
  else if (now.admission.layer === 'api-validation' && now.detail.admission.fieldErrors)
    plans = validationPlans(ctx, now.detail.admission.fieldErrors as FieldError[]);
  else if (now.scheduling && !now.scheduling.scheduled && now.detail.schedule) {
    const u = unschedulablePlans(ctx, now.detail.schedule.nodeStatuses);
    plans = u.plans;
    lines.push(...u.lines);
  }
  if (plans.length === 0) return { fixes: [], lines };
  return { fixes: verifyPlans(ctx.state, ctx.subject, plans, ctx.opts, { followUps: followUps(ctx), trace }), lines };
}
