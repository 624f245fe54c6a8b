/**
 * Wire JSON → compact objects for the live cache (docs/architecture.md, Scale). The cache holds 150,000 pods, so
 * what it keeps is only what admission, quota and the scheduler read; whole objects (managedFields,
 * env, probes, images, volume sources, node images …) never enter it.
 *
 * Plain code, not zod: parsing 150,000 pods through `podSchema` costs seconds and allocates a second
 * copy of each. The checks here are defensive (an object without `metadata.name`, a pod without a
 * `spec.containers` array is skipped and counted), and the engine's own schemas still apply to
 * whatever it decodes from user input.
 *
 * The same function projects objects read from a state file, so a test can compare LiveSource's
 * snapshot with FileSource's over the same objects.
 */
import type { KObject } from '../k8s/snapshot.ts';

type Json = Record<string, unknown>;

export function isRecord(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Copies the listed keys whose values are neither null nor undefined (the API omits empty fields). */
function pick(src: Json, keys: readonly string[], out: Json = {}): Json {
  for (const k of keys) {
    const v = src[k];
    if (v !== undefined && v !== null) out[k] = v;
  }
  return out;
}

function arrayOf(v: unknown, project: (x: Json) => Json | undefined): Json[] | undefined {
  if (!Array.isArray(v) || v.length === 0) return undefined;
  const out: Json[] = [];
  for (const x of v) {
    if (!isRecord(x)) continue;
    const p = project(x);
    if (p) out.push(p);
  }
  return out.length ? out : undefined;
}

function setIf(out: Json, key: string, v: unknown): void {
  if (v !== undefined && v !== null) out[key] = v;
}

/**
 * Shares equal parts between projections (docs/architecture.md, Scale). The pods of one ReplicaSet carry the same
 * labels, owner reference, containers (with their resource maps) and tolerations; most pods have the
 * same status and many the same node: the cache keeps one copy of each, not 150,000. Equal means equal
 * JSON, so only wire JSON goes in (the reflectors'; not a state file, whose YAML may hold other
 * values). Sharing is safe because nothing writes to a snapshot's objects: they are already shared by
 * every fork of the cache, and the engine copies (clone, spread) what it changes.
 *
 * The table is bounded: when it holds `limit` entries it starts over, which only ends sharing with the
 * projections made before (nothing is ever looked up by identity).
 */
export class Interner {
  private values = new Map<string, unknown>();
  private strings = new Map<string, string>();
  constructor(private readonly limit = 100_000) {}

  /** An equal value seen before, or `v` (remembered). */
  value<T>(v: T): T {
    if (v === undefined || v === null || typeof v !== 'object') return v;
    const key = JSON.stringify(v);
    const hit = this.values.get(key);
    if (hit !== undefined) return hit as T;
    if (this.values.size >= this.limit) this.values.clear();
    this.values.set(key, v);
    return v;
  }

  /** One copy of a repeated string (namespace, node name, class names). */
  string<T>(v: T): T {
    if (typeof v !== 'string') return v;
    const hit = this.strings.get(v);
    if (hit !== undefined) return hit as T;
    if (this.strings.size >= this.limit) this.strings.clear();
    this.strings.set(v, v);
    return v;
  }
}

const shapes = new Map<string, Json>();

/**
 * `o` with its properties laid out inside the object. V8 keeps at most four properties in an object
 * grown from `{}` key by key and puts the rest in a separate array (about 40 bytes more each); a
 * spread of an object JSON.parse made has room for all of them. Same keys, same order, same values.
 * Used for the per-pod objects of the cache (150,000 of each).
 */
function compact(o: Json): Json {
  const keys = Object.keys(o);
  if (keys.length <= 4) return o;
  const sig = keys.join('\u0000');
  let shape = shapes.get(sig);
  if (!shape) {
    shape = JSON.parse(JSON.stringify(Object.fromEntries(keys.map((k) => [k, 0])))) as Json;
    if (shapes.size < 1000) shapes.set(sig, shape);
  }
  const out = { ...shape };
  for (const k of keys) out[k] = o[k];
  return out;
}

/** Interning off (state files, tests): every value is its own. */
const NO_INTERN = {
  value: <T>(v: T): T => v,
  string: <T>(v: T): T => v,
};

type Intern = Pick<Interner, 'value' | 'string'>;

/**
 * `kubectl apply` keeps a whole copy of the object in this annotation; it is the largest field of
 * many small objects and nothing reads it.
 */
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

function annotations(m: Json): Json | undefined {
  const a = m.annotations;
  if (!isRecord(a)) return undefined;
  let out: Json | undefined;
  for (const [k, v] of Object.entries(a)) {
    if (k === LAST_APPLIED || typeof v !== 'string') continue;
    (out ??= {})[k] = v;
  }
  return out;
}

function ownerRefs(m: Json): Json[] | undefined {
  return arrayOf(m.ownerReferences, (r) =>
    typeof r.kind === 'string' && typeof r.name === 'string'
      ? pick(r, ['apiVersion', 'kind', 'name', 'uid', 'controller'])
      : undefined,
  );
}

/** Pod metadata: exactly what owner lookup, label selectors and graceful deletion read. */
function podMeta(m: Json, intern: Intern): Json {
  const out = pick(m, [
    'name',
    'namespace',
    'labels',
    'deletionTimestamp',
    'deletionGracePeriodSeconds',
    'resourceVersion',
  ]);
  if (out.namespace !== undefined) out.namespace = intern.string(out.namespace);
  if (out.labels !== undefined) out.labels = intern.value(out.labels);
  setIf(out, 'ownerReferences', intern.value(ownerRefs(m)));
  return compact(out);
}

/**
 * Metadata of the few-per-namespace kinds: annotations stay (storage-class defaults, the beta PVC class,
 * PodNodeSelector's namespace annotation), minus `last-applied-configuration`; managedFields go.
 */
function fullMeta(m: Json): Json {
  const out = pick(m, [
    'name',
    'generateName',
    'namespace',
    'uid',
    'resourceVersion',
    'labels',
    'creationTimestamp',
    'deletionTimestamp',
  ]);
  setIf(out, 'annotations', annotations(m));
  setIf(out, 'ownerReferences', ownerRefs(m));
  return out;
}

function resources(r: unknown): Json | undefined {
  if (!isRecord(r)) return undefined;
  const out = pick(r, ['requests', 'limits']);
  return Object.keys(out).length ? out : undefined;
}

function container(c: Json): Json | undefined {
  if (typeof c.name !== 'string') return undefined;
  const out: Json = { name: c.name };
  setIf(out, 'resources', resources(c.resources));
  setIf(out, 'restartPolicy', c.restartPolicy);
  setIf(
    out,
    'ports',
    arrayOf(c.ports, (p) => pick(p, ['name', 'containerPort', 'hostPort', 'hostIP', 'protocol'])),
  );
  return out;
}

const POD_SPEC_KEYS = [
  'nodeName',
  'nodeSelector',
  'affinity',
  'tolerations',
  'topologySpreadConstraints',
  'priority',
  'priorityClassName',
  'preemptionPolicy',
  'overhead',
  'activeDeadlineSeconds',
  'schedulingGates',
] as const;

/** Volume sources other scheduler plugins read: VolumeRestrictions' inline disks, NodeVolumeLimits' migratable in-tree sources, generic ephemeral volumes. */
const SCHEDULER_VOLUME_SOURCES = ['gcePersistentDisk', 'awsElasticBlockStore', 'rbd', 'iscsi', 'azureDisk', 'cinder'];
function schedulerVolume(v: Json): Json | undefined {
  if (v.ephemeral !== undefined && v.ephemeral !== null) return { name: v.name, ephemeral: {} };
  const src = SCHEDULER_VOLUME_SOURCES.find((k) => isRecord(v[k]));
  return src ? { name: v.name, [src]: v[src] } : undefined;
}

/** A pod spec (of a pod or a workload template), or undefined when `containers` is not a list. */
export function projectPodSpec(s: unknown, intern: Intern = NO_INTERN): Json | undefined {
  if (!isRecord(s) || !Array.isArray(s.containers)) return undefined;
  const containers = arrayOf(s.containers, container) ?? [];
  if (containers.length !== s.containers.length) return undefined;
  const out: Json = { containers: intern.value(containers) };
  setIf(out, 'initContainers', intern.value(arrayOf(s.initContainers, container)));
  for (const k of POD_SPEC_KEYS) {
    const v = s[k];
    if (v !== undefined && v !== null) out[k] = typeof v === 'string' ? intern.string(v) : intern.value(v);
  }
  setIf(out, 'resources', intern.value(resources(s.resources)));
  // PVC-backed volumes (volume binding, PVC quota), and the few other sources the scheduler's volume
  // plugins read (schedulerVolume); the rest are never read.
  setIf(
    out,
    'volumes',
    intern.value(
      arrayOf(s.volumes, (v) =>
        typeof v.name === 'string' &&
        isRecord(v.persistentVolumeClaim) &&
        typeof v.persistentVolumeClaim.claimName === 'string'
          ? { name: v.name, persistentVolumeClaim: pick(v.persistentVolumeClaim, ['claimName', 'readOnly']) }
          : typeof v.name === 'string'
            ? schedulerVolume(v)
            : undefined,
      ),
    ),
  );
  return out;
}

function containerStatus(c: Json): Json | undefined {
  if (typeof c.name !== 'string') return undefined;
  // In-place resize (KEP-1287): what the kubelet actually allocated may differ from the spec.
  const out: Json = { name: c.name };
  setIf(out, 'allocatedResources', c.allocatedResources);
  setIf(out, 'resources', resources(c.resources));
  return Object.keys(out).length > 1 ? out : undefined;
}

function projectPod(o: Json, intern: Intern): Json | undefined {
  const podSpec = projectPodSpec(o.spec, intern);
  if (!podSpec) return undefined;
  const spec = compact(podSpec);
  const metadata = podMeta(o.metadata as Json, intern);
  let status: Json | undefined;
  if (isRecord(o.status)) {
    const st = o.status;
    const s = pick(st, ['phase', 'qosClass', 'nominatedNodeName']);
    setIf(s, 'containerStatuses', arrayOf(st.containerStatuses, containerStatus));
    setIf(s, 'initContainerStatuses', arrayOf(st.initContainerStatuses, containerStatus));
    // The scheduler writes its verdict on a Pending pod here (PodScheduled=False, reason Unschedulable);
    // it is one short condition and only on pods that are not placed.
    setIf(
      s,
      'conditions',
      arrayOf(st.conditions, (c) =>
        c.type === 'PodScheduled' && c.status === 'False'
          ? pick(c, ['type', 'status', 'reason', 'message'])
          : undefined,
      ),
    );
    if (Object.keys(s).length) status = intern.value(s);
  }
  // One literal, so all five properties live inside the object.
  return status
    ? { apiVersion: 'v1', kind: 'Pod', metadata, spec, status }
    : { apiVersion: 'v1', kind: 'Pod', metadata, spec };
}

function projectNode(o: Json): Json {
  const m = o.metadata as Json;
  const out: Json = {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: pick(m, ['name', 'uid', 'labels', 'resourceVersion', 'deletionTimestamp']),
  };
  if (isRecord(o.spec)) {
    const spec = pick(o.spec, ['unschedulable', 'taints']);
    if (Object.keys(spec).length) out.spec = spec;
  }
  if (isRecord(o.status)) {
    // Conditions keep type/status only: their heartbeat times change every few seconds and would turn
    // every kubelet status update into a cache write.
    const status = pick(o.status, ['allocatable', 'capacity']);
    setIf(
      status,
      'conditions',
      arrayOf(o.status.conditions, (c) => (typeof c.type === 'string' ? pick(c, ['type', 'status']) : undefined)),
    );
    if (Object.keys(status).length) out.status = status;
  }
  return out;
}

function projectTemplate(t: unknown, intern: Intern): Json | undefined {
  if (!isRecord(t)) return undefined;
  const spec = projectPodSpec(t.spec, intern);
  if (!spec) return undefined;
  const out: Json = { spec };
  if (isRecord(t.metadata)) {
    const meta = pick(t.metadata, ['name', 'labels']);
    setIf(meta, 'annotations', annotations(t.metadata));
    if (Object.keys(meta).length) out.metadata = meta;
  }
  return out;
}

/** Scalar status fields of workloads (replica counts); conditions are dropped. */
function scalarStatus(s: unknown): Json | undefined {
  if (!isRecord(s)) return undefined;
  const out: Json = {};
  for (const [k, v] of Object.entries(s))
    if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') out[k] = v;
  return Object.keys(out).length ? out : undefined;
}

function pvcSpec(s: unknown): Json | undefined {
  if (!isRecord(s)) return undefined;
  const out = pick(s, ['accessModes', 'storageClassName', 'volumeName', 'volumeMode', 'volumeAttributesClassName']);
  setIf(out, 'resources', resources(s.resources));
  return out;
}

function projectWorkload(kind: string, apiVersion: string, o: Json, intern: Intern): Json | undefined {
  const s = o.spec;
  if (!isRecord(s)) return undefined;
  let spec: Json;
  if (kind === 'CronJob') {
    const jt = s.jobTemplate;
    if (!isRecord(jt) || !isRecord(jt.spec)) return undefined;
    const template = projectTemplate(jt.spec.template, intern);
    if (!template) return undefined;
    const jobSpec = pick(jt.spec, ['parallelism', 'completions', 'completionMode', 'suspend', 'activeDeadlineSeconds']);
    jobSpec.template = template;
    const jobTemplate: Json = { spec: jobSpec };
    if (isRecord(jt.metadata)) jobTemplate.metadata = pick(jt.metadata, ['labels']);
    spec = pick(s, ['schedule', 'suspend', 'concurrencyPolicy']);
    spec.jobTemplate = jobTemplate;
  } else {
    const template = projectTemplate(s.template, intern);
    if (!template) return undefined;
    spec = pick(s, [
      'replicas',
      'selector',
      'strategy',
      'updateStrategy',
      'paused',
      'podManagementPolicy',
      'parallelism',
      'completions',
      'completionMode',
      'suspend',
      'activeDeadlineSeconds',
    ]);
    spec.template = template;
    if (kind === 'StatefulSet') {
      setIf(
        spec,
        'volumeClaimTemplates',
        arrayOf(s.volumeClaimTemplates, (t) => {
          const vct: Json = {};
          if (isRecord(t.metadata)) vct.metadata = pick(t.metadata, ['name', 'labels', 'annotations']);
          setIf(vct, 'spec', pvcSpec(t.spec));
          return vct;
        }),
      );
    }
  }
  const out: Json = { apiVersion, kind, metadata: fullMeta(o.metadata as Json), spec };
  setIf(out, 'status', scalarStatus(o.status));
  return out;
}

function projectEvent(o: Json): Json {
  const out: Json = {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: pick(o.metadata as Json, ['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp']),
  };
  if (isRecord(o.involvedObject))
    out.involvedObject = pick(o.involvedObject, ['kind', 'name', 'namespace', 'uid', 'apiVersion', 'fieldPath']);
  pick(
    o,
    ['reason', 'message', 'type', 'count', 'firstTimestamp', 'lastTimestamp', 'eventTime', 'reportingComponent'],
    out,
  );
  if (isRecord(o.source)) out.source = pick(o.source, ['component']);
  if (isRecord(o.series)) out.series = pick(o.series, ['count', 'lastObservedTime']);
  return out;
}

/** apiVersion each kind is read at (what list items lack: the API omits TypeMeta on list items). */
export const API_VERSION_OF: Record<string, string> = {
  Pod: 'v1',
  Node: 'v1',
  Namespace: 'v1',
  ResourceQuota: 'v1',
  LimitRange: 'v1',
  PersistentVolumeClaim: 'v1',
  Service: 'v1',
  Event: 'v1',
  Deployment: 'apps/v1',
  ReplicaSet: 'apps/v1',
  StatefulSet: 'apps/v1',
  DaemonSet: 'apps/v1',
  Job: 'batch/v1',
  CronJob: 'batch/v1',
  PriorityClass: 'scheduling.k8s.io/v1',
  StorageClass: 'storage.k8s.io/v1',
  RuntimeClass: 'node.k8s.io/v1',
  PodDisruptionBudget: 'policy/v1',
  CSINode: 'storage.k8s.io/v1',
  CSIDriver: 'storage.k8s.io/v1',
  ResourceClaim: 'resource.k8s.io/v1',
  DeviceClass: 'resource.k8s.io/v1',
  ResourceSlice: 'resource.k8s.io/v1',
};

/**
 * The compact form of one object of `kind` (wire JSON, as a list item or a watch event carries it), or
 * undefined when its shape is not one we can read (the caller counts it and moves on). With an
 * `Interner` (wire JSON only), a pod shares its equal parts with the pods projected before it.
 */
export function projectObject(kind: string, raw: unknown, intern: Intern = NO_INTERN): KObject | undefined {
  if (!isRecord(raw) || !isRecord(raw.metadata) || typeof raw.metadata.name !== 'string') return undefined;
  const apiVersion = API_VERSION_OF[kind] ?? (typeof raw.apiVersion === 'string' ? raw.apiVersion : 'v1');
  let out: Json | undefined;
  switch (kind) {
    case 'Pod':
      out = projectPod(raw, intern);
      break;
    case 'Node':
      out = projectNode(raw);
      break;
    case 'Event':
      out = projectEvent(raw);
      break;
    case 'Deployment':
    case 'ReplicaSet':
    case 'StatefulSet':
    case 'DaemonSet':
    case 'Job':
    case 'CronJob':
      out = projectWorkload(kind, apiVersion, raw, intern);
      break;
    case 'Namespace': {
      out = { apiVersion, kind, metadata: fullMeta(raw.metadata) };
      if (isRecord(raw.status))
        setIf(out, 'status', Object.keys(pick(raw.status, ['phase'])).length ? pick(raw.status, ['phase']) : undefined);
      break;
    }
    case 'PersistentVolumeClaim': {
      out = { apiVersion, kind, metadata: fullMeta(raw.metadata), spec: pvcSpec(raw.spec) ?? {} };
      if (isRecord(raw.status)) setIf(out, 'status', pick(raw.status, ['phase', 'capacity', 'allocatedResources']));
      break;
    }
    case 'Service': {
      out = { apiVersion, kind, metadata: fullMeta(raw.metadata) };
      if (isRecord(raw.spec)) {
        const spec = pick(raw.spec, ['type', 'allocateLoadBalancerNodePorts']);
        setIf(
          spec,
          'ports',
          arrayOf(raw.spec.ports, (p) => pick(p, ['name', 'protocol', 'port', 'nodePort'])),
        );
        out.spec = spec;
      }
      break;
    }
    default: {
      // ResourceQuota, LimitRange, PriorityClass, StorageClass: small, few, and read almost whole;
      // only the metadata is trimmed.
      out = { apiVersion, kind, metadata: fullMeta(raw.metadata) };
      for (const [k, v] of Object.entries(raw)) {
        if (k === 'apiVersion' || k === 'kind' || k === 'metadata' || v === undefined || v === null) continue;
        out[k] = v;
      }
    }
  }
  return out as KObject | undefined;
}

/** Structural equality of two projections, ignoring `metadata.resourceVersion` (a no-op update). */
export function sameProjection(a: unknown, b: unknown): boolean {
  return equalJson(a, b, true);
}

function equalJson(a: unknown, b: unknown, top: boolean): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!equalJson(a[i], b[i], false)) return false;
    return true;
  }
  if (Array.isArray(b) || !isRecord(a) || !isRecord(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    if (!Object.hasOwn(b, k)) return false;
    if (top && k === 'metadata') {
      if (!equalMeta(a[k], b[k])) return false;
    } else if (!equalJson(a[k], b[k], false)) return false;
  }
  return true;
}

function equalMeta(a: unknown, b: unknown): boolean {
  if (!isRecord(a) || !isRecord(b)) return equalJson(a, b, false);
  const ka = Object.keys(a).filter((k) => k !== 'resourceVersion');
  const kb = Object.keys(b).filter((k) => k !== 'resourceVersion');
  if (ka.length !== kb.length) return false;
  for (const k of ka) if (!Object.hasOwn(b, k) || !equalJson(a[k], b[k], false)) return false;
  return true;
}
