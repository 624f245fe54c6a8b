/**
 * A change applied to a copy of the state as the API server would store it: the same refusals (a JSON
 * patch adding under a missing list, a pod's immutable spec, requests above limits), the same stored
 * object. What the controllers then do about it is converge.ts's business: this only writes the object
 * (and, for `drain`, evicts; for `recreatePod`/`apply`, creates through admission).
 */
import { CLUSTER_SCOPED_KINDS, isKind, resourceOf, type Node, type Pod, type PodTemplate } from '../../k8s/objects.ts';
import type { KObject, Snapshot } from '../../k8s/snapshot.ts';
import { Quantity } from '../../quantity.ts';
import { admitObject, commitAdmission, type AdmitOptions } from '../admit.ts';
import { invalidMessage, validatePodResources } from '../admission/validation.ts';
import { clone, defaultLimitRange } from '../defaults.ts';
import { releasePod } from '../release.ts';
import { withQuotaHard } from '../quota-ledger.ts';
import { jsonPatch, mergePatch, strategicMerge } from './patch.ts';
import type { Change, ObjectRef } from './types.ts';

export interface Applied {
  state: Snapshot;
  /** Pods the change itself deleted ("ns/name"): evicted by a drain, deleted by `delete pod` or `replace --force`. */
  deleted: string[];
  /** Objects the change wrote ("Kind ns/name"), for the controllers to look at first. */
  touched: ObjectRef[];
}

export type ApplyResult = Applied | { error: string };

const QUANTITY_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

/** `deployments.apps "api"`: how the API server names an object in its messages. */
export function qualifiedName(kind: string, name: string, apiVersion?: string): string {
  const { resource, group } = resourceOf(kind, apiVersion);
  return `${resource}${group ? `.${group}` : ''} "${name}"`;
}

/** `Deployment.apps "api"`: the kind as validation errors name it. */
function kindName(kind: string, name: string, apiVersion?: string): string {
  const { group } = resourceOf(kind, apiVersion);
  return `${kind}${group ? `.${group}` : ''} "${name}"`;
}

function notFound(ref: ObjectRef): string {
  return `${qualifiedName(ref.kind, ref.name)} not found`;
}

function getRef(state: Snapshot, ref: ObjectRef): KObject | undefined {
  return state.get(ref.kind, CLUSTER_SCOPED_KINDS.has(ref.kind) ? undefined : (ref.namespace ?? 'default'), ref.name);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The pod template of a workload object, if it has one. */
function templateOf(o: KObject): PodTemplate | undefined {
  const spec = o.spec;
  if (!isRecord(spec)) return undefined;
  if (o.kind === 'CronJob') {
    const jt = spec.jobTemplate;
    const js = isRecord(jt) ? jt.spec : undefined;
    return isRecord(js) && isRecord(js.template) ? (js.template as PodTemplate) : undefined;
  }
  return isRecord(spec.template) ? (spec.template as PodTemplate) : undefined;
}

function templatePath(kind: string): string {
  return kind === 'CronJob' ? 'spec.jobTemplate.spec.template.spec' : 'spec.template.spec';
}

const POD_IMMUTABLE =
  'spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

/** ValidatePodUpdate's rule: only images, activeDeadlineSeconds, added tolerations, a grace period may change. */
function podUpdateError(before: Pod, after: Pod): string | null {
  const strip = (p: Pod) => {
    const s = clone(p.spec) as Record<string, unknown> & Pod['spec'];
    for (const c of [...s.containers, ...(s.initContainers ?? [])]) c.image = '';
    delete s.activeDeadlineSeconds;
    delete s.terminationGracePeriodSeconds;
    const tol = s.tolerations ?? [];
    delete s.tolerations;
    return { rest: JSON.stringify(s), tol };
  };
  const a = strip(before);
  const b = strip(after);
  const kept = a.tol.every((t) => b.tol.some((u) => JSON.stringify(u) === JSON.stringify(t)));
  if (a.rest !== b.rest || !kept) return `Pod "${after.metadata.name ?? ''}" is invalid: ${POD_IMMUTABLE}`;
  return null;
}

/** Validation of an updated object, the parts we model: a template's (or pod's) requests ≤ limits. */
function validateUpdate(before: KObject, after: KObject): string | null {
  const name = after.metadata.name ?? '';
  if (after.metadata.name !== before.metadata.name || after.kind !== before.kind)
    return `the name of the object (${after.metadata.name ?? ''}) does not match the name on the URL (${before.metadata.name ?? ''})`;
  if (isKind(after, 'Pod') && isKind(before, 'Pod')) {
    const immut = podUpdateError(before, after);
    if (immut) return immut;
    const errs = validatePodResources(after);
    return errs.length ? invalidMessage('Pod', name, errs) : null;
  }
  const tpl = templateOf(after);
  if (tpl?.spec) {
    const errs = validatePodResources({ metadata: {}, spec: tpl.spec } as Pod);
    if (errs.length) {
      const prefix = templatePath(after.kind ?? '');
      const fixed = errs.map((e) => ({ ...e, text: e.text.replace(/^spec\./, `${prefix}.`) }));
      return invalidMessage(kindName(after.kind ?? '', name, after.apiVersion).replace(/ "[^"]*"$/, ''), name, fixed);
    }
  }
  return null;
}

/** Stores an updated object (metadata.generation bumped when its spec changed, as the registry does). */
function update(state: Snapshot, before: KObject, after: KObject): string | null {
  const err = validateUpdate(before, after);
  if (err) return err;
  const out = clone(after);
  if (JSON.stringify(before.spec) !== JSON.stringify(after.spec) && !isKind(after, 'Pod')) {
    const g = typeof before.metadata.generation === 'number' ? before.metadata.generation : 1;
    out.metadata = { ...out.metadata, generation: g + 1 };
  }
  // Status is a subresource: a patch of the main resource does not change it.
  if (before.status !== undefined) out.status = before.status;
  else delete out.status;
  state.put(out);
  return null;
}

function parseList(list: Record<string, string> | undefined): Record<string, string> | string {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(list ?? {})) {
    const q = Quantity.tryParse(v);
    if (!q) return QUANTITY_ERROR;
    out[k] = q.toString();
  }
  return out;
}

/** kubectl set resources on one object's pod spec: per named container, the given requests/limits merged in. */
function setResourcesOn(
  spec: Pod['spec'],
  container: string,
  requests: Record<string, string>,
  limits: Record<string, string>,
): string | null {
  const targets = [...spec.containers, ...(spec.initContainers ?? [])].filter(
    (c) => container === '*' || c.name === container,
  );
  if (targets.length === 0) return `unable to find container named ${container}`;
  for (const c of targets) {
    const res = (c.resources ??= {});
    if (Object.keys(limits).length) res.limits = { ...(res.limits ?? {}), ...limits };
    if (Object.keys(requests).length) res.requests = { ...(res.requests ?? {}), ...requests };
  }
  return null;
}

function podKey(p: Pod): string {
  return `${p.metadata.namespace ?? 'default'}/${p.metadata.name ?? ''}`;
}

const UNSCHEDULABLE_TAINT = 'node.kubernetes.io/unschedulable';

/** spec.unschedulable and the taint the node lifecycle controller keeps in step with it (TaintNodesByCondition). */
function setUnschedulable(node: Node, on: boolean): Node {
  const spec = { ...(node.spec ?? {}) };
  const taints = (spec.taints ?? []).filter((t) => t.key !== UNSCHEDULABLE_TAINT);
  if (on) {
    spec.unschedulable = true;
    taints.push({ key: UNSCHEDULABLE_TAINT, effect: 'NoSchedule' });
  } else delete spec.unschedulable;
  if (taints.length) spec.taints = taints;
  else delete spec.taints;
  return { ...node, spec };
}

function isDaemonSetPod(p: Pod): boolean {
  return !!p.metadata.ownerReferences?.some((o) => o.kind === 'DaemonSet' && o.controller !== false);
}

function isMirrorPod(p: Pod): boolean {
  const a = p.metadata.annotations;
  return isRecord(a) && 'kubernetes.io/config.mirror' in a;
}

/** A pod as `kubectl replace --force` creates it again: server-set metadata and status gone. */
function freshPod(p: Pod): Pod {
  const meta: Pod['metadata'] = { ...p.metadata };
  for (const k of ['uid', 'resourceVersion', 'creationTimestamp', 'deletionTimestamp', 'managedFields', 'generation'])
    delete meta[k];
  const { status: _s, ...rest } = p;
  void _s;
  return { ...rest, metadata: meta };
}

export interface ApplyOptions extends AdmitOptions {
  /** Namespace for applied objects that name none. */
  namespace?: string;
}

/** Applies one change to a fork of `state`; the input is never modified. */
export function applyChange(input: Snapshot, c: Change, opts: ApplyOptions = {}): ApplyResult {
  const state = input.fork();
  const deleted: string[] = [];
  const touched: ObjectRef[] = [];
  const done = (): Applied => ({ state, deleted, touched });
  const fail = (error: string) => ({ error });
  switch (c.kind) {
    case 'scale': {
      const o = getRef(state, c.target);
      if (!o) return fail(notFound(c.target));
      if (!['Deployment', 'ReplicaSet', 'StatefulSet', 'ReplicationController'].includes(o.kind ?? ''))
        return fail(`no scaler has been implemented for ${resourceOf(o.kind ?? '').resource}`);
      if (c.replicas < 0)
        return fail(
          `${kindName(o.kind ?? '', c.target.name)} is invalid: spec.replicas: Invalid value: ${c.replicas}: must be greater than or equal to 0`,
        );
      const spec = isRecord(o.spec) ? o.spec : {};
      const err = update(state, o, { ...o, spec: { ...spec, replicas: c.replicas } });
      if (err) return fail(err);
      touched.push(c.target);
      return done();
    }
    case 'setResources': {
      const o = getRef(state, c.target);
      if (!o) return fail(notFound(c.target));
      const requests = parseList(c.requests);
      const limits = parseList(c.limits);
      if (typeof requests === 'string') return fail(requests);
      if (typeof limits === 'string') return fail(limits);
      const next = clone(o);
      const spec = isKind(next, 'Pod') ? next.spec : templateOf(next)?.spec;
      if (!spec) return fail(`error: ${resourceOf(o.kind ?? '').resource} "${c.target.name}" has no pod template`);
      const err = setResourcesOn(spec, c.container, requests, limits);
      if (err) return fail(err);
      const uerr = update(state, o, next);
      if (uerr) return fail(uerr);
      touched.push(c.target);
      return done();
    }
    case 'patch': {
      const o = getRef(state, c.target);
      if (!o) return fail(notFound(c.target));
      let next: unknown;
      if (c.type === 'json') {
        const r = jsonPatch(o, c.body);
        if ('error' in r) return fail(r.error);
        next = r.doc;
      } else {
        if (!isRecord(c.body))
          return fail('json: cannot unmarshal array into Go value of type map[string]interface {}');
        next = c.type === 'merge' ? mergePatch(o, c.body) : strategicMerge(o, c.body);
      }
      if (!isRecord(next) || !isRecord(next.metadata)) return fail("Object 'metadata' is missing");
      // The registry defaults what it stores (SetDefaults_LimitRangeItem: default from max, defaultRequest
      // from default then max).
      const stored = next as KObject;
      if (isKind(stored, 'LimitRange') && Array.isArray(stored.spec?.limits)) next = defaultLimitRange(stored);
      const err = update(state, o, next as KObject);
      if (err) return fail(err);
      touched.push(c.target);
      return done();
    }
    case 'apply': {
      for (const raw of c.objects) {
        const kind = raw.kind ?? '';
        const namespaced = !CLUSTER_SCOPED_KINDS.has(kind);
        const ns = namespaced ? (raw.metadata.namespace ?? opts.namespace ?? 'default') : undefined;
        const obj: KObject = { ...raw, metadata: { ...raw.metadata, ...(ns ? { namespace: ns } : {}) } };
        const ref: ObjectRef = { kind, name: obj.metadata.name ?? '', ...(ns ? { namespace: ns } : {}) };
        const existing = getRef(state, ref);
        if (existing) {
          const err = update(state, existing, strategicMerge(existing, obj) as KObject);
          if (err) return fail(err);
        } else {
          const a = admitObject(obj, state, { ...opts, operation: 'CREATE' });
          if (!a.allowed) return fail(a.message ?? 'refused');
          commitAdmission(state, a);
          ref.name = a.object.metadata.name ?? ref.name;
        }
        touched.push(ref);
      }
      return done();
    }
    case 'cordon':
    case 'uncordon':
    case 'drain': {
      const node = state.get('Node', undefined, c.node);
      if (!node) return fail(notFound({ kind: 'Node', name: c.node }));
      state.put(setUnschedulable(node, c.kind !== 'uncordon'));
      touched.push({ kind: 'Node', name: c.node });
      if (c.kind !== 'drain') return done();
      // kubectl drain (k8s.io/kubectl/pkg/drain): DaemonSet pods left (--ignore-daemonsets), mirror pods
      // left, a pod without a controller refused unless --force; the rest evicted.
      const pods = [...state.iterate('Pod')].filter((p) => p.spec.nodeName === c.node && !isMirrorPod(p));
      const bare = pods.filter((p) => !p.metadata.ownerReferences?.some((o) => o.controller));
      if (bare.length && !c.force)
        return fail(
          `cannot delete Pods that declare no controller (use --force to override): ${bare.map(podKey).join(', ')}`,
        );
      for (const p of pods.sort((a, b) => (podKey(a) < podKey(b) ? -1 : 1))) {
        if (isDaemonSetPod(p)) continue;
        releasePod(state, p, opts.now);
        deleted.push(podKey(p));
      }
      return done();
    }
    case 'quota': {
      const q = state.get('ResourceQuota', c.namespace, c.name);
      const ref: ObjectRef = { kind: 'ResourceQuota', namespace: c.namespace, name: c.name };
      if (!q) return fail(notFound(ref));
      const hard = parseList(c.hard);
      if (typeof hard === 'string') return fail(hard);
      // The quota controller (pkg/controller/resourcequota, syncResourceQuota) mirrors spec.hard into
      // status.hard and counts a newly tracked resource: the quota ledger does both.
      for (const [k, v] of Object.entries(hard))
        withQuotaHard(state, c.namespace, c.name, k, Quantity.parse(v), opts.now);
      touched.push(ref);
      return done();
    }
    case 'limitRange': {
      const ref: ObjectRef = { kind: 'LimitRange', namespace: c.namespace, name: c.name };
      const lr = state.get('LimitRange', c.namespace, c.name);
      if (!lr) return fail(notFound(ref));
      const next = defaultLimitRange({ ...lr, spec: { ...lr.spec, limits: clone(c.limits) as typeof lr.spec.limits } });
      state.put(next as KObject);
      touched.push(ref);
      return done();
    }
    case 'priorityClass': {
      const o = getRef(state, c.target);
      if (!o) return fail(notFound(c.target));
      if (o.kind === 'Pod') return fail(`Pod "${c.target.name}" is invalid: ${POD_IMMUTABLE}`);
      const next = clone(o);
      const tpl = templateOf(next);
      if (!tpl) return fail(`${qualifiedName(o.kind ?? '', c.target.name)} has no pod template`);
      tpl.spec.priorityClassName = c.className;
      const err = update(state, o, next);
      if (err) return fail(err);
      touched.push(c.target);
      return done();
    }
    case 'rolloutStrategy': {
      const o = state.get('Deployment', c.target.namespace ?? 'default', c.target.name);
      if (!o) return fail(notFound(c.target));
      const strategy =
        c.strategy === 'Recreate'
          ? { type: 'Recreate' }
          : {
              type: 'RollingUpdate',
              rollingUpdate: {
                ...(o.spec.strategy?.rollingUpdate ?? {}),
                ...(c.maxSurge !== undefined ? { maxSurge: c.maxSurge } : {}),
                ...(c.maxUnavailable !== undefined ? { maxUnavailable: c.maxUnavailable } : {}),
              },
            };
      const ru = strategy.rollingUpdate;
      if (ru && isZero(ru.maxSurge ?? '25%') && isZero(ru.maxUnavailable ?? '25%'))
        return fail(
          `Deployment.apps "${c.target.name}" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: ${JSON.stringify(ru.maxUnavailable ?? '25%')}: may not be 0 when \`maxSurge\` is 0`,
        );
      const err = update(state, o, { ...o, spec: { ...o.spec, strategy } });
      if (err) return fail(err);
      touched.push(c.target);
      return done();
    }
    case 'addNode': {
      const like = state.get('Node', undefined, c.like);
      if (!like) return fail(notFound({ kind: 'Node', name: c.like }));
      if (!Number.isInteger(c.count) || c.count < 1) return fail('count must be at least 1');
      for (let i = 1; i <= c.count; i++) {
        let name = `${c.like}-new-${i}`;
        for (let j = i; state.get('Node', undefined, name); j += c.count) name = `${c.like}-new-${j + c.count}`;
        const labels = { ...(like.metadata.labels ?? {}) } as Record<string, string>;
        if ('kubernetes.io/hostname' in labels) labels['kubernetes.io/hostname'] = name;
        const spec = setUnschedulable(like, false).spec ?? {};
        const { providerID: _p, podCIDR: _c, podCIDRs: _cs, ...rest } = spec as Record<string, unknown>;
        void _p;
        void _c;
        void _cs;
        state.put({
          ...like,
          metadata: { name, labels, ...(like.metadata.annotations ? { annotations: like.metadata.annotations } : {}) },
          spec: rest,
        } as Node);
        touched.push({ kind: 'Node', name });
      }
      return done();
    }
    case 'deletePod': {
      const p = state.get('Pod', c.namespace, c.name);
      if (!p) return fail(notFound({ kind: 'Pod', namespace: c.namespace, name: c.name }));
      releasePod(state, p, opts.now);
      deleted.push(podKey(p));
      return done();
    }
    case 'recreatePod': {
      const p = state.get('Pod', c.namespace, c.name);
      if (!p) return fail(notFound({ kind: 'Pod', namespace: c.namespace, name: c.name }));
      const requests = parseList(c.requests);
      const limits = parseList(c.limits);
      if (typeof requests === 'string') return fail(requests);
      if (typeof limits === 'string') return fail(limits);
      const next = freshPod(clone(p));
      if (c.priorityClassName !== undefined) {
        // The merge patch's nulls: the old class's integer and policy go, admission fills the new class's.
        const { priority: _p, preemptionPolicy: _pp, ...spec } = next.spec;
        void _p;
        void _pp;
        next.spec = { ...spec, priorityClassName: c.priorityClassName };
      }
      if (c.container !== undefined) {
        const err = setResourcesOn(next.spec, c.container, requests, limits);
        if (err) return fail(err);
      } else if (c.priorityClassName === undefined) return fail('recreatePod: nothing to change');
      releasePod(state, p, opts.now);
      deleted.push(podKey(p));
      const a = admitObject(next, state, { ...opts, operation: 'CREATE' });
      if (!a.allowed) return fail(a.message ?? 'refused');
      commitAdmission(state, a);
      touched.push({ kind: 'Pod', namespace: c.namespace, name: c.name });
      return done();
    }
  }
}

function isZero(v: unknown): boolean {
  return v === 0 || v === '0' || v === '0%';
}
