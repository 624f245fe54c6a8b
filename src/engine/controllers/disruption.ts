/**
 * PodDisruptionBudgets as the eviction API enforces them. The disruption controller
 * (pkg/controller/disruption/disruption.go: getExpectedPodCount, countHealthyPods, updatePdbStatus)
 * computes each budget's status; the eviction subresource (pkg/registry/core/pod/storage/eviction.go:
 * Create, canIgnorePDB, checkAndDecrement) refuses an eviction with 429 when the budget allows no more
 * disruptions, and decrements it when it allows one. The snapshot holds PDBs only when something put
 * them there (kind `PodDisruptionBudget`, policy/v1); without any, every eviction is allowed.
 */
import type { LabelSelector, Pod } from '../../k8s/objects.ts';
import type { KObject, Snapshot } from '../../k8s/snapshot.ts';
import type { IntOrPercent } from '../changes/types.ts';
import { compileLabelSelector } from '../scheduler/label-selectors.ts';
import { controllerOf, isActive, isAvailable } from './context.ts';
import { scaledValue } from './deployment.ts';

export const PDB_VIOLATION = "Cannot evict pod as it would violate the pod's disruption budget.";
export const PDB_MULTIPLE =
  'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.';

interface PdbSpec {
  selector?: LabelSelector | null;
  minAvailable?: IntOrPercent | null;
  maxUnavailable?: IntOrPercent | null;
  unhealthyPodEvictionPolicy?: 'IfHealthyBudget' | 'AlwaysAllow' | null;
}

export interface BudgetStatus {
  /** "ns/name". */
  pdb: string;
  expectedPods: number;
  desiredHealthy: number;
  currentHealthy: number;
  disruptionsAllowed: number;
}

function specOf(pdb: KObject): PdbSpec {
  const s = pdb.spec;
  return typeof s === 'object' && s !== null ? (s as PdbSpec) : {};
}

function labelsOf(p: Pod): Record<string, string> {
  return (p.metadata.labels ?? {}) as Record<string, string>;
}

/** The budgets in the pod's namespace whose selector selects it (an empty selector selects every pod). */
export function budgetsFor(state: Snapshot, pod: Pod): KObject[] {
  const ns = pod.metadata.namespace ?? 'default';
  const out: KObject[] = [];
  for (const pdb of state.iterate('PodDisruptionBudget', ns)) {
    if (compileLabelSelector(specOf(pdb).selector)(labelsOf(pod))) out.push(pdb);
  }
  return out;
}

/** The scale of a pod's controller (getExpectedScale: Deployment through its ReplicaSet, RS, StatefulSet, RC). */
function controllerScale(state: Snapshot, pod: Pod): { key: string; scale: number } | null {
  const ns = pod.metadata.namespace ?? 'default';
  let o = controllerOf(pod);
  if (!o) return null;
  if (o.kind === 'ReplicaSet') {
    const rs = state.get('ReplicaSet', ns, o.name);
    const up = rs ? controllerOf(rs) : null;
    if (up?.kind === 'Deployment') o = up;
  }
  if (!['Deployment', 'ReplicaSet', 'StatefulSet', 'ReplicationController'].includes(o.kind)) return null;
  const obj = state.get(o.kind, ns, o.name);
  if (!obj) return null;
  const replicas = (obj.spec as { replicas?: number | null } | undefined)?.replicas;
  return { key: `${o.kind}/${o.name}`, scale: Math.max(0, replicas ?? 1) };
}

/** The budget's status as the disruption controller computes it from the state. */
export function budgetStatus(state: Snapshot, pdb: KObject): BudgetStatus {
  const ns = pdb.metadata.namespace ?? 'default';
  const spec = specOf(pdb);
  const match = compileLabelSelector(spec.selector);
  const pods: Pod[] = [];
  for (const p of state.iterate('Pod', ns)) if (match(labelsOf(p))) pods.push(p);
  const currentHealthy = pods.filter((p) => isActive(p) && isAvailable(p)).length;
  // getExpectedScale: each controller's scale once; a pod without a scalable controller leaves the status
  // uncomputed (the controller records NoControllers) and no disruption is allowed.
  const expectedScale = (): number | null => {
    const seen = new Map<string, number>();
    for (const p of pods) {
      if (!isActive(p)) continue;
      const c = controllerScale(state, p);
      if (!c) return null;
      seen.set(c.key, c.scale);
    }
    return [...seen.values()].reduce((a, b) => a + b, 0);
  };
  let expectedPods = 0;
  let desiredHealthy = 0;
  let computed = true;
  if (spec.maxUnavailable !== undefined && spec.maxUnavailable !== null) {
    const e = expectedScale();
    if (e === null) computed = false;
    else {
      expectedPods = e;
      desiredHealthy = Math.max(0, e - scaledValue(spec.maxUnavailable, 0, e, true));
    }
  } else if (typeof spec.minAvailable === 'number') {
    expectedPods = pods.filter(isActive).length;
    desiredHealthy = spec.minAvailable;
  } else if (typeof spec.minAvailable === 'string') {
    const e = expectedScale();
    if (e === null) computed = false;
    else {
      expectedPods = e;
      desiredHealthy = scaledValue(spec.minAvailable, 0, e, true);
    }
  }
  const allowed = currentHealthy - desiredHealthy;
  return {
    pdb: `${ns}/${pdb.metadata.name ?? ''}`,
    expectedPods,
    desiredHealthy,
    currentHealthy,
    disruptionsAllowed: !computed || expectedPods <= 0 || allowed <= 0 ? 0 : allowed,
  };
}

export type EvictionVerdict =
  | { allowed: true; pdb?: string }
  | { allowed: false; code: 429 | 500; pdb: string; message: string; cause?: string };

/**
 * One eviction against the budgets' statuses in `budgets` (keyed "ns/name", decremented on success as the
 * API server writes the PDB's status): the eviction subresource's decision.
 */
export function evict(state: Snapshot, pod: Pod, budgets: Map<string, BudgetStatus>): EvictionVerdict {
  // canIgnorePDB: a terminal or Pending pod, or one already being deleted, is deleted without a budget check.
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || pod.metadata.deletionTimestamp)
    return { allowed: true };
  const pdbs = budgetsFor(state, pod);
  if (pdbs.length === 0) return { allowed: true };
  const key = `${pdbs[0]!.metadata.namespace ?? 'default'}/${pdbs[0]!.metadata.name ?? ''}`;
  if (pdbs.length > 1) return { allowed: false, code: 500, pdb: key, message: PDB_MULTIPLE };
  let st = budgets.get(key);
  if (!st) {
    st = budgetStatus(state, pdbs[0]!);
    budgets.set(key, st);
  }
  // An unready pod: IfHealthyBudget (the default) lets it go while the budget is met, AlwaysAllow always.
  if (!isAvailable(pod)) {
    const policy = specOf(pdbs[0]!).unhealthyPodEvictionPolicy ?? 'IfHealthyBudget';
    if (policy === 'AlwaysAllow' || (st.currentHealthy >= st.desiredHealthy && st.desiredHealthy > 0))
      return { allowed: true, pdb: key };
  }
  if (st.disruptionsAllowed <= 0)
    return {
      allowed: false,
      code: 429,
      pdb: key,
      message: PDB_VIOLATION,
      cause: `The disruption budget ${key.slice(key.indexOf('/') + 1)} needs ${st.desiredHealthy} healthy pods and has ${st.currentHealthy} currently`,
    };
  st.disruptionsAllowed--;
  st.currentHealthy--;
  return { allowed: true, pdb: key };
}
