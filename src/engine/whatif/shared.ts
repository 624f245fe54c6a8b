/** What the what-if questions share: finding the workload asked about, its pods, a tally of new pods. */
import { isWorkloadKind, type Pod, type Workload } from '../../k8s/objects.ts';
import type { KObject, Snapshot } from '../../k8s/snapshot.ts';
import { byteCompare } from '../../quantity.ts';
import { clone } from '../defaults.ts';
import { ownerOf } from '../fixes.ts';
import { isTerminal, perPodRequests } from '../pod-resources.ts';
import type { SimOptions, SimResult } from '../simulate.ts';
import { workloadTemplate } from '../workloads.ts';
import { admitObject } from '../admit.ts';
import type { ObjectRef } from '../changes/types.ts';
import { controllerOf, isActive } from '../controllers/context.ts';
import type { WorkloadOutcome } from '../converge.ts';
import type { ChangeAnswer } from './change.ts';

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

/** The workload template's pod as admission leaves it (defaults applied), shown per pod: cpu and memory. */
export function perPodOf(state: Snapshot, w: WorkloadRef, opts: SimOptions): Record<string, string> {
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

export function emptyTally(): PodTally {
  return tally([]);
}

/** The workload's ref as a change names it. */
export function targetOf(w: WorkloadRef): ObjectRef {
  return { kind: w.kind, namespace: w.namespace, name: w.name };
}

/** Whether a pod's controller (`owner`) is the workload, or one of its ReplicaSets for a Deployment. */
export function ownedBy(state: Snapshot, owner: ObjectRef, w: WorkloadRef): boolean {
  if ((owner.namespace ?? 'default') !== w.namespace) return false;
  if (owner.kind === w.kind && owner.name === w.name) return true;
  if (owner.kind !== 'ReplicaSet' || w.kind !== 'Deployment') return false;
  const rs = state.get('ReplicaSet', w.namespace, owner.name);
  const o = rs ? controllerOf(rs) : null;
  return o?.kind === 'Deployment' && o.name === w.name;
}

/** The workload's ReplicaSets (a Deployment's), as refs: synced with it when the question is about it. */
export function replicaSetRefs(state: Snapshot, w: WorkloadRef): ObjectRef[] {
  if (w.kind !== 'Deployment') return [];
  const out: ObjectRef[] = [];
  for (const rs of state.iterate('ReplicaSet', w.namespace)) {
    const o = controllerOf(rs);
    if (o?.kind === 'Deployment' && o.name === w.name)
      out.push({ kind: 'ReplicaSet', namespace: w.namespace, name: rs.metadata.name ?? '' });
  }
  return out;
}

/** The workload's outcome in a converged what-if, if the controllers touched it. */
export function outcomeFor(a: ChangeAnswer, w: WorkloadRef): WorkloadOutcome | undefined {
  return a.workloads.find((x) => x.kind === w.kind && x.namespace === w.namespace && x.name === w.name);
}

/**
 * The pods the controllers created for `w` during a convergence and how they ended — bound (on which
 * node) or Pending (with the scheduler's message) — and, of the `attempted` pods the change wanted,
 * those never created: refused at admission (the workload's last FailedCreate message).
 */
export function convergedTally(
  a: ChangeAnswer,
  w: WorkloadRef,
  attempted: number,
  /** Pods created by earlier convergences `a` continued from (their state is where `a` started). */
  before: ChangeAnswer['created'] = [],
): PodTally {
  const t = emptyTally();
  t.attempted = attempted;
  const out = outcomeFor(a, w);
  const pendingMessage = new Map((out?.pending ?? []).map((p) => [p.pod, p.message]));
  const pend = new Map<string, { message: string; count: number }>();
  for (const c of [...before, ...a.created]) {
    if (!ownedBy(a.state, c.owner, w)) continue;
    const slash = c.pod.indexOf('/');
    const p = a.state.get('Pod', c.pod.slice(0, slash), c.pod.slice(slash + 1));
    if (!p || !isActive(p)) continue;
    t.admitted++;
    if (p.spec.nodeName) {
      t.scheduled++;
      t.nodes[p.spec.nodeName] = (t.nodes[p.spec.nodeName] ?? 0) + 1;
      continue;
    }
    t.pending++;
    const m = pendingMessage.get(c.pod) ?? 'not scheduled';
    const e = pend.get(m) ?? { message: m, count: 0 };
    e.count++;
    pend.set(m, e);
  }
  t.pendingMessages = [...pend.values()];
  const refused = Math.max(0, attempted - t.admitted);
  if (refused > 0 && out?.failedCreate) {
    let layer: string | null = null;
    for (const e of a.events)
      if (e.type === 'FailedCreate' && ownedBy(a.state, e.object, w) && e.message === out.failedCreate)
        layer = e.layer ?? null;
    t.rejected = refused;
    t.rejections = [{ message: out.failedCreate, count: refused, layer }];
  }
  return t;
}

/** A pod of the workload's template, as its controller would submit it (for dry-run admission). */
export function probePod(w: WorkloadRef): Pod {
  const tpl = workloadTemplate(w.object);
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `${w.name}-probe`, namespace: w.namespace, labels: { ...(tpl.metadata?.labels ?? {}) } },
    spec: clone(tpl.spec),
  };
}
