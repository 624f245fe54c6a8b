/**
 * One object through the API server's resource path, in the real order (docs/kubernetes-semantics.md §2.1):
 * API defaulting → the mutating half of the v1.35 default admission chain → name generation → validation
 * (422) → the validating half → ResourceQuota (last). The first failure wins.
 *
 * The chain keeps the order of pkg/kubeapiserver/options/plugins.go AllOrderedPlugins for the default-on
 * plugins that touch a pod's resources and placement (each one file of engine/admission/):
 *   mutating:   NamespaceLifecycle → LimitRanger (defaults) → Priority → DefaultTolerationSeconds →
 *               DefaultStorageClass → RuntimeClass (overhead, scheduling)
 *   validating: LimitRanger → PersistentVolumeClaimResize → RuntimeClass (overhead) → ResourceQuota
 */
import type { PersistentVolumeClaim, Pod, Workload } from '../k8s/objects.ts';
import { CLUSTER_SCOPED_KINDS, isKind, resourceOf } from '../k8s/objects.ts';
import type { KObject, Snapshot } from '../k8s/snapshot.ts';
import type { ResourceList } from '../quantity.ts';
import {
  applyLimitRangeDefaults,
  validatePodLimits,
  validatePVCLimits,
  type LimitViolation,
} from './admission/limitranger.ts';
import { checkQuota, type LimitedResource, type QuotaDecision } from './admission/resourcequota.ts';
import { invalidMessage, validatePodResources, type FieldError } from './admission/validation.ts';
import type { Operation } from './admission/evaluators/types.ts';
import { admitNamespaceLifecycle } from './admission/namespacelifecycle.ts';
import { admitPodPriority } from './admission/priority.ts';
import { applyDefaultTolerationSeconds } from './admission/defaulttolerationseconds.ts';
import { admitDefaultStorageClass } from './admission/defaultstorageclass.ts';
import { validatePVCResize } from './admission/persistentvolumeclaimresize.ts';
import { admitRuntimeClass, validateRuntimeClass } from './admission/runtimeclass.ts';
import { validatePodCreate, validatePVCUpdate } from './admission/validation.ts';
import { clone, defaultLimitRange, defaultPod } from './defaults.ts';
import { forbidden, type DecisionLayer } from './status.ts';
import { versionAtLeast } from './version.ts';
import { chargeQuotas, reconciledQuota } from './quota-ledger.ts';

export interface AdmitOptions {
  /** CREATE (the default) or UPDATE; an UPDATE needs `oldObject`, the object as stored before. */
  operation?: Operation;
  subresource?: string;
  oldObject?: KObject;
  dryRun?: boolean;
  /** Epoch milliseconds; the engine has no clock. */
  now?: number;
  featureGates?: Record<string, boolean>;
  limitedResources?: LimitedResource[];
  /** Kubernetes version whose wording to use (default 1.35). */
  k8sVersion?: string;
  /** Seed for generated names (deterministic). */
  nameSeed?: number;
}

/** `O`: the admitted object's type (admission defaults and mutates an object, it never changes its kind). */
export interface AdmissionResult<O extends KObject = KObject> {
  allowed: boolean;
  layer: DecisionLayer | null;
  /** Status.message byte for byte, or null when allowed. */
  message: string | null;
  httpStatus?: number;
  /** The object as the API server would store it (after defaulting and mutation). */
  object: O;
  /** Per matching quota, what the object adds (empty when rejected). */
  quotaUsage: Map<string, ResourceList>;
  /** Per changed quota, the new status.used. */
  quotaUsedAfter: Map<string, ResourceList>;
  limitViolations?: LimitViolation[];
  fieldErrors?: FieldError[];
  quota?: QuotaDecision;
  warnings: string[];
}

const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** names.SimpleNameGenerator's shape (5 chars from the alphabet), deterministic from a seed. */
export function generateNameSuffix(seed: string): string {
  let h = 2166136261;
  for (let i = 0; i < seed.length; i++) {
    h ^= seed.charCodeAt(i);
    h = Math.imul(h, 16777619) >>> 0;
  }
  let out = '';
  for (let i = 0; i < 5; i++) {
    out += NAME_ALPHABET[h % NAME_ALPHABET.length];
    h = Math.imul(h ^ (h >>> 13), 2654435761) >>> 0;
  }
  return out;
}

function featureOn(opts: AdmitOptions, gate: string, dflt: boolean): boolean {
  return opts.featureGates?.[gate] ?? dflt;
}

function sortedByName<T extends KObject>(list: T[]): T[] {
  return [...list].sort((a, b) =>
    (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : (a.metadata.name ?? '') > (b.metadata.name ?? '') ? 1 : 0,
  );
}

function objectName(obj: KObject): string {
  return obj.metadata.name ?? (typeof obj.metadata.generateName === 'string' ? obj.metadata.generateName : '');
}

function refuse(
  obj: KObject,
  layer: DecisionLayer,
  message: string,
  httpStatus: number,
  extra: Partial<AdmissionResult> = {},
): AdmissionResult {
  return {
    allowed: false,
    layer,
    message,
    httpStatus,
    object: obj,
    quotaUsage: new Map(),
    quotaUsedAfter: new Map(),
    warnings: [],
    ...extra,
  };
}

/** Admits one namespaced object against the snapshot. Does not modify the snapshot (see `commitAdmission`). */
export function admitObject(input: Pod, snapshot: Snapshot, opts?: AdmitOptions): AdmissionResult<Pod>;
export function admitObject(input: Workload, snapshot: Snapshot, opts?: AdmitOptions): AdmissionResult<Workload>;
export function admitObject(input: KObject, snapshot: Snapshot, opts?: AdmitOptions): AdmissionResult;
export function admitObject(input: KObject, snapshot: Snapshot, opts: AdmitOptions = {}): AdmissionResult {
  const operation = opts.operation ?? 'CREATE';
  const podLevelResources = featureOn(opts, 'PodLevelResources', true);
  const version = opts.k8sVersion ?? '1.35';
  const warnings: string[] = [];
  if (CLUSTER_SCOPED_KINDS.has(input.kind ?? '')) {
    // Cluster-scoped objects (Namespace, PriorityClass, StorageClass, Node …) are never quota-checked.
    const { namespace: _ignored, ...metadata } = input.metadata;
    void _ignored;
    return {
      allowed: true,
      layer: null,
      message: null,
      object: clone({ ...input, metadata }),
      quotaUsage: new Map(),
      quotaUsedAfter: new Map(),
      warnings,
    };
  }
  const ns = input.metadata.namespace ?? 'default';
  let obj: KObject = clone({ ...input, metadata: { ...input.metadata, namespace: ns } });
  // The strategies' PrepareForUpdate keep the stored status on an update of the object (not of its status).
  if (operation === 'UPDATE' && opts.oldObject && opts.subresource !== 'status' && 'status' in opts.oldObject)
    obj = { ...obj, status: clone(opts.oldObject.status) };
  const { resource, group } = resourceOf(obj.kind ?? '', obj.apiVersion);
  const limitRanges = sortedByName(snapshot.list('LimitRange', ns));
  const quotas = sortedByName(snapshot.list('ResourceQuota', ns));
  let limitViolations: LimitViolation[] | undefined;
  const subresource = opts.subresource ?? '';
  const old = opts.oldObject;
  const deny = (o: KObject, message: string, extra: Partial<AdmissionResult> = {}) =>
    refuse(o, 'api-validation', forbidden(resource, group, objectName(o), message), 403, { warnings, ...extra });

  // NamespaceLifecycle (mutating, first): a missing namespace is the live lookup's NotFound, as is.
  const lifecycle = admitNamespaceLifecycle(snapshot, ns, operation);
  if (lifecycle?.reason === 'not-found') return refuse(obj, 'api-validation', lifecycle.message, 404, { warnings });
  if (lifecycle) return deny(obj, lifecycle.message);

  if (isKind(obj, 'Pod')) {
    let pod = defaultPod(obj, { podLevelResources });
    const oldPod = old && isKind(old, 'Pod') ? old : undefined;
    const limitRangerApplies = operation === 'CREATE' || subresource === 'resize';
    // LimitRanger (mutating): defaults on CREATE only.
    if (operation === 'CREATE') pod = applyLimitRangeDefaults(pod, limitRanges);
    if (subresource === '') {
      // Priority (mutating): resolves the class; refuses a priority or policy the pod sets itself.
      const prio = admitPodPriority(pod, snapshot, operation, oldPod);
      if (prio.error !== undefined) return deny(pod, prio.error);
      pod = prio.pod;
      // DefaultTolerationSeconds (mutating): not-ready / unreachable NoExecute for 300 s.
      if (operation === 'CREATE' || operation === 'UPDATE') pod = applyDefaultTolerationSeconds(pod);
      // RuntimeClass (mutating, CREATE): a missing class refuses; overhead and scheduling copied.
      if (operation === 'CREATE') {
        const rc = admitRuntimeClass(pod, snapshot);
        if (rc.error !== undefined) return deny(pod, rc.error);
        pod = rc.pod;
      }
    }
    // Name generation happens in the store's create, after mutating admission.
    if (!pod.metadata.name && pod.metadata.generateName) {
      pod = {
        ...pod,
        metadata: {
          ...pod.metadata,
          name:
            pod.metadata.generateName + generateNameSuffix(`${ns}/${pod.metadata.generateName}/${opts.nameSeed ?? 0}`),
        },
      };
    }
    obj = pod;
    const fieldErrors =
      operation === 'CREATE'
        ? validatePodCreate(pod, { podLevelResources })
        : validatePodResources(pod, { podLevelResources });
    if (fieldErrors.length > 0) {
      return refuse(obj, 'api-validation', invalidMessage('Pod', objectName(obj), fieldErrors), 422, {
        fieldErrors,
        warnings,
      });
    }
    // LimitRanger (validating).
    if (limitRangerApplies) {
      const lr = validatePodLimits(pod, limitRanges, { podLevelResources });
      limitViolations = lr.violations;
      if (lr.message)
        return refuse(obj, 'limitrange', forbidden(resource, group, objectName(obj), lr.message), 403, {
          limitViolations,
          warnings,
        });
    }
    // RuntimeClass (validating, CREATE): the pod's overhead is its class's.
    if (operation === 'CREATE' && subresource === '') {
      const rcError = validateRuntimeClass(pod, snapshot);
      if (rcError !== null) return deny(obj, rcError, { limitViolations });
    }
  } else if (isKind(obj, 'PersistentVolumeClaim')) {
    let pvc: PersistentVolumeClaim = obj;
    const oldPvc = old && isKind(old, 'PersistentVolumeClaim') ? old : undefined;
    // DefaultStorageClass (mutating, CREATE).
    if (operation === 'CREATE') pvc = admitDefaultStorageClass(pvc, snapshot);
    obj = pvc;
    if (operation === 'UPDATE' && oldPvc && subresource === '') {
      const fieldErrors = validatePVCUpdate(pvc, oldPvc);
      if (fieldErrors.length > 0)
        return refuse(
          obj,
          'api-validation',
          invalidMessage('PersistentVolumeClaim', objectName(obj), fieldErrors),
          422,
          {
            fieldErrors,
            warnings,
          },
        );
    }
    // LimitRanger (validating).
    const lr = validatePVCLimits(pvc, limitRanges);
    limitViolations = lr.violations;
    if (lr.message)
      return refuse(obj, 'limitrange', forbidden(resource, group, objectName(obj), lr.message), 403, {
        limitViolations,
        warnings,
      });
    // PersistentVolumeClaimResize (validating, UPDATE): growing needs a bound claim and an expandable class.
    if (operation === 'UPDATE' && oldPvc && subresource === '') {
      const resizeError = validatePVCResize(pvc, oldPvc, snapshot);
      if (resizeError !== null) return deny(obj, resizeError, { limitViolations });
    }
  } else if (isKind(obj, 'LimitRange') && Array.isArray(obj.spec?.limits)) {
    // SetDefaults_LimitRangeItem: the stored form is what LimitRanger later reads.
    obj = defaultLimitRange(obj);
  } else if (!obj.metadata.name && typeof obj.metadata.generateName === 'string') {
    obj = {
      ...obj,
      metadata: {
        ...obj.metadata,
        name:
          obj.metadata.generateName + generateNameSuffix(`${ns}/${obj.metadata.generateName}/${opts.nameSeed ?? 0}`),
      },
    };
  }

  const decision = checkQuota(
    { object: obj, oldObject: opts.oldObject, operation, subresource: opts.subresource, quotas },
    {
      now: opts.now,
      podLevelResources,
      dryRun: opts.dryRun,
      limitedResources: opts.limitedResources,
      legacyMustSpecify: !versionAtLeast(version, '1.24'),
    },
  );
  if (!decision.allowed) {
    const message = decision.forbidden
      ? forbidden(resource, group, objectName(obj), decision.message!)
      : decision.message!;
    return refuse(obj, 'quota', message, decision.httpStatus ?? 403, { quota: decision, limitViolations, warnings });
  }
  return {
    allowed: true,
    layer: null,
    message: null,
    object: obj,
    quotaUsage: decision.deltas,
    quotaUsedAfter: decision.usedAfter,
    quota: decision,
    limitViolations,
    warnings,
  };
}

/** Stores an admitted object and the quotas' new usage in the snapshot. */
export function commitAdmission(snapshot: Snapshot, result: AdmissionResult): void {
  if (!result.allowed) return;
  chargeQuotas(snapshot, result.object.metadata.namespace, result.quotaUsedAfter);
  let obj = result.object;
  // A quota created here has no controller to fill its status: hard from spec, used recomputed (§4.1).
  if (isKind(obj, 'ResourceQuota')) obj = reconciledQuota(snapshot, obj) ?? obj;
  snapshot.put(obj);
}
