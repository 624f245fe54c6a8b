/**
 * The pipeline over a copy-on-write snapshot, object after object: admission (defaulting, LimitRanger,
 * quota), then for pods the scheduler; workloads expand to the pods their controllers would create.
 * Each admitted object updates the state the next one sees. The caller's snapshot is never modified.
 */
import { CLUSTER_SCOPED_KINDS, isKind, isWorkload, type Pod, type Workload } from '../k8s/objects.ts';
import type { KObject, Snapshot } from '../k8s/snapshot.ts';
import { listToRecord } from '../quantity.ts';
import { admitObject, commitAdmission, type AdmissionResult, type AdmitOptions } from './admit.ts';
import { bindPod, schedulePod, type ScheduleResult } from './scheduler/schedule.ts';
import { nodeInfoIndex } from './scheduler/node-info.ts';
import type { DecisionLayer } from './status.ts';
import { expandWorkload } from './workloads.ts';
import { converge } from './converge.ts';

export interface SchedulingOutcome {
  scheduled: boolean;
  node: string | null;
  message: string | null;
  nominatedNode?: string;
  victims?: string[];
  gated?: boolean;
  /** Never attempted: a PreEnqueue plugin holds the pod (DynamicResources: its claim is missing or not its own). */
  preEnqueue?: { plugin: string; reason: string };
  /** No verdict: the engine cannot judge this pod's placement (e.g. a DRA selector outside the CEL it reads). */
  unknown?: string;
}

export interface SimResult {
  kind: string;
  namespace: string;
  name: string;
  admission: { allowed: boolean; layer: DecisionLayer | null; message: string | null };
  object: KObject;
  quotaUsage: Record<string, Record<string, string>>;
  scheduling: SchedulingOutcome | null;
  /** Not in the JSON contract: full detail for explanations and fixes. */
  detail: { admission: AdmissionResult; schedule?: ScheduleResult; ownerKind?: string; ownerName?: string };
}

export interface SimOptions extends AdmitOptions {
  /** Namespace for objects that name none (`-n`, else "default"). */
  namespace?: string;
  /** Skip the scheduler (admission-only questions). */
  skipScheduling?: boolean;
  draEnabled?: boolean;
  /**
   * A workload that already exists in the state: 'rollout' (default) applies it as an update and runs the
   * controllers (engine/converge.ts) — a changed template rolls out; 'create' admits it as a new object.
   */
  existingWorkloads?: 'rollout' | 'create';
}

export interface SimOutput {
  results: SimResult[];
  warnings: string[];
  /** The state after every admitted object (a fork of the input). */
  state: Snapshot;
}

function toOutcome(r: ScheduleResult): SchedulingOutcome {
  const out: SchedulingOutcome = { scheduled: r.scheduled, node: r.node, message: r.message };
  if (r.nominatedNode) out.nominatedNode = r.nominatedNode;
  if (r.victims?.length) out.victims = r.victims;
  if (r.gated) out.gated = true;
  if (r.preEnqueue) out.preEnqueue = r.preEnqueue;
  if (r.unknown !== undefined) out.unknown = r.unknown;
  return out;
}

function quotaUsageRecord(a: AdmissionResult): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const [q, list] of a.quotaUsage) out[q] = listToRecord(list);
  return out;
}

/**
 * A Pod or PVC already in the state is an UPDATE of it (docs/contract.md `simulate`), unless the caller chose
 * the operation: the stored object, which has a resourceVersion since it is stored, is the old object.
 */
function updateOf(state: Snapshot, obj: KObject, opts: SimOptions): Pick<AdmitOptions, 'operation' | 'oldObject'> {
  if (opts.oldObject || opts.operation === 'CREATE' || !obj.metadata.name) return {};
  if (!opts.operation && obj.kind !== 'Pod' && obj.kind !== 'PersistentVolumeClaim') return {};
  const old = state.get(obj.kind ?? '', obj.metadata.namespace, obj.metadata.name);
  if (!old) return {};
  const resourceVersion = typeof old.metadata.resourceVersion === 'string' ? old.metadata.resourceVersion : '1';
  return { operation: 'UPDATE', oldObject: { ...old, metadata: { ...old.metadata, resourceVersion } } };
}

/** Admits (and schedules) one object in `state`, appending its results. */
function simulateOne(
  state: Snapshot,
  obj: KObject,
  opts: SimOptions,
  results: SimResult[],
  warnings: string[],
  seed: { n: number },
  owner?: { kind: string; name: string },
): AdmissionResult {
  // Only the manifest's own objects: a workload's pods are its controller's business (rollouts).
  const update = owner ? {} : updateOf(state, obj, opts);
  const admission = admitObject(obj, state, { ...opts, ...update, nameSeed: seed.n++ });
  const oldNode = (update.oldObject?.spec as { nodeName?: string } | undefined)?.nodeName;
  warnings.push(...admission.warnings);
  const stored = admission.object;
  const result: SimResult = {
    kind: stored.kind ?? '',
    namespace: stored.metadata.namespace ?? '',
    name: stored.metadata.name ?? '',
    admission: { allowed: admission.allowed, layer: admission.layer, message: admission.message },
    object: stored,
    quotaUsage: quotaUsageRecord(admission),
    scheduling: null,
    detail: { admission, ownerKind: owner?.kind, ownerName: owner?.name },
  };
  results.push(result);
  if (!admission.allowed || opts.dryRun) return admission;
  commitAdmission(state, admission);
  if (isKind(stored, 'Pod') && !opts.skipScheduling) {
    const pod = stored;
    if (pod.spec.nodeName || oldNode) {
      // An update keeps the pod where it runs (spec.nodeName cannot change).
      result.scheduling = { scheduled: true, node: pod.spec.nodeName || oldNode!, message: null };
    } else {
      const s = schedulePod(state, pod, { k8sVersion: opts.k8sVersion, draEnabled: opts.draEnabled });
      result.detail.schedule = s;
      result.scheduling = toOutcome(s);
      if (s.scheduled && s.node) {
        const bound = bindPod(state, pod, s.node);
        result.object = bound;
      }
    }
  }
  return admission;
}

/** Workload kinds whose update the controllers roll out. */
const ROLLED_OUT: readonly string[] = ['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job'];

function admissionOf(
  allowed: boolean,
  layer: DecisionLayer | null,
  message: string | null,
  object: KObject,
): AdmissionResult {
  return { allowed, layer, message, object, quotaUsage: new Map(), quotaUsedAfter: new Map(), warnings: [] };
}

/**
 * An existing workload in a manifest: an update, applied as `kubectl apply` would and converged — the
 * Deployment's new ReplicaSet, the pods its controllers create (each through admission) or are refused,
 * where the scheduler puts them. Results: the workload, then each pod created or refused on the way.
 */
function rollOut(state: Snapshot, obj: KObject, opts: SimOptions, results: SimResult[]): Snapshot {
  const ns = obj.metadata.namespace ?? 'default';
  const name = obj.metadata.name ?? '';
  const r = converge(state, [{ kind: 'apply', objects: [obj] }], opts);
  const base = { kind: obj.kind ?? '', namespace: ns, name, quotaUsage: {}, scheduling: null };
  if (r.refused) {
    const layer: DecisionLayer = 'api-validation';
    const a = admissionOf(false, layer, r.refused.message, obj);
    results.push({
      ...base,
      admission: { allowed: false, layer, message: r.refused.message },
      object: obj,
      detail: { admission: a },
    });
    return state;
  }
  const stored = r.state.get(obj.kind ?? '', ns, name) ?? obj;
  results.push({
    ...base,
    admission: { allowed: true, layer: null, message: null },
    object: stored,
    detail: { admission: admissionOf(true, null, null, stored) },
  });
  // The pods of this workload's controllers (a Deployment's through its ReplicaSets).
  const mine = (owner: { kind: string; name: string }) =>
    (owner.kind === obj.kind && owner.name === name) ||
    (obj.kind === 'Deployment' &&
      owner.kind === 'ReplicaSet' &&
      !!r.state
        .get('ReplicaSet', ns, owner.name)
        ?.metadata.ownerReferences?.some((o) => o.kind === 'Deployment' && o.name === name));
  const pending = new Map<string, string>();
  for (const w of r.workloads) for (const p of w.pending) pending.set(p.pod, p.message);
  for (const c of r.created) {
    if (c.owner.namespace !== ns || !mine(c.owner)) continue;
    const podName = c.pod.slice(ns.length + 1);
    const p = r.state.get('Pod', ns, podName);
    if (!p) continue;
    const scheduling: SchedulingOutcome = p.spec.nodeName
      ? { scheduled: true, node: p.spec.nodeName, message: null }
      : { scheduled: false, node: null, message: pending.get(c.pod) ?? null };
    results.push({
      kind: 'Pod',
      namespace: ns,
      name: podName,
      admission: { allowed: true, layer: null, message: null },
      object: p,
      quotaUsage: {},
      scheduling,
      detail: { admission: admissionOf(true, null, null, p), ownerKind: c.owner.kind, ownerName: c.owner.name },
    });
  }
  for (const e of r.events) {
    if (e.type !== 'FailedCreate' || e.object.namespace !== ns || !mine(e.object)) continue;
    const podName = /^pods "([^"]*)"/.exec(e.message)?.[1] ?? '';
    const layer = (e.layer ?? null) as DecisionLayer | null;
    const p: KObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: podName, namespace: ns } };
    results.push({
      kind: 'Pod',
      namespace: ns,
      name: podName,
      admission: { allowed: false, layer, message: e.message },
      object: p,
      quotaUsage: {},
      scheduling: null,
      detail: {
        admission: admissionOf(false, layer, e.message, p),
        ownerKind: e.object.kind,
        ownerName: e.object.name,
      },
    });
  }
  return r.state;
}

/** Runs the objects of a manifest in order. */
export function simulate(input: Snapshot, objects: KObject[], opts: SimOptions = {}): SimOutput {
  // Build (or inherit) the node index before forking, so the fork takes a copy-on-write view of it.
  if (!opts.skipScheduling) nodeInfoIndex(input);
  let state = input.fork();
  const results: SimResult[] = [];
  const warnings: string[] = [];
  const seed = { n: opts.nameSeed ?? 0 };
  for (const raw of objects) {
    const ns = raw.metadata.namespace ?? opts.namespace ?? 'default';
    const obj: KObject = CLUSTER_SCOPED_KINDS.has(raw.kind ?? '')
      ? raw
      : { ...raw, metadata: { ...raw.metadata, namespace: ns } };
    if (
      (opts.existingWorkloads ?? 'rollout') === 'rollout' &&
      !opts.dryRun &&
      !opts.skipScheduling &&
      ROLLED_OUT.includes(obj.kind ?? '') &&
      state.get(obj.kind ?? '', ns, obj.metadata.name ?? '')
    ) {
      state = rollOut(state, obj, opts, results);
      continue;
    }
    const admission = simulateOne(state, obj, opts, results, warnings, seed);
    // Admission keeps the kind: the admitted object is a workload when the input was.
    if (!isWorkload(admission.object) || !admission.allowed) continue;
    simulateWorkloadPods(state, admission.object, opts, results, warnings, seed);
  }
  return { results, warnings, state };
}

/**
 * Whether a workload's new pods are interchangeable for admission and the scheduler: one template, no
 * claim, ephemeral volume or ResourceClaim of their own (a StatefulSet's pods each have theirs, a
 * DaemonSet's each target one node). Only their names differ — which no admission check or filter reads.
 */
export function interchangeablePods(w: Workload, pods: readonly Pod[], claims: number): boolean {
  if (!['Deployment', 'ReplicaSet', 'Job', 'CronJob'].includes(w.kind ?? '') || claims > 0) return false;
  const spec = pods[0]?.spec as
    | (Pod['spec'] & { resourceClaims?: unknown[]; volumes?: { ephemeral?: unknown }[] })
    | undefined;
  return !!spec && !spec.resourceClaims?.length && !(spec.volumes ?? []).some((v) => v.ephemeral);
}

/** The same refusal for another interchangeable pod: its own name in the message, nothing re-admitted. */
export function repeatedRefusal(first: SimResult, pod: Pod): SimResult {
  const name = pod.metadata.name ?? '';
  const message =
    first.admission.message && first.name && name
      ? first.admission.message.replace(`"${first.name}"`, `"${name}"`)
      : first.admission.message;
  return { ...first, name, admission: { ...first.admission, message }, object: pod };
}

/**
 * Expands an admitted workload and runs its owned objects, claims and pods.
 *
 * `repeatOutcomes` (what-ifs that add many pods of one workload): when the pods are interchangeable,
 * a pod refused at admission leaves the state as it was, so every later pod is refused the same way —
 * the refusal is repeated, not recomputed; and a pod admitted but unschedulable without preemption
 * leaves the nodes as they were, so later admitted pods get the same scheduling outcome without running
 * the scheduler again. Admission still runs for each of those (quota usage grows with each).
 */
export function simulateWorkloadPods(
  state: Snapshot,
  w: Workload,
  opts: SimOptions,
  results: SimResult[],
  warnings: string[],
  seed: { n: number },
  replicas?: number,
  repeatOutcomes = false,
): void {
  const nodes = state.list('Node');
  // A Deployment that already has a ReplicaSet (a what-if on a running workload) scales that one.
  let existingReplicaSet: { name: string; hash?: string } | undefined;
  if (w.kind === 'Deployment' && replicas !== undefined) {
    const rs = state
      .list('ReplicaSet', w.metadata.namespace)
      .filter((r) => r.metadata.ownerReferences?.some((o) => o.kind === 'Deployment' && o.name === w.metadata.name))
      .sort((a, b) =>
        String(b.metadata.creationTimestamp ?? '').localeCompare(String(a.metadata.creationTimestamp ?? '')),
      )[0];
    if (rs) existingReplicaSet = { name: rs.metadata.name ?? '', hash: rs.metadata.labels?.['pod-template-hash'] };
  }
  const exp = expandWorkload(w, { nodes, replicas, seed: seed.n, existingReplicaSet });
  seed.n += exp.pods.length;
  for (const owned of exp.owned) {
    const a = admitObject(owned, state, { ...opts, nameSeed: seed.n++ });
    if (!a.allowed) {
      results.push({
        kind: owned.kind ?? '',
        namespace: owned.metadata.namespace ?? '',
        name: owned.metadata.name ?? '',
        admission: { allowed: false, layer: a.layer, message: a.message },
        object: a.object,
        quotaUsage: {},
        scheduling: null,
        detail: { admission: a },
      });
      return;
    }
    if (!opts.dryRun) commitAdmission(state, a);
  }
  for (const claim of exp.claims) {
    if (state.get('PersistentVolumeClaim', claim.metadata.namespace, claim.metadata.name ?? '')) continue;
    simulateOne(state, claim, opts, results, warnings, seed, exp.creator);
  }
  const same = repeatOutcomes && interchangeablePods(w, exp.pods, exp.claims.length);
  let refused: SimResult | undefined;
  let unschedulable: SimResult | undefined;
  for (const pod of exp.pods) {
    if (refused) {
      seed.n++;
      results.push(repeatedRefusal(refused, pod));
      continue;
    }
    const at = results.length;
    const admission = simulateOne(
      state,
      pod,
      unschedulable ? { ...opts, skipScheduling: true } : opts,
      results,
      warnings,
      seed,
      exp.creator,
    );
    const r = results[at]!;
    if (!same) continue;
    // Only refusals that do not depend on the pod's name (not an AlreadyExists of a generated name).
    if (!admission.allowed) {
      if (r.admission.layer === 'quota' || r.admission.layer === 'limitrange') refused = r;
      continue;
    }
    if (opts.skipScheduling || opts.dryRun) continue;
    if (unschedulable) {
      r.scheduling = { ...unschedulable.scheduling! };
      if (unschedulable.detail.schedule) r.detail.schedule = unschedulable.detail.schedule;
    } else if (
      r.scheduling &&
      !r.scheduling.scheduled &&
      !r.scheduling.nominatedNode &&
      !r.scheduling.victims?.length &&
      !r.scheduling.gated &&
      !r.scheduling.preEnqueue &&
      r.scheduling.unknown === undefined
    ) {
      unschedulable = r;
    }
  }
}

/** The JSON form of docs/contract.md (`detail` left out). */
export function simResultsToJson(out: { results: SimResult[]; warnings: string[] }): {
  results: unknown[];
  warnings: string[];
} {
  return {
    results: out.results.map((r) => ({
      kind: r.kind,
      namespace: r.namespace,
      name: r.name,
      admission: r.admission,
      object: r.object,
      quotaUsage: r.quotaUsage,
      scheduling: r.scheduling,
    })),
    warnings: out.warnings,
  };
}
