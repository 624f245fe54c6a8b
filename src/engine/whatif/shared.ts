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
