/** "what if the LimitRange max cpu is 2". */
import type { LimitRange, LimitRangeItem, Pod, Workload } from '../../k8s/objects.ts';
import type { KObject, Snapshot } from '../../k8s/snapshot.ts';
import { Quantity, byteCompare } from '../../quantity.ts';
import { clone, defaultLimitRange } from '../defaults.ts';
import { refOf } from '../fixes.ts';
import { isTerminal, podQOS, podRequests } from '../pod-resources.ts';
import { nodeInfoIndex } from '../scheduler/node-info.ts';
import type { SimOptions } from '../simulate.ts';
import { expandWorkload } from '../workloads.ts';
import { countFits, type FitCount } from '../headroom.ts';
import { admitObject } from '../admit.ts';
import { renderCommand } from '../changes/command.ts';
import type { Change } from '../changes/types.ts';
import type { VerifiedFix } from '../fixes/types.ts';
import { type ChangeAnswer, whatIfChange } from './change.ts';
import { workloadPods } from './shared.ts';

export type LimitRangeField = 'min' | 'max' | 'default' | 'defaultRequest' | 'maxLimitRequestRatio';
export type LimitRangeType = 'Container' | 'Pod' | 'PersistentVolumeClaim';

export interface PodShapeFit extends FitCount {
  /** The first container's requests and limits after API defaulting and LimitRange defaults. */
  requests: Record<string, string>;
  limits: Record<string, string>;
}

/** A new pod (and claim) of a workload against LimitRanger. */
export interface LimitVerdict {
  limitRange: 'pass' | 'fail';
  /** LimitRanger's message when it fails. */
  message?: string;
  /** Passed the LimitRange but refused by this quota (not the LimitRange's doing). */
  quota?: string;
}

export interface LimitRangeWorkloadCheck {
  ref: string;
  kind: string;
  name: string;
  /** Pods it runs now: untouched, LimitRanger only sees pods being created. */
  pods: number;
  perPodBefore: Record<string, string>;
  perPodAfter: Record<string, string>;
  before: LimitVerdict;
  after: LimitVerdict;
  /** The QoS class of its next pod before → after (a default that gives a BestEffort pod requests moves it). */
  qosBefore: string | null;
  qosAfter: string | null;
}

export interface LimitRangeChangeAnswer {
  namespace: string;
  limitRange: string;
  /** No LimitRange (of that name) existed: this one would be created. */
  created: boolean;
  type: LimitRangeType;
  field: LimitRangeField;
  resource: string;
  from: string | null;
  to: string;
  /** Values SetDefaults_LimitRangeItem fills in the stored item (`default.cpu=4`), absent before. */
  filled: string[];
  /** Why the API server would refuse the changed LimitRange (ValidateLimitRange); empty when it is valid. */
  invalid: string[];
  defaultPodBefore: PodShapeFit;
  defaultPodAfter: PodShapeFit;
  workloads: LimitRangeWorkloadCheck[];
  /** Live pods in the namespace: LimitRanger validates only new pods, these keep running. */
  existingPods: number;
  /** The change as its one command (engine/changes renderCommand of `change`). */
  patch: string;
  /** The change: a JSON patch of the LimitRange, or `kubectl apply` of a new one. */
  change: Change;
  /** The change converged: controllers short of pods (refused before) retry against the new LimitRange. */
  converged: ChangeAnswer;
  /** What else the edit does: workloads whose new pods stop being BestEffort (and the quota that counts them). */
  sideEffects: string[];
}

function quantityStrings(list: Record<string, unknown> | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(list ?? {}).sort(byteCompare)) out[k] = Quantity.parse(list![k]).toString();
  return out;
}

/** ValidateLimitRange's checks of one item (pkg/apis/core/validation), messages as the API server words them. */
export function limitRangeItemProblems(item: LimitRangeItem, index: number): string[] {
  const out: string[] = [];
  const at = (f: string, k?: string) => `spec.limits[${index}].${f}${k ? `[${k}]` : ''}`;
  if (item.type === 'Pod') {
    if (Object.keys(item.default ?? {}).length)
      out.push(`${at('default')}: may not be specified when \`type\` is 'Pod'`);
    if (Object.keys(item.defaultRequest ?? {}).length)
      out.push(`${at('defaultRequest')}: may not be specified when \`type\` is 'Pod'`);
  }
  if (item.type === 'PersistentVolumeClaim' && item.min?.storage === undefined && item.max?.storage === undefined) {
    out.push(`${at('limits')}: either minimum or maximum storage value is required, but neither was provided`);
  }
  const q = (l: Record<string, unknown> | null | undefined, k: string) =>
    l && l[k] !== undefined ? Quantity.parse(l[k]) : undefined;
  const keys = new Set<string>();
  for (const f of ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio'] as const)
    for (const k of Object.keys(item[f] ?? {})) keys.add(k);
  for (const k of [...keys].sort(byteCompare)) {
    const min = q(item.min, k);
    const max = q(item.max, k);
    const def = item.type === 'Pod' ? undefined : q(item.default, k);
    const defReq = item.type === 'Pod' ? undefined : q(item.defaultRequest, k);
    const ratio = q(item.maxLimitRequestRatio, k);
    if (min && max && min.cmp(max) > 0) out.push(`${at('min', k)}: min value ${min} is greater than max value ${max}`);
    if (defReq && min && min.cmp(defReq) > 0)
      out.push(`${at('defaultRequest', k)}: min value ${min} is greater than default request value ${defReq}`);
    if (defReq && max && defReq.cmp(max) > 0)
      out.push(`${at('defaultRequest', k)}: default request value ${defReq} is greater than max value ${max}`);
    if (defReq && def && defReq.cmp(def) > 0)
      out.push(
        `${at('defaultRequest', k)}: default request value ${defReq} is greater than default limit value ${def}`,
      );
    if (def && min && min.cmp(def) > 0)
      out.push(`${at('default', k)}: min value ${min} is greater than default value ${def}`);
    if (def && max && def.cmp(max) > 0)
      out.push(`${at('default', k)}: default value ${def} is greater than max value ${max}`);
    if (ratio && ratio.cmp(Quantity.fromInt(1)) < 0)
      out.push(`${at('maxLimitRequestRatio', k)}: ratio ${ratio} is less than 1`);
    if (ratio && min && max && min.sign() > 0) {
      const limit = Number(max.milliValue()) / Number(min.milliValue());
      if (Number(ratio.milliValue()) / 1000 > limit)
        out.push(`${at('maxLimitRequestRatio', k)}: ratio ${ratio} is greater than max/min = ${limit.toFixed(6)}`);
    }
  }
  return out;
}

function limitVerdict(adm: ReturnType<typeof admitObject>): LimitVerdict {
  if (adm.layer === 'limitrange')
    return { limitRange: 'fail', message: (adm.message ?? '').replace(/^[a-z]+ "[^"]*" is forbidden: /, '') };
  if (adm.layer === 'quota') {
    const f = adm.quota?.failure;
    return { limitRange: 'pass', quota: f && 'quota' in f ? f.quota : 'quota' };
  }
  return { limitRange: 'pass' };
}

function defaultPodShape(state: Snapshot, namespace: string, opts: SimOptions): PodShapeFit {
  const probe = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'quota-doctor-probe', namespace },
    spec: { containers: [{ name: 'app', image: 'app' }] },
  } as Pod;
  const fit = countFits(state, probe, opts);
  const admitted = admitObject(probe, state, { ...opts, dryRun: true }).object;
  const c = admitted.spec.containers[0];
  return { ...fit, requests: quantityStrings(c?.resources?.requests), limits: quantityStrings(c?.resources?.limits) };
}

/** A workload's next pod (and its claims) admitted dry-run: LimitRanger's verdict and the pod's requests. */
function checkWorkload(
  state: Snapshot,
  w: Workload & KObject,
  opts: SimOptions,
): { verdict: LimitVerdict; perPod: Record<string, string>; qos: string | null } {
  const nodes = state.list('Node').slice(0, 1);
  const exp = expandWorkload(w as Workload, { replicas: 1, nodes });
  for (const claim of exp.claims) {
    if (state.get('PersistentVolumeClaim', claim.metadata.namespace, claim.metadata.name ?? '')) continue;
    const a = admitObject(claim, state, { ...opts, dryRun: true });
    if (a.layer === 'limitrange') return { verdict: limitVerdict(a), perPod: {}, qos: null };
  }
  const pod = exp.pods[0];
  if (!pod) return { verdict: { limitRange: 'pass' }, perPod: {}, qos: null };
  const a = admitObject(pod, state, { ...opts, dryRun: true });
  const req = podRequests(a.object);
  const perPod: Record<string, string> = {};
  for (const k of ['cpu', 'memory']) {
    const v = req.get(k);
    if (v) perPod[k] = v.toString();
  }
  return { verdict: limitVerdict(a), perPod, qos: a.layer === 'limitrange' ? null : podQOS(a.object) };
}

/** The BestEffort / NotBestEffort scope of a quota (spec.scopes or scopeSelector), or null. */
function bestEffortScope(q: KObject): 'BestEffort' | 'NotBestEffort' | null {
  const spec = (q.spec ?? {}) as {
    scopes?: string[] | null;
    scopeSelector?: { matchExpressions?: { scopeName?: string; operator?: string }[] | null } | null;
  };
  const names = [
    ...(spec.scopes ?? []),
    ...(spec.scopeSelector?.matchExpressions ?? [])
      .filter((e) => e.operator === undefined || e.operator === 'Exists')
      .map((e) => e.scopeName ?? ''),
  ];
  if (names.includes('BestEffort')) return 'BestEffort';
  if (names.includes('NotBestEffort')) return 'NotBestEffort';
  return null;
}

/**
 * A default that gives a BestEffort pod requests or limits makes it Burstable (or Guaranteed): a quota
 * scoped BestEffort stops counting its new pods and one scoped NotBestEffort starts (the quota evaluator's
 * scope match, pkg/quota/v1/evaluator/core/pods.go podMatchesScopeFunc).
 */
function qosSideEffects(state: Snapshot, namespace: string, workloads: readonly LimitRangeWorkloadCheck[]): string[] {
  const scoped = state
    .list('ResourceQuota', namespace)
    .map((q) => ({ name: q.metadata.name ?? '', scope: bestEffortScope(q) }))
    .sort((a, b) => byteCompare(a.name, b.name));
  const from = scoped.filter((q) => q.scope === 'BestEffort').map((q) => q.name);
  const to = scoped.filter((q) => q.scope === 'NotBestEffort').map((q) => q.name);
  const out: string[] = [];
  for (const w of workloads) {
    if (w.qosBefore !== 'BestEffort' || !w.qosAfter || w.qosAfter === 'BestEffort') continue;
    const req = Object.entries(w.perPodAfter)
      .map(([k, v]) => `${v} ${k}`)
      .join(' / ');
    const quotas =
      from.length || to.length
        ? `: counted by ${to.length ? `${to.join(', ')} (NotBestEffort)` : 'no NotBestEffort quota'} instead of ${from.length ? `${from.join(', ')} (BestEffort)` : 'no BestEffort quota'}`
        : '';
    out.push(
      `new pods of ${w.ref} stop being BestEffort (now ${w.qosAfter}${req ? `, ${req} requested` : ''})${quotas}; its ${w.pods} running pod${w.pods === 1 ? '' : 's'} stay${w.pods === 1 ? 's' : ''} BestEffort until re-created`,
    );
  }
  return out;
}

function jsonPointer(s: string): string {
  return s.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * A LimitRange value changed (or a LimitRange added): stored as the API server would store it
 * (SetDefaults_LimitRangeItem fills default from max, defaultRequest from default then min), checked as
 * ValidateLimitRange would, then per workload of the namespace whether its next pod still passes
 * LimitRanger, and the default pod's shape and fit count before → after.
 * Without a name: the LimitRange that sets this value, else one with an item of the type, else the first,
 * else a new one named `limits`. A named LimitRange that is not there: null.
 */
export function whatIfLimitRange(
  state: Snapshot,
  namespace: string,
  lrName: string | undefined,
  field: LimitRangeField,
  type: LimitRangeType | undefined,
  resource: string,
  value: string,
  opts: SimOptions = {},
): LimitRangeChangeAnswer | null {
  const itemType: LimitRangeType = type ?? (resource === 'storage' ? 'PersistentVolumeClaim' : 'Container');
  const all = state
    .list('LimitRange', namespace)
    .sort((a, b) => byteCompare(a.metadata.name ?? '', b.metadata.name ?? ''));
  const existing = lrName
    ? all.find((l) => l.metadata.name === lrName)
    : (all.find((l) => l.spec.limits.some((i) => i.type === itemType && i[field]?.[resource] !== undefined)) ??
      all.find((l) => l.spec.limits.some((i) => i.type === itemType)) ??
      all[0]);
  if (lrName && !existing) return null;
  const name = existing?.metadata.name ?? 'limits';
  const v = Quantity.parse(value).toString();
  const changed = clone(
    existing ??
      ({ apiVersion: 'v1', kind: 'LimitRange', metadata: { name, namespace }, spec: { limits: [] } } as LimitRange &
        KObject),
  );
  let idx = changed.spec.limits.findIndex((i) => i.type === itemType);
  const itemExisted = idx >= 0;
  if (idx < 0) idx = changed.spec.limits.push({ type: itemType }) - 1;
  const item = changed.spec.limits[idx]!;
  const mapExisted = !!item[field];
  const prev = item[field]?.[resource];
  item[field] = { ...(item[field] ?? {}), [resource]: v };
  const stored = defaultLimitRange(changed) as LimitRange & KObject;
  const storedItem = stored.spec.limits[idx]!;
  const filled: string[] = [];
  for (const f of ['default', 'defaultRequest'] as const) {
    for (const [k, q] of Object.entries(storedItem[f] ?? {}))
      if (item[f]?.[k] === undefined) filled.push(`${f}.${k}=${Quantity.parse(q).toString()}`);
  }
  const invalid = stored.spec.limits.flatMap((it, i) => limitRangeItemProblems(it, i));

  nodeInfoIndex(state);
  const fork = state.fork();
  fork.put(stored);
  const workloads: LimitRangeWorkloadCheck[] = [];
  for (const kind of ['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job', 'CronJob'] as const) {
    for (const wo of state
      .list(kind, namespace)
      .sort((a, b) => byteCompare(a.metadata.name ?? '', b.metadata.name ?? ''))) {
      // Pods of a Deployment's ReplicaSets, a CronJob's Jobs: counted under the owner.
      if (
        (kind === 'ReplicaSet' || kind === 'Job') &&
        wo.metadata.ownerReferences?.some((o) => o.kind === 'Deployment' || o.kind === 'CronJob')
      )
        continue;
      const wname = wo.metadata.name ?? '';
      const before = checkWorkload(state, wo, opts);
      const after = checkWorkload(fork, wo, opts);
      const pods = workloadPods(state, { kind, name: wname, namespace, object: wo }).length;
      workloads.push({
        ref: refOf(kind, wname),
        kind,
        name: wname,
        pods,
        perPodBefore: before.perPod,
        perPodAfter: after.perPod,
        before: before.verdict,
        after: after.verdict,
        qosBefore: before.qos,
        qosAfter: after.qos,
      });
    }
  }
  let existingPods = 0;
  for (const p of state.iterate('Pod', namespace)) if (!isTerminal(p)) existingPods++;

  let change: Change;
  if (!existing) {
    change = {
      kind: 'apply',
      objects: [
        {
          apiVersion: 'v1',
          kind: 'LimitRange',
          metadata: { name, namespace },
          spec: { limits: [{ type: itemType, [field]: { [resource]: v } }] },
        },
      ],
    };
  } else {
    const op = !itemExisted
      ? { op: 'add', path: '/spec/limits/-', value: { type: itemType, [field]: { [resource]: v } } }
      : !mapExisted
        ? { op: 'add', path: `/spec/limits/${idx}/${field}`, value: { [resource]: v } }
        : { op: 'add', path: `/spec/limits/${idx}/${field}/${jsonPointer(resource)}`, value: v };
    change = { kind: 'patch', target: { kind: 'LimitRange', namespace, name }, type: 'json', body: [op] };
  }
  const patch = renderCommand(change);
  // The edit converged: running pods are not re-admitted (admission acts on create and update only); the
  // controllers of the namespace that are short of pods retry, and their new pods meet the new LimitRange.
  const converged: ChangeAnswer = invalid.length
    ? {
        ...whatIfChange(state, change, { maxSteps: 0 }),
        refused: `LimitRange "${name}" is invalid: ${invalid.join(', ')}`,
      }
    : whatIfChange(state, change, { ...opts, resync: { namespaces: [namespace] } });
  return {
    namespace,
    limitRange: name,
    created: !existing,
    type: itemType,
    field,
    resource,
    from: prev !== undefined ? Quantity.parse(prev).toString() : null,
    to: v,
    filled,
    invalid,
    defaultPodBefore: defaultPodShape(state, namespace, opts),
    defaultPodAfter: defaultPodShape(fork, namespace, opts),
    workloads,
    existingPods,
    patch,
    change,
    converged,
    sideEffects: qosSideEffects(state, namespace, workloads),
  };
}

/** The LimitRange edit as a fix in diagnose's shape: verified when no workload's next pod is newly refused. */
export function limitRangeFixes(a: LimitRangeChangeAnswer): VerifiedFix[] {
  if (a.invalid.length) return [];
  const broken = a.workloads.filter((w) => w.before.limitRange === 'pass' && w.after.limitRange === 'fail');
  const stalled = a.converged.workloads.filter((w) => !w.complete);
  const verified = broken.length === 0 && !(a.defaultPodAfter.message && !a.defaultPodBefore.message);
  return [
    {
      who: 'platform',
      summary: `${a.created ? 'create' : 'set'} LimitRange ${a.limitRange} ${a.type} ${a.field}.${a.resource} ${a.created ? '=' : 'to'} ${a.to}`,
      change: a.patch,
      verified,
      outcome: verified
        ? `${a.defaultPodAfter.fits} default pods fit; no workload's next pod newly refused${stalled.length ? `; still short: ${stalled.map((w) => `${w.namespace}/${w.name}`).join(', ')}` : ''}`
        : broken.length
          ? `new pods of ${broken.map((w) => w.ref).join(', ')} would be refused: ${broken[0]!.after.message ?? ''}`
          : `a pod with no resources would be refused: ${a.defaultPodAfter.message ?? ''}`,
      sideEffects: a.sideEffects,
    },
  ];
}
