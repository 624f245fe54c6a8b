/**
 * What-if simulations over a copy-on-write fork: scale a workload, change a quota, change a
 * container's requests, lose a node, roll out a template. Each answer comes with hand-checkable numbers.
 */
import type { Deployment, Pod, ResourceQuota, Workload } from '../k8s/objects.ts';
import type { KObject, Snapshot } from '../k8s/snapshot.ts';
import { Quantity, byteCompare } from '../quantity.ts';
import { clone } from './defaults.ts';
import { ownerOf, refOf } from './fixes.ts';
import { releasePod } from './release.ts';
import { isTerminal, podRequests } from './resources.ts';
import { schedulePod, bindPod } from './scheduler/schedule.ts';
import { nodeInfoIndex } from './scheduler/node-info.ts';
import { simulate, simulateWorkloadPods, type SimOptions, type SimResult } from './simulate.ts';
import { surgeBudget, workloadTemplate } from './workloads.ts';
import { countFits } from './headroom.ts';
import { admitObject } from './admit.ts';

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
  const t: PodTally = { attempted: 0, admitted: 0, rejected: 0, rejections: [], scheduled: 0, pending: 0, nodes: {}, pendingMessages: [] };
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
export function findWorkload(state: Snapshot, name: string, kind: string | undefined, namespaces: readonly string[]): WorkloadRef | null {
  const kinds = kind ? [kind] : ['Deployment', 'StatefulSet', 'ReplicaSet', 'Job', 'DaemonSet', 'CronJob'];
  for (const ns of namespaces) {
    for (const k of kinds) {
      const o = state.get<Workload & KObject>(k, ns, name);
      if (o) return { kind: k, name, namespace: ns, object: o };
    }
  }
  return null;
}

/** Live (non-terminal) pods a workload owns now. */
export function workloadPods(state: Snapshot, w: WorkloadRef): (Pod & KObject)[] {
  const out: (Pod & KObject)[] = [];
  for (const p of state.iterate<Pod & KObject>('Pod', w.namespace)) {
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
  /** When some did not fit: what it would take (verified by re-running). */
  toGetAll?: string[];
}

function perPodOf(state: Snapshot, w: WorkloadRef, opts: SimOptions): Record<string, string> {
  const tpl = workloadTemplate(w.object as Workload);
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: `${w.name}-probe`, namespace: w.namespace }, spec: clone(tpl.spec) } as KObject;
  const adm = admitObject(pod, state, { ...opts, dryRun: true });
  const req = podRequests(adm.object as unknown as Pod);
  const out: Record<string, string> = {};
  for (const k of ['cpu', 'memory']) {
    const v = req.get(k);
    if (v) out[k] = v.toString();
  }
  return out;
}

export function whatIfScale(state: Snapshot, w: WorkloadRef, target: number, opts: SimOptions = {}): ScaleAnswer {
  const current = workloadPods(state, w);
  const from = current.length;
  nodeInfoIndex(state);
  const fork = state.fork();
  const results: SimResult[] = [];
  const warnings: string[] = [];
  if (target > from) {
    simulateWorkloadPods(fork, w.object as Workload, { ...opts, namespace: w.namespace }, results, warnings, { n: 1000 + from }, target - from);
    // A Deployment's ReplicaSet already exists: drop its duplicate admission from the results.
  } else {
    for (const p of current.slice(target)) releasePod(fork, p);
  }
  const podResults = results.filter((r) => r.kind === 'Pod');
  const t = tally(podResults);
  const answer: ScaleAnswer = { workload: w, from, to: target, perPod: perPodOf(state, w, opts), tally: t };
  if (t.rejected > 0 || t.pending > 0) {
    const hints: string[] = [];
    for (const r of podResults) {
      const f = r.detail.admission.quota?.failure;
      if (f?.type === 'exceeded') {
        for (const k of f.exceeded) {
          const need = f.used.get(k)!.add(f.requested.get(k)!.times(t.rejected));
          hints.push(`raise ${f.quota} ${k} to ${need}`);
        }
        break;
      }
    }
    if (t.pending > 0) hints.push(`${t.pending} pod${t.pending === 1 ? '' : 's'} would need node capacity (${Object.entries(answer.perPod).map(([k, v]) => `${v} ${k}`).join(', ')} each)`);
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

export function whatIfQuota(state: Snapshot, namespace: string, quotaName: string, resource: string, value: string, opts: SimOptions = {}): QuotaChangeAnswer | null {
  const q = state.get<ResourceQuota & KObject>('ResourceQuota', namespace, quotaName);
  if (!q) return null;
  const v = Quantity.parse(value).toString();
  nodeInfoIndex(state);
  const fork = state.fork();
  fork.put({ ...q, spec: { ...(q.spec ?? {}), hard: { ...(q.spec?.hard ?? {}), [resource]: v } }, status: { ...(q.status ?? {}), hard: { ...(q.status?.hard ?? {}), [resource]: v }, used: { ...(q.status?.used ?? {}), [resource]: q.status?.used?.[resource] ?? '0' } } } as KObject);
  const probe = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'quota-doctor-probe', namespace }, spec: { containers: [{ name: 'app', image: 'app' }] } } as Pod;
  const before = countFits(state, probe, opts);
  const after = countFits(fork, probe, opts);
  return { namespace, quota: quotaName, resource, from: q.status?.hard?.[resource] !== undefined ? Quantity.parse(q.status.hard[resource]).toString() : null, to: v, defaultPodBefore: before.fits, defaultPodAfter: after.fits, limitedByAfter: after.limitedBy };
}

export interface RequestsChangeAnswer {
  workload: WorkloadRef;
  change: string;
  /** Replacing every pod with the new template (a rollout), then how many fit. */
  tally: PodTally;
}

export function whatIfRequests(state: Snapshot, w: WorkloadRef, which: 'requests' | 'limits', resource: string, value: string, container: string | undefined, opts: SimOptions = {}): RequestsChangeAnswer {
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
  simulateWorkloadPods(fork, obj as Workload, { ...opts, namespace: w.namespace }, results, [], { n: 5000 }, Math.max(current.length, 1));
  return { workload: w, change: `${which}.${resource}=${value}${container ? ` on ${container}` : ''}`, tally: tally(results.filter((r) => r.kind === 'Pod')) };
}

export interface DrainAnswer {
  node: string;
  pods: number;
  rescheduled: Record<string, number>;
  stranded: { pod: string; message: string }[];
}

/** Losing a node: can its pods land elsewhere? (DaemonSet pods are left out: they die with the node.) */
export function whatIfDrain(state: Snapshot, node: string, opts: SimOptions = {}): DrainAnswer | null {
  if (!state.get('Node', undefined, node)) return null;
  nodeInfoIndex(state);
  const fork = state.fork();
  const pods: (Pod & KObject)[] = [];
  for (const p of state.iterate<Pod & KObject>('Pod')) {
    if (p.spec.nodeName !== node || isTerminal(p)) continue;
    if (p.metadata.ownerReferences?.some((o) => o.kind === 'DaemonSet')) continue;
    pods.push(p);
  }
  fork.remove('Node', undefined, node);
  for (const p of pods) fork.put({ ...p, spec: { ...p.spec, nodeName: undefined } } as KObject);
  const out: DrainAnswer = { node, pods: pods.length, rescheduled: {}, stranded: [] };
  // Bigger pods first, as a human would place them (and kube-scheduler's queue tends to by priority).
  const ordered = pods.slice().sort((a, b) => (b.spec.priority ?? 0) - (a.spec.priority ?? 0) || byteCompare(a.metadata.name ?? '', b.metadata.name ?? ''));
  for (const p of ordered) {
    const unbound = fork.get<Pod & KObject>('Pod', p.metadata.namespace, p.metadata.name ?? '')!;
    const r = schedulePod(fork, unbound, { k8sVersion: opts.k8sVersion, draEnabled: opts.draEnabled });
    if (r.scheduled && r.node) {
      bindPod(fork, unbound, r.node);
      out.rescheduled[r.node] = (out.rescheduled[r.node] ?? 0) + 1;
    } else out.stranded.push({ pod: `${p.metadata.namespace}/${p.metadata.name}`, message: r.message ?? 'not schedulable' });
  }
  return out;
}

export interface RolloutAnswer {
  workload: WorkloadRef;
  strategy: string;
  maxSurge: number;
  maxUnavailable: number;
  replicas: number;
  /** Surge pods that can exist at once next to the old ones. */
  surgeTally: PodTally;
  advice?: string;
}

export function whatIfRollout(state: Snapshot, w: WorkloadRef, opts: SimOptions = {}): RolloutAnswer {
  const d = w.object as Deployment;
  const b = w.kind === 'Deployment' ? surgeBudget(d) : { strategy: 'RollingUpdate', maxSurge: 1, maxUnavailable: 0, peakPods: 0 };
  const replicas = workloadPods(state, w).length;
  const results: SimResult[] = [];
  nodeInfoIndex(state);
  if (b.maxSurge > 0) simulateWorkloadPods(state.fork(), w.object as Workload, { ...opts, namespace: w.namespace }, results, [], { n: 9000 }, b.maxSurge);
  const t = tally(results.filter((r) => r.kind === 'Pod'));
  const answer: RolloutAnswer = { workload: w, strategy: b.strategy, maxSurge: b.maxSurge, maxUnavailable: b.maxUnavailable, replicas, surgeTally: t };
  // A surge pod that is admitted but stays Pending never becomes ready: the rollout stalls on it as on a refused one.
  const fit = t.admitted - t.pending;
  if (b.maxSurge > 0 && fit < b.maxSurge) {
    answer.advice = fit === 0
      ? `No surge pod fits: set strategy.rollingUpdate.maxSurge: 0 with maxUnavailable: ${Math.max(1, b.maxUnavailable)} (replace in place), or strategy Recreate.`
      : `Only ${fit} surge pod${fit === 1 ? '' : 's'} fit: set maxSurge: ${fit} (or 0 with maxUnavailable ≥ 1).`;
  }
  return answer;
}

/** Applying manifests is plain `simulate`. */
export function whatIfApply(state: Snapshot, objects: KObject[], opts: SimOptions = {}) {
  return simulate(state, objects, opts);
}
