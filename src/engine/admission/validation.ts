/**
 * The slice of API object validation (pkg/apis/core/validation/validation.go, v1.35) that touches a pod's
 * resources and placement, in ValidatePodSpec's order: containers, init containers
 * (ValidateContainerResourceRequirements), pod-level resources (validatePodResources,
 * validatePodResourceConsistency), activeDeadlineSeconds, tolerations (ValidateTolerations); and for a PVC
 * update, ValidatePersistentVolumeClaimUpdate's immutability and shrink rules.
 * A failure is HTTP 422 `<Kind> "<name>" is invalid: …` and stops the request before validating admission.
 *
 * Go ranges over resource maps, so several errors of one list come in random order upstream; here names
 * are in byte order.
 */
import type { Container, PersistentVolumeClaim, Pod, Toleration } from '../../k8s/objects.ts';
import { Quantity, byteCompare, resourceList, type ResourceList } from '../../quantity.ts';
import { podLimits, podRequests } from '../pod-resources.ts';
import { isExtendedResourceName } from './evaluators/pods.ts';

export interface FieldError {
  field: string;
  resource: string;
  value: string;
  limit?: string;
  detail: string;
  text: string;
}

/** isNotIntegerErrorMsg, isNegativeErrorMsg (validation.go). */
const NOT_INTEGER = 'must be an integer';
const NEGATIVE = 'must be greater than or equal to 0';

/** helper.IsHugePageResourceName. */
function isHugePages(name: string): boolean {
  return name.startsWith('hugepages-');
}

/** helper.IsNativeResource: no domain, or a kubernetes.io one. */
function isNative(name: string): boolean {
  return !name.includes('/') || name.includes('kubernetes.io/');
}

/** helper.IsOvercommitAllowed: native and not hugepages. */
function overcommitAllowed(name: string): boolean {
  return isNative(name) && !isHugePages(name);
}

/** helper.IsIntegerResourceName: the standard integer resources and every extended resource. */
const INTEGER_RESOURCES: readonly string[] = [
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'services.nodeports',
  'services.loadbalancers',
];
function isIntegerResource(name: string): boolean {
  return INTEGER_RESOURCES.includes(name) || isExtendedResourceName(name);
}

/** helper.IsStandardResourceName's set (standardResources) for unprefixed names. */
const STANDARD_RESOURCES: readonly string[] = [
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'storage',
  'requests.storage',
  'services.nodeports',
  'services.loadbalancers',
];
const STANDARD_CONTAINER_RESOURCES: readonly string[] = ['cpu', 'memory', 'ephemeral-storage'];

function invalid(field: string, value: string, detail: string, resource = ''): FieldError {
  return { field, resource, value, detail, text: `${field}: Invalid value: ${JSON.stringify(value)}: ${detail}` };
}

function invalidNumber(field: string, value: number, detail: string): FieldError {
  return { field, resource: '', value: String(value), detail, text: `${field}: Invalid value: ${value}: ${detail}` };
}

function required(field: string, detail: string, resource = ''): FieldError {
  return { field, resource, value: '', detail, text: `${field}: Required value: ${detail}` };
}

function forbiddenField(field: string, detail: string, resource = ''): FieldError {
  return { field, resource, value: '', detail, text: `${field}: Forbidden: ${detail}` };
}

function notSupported(field: string, value: string, supported: string[], resource = ''): FieldError {
  const detail = `supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}`;
  return { field, resource, value, detail, text: `${field}: Unsupported value: ${JSON.stringify(value)}: ${detail}` };
}

/** validateContainerResourceName (unprefixed names only: a domain-qualified name is taken as well formed). */
function containerResourceName(name: string, path: string, out: FieldError[]): void {
  if (name.includes('/')) return;
  if (!STANDARD_RESOURCES.includes(name) && !isHugePages(name) && !name.startsWith('requests.hugepages-'))
    out.push(invalid(path, name, 'must be a standard resource type or fully qualified', name));
  if (!STANDARD_CONTAINER_RESOURCES.includes(name) && !isHugePages(name))
    out.push(invalid(path, name, 'must be a standard resource for containers', name));
}

/** validatePodResourceName: cpu, memory and hugepages-* only. */
function podResourceName(name: string, path: string, out: FieldError[]): void {
  if (
    !name.includes('/') &&
    !STANDARD_RESOURCES.includes(name) &&
    !isHugePages(name) &&
    !name.startsWith('requests.hugepages-')
  ) {
    out.push(invalid(path, name, 'must be a standard resource type or fully qualified', name));
    return;
  }
  if (name === 'cpu' || name === 'memory' || isHugePages(name)) return;
  out.push(notSupported(path, name, ['cpu', 'hugepages-', 'memory'], name));
}

/** ValidateResourceQuantityValue: non-negative, and whole for integer resources. */
function quantityValue(name: string, q: Quantity, path: string, out: FieldError[]): void {
  if (q.sign() < 0) out.push(invalid(path, q.toString(), NEGATIVE, name));
  if (isIntegerResource(name) && q.milliValue() % 1000n !== 0n)
    out.push(invalid(path, q.toString(), NOT_INTEGER, name));
}

function sortedKeys(list: ResourceList): string[] {
  return [...list.keys()].sort(byteCompare);
}

/**
 * ValidateContainerResourceRequirements (and, with `podLevel`, validatePodResourceRequirements): the limits,
 * then the requests, each name checked and each request against its limit.
 */
function resourceRequirements(
  requests: ResourceList,
  limits: ResourceList,
  path: string,
  out: FieldError[],
  podLevel: boolean,
): void {
  const reqPath = `${path}.requests`;
  const limPath = `${path}.limits`;
  let cpuMem = false;
  let huge = false;
  for (const k of sortedKeys(limits)) {
    const p = `${limPath}[${k}]`;
    if (podLevel) podResourceName(k, p, out);
    else containerResourceName(k, p, out);
    quantityValue(k, limits.get(k)!, p, out);
    if (isHugePages(k)) huge = true;
    if (k === 'cpu' || k === 'memory') cpuMem = true;
  }
  for (const k of sortedKeys(requests)) {
    const p = `${reqPath}[${k}]`;
    if (podLevel) podResourceName(k, p, out);
    else containerResourceName(k, p, out);
    const req = requests.get(k)!;
    quantityValue(k, req, p, out);
    const lim = limits.get(k);
    if (lim) {
      const detail =
        req.cmp(lim) !== 0 && !overcommitAllowed(k)
          ? `must be equal to ${k} limit of ${lim}`
          : req.cmp(lim) > 0
            ? `must be less than or equal to ${k} limit of ${lim}`
            : undefined;
      if (detail !== undefined) out.push({ ...invalid(reqPath, req.toString(), detail, k), limit: lim.toString() });
    } else if (!overcommitAllowed(k)) {
      out.push(required(limPath, 'Limit must be set for non overcommitable resources', k));
    }
    if (isHugePages(k)) huge = true;
    if (k === 'cpu' || k === 'memory') cpuMem = true;
  }
  if (huge && !cpuMem) out.push(forbiddenField(path, 'HugePages require cpu or memory', 'hugepages'));
}

function validateContainer(c: Container, path: string, out: FieldError[]): void {
  resourceRequirements(
    resourceList(c.resources?.requests),
    resourceList(c.resources?.limits),
    `${path}.resources`,
    out,
    false,
  );
}

/** validatePodResources + validatePodResourceConsistency (PodLevelResources, on by default since 1.34). */
function validatePodLevel(pod: Pod, out: FieldError[]): void {
  const res = pod.spec.resources;
  if (!res) return;
  const path = 'spec.resources';
  const claims = (res as { claims?: unknown[] }).claims;
  if (Array.isArray(claims) && claims.length > 0)
    out.push(forbiddenField(`${path}.claims`, 'claims may not be set for Resources at pod-level'));
  const requests = resourceList(res.requests);
  const limits = resourceList(res.limits);
  resourceRequirements(requests, limits, path, out, true);
  // Pod-level requests cover the containers' aggregate (component-helpers AggregateContainerRequests).
  const aggReq = podRequests(pod, { podLevelResources: false, excludeOverhead: true });
  for (const k of sortedKeys(aggReq)) {
    const podReq = requests.get(k);
    const agg = aggReq.get(k)!;
    if (podReq && agg.cmp(podReq) > 0)
      out.push(
        invalid(
          `${path}.requests[${k}]`,
          podReq.toString(),
          `must be greater than or equal to aggregate container requests of ${agg}`,
          k,
        ),
      );
  }
  const aggLim = podLimits(pod, { podLevelResources: false, excludeOverhead: true });
  for (const k of sortedKeys(aggLim)) {
    if (!isHugePages(k)) continue;
    const podLim = limits.get(k);
    const agg = aggLim.get(k)!;
    if (podLim && agg.cmp(podLim) > 0)
      out.push(
        invalid(
          `${path}.limits[${k}]`,
          podLim.toString(),
          `must be greater than or equal to aggregate container limits of ${agg}`,
          k,
        ),
      );
  }
  // No container limit above the pod's (the path is built from the pod-level resources path upstream).
  pod.spec.containers.forEach((c, i) => {
    const cl = resourceList(c.resources?.limits);
    for (const k of sortedKeys(cl)) {
      const podLim = limits.get(k);
      const lim = cl.get(k)!;
      if (podLim && lim.cmp(podLim) > 0)
        out.push(
          invalid(
            `${path}.containers[${i}][${k}].limits`,
            lim.toString(),
            `must be less than or equal to pod limits of ${podLim}`,
            k,
          ),
        );
    }
  });
}

const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

/** validation.IsValidLabelValue's messages. */
function labelValueErrors(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 63) errs.push('must be no more than 63 characters');
  if (!LABEL_VALUE.test(v)) errs.push(LABEL_VALUE_MSG);
  return errs;
}

/** %#v of a core.Toleration (what field.Invalid prints for the struct). */
function goToleration(t: Toleration): string {
  const secs =
    t.tolerationSeconds === undefined || t.tolerationSeconds === null
      ? '(*int64)(nil)'
      : `(*int64)(${t.tolerationSeconds})`;
  return `core.Toleration{Key:${JSON.stringify(t.key ?? '')}, Operator:${JSON.stringify(t.operator ?? '')}, Value:${JSON.stringify(t.value ?? '')}, Effect:${JSON.stringify(t.effect ?? '')}, TolerationSeconds:${secs}}`;
}

const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** ValidateTolerations. */
export function validateTolerations(list: readonly Toleration[], path: string, out: FieldError[]): void {
  list.forEach((t, i) => {
    const p = `${path}[${i}]`;
    const key = t.key ?? '';
    const op = t.operator ?? '';
    const effect = t.effect ?? '';
    if (key === '' && op !== 'Exists')
      out.push(
        invalid(
          `${p}.operator`,
          op,
          'operator must be Exists when `key` is empty, which means "match all values and all keys"',
        ),
      );
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null && effect !== 'NoExecute')
      out.push(invalid(`${p}.effect`, effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    if (op === 'Equal' || op === '') {
      const errs = labelValueErrors(t.value ?? '');
      if (errs.length > 0) out.push(invalid(`${p}.operator`, t.value ?? '', errs.join(';')));
    } else if (op === 'Exists') {
      if ((t.value ?? '') !== '') {
        const detail = "value must be empty when `operator` is 'Exists'";
        out.push({
          field: `${p}.operator`,
          resource: '',
          value: goToleration(t),
          detail,
          text: `${p}.operator: Invalid value: ${goToleration(t)}: ${detail}`,
        });
      }
    } else {
      out.push(notSupported(`${p}.operator`, op, ['Equal', 'Exists']));
    }
    if (effect !== '' && !TAINT_EFFECTS.includes(effect)) out.push(notSupported(`${p}.effect`, effect, TAINT_EFFECTS));
  });
}

function duplicate(field: string, value: string): FieldError {
  return { field, resource: '', value, detail: '', text: `${field}: Duplicate value: ${JSON.stringify(value)}` };
}

type NodeSelectorRequirement = { key?: string | null; operator?: string | null; values?: string[] | null };

/** ValidateNodeSelectorRequirement: the operator's rule for `values`. */
function nodeSelectorRequirement(rq: NodeSelectorRequirement, path: string, out: FieldError[]): void {
  const n = rq.values?.length ?? 0;
  switch (rq.operator ?? '') {
    case 'In':
    case 'NotIn':
      if (n === 0) out.push(required(`${path}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (n > 0)
        out.push(
          forbiddenField(`${path}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
        );
      break;
    case 'Gt':
    case 'Lt':
      if (n !== 1)
        out.push(required(`${path}.values`, "must be specified single value when `operator` is 'Lt' or 'Gt'"));
      break;
    default:
      out.push(invalid(`${path}.operator`, rq.operator ?? '', 'not a valid selector operator'));
  }
}

type Term = { matchExpressions?: NodeSelectorRequirement[] | null; matchFields?: NodeSelectorRequirement[] | null };

function nodeSelectorTerm(term: Term, path: string, out: FieldError[]): void {
  (term.matchExpressions ?? []).forEach((rq, j) => {
    nodeSelectorRequirement(rq, `${path}.matchExpressions[${j}]`, out);
  });
}

/** validateAffinity → validateNodeAffinity (ValidateNodeSelector, ValidatePreferredSchedulingTerms). */
function validateNodeAffinity(pod: Pod, out: FieldError[]): void {
  const na = (pod.spec.affinity as { nodeAffinity?: Record<string, unknown> | null } | null | undefined)?.nodeAffinity;
  if (!na) return;
  const base = 'spec.affinity.nodeAffinity';
  const req = na.requiredDuringSchedulingIgnoredDuringExecution as
    | { nodeSelectorTerms?: Term[] | null }
    | null
    | undefined;
  if (req) {
    const path = `${base}.requiredDuringSchedulingIgnoredDuringExecution`;
    const terms = req.nodeSelectorTerms ?? [];
    if (terms.length === 0)
      out.push(required(`${path}.nodeSelectorTerms`, 'must have at least one node selector term'));
    terms.forEach((t, i) => {
      nodeSelectorTerm(t, `${path}.nodeSelectorTerms[${i}]`, out);
    });
  }
  const pref = na.preferredDuringSchedulingIgnoredDuringExecution as
    | { weight?: number; preference?: Term | null }[]
    | null
    | undefined;
  (pref ?? []).forEach((p, i) => {
    const path = `${base}.preferredDuringSchedulingIgnoredDuringExecution[${i}]`;
    const w = p.weight ?? 0;
    if (w <= 0 || w > 100) out.push(invalidNumber(`${path}.weight`, w, 'must be in the range 1-100'));
    nodeSelectorTerm(p.preference ?? {}, `${path}.preference`, out);
  });
}

/** validateTopologySpreadConstraints: maxSkew, topologyKey, whenUnsatisfiable, repeats, minDomains, policies. */
function validateTopologySpread(pod: Pod, out: FieldError[]): void {
  const list = pod.spec.topologySpreadConstraints ?? [];
  list.forEach((c, i) => {
    const p = `spec.topologySpreadConstraints[${i}]`;
    if (c.maxSkew <= 0) out.push(invalidNumber(`${p}.maxSkew`, c.maxSkew, 'must be greater than zero'));
    if (!c.topologyKey) out.push(required(`${p}.topologyKey`, 'can not be empty'));
    if (c.whenUnsatisfiable !== 'DoNotSchedule' && c.whenUnsatisfiable !== 'ScheduleAnyway')
      out.push(notSupported(`${p}.whenUnsatisfiable`, c.whenUnsatisfiable ?? '', ['DoNotSchedule', 'ScheduleAnyway']));
    if (list.slice(i + 1).some((o) => o.topologyKey === c.topologyKey && o.whenUnsatisfiable === c.whenUnsatisfiable))
      out.push(duplicate(`${p}.{topologyKey, whenUnsatisfiable}`, `{${c.topologyKey}, ${c.whenUnsatisfiable}}`));
    if (typeof c.minDomains === 'number') {
      if (c.minDomains <= 0) out.push(invalidNumber(`${p}.minDomains`, c.minDomains, 'must be greater than zero'));
      if (c.whenUnsatisfiable !== 'DoNotSchedule')
        out.push(
          invalidNumber(
            `${p}.minDomains`,
            c.minDomains,
            `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${c.whenUnsatisfiable}`,
          ),
        );
    }
    for (const key of ['nodeAffinityPolicy', 'nodeTaintsPolicy'] as const) {
      const v = c[key];
      if (v !== undefined && v !== null && v !== 'Honor' && v !== 'Ignore')
        out.push(notSupported(`${p}.${key}`, v, ['Honor', 'Ignore']));
    }
  });
}

/** Field errors of a pod's resources and scheduling fields; empty when valid. */
export function validatePodResources(pod: Pod, opts: { podLevelResources?: boolean } = {}): FieldError[] {
  const out: FieldError[] = [];
  pod.spec.containers.forEach((c, i) => {
    validateContainer(c, `spec.containers[${i}]`, out);
  });
  (pod.spec.initContainers ?? []).forEach((c, i) => {
    validateContainer(c, `spec.initContainers[${i}]`, out);
  });
  if (opts.podLevelResources ?? true) validatePodLevel(pod, out);
  validateNodeAffinity(pod, out);
  validateTopologySpread(pod, out);
  const ads = pod.spec.activeDeadlineSeconds;
  if (typeof ads === 'number' && (ads < 1 || ads > 2147483647))
    out.push(invalidNumber('spec.activeDeadlineSeconds', ads, 'must be between 1 and 2147483647, inclusive'));
  if (pod.spec.tolerations && pod.spec.tolerations.length > 0)
    validateTolerations(pod.spec.tolerations, 'spec.tolerations', out);
  return out;
}

/**
 * ValidatePodCreate: ValidatePodSpec (validatePodResources: resources, affinity and topology spread where
 * ValidatePodSpec checks them), then the create-only rule that a gated pod names no node.
 */
export function validatePodCreate(pod: Pod, opts: { podLevelResources?: boolean } = {}): FieldError[] {
  const out = validatePodResources(pod, opts);
  if (pod.spec.nodeName && (pod.spec.schedulingGates?.length ?? 0) > 0)
    out.push(forbiddenField('spec.nodeName', 'cannot be set until all schedulingGates have been cleared'));
  return out;
}

/** The PVC fields an update must not change (everything but requests, volumeName once, and the VAC name). */
function immutableSpec(pvc: PersistentVolumeClaim, old: PersistentVolumeClaim, bound: boolean): string {
  const spec: Record<string, unknown> = { ...pvc.spec };
  if (!old.spec.volumeName) delete spec.volumeName;
  delete spec.volumeAttributesClassName;
  const requests = { ...(pvc.spec.resources?.requests ?? {}) };
  if (bound) delete requests.storage;
  spec.resources = { ...(pvc.spec.resources ?? {}), requests };
  spec.volumeMode ??= 'Filesystem';
  return canonical(spec);
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => x !== undefined && x !== null)
      .sort(([a], [b]) => byteCompare(a, b));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`).join(',')}}`;
  }
  if (typeof v === 'string') {
    const q = Quantity.tryParse(v);
    return q && /^[0-9.+-]/.test(v) ? `q${q.nanos}` : JSON.stringify(v);
  }
  return JSON.stringify(v);
}

/** ValidatePersistentVolumeClaimUpdate's spec rules (RecoverVolumeExpansionFailure, GA in 1.34, on). */
export function validatePVCUpdate(pvc: PersistentVolumeClaim, old: PersistentVolumeClaim): FieldError[] {
  const out: FieldError[] = [];
  // PrepareForUpdate keeps the stored status: the phase that counts is the old claim's.
  const bound = old.status?.phase === 'Bound';
  if (immutableSpec(pvc, old, bound) !== immutableSpec(old, old, bound))
    out.push(
      forbiddenField(
        'spec',
        'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims',
      ),
    );
  const newSize = Quantity.tryParse(pvc.spec.resources?.requests?.storage) ?? Quantity.zero();
  const oldSize = Quantity.tryParse(old.spec.resources?.requests?.storage) ?? Quantity.zero();
  const capacity = Quantity.tryParse(old.status?.capacity?.storage) ?? Quantity.zero();
  if (newSize.cmp(oldSize) < 0 && newSize.cmp(capacity) <= 0)
    out.push(
      forbiddenField('spec.resources.requests.storage', 'field can not be less than status.capacity', 'storage'),
    );
  return out;
}

/** `Pod "<name>" is invalid: <e>` or `… is invalid: [e1, e2]` (StatusError for field.ErrorList). */
export function invalidMessage(kind: string, name: string, errors: FieldError[]): string {
  const texts: string[] = [];
  for (const e of errors) if (!texts.includes(e.text)) texts.push(e.text);
  return `${kind} "${name}" is invalid: ${texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`}`;
}
