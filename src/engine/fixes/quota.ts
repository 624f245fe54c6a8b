/**
 * Fixes for `exceeded quota`: within the namespace, drop Pending replicas that hold the quota without
 * running (costs nothing running), request less, run fewer at a time (a Job), scale down what runs; for
 * the platform team, raise the quota to what admits every missing pod of the subject.
 */
import type { Pod, PodTemplate, ResourceQuota } from '../../k8s/objects.ts';
import type { Snapshot } from '../../k8s/snapshot.ts';
import { Quantity } from '../../quantity.ts';
import type { Workload } from '../../k8s/objects.ts';
import { podUsage } from '../admission/evaluators/pods.ts';
import { evaluatorFor, quotaMatches, type QuotaFailure } from '../admission/resourcequota.ts';
import { admitObject } from '../admit.ts';
import { expandWorkload } from '../workloads.ts';
import { daemonWanted as daemonWantedOn, shouldRun } from '../controllers/daemon_set.ts';
import type { Change } from '../changes/types.ts';
import { subjectWords } from '../diagnose/goal.ts';
import { podPriority } from '../priority.ts';
import { resourceChanges, templateMutable } from './changes.ts';
import { ownerOf, quotaHolders, refOf, scalable, type Holder, type PodFilter } from './owners.ts';
import { biggestContainer, keepLimitRatio, setContainerValue } from './pod-edit.ts';
import { judgedState, memoOnContent, optionsKey } from './settle.ts';
import type { FixContext, Plan } from './types.ts';

type Exceeded = Extract<QuotaFailure, { type: 'exceeded' }>;

/** Which pods a quota counts (its scopes: BestEffort, PriorityClass, …). */
export function quotaCounts(state: Snapshot, ns: string, quota: string): PodFilter | undefined {
  const q = state.get('ResourceQuota', ns, quota) as ResourceQuota | undefined;
  if (!q) return undefined;
  const counts: PodFilter = (p) => {
    const ev = evaluatorFor({ ...p, kind: 'Pod' });
    return ev ? quotaMatches(ev, q, { ...p, kind: 'Pod' }) : false;
  };
  // What quotaMatches reads of the quota: its hard names and its scopes (quotaHolders' memo key).
  counts.key = JSON.stringify([
    Object.keys(q.status?.hard ?? {}).sort(),
    q.spec?.scopes ?? null,
    q.spec?.scopeSelector ?? null,
  ]);
  return counts;
}

/** The node a DaemonSet pod is pinned to (the controller's `metadata.name` matchFields term), else where it runs. */
function pinnedNode(p: Pod): string | undefined {
  for (const t of p.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ??
    [])
    for (const f of t.matchFields ?? []) if (f.key === 'metadata.name' && f.values?.[0]) return f.values[0];
  return p.spec.nodeName ?? undefined;
}

/** Whether DaemonSet `ds` already has a live pod on the node `pod` is pinned to. */
export function daemonPodOn(state: Snapshot, ns: string, ds: string, pod: Pod): boolean {
  const node = pinnedNode(pod);
  for (const p of state.iterate('Pod', ns)) {
    if (p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed') continue;
    if (!p.metadata.ownerReferences?.some((o) => o.kind === 'DaemonSet' && o.name === ds)) continue;
    if (pinnedNode(p) === node) return true;
  }
  return false;
}

/** The pods a DaemonSet wants: one per node that should run it (controllers/daemon_set.ts shouldRun). */
export function daemonWanted(state: Snapshot, w: Workload): number {
  const template = (w.spec as { template?: PodTemplate }).template;
  return template ? daemonWantedOn(state.list('Node'), template) : 0;
}

/** Pods the subject still lacks: wanted replicas (or Job parallelism) minus its live pods; at least 1. */
export function missingPods(ctx: FixContext): number {
  const s = ctx.subject;
  if (s.kind !== 'workload') return 1;
  const o = ctx.state.get(s.ref.kind, s.ref.namespace, s.ref.name);
  if (!o) return 1;
  const spec = o.spec as { replicas?: number | null; parallelism?: number | null };
  const wanted =
    s.ref.kind === 'Job'
      ? (spec.parallelism ?? 1)
      : s.ref.kind === 'DaemonSet'
        ? daemonWanted(ctx.state, o as Workload)
        : (spec.replicas ?? 1);
  let have = 0;
  for (const p of ctx.state.iterate('Pod', s.ref.namespace)) {
    if (p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed') continue;
    const w = ownerOf(ctx.state, p);
    if (w?.kind === s.ref.kind && w.name === s.ref.name) have++;
  }
  return Math.max(1, wanted - have);
}

/**
 * Pods other workloads of the namespace wait to create that only this quota refuses: freed room goes to
 * whichever controller creates first, so a fix must make room for them too.
 */
export function waitingElsewhere(
  ctx: FixContext,
  quota: string,
): { refs: string[]; pods: number; usage: Map<string, Quantity> } {
  // Once per state content, namespace, quota, subject and options: plan generation and its follow-ups ask
  // again for every plan they extend (callers only read the result).
  const s = ctx.subject;
  const key = JSON.stringify([
    'fixes.waiting-elsewhere',
    ctx.ns,
    quota,
    s.kind === 'workload' ? [s.ref.kind, s.ref.name] : null,
    optionsKey(ctx.state, ctx.opts),
  ]);
  return memoOnContent(ctx.state, key, () => computeWaiting(ctx, quota));
}

function computeWaiting(
  ctx: FixContext,
  quota: string,
): { refs: string[]; pods: number; usage: Map<string, Quantity> } {
  const refs: string[] = [];
  // Live pods of the namespace by each owner they name (one pass, not one per workload).
  const live = new Map<string, number>();
  for (const p of ctx.state.iterate('Pod', ctx.ns)) {
    if (p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed') continue;
    const seen = new Set<string>();
    for (const o of p.metadata.ownerReferences ?? []) {
      const k = `${o.kind}/${o.name}`;
      if (seen.has(k)) continue;
      seen.add(k);
      live.set(k, (live.get(k) ?? 0) + 1);
    }
  }
  let pods = 0;
  // What the waiting pods add to the quota once created, per resource (each as its own template asks).
  const usage = new Map<string, Quantity>();
  for (const kind of ['ReplicaSet', 'StatefulSet', 'Job', 'DaemonSet'] as const) {
    for (const w of ctx.state.iterate(kind, ctx.ns)) {
      const spec = w.spec as { replicas?: number | null; parallelism?: number | null };
      const wanted =
        kind === 'Job'
          ? (spec.parallelism ?? 1)
          : kind === 'DaemonSet'
            ? daemonWanted(ctx.state, w as Workload)
            : (spec.replicas ?? 1);
      if (wanted <= 0 || (kind === 'Job' && w.status && (w.status as { completionTime?: unknown }).completionTime))
        continue;
      const top =
        kind === 'ReplicaSet'
          ? (w.metadata.ownerReferences?.find((o) => o.kind === 'Deployment') ?? { kind, name: w.metadata.name ?? '' })
          : { kind, name: w.metadata.name ?? '' };
      if (ctx.subject.kind === 'workload' && top.kind === ctx.subject.ref.kind && top.name === ctx.subject.ref.name)
        continue;
      const have = live.get(`${kind}/${w.metadata.name}`) ?? 0;
      if (have >= wanted) continue;
      const pod =
        kind === 'DaemonSet'
          ? expandWorkload(w as Workload, { nodes: ctx.state.list('Node'), nodeEligible: shouldRun }).pods.find(
              (p) => !daemonPodOn(ctx.state, ctx.ns, w.metadata.name ?? '', p),
            )
          : expandWorkload(w as Workload, { replicas: 1, nodes: [] }).pods[0];
      if (!pod) continue;
      const a = admitObject(pod, ctx.state, { ...ctx.opts, dryRun: true });
      const f = a.quota?.failure;
      if (a.allowed || f?.type !== 'exceeded' || f.quota !== quota) continue;
      refs.push(refOf(top.kind, top.name));
      pods += wanted - have;
      for (const [k, v] of podUsage((a.object as Pod | undefined) ?? pod, { now: ctx.opts.now }))
        usage.set(k, (usage.get(k) ?? Quantity.zero(v.format)).add(v.times(wanted - have)));
    }
  }
  return { refs: [...new Set(refs)].sort(), pods, usage };
}

function isSubject(ctx: FixContext, h: Holder): boolean {
  return ctx.subject.kind === 'workload' && h.kind === ctx.subject.ref.kind && h.name === ctx.subject.ref.name;
}

/** Replicas a scalable holder has now (its spec), else its pod count. */
function replicasOf(state: Snapshot, ns: string, h: Holder): number {
  const w = scalable(h.kind) ? state.get(h.kind, ns, h.name) : undefined;
  return (w?.spec as { replicas?: number | null } | undefined)?.replicas ?? h.pods;
}

/**
 * Stopping running pods of a workload for the subject: the workload pays when its priority is above the
 * subject's (`own`) or when it is scaled to 0 — said (`; deploy/x pays: …`) and ranked low (Plan.harm).
 * Empty when it does not.
 */
export function paysWords(
  ctx: FixContext,
  h: { ref: string; priority: number; priorityClassName?: string },
  own: number,
  to: number,
): string {
  if (h.priority > own)
    return `; ${h.ref} pays: its priority ${h.priorityClassName ? `${h.priorityClassName} ` : ''}${h.priority} is above ${subjectWords(ctx.subject)}'s ${ctx.pod.spec.priorityClassName ? `${ctx.pod.spec.priorityClassName} ` : ''}${own}`;
  return to === 0 ? `; ${h.ref} pays: scaled to 0, it stops serving` : '';
}

function scalePlan(ctx: FixContext, h: Holder, by: number, primary: string, pendingOnly: boolean): Plan {
  // From the pods it has (a workload short of replicas has fewer than its spec says): `by` of them go.
  const replicas = replicasOf(ctx.state, ctx.ns, h);
  const to = Math.max(0, Math.min(replicas, h.pods) - by);
  const change: Change = { kind: 'scale', target: { kind: h.kind, namespace: ctx.ns, name: h.name }, replicas: to };
  const own = ctx.pod.spec.priority ?? podPriority(ctx.state, ctx.pod.spec).priority;
  const stops = Math.max(0, by - h.pending);
  const pays = pendingOnly || stops === 0 ? '' : paysWords(ctx, h, own, to);
  return {
    who: 'app-team',
    summary: pendingOnly
      ? `scale ${h.ref} ${replicas} → ${to}: drops ${by === 1 ? 'its Pending replica, which holds' : `${by} Pending replicas, which hold`} ${primary} without running (costs no running capacity)`
      : `scale ${h.ref} ${replicas} → ${to} (frees ${h.perPod.times(by)} of ${primary}; stops ${stops} running pod${stops === 1 ? '' : 's'}${pays})`,
    changes: [change],
    cost: pendingOnly ? 0 : 2,
    ...(pays ? { harm: true } : {}),
  };
}

/**
 * Freeing quota in the namespace: the Pending replicas of other workloads first (they hold quota and
 * never ran), then the workload that frees enough with the fewest running pods.
 */
export function freeQuotaPlans(ctx: FixContext, failure: Exceeded, pods = 1): Plan[] {
  const primary = failure.exceeded[0]!;
  const waiting = waitingElsewhere(ctx, failure.quota);
  const need = failure.used
    .get(primary)!
    .add(failure.requested.get(primary)!.times(pods))
    .add(waiting.usage.get(primary) ?? Quantity.zero())
    .sub(failure.hard.get(primary)!);
  if (need.sign() <= 0) return [];
  const counts = quotaCounts(ctx.state, ctx.ns, failure.quota);
  // Holders as the settled state has them (settle.ts): a Pending replica the scheduler would bind runs.
  const judged = judgedState(ctx.state, ctx.subject, ctx.opts);
  const holders = quotaHolders(judged, ctx.ns, primary, ctx.opts.now, counts).filter(
    (h) => !isSubject(ctx, h) && scalable(h.kind),
  );
  // Every exceeded resource must be freed, not only the first: the pods to stop are the most any of them
  // needs (a holder that holds none of a resource still short cannot free it).
  const others = failure.exceeded.slice(1).flatMap((r) => {
    const n = failure.used
      .get(r)!
      .add(failure.requested.get(r)!.times(pods))
      .add(waiting.usage.get(r) ?? Quantity.zero())
      .sub(failure.hard.get(r)!);
    return n.sign() > 0 ? [{ need: n, holders: quotaHolders(judged, ctx.ns, r, ctx.opts.now, counts) }] : [];
  });
  const podsToFree = (h: Holder): number => {
    let k = Number((need.nanos + h.perPod.nanos - 1n) / h.perPod.nanos);
    for (const o of others) {
      const oh = o.holders.find((x) => x.kind === h.kind && x.name === h.name);
      if (!oh || oh.perPod.sign() <= 0) return Number.POSITIVE_INFINITY;
      k = Math.max(k, Number((o.need.nanos + oh.perPod.nanos - 1n) / oh.perPod.nanos));
    }
    return k;
  };
  const out: Plan[] = [];
  for (const h of holders) {
    if (h.pending === 0) continue;
    const k = podsToFree(h);
    if (k >= 1 && k <= h.pending) out.push(scalePlan(ctx, h, k, primary, true));
  }
  const running = holders
    .map((h) => ({ h, k: podsToFree(h) }))
    .filter(({ h, k }) => k >= 1 && k <= h.pods)
    .sort((a, b) => a.k - b.k || b.h.pending - a.h.pending);
  for (const { h, k } of running.slice(0, 2))
    if (!out.some((p) => p.summary.startsWith(`scale ${h.ref} `))) out.push(scalePlan(ctx, h, k, primary, false));
  return out;
}

/** Raising the quota to what admits `pods` more pods of the subject. */
export function raiseQuotaPlan(ctx: FixContext, failure: Exceeded, own = 1): Plan {
  const waiting = waitingElsewhere(ctx, failure.quota);
  const raised = failure.exceeded.map((r) => ({
    r,
    v: failure.used
      .get(r)!
      .add(failure.requested.get(r)!.times(own))
      .add(waiting.usage.get(r) ?? Quantity.zero()),
  }));
  return {
    who: 'platform',
    summary: `raise ${failure.quota} ${raised.map(({ r, v }) => `${r} to ${v}`).join(', ')}${own > 1 ? ` (${own} pods of ${subjectWords(ctx.subject)} are missing)` : ''}${waiting.refs.length ? ` (${waiting.refs.join(', ')} wait${waiting.refs.length === 1 ? 's' : ''} for room in it too)` : ''}`,
    changes: [
      {
        kind: 'quota',
        namespace: ctx.ns,
        name: failure.quota,
        hard: Object.fromEntries(raised.map(({ r, v }) => [r, v.toString()])),
      },
    ],
    cost: 2,
    obvious: true,
  };
}

/** Requesting less: the most each exceeded compute resource may be for the missing pods to fit. */
function lowerPlan(ctx: FixContext, failure: Exceeded, pods: number): Plan | null {
  if (!templateMutable(ctx.subject)) return null;
  let lowered: Pod = ctx.pod;
  const parts: string[] = [];
  for (const r of failure.exceeded) {
    const m = /^(requests\.|limits\.)?(cpu|memory|ephemeral-storage)$/.exec(r);
    if (!m) return null;
    const which = m[1] === 'limits.' ? 'limits' : 'requests';
    const free = failure.hard.get(r)!.sub(failure.used.get(r) ?? Quantity.zero());
    if (free.sign() <= 0) return null;
    // Each of the missing pods gets an equal share of what is free.
    const perPod = Quantity.fromNanos(free.nanos / BigInt(pods), free.format);
    const over = failure.requested.get(r)!.sub(perPod);
    const big = biggestContainer(lowered, which, m[2]!) ?? biggestContainer(ctx.admitted, which, m[2]!);
    if (!big || big.value.cmp(over) <= 0) return null;
    const target = big.value.sub(over);
    lowered = setContainerValue(lowered, big.name, which, m[2]!, target.toString());
    // A request above a lowered limit would be invalid: lower the request with it.
    if (which === 'limits') {
      const req = Quantity.tryParse(
        lowered.spec.containers.find((c) => c.name === big.name)?.resources?.requests?.[m[2]!],
      );
      if (req && req.cmp(target) > 0)
        lowered = setContainerValue(lowered, big.name, 'requests', m[2]!, target.toString());
    }
    parts.push(`${which}.${m[2]} of container ${big.name} to ≤ ${target}`);
    if (which === 'requests') {
      const kept = keepLimitRatio(ctx.base, ctx.ns, lowered, ctx.admitted, big.name, m[2]!);
      const lim = kept.spec.containers.find((c) => c.name === big.name)?.resources?.limits?.[m[2]!];
      if (kept !== lowered) parts.push(`limits.${m[2]} to ${lim} (the LimitRange's max limit/request ratio)`);
      lowered = kept;
    }
  }
  const changes = resourceChanges(ctx.subject, ctx.pod, lowered);
  if (!changes || parts.length === 0) return null;
  return { who: 'app-team', summary: `lower ${parts.join(' and ')}`, changes, cost: 1, obvious: true, pod: lowered };
}

/** A Job refused by quota: run as many at a time as run now (it takes longer; nothing is refused). */
function parallelismPlan(ctx: FixContext, pods: number): Plan | null {
  const s = ctx.subject;
  if (s.kind !== 'workload' || s.ref.kind !== 'Job') return null;
  const job = ctx.state.get('Job', s.ref.namespace, s.ref.name);
  const parallelism = (job?.spec as { parallelism?: number | null } | undefined)?.parallelism ?? 1;
  const to = parallelism - pods;
  if (to < 1) return null;
  return {
    who: 'app-team',
    summary: `run job/${s.ref.name} ${to} at a time instead of ${parallelism} (what the quota holds now; the job takes longer)`,
    changes: [{ kind: 'patch', target: s.ref, type: 'merge', body: { spec: { parallelism: to } } }],
    cost: 1,
  };
}

/**
 * Giving up the replicas the quota refuses: scale the subject to the pods it has (they are admitted
 * already). It ends the refusals but costs wanted replicas, so it ranks after every fix that keeps them.
 */
function scaleToAdmittedPlan(ctx: FixContext, pods: number): Plan | null {
  const s = ctx.subject;
  if (s.kind !== 'workload' || !scalable(s.ref.kind)) return null;
  const w = ctx.state.get(s.ref.kind, s.ref.namespace, s.ref.name);
  const replicas = (w?.spec as { replicas?: number | null } | undefined)?.replicas ?? 1;
  const to = replicas - pods;
  if (to < 1) return null;
  return {
    who: 'app-team',
    summary: `scale ${subjectWords(s)} ${replicas} → ${to}: runs the ${to} pod${to === 1 ? '' : 's'} the quota admits now (gives up ${pods} wanted replica${pods === 1 ? '' : 's'})`,
    changes: [{ kind: 'scale', target: s.ref, replicas: to }],
    cost: 3,
  };
}

/** Every plan for an `exceeded quota` of the subject. */
export function quotaPlans(ctx: FixContext, failure: Exceeded): Plan[] {
  const pods = missingPods(ctx);
  const out: Plan[] = [];
  out.push(...freeQuotaPlans(ctx, failure, pods));
  const lower = lowerPlan(ctx, failure, pods);
  if (lower) out.push(lower);
  const par = parallelismPlan(ctx, pods);
  if (par) out.push(par);
  out.push(raiseQuotaPlan(ctx, failure, pods));
  const fewer = scaleToAdmittedPlan(ctx, pods);
  if (fewer) out.push(fewer);
  return out;
}
