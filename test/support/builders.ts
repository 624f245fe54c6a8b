/**
 * Object builders for tests: `node('n1', { cpu: '4' })`, `pod('web', { cpu: '500m' })`,
 * `quota('q', { namespace: 'team-a', hard: { pods: '2' } })`, `limitRange('lr', { container: { max: { cpu: '1' } } })`,
 * `deployment('web', { replicas: 2, requests: { cpu: '300m' } })`, `replicaSet('web-5f7c9', { owner: 'web' })`, …
 * Every builder returns a plain object with `apiVersion` and `kind` set, ready for `snapshot.put`; options
 * left out leave their keys out (no `undefined` values), so a built object equals the literal it replaces.
 */
import type {
  Affinity,
  Deployment,
  LimitRange,
  LimitRangeItem,
  Namespace,
  Node,
  Pod,
  PodTemplate,
  PriorityClass,
  ReplicaSet,
  ResourceListObject,
  ResourceQuota,
  ScopeRequirement,
  StatefulSet,
  Taint,
  Toleration,
  TopologySpreadConstraint,
} from '../../src/k8s/objects.ts';
import { Snapshot, type KObject } from '../../src/k8s/snapshot.ts';

export interface NodeOptions {
  cpu?: string;
  memory?: string;
  pods?: string;
  ephemeralStorage?: string;
  /** Extra allocatable entries (extended resources, hugepages). */
  allocatable?: Record<string, string>;
  labels?: Record<string, string>;
  taints?: Taint[];
  unschedulable?: boolean;
}

/** A Ready node; defaults cpu 4, memory 8Gi, pods 110, label kubernetes.io/hostname. */
export function node(name: string, o: NodeOptions = {}): Node {
  const allocatable: Record<string, string> = {
    cpu: o.cpu ?? '4',
    memory: o.memory ?? '8Gi',
    pods: o.pods ?? '110',
    ...(o.ephemeralStorage ? { 'ephemeral-storage': o.ephemeralStorage } : {}),
    ...(o.allocatable ?? {}),
  };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...(o.labels ?? {}) } },
    spec: { ...(o.taints ? { taints: o.taints } : {}), ...(o.unschedulable ? { unschedulable: true } : {}) },
    status: { allocatable, capacity: allocatable },
  };
}

export interface PodOptions {
  namespace?: string;
  cpu?: string;
  memory?: string;
  /** Any other requests of the single container. */
  requests?: Record<string, string>;
  /** Limits of the single container (absent: no `limits` key). */
  limits?: Record<string, string>;
  /** Container name; default `c`. */
  container?: string;
  /** Container image; default registry.k8s.io/pause:3.10. */
  image?: string;
  /** The controller: `ownerReferences: [{ apiVersion: 'apps/v1', kind, name, controller: true }]`. */
  owner?: { kind: 'ReplicaSet' | 'StatefulSet' | 'DaemonSet' | 'Job'; name: string };
  /** Bind to this node (an assigned pod). */
  node?: string;
  priority?: number;
  priorityClassName?: string;
  preemptionPolicy?: string;
  phase?: string;
  labels?: Record<string, string>;
  nodeSelector?: Record<string, string>;
  affinity?: Affinity;
  tolerations?: Toleration[];
  topologySpreadConstraints?: TopologySpreadConstraint[];
  hostPorts?: number[];
  startTime?: string;
  nominatedNodeName?: string;
  schedulingGates?: string[];
  volumes?: Array<{ name: string; claimName: string }>;
}

/** A one-container pod; requests only for the resources given. */
export function pod(name: string, o: PodOptions = {}): Pod {
  const requests: Record<string, string> = {
    ...(o.cpu ? { cpu: o.cpu } : {}),
    ...(o.memory ? { memory: o.memory } : {}),
    ...(o.requests ?? {}),
  };
  const res = resources(Object.keys(requests).length > 0 ? requests : undefined, o.limits);
  const status: NonNullable<Pod['status']> = { phase: o.phase ?? (o.node ? 'Running' : 'Pending') };
  const ownerRef = o.owner && {
    apiVersion: o.owner.kind === 'Job' ? 'batch/v1' : 'apps/v1',
    kind: o.owner.kind,
    name: o.owner.name,
    controller: true,
  };
  const owner = ownerRef ? { ownerReferences: [ownerRef] } : {};
  if (o.startTime) status.startTime = o.startTime;
  if (o.nominatedNodeName) status.nominatedNodeName = o.nominatedNodeName;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: o.namespace ?? 'default', ...(o.labels ? { labels: o.labels } : {}), ...owner },
    spec: {
      containers: [
        {
          name: o.container ?? 'c',
          image: o.image ?? 'registry.k8s.io/pause:3.10',
          resources: res,
          ...(o.hostPorts ? { ports: o.hostPorts.map((p) => ({ containerPort: p, hostPort: p })) } : {}),
        },
      ],
      ...(o.node ? { nodeName: o.node } : {}),
      ...(o.priority !== undefined ? { priority: o.priority } : {}),
      ...(o.priorityClassName ? { priorityClassName: o.priorityClassName } : {}),
      ...(o.preemptionPolicy ? { preemptionPolicy: o.preemptionPolicy } : {}),
      ...(o.nodeSelector ? { nodeSelector: o.nodeSelector } : {}),
      ...(o.affinity ? { affinity: o.affinity } : {}),
      ...(o.tolerations ? { tolerations: o.tolerations } : {}),
      ...(o.topologySpreadConstraints ? { topologySpreadConstraints: o.topologySpreadConstraints } : {}),
      ...(o.schedulingGates ? { schedulingGates: o.schedulingGates.map((g) => ({ name: g })) } : {}),
      ...(o.volumes
        ? { volumes: o.volumes.map((v) => ({ name: v.name, persistentVolumeClaim: { claimName: v.claimName } })) }
        : {}),
    },
    status,
  };
}

/** Requests and limits of one container; either may be left out (then the key is absent). */
type ResourceMap = Record<string, string>;

function resources(requests?: ResourceMap, limits?: ResourceMap): { requests?: ResourceMap; limits?: ResourceMap } {
  return { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) };
}

export interface QuotaOptions {
  namespace?: string;
  hard: ResourceListObject;
  /**
   * What the quota controller has charged. Given → `status: { hard, used }` with status.hard a copy of
   * spec.hard, as a stored quota reads; absent → no status (a quota the controller has not seen yet;
   * `reconcileQuotaStatus` fills it in).
   */
  used?: ResourceListObject;
  scopes?: string[];
  scopeSelector?: { matchExpressions: ScopeRequirement[] };
}

/** A ResourceQuota; namespace `default`; `status` only when `used` is given (see QuotaOptions.used). */
export function quota(name: string, o: QuotaOptions): ResourceQuota & KObject {
  return {
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: { name, namespace: o.namespace ?? 'default' },
    spec: {
      hard: { ...o.hard },
      ...(o.scopes ? { scopes: o.scopes } : {}),
      ...(o.scopeSelector ? { scopeSelector: o.scopeSelector } : {}),
    },
    ...(o.used ? { status: { hard: { ...o.hard }, used: { ...o.used } } } : {}),
  };
}

/** One LimitRange item without its `type`: default, defaultRequest, min, max, maxLimitRequestRatio. */
export type LimitRangeBounds = Omit<LimitRangeItem, 'type'>;

export interface LimitRangeOptions {
  namespace?: string;
  /** The `type: Container` item. */
  container?: LimitRangeBounds;
  /** The `type: Pod` item. */
  pod?: LimitRangeBounds;
  /** The `type: PersistentVolumeClaim` item. */
  pvc?: LimitRangeBounds;
  /** Further items, after the three above, as given. */
  items?: LimitRangeItem[];
}

/**
 * A LimitRange as written (not the defaulted, stored form: no default derived from max); namespace
 * `default`; items in the order Container, Pod, PersistentVolumeClaim, then `items`.
 */
export function limitRange(name: string, o: LimitRangeOptions = {}): LimitRange & KObject {
  const limits: LimitRangeItem[] = [
    ...(o.container ? [{ type: 'Container', ...o.container }] : []),
    ...(o.pod ? [{ type: 'Pod', ...o.pod }] : []),
    ...(o.pvc ? [{ type: 'PersistentVolumeClaim', ...o.pvc }] : []),
    ...(o.items ?? []),
  ];
  return {
    apiVersion: 'v1',
    kind: 'LimitRange',
    metadata: { name, namespace: o.namespace ?? 'default' },
    spec: { limits },
  };
}

export interface TemplateOptions {
  /** Container name; default `app`. */
  container?: string;
  /** Container image; default the app label. */
  image?: string;
  requests?: Record<string, string>;
  limits?: Record<string, string>;
}

/** A pod template labelled `app: <app>` with one container (`resources` only when requests or limits are given). */
export function podTemplate(app: string, o: TemplateOptions = {}): PodTemplate {
  const r = resources(o.requests, o.limits);
  return {
    metadata: { labels: { app } },
    spec: {
      containers: [
        { name: o.container ?? 'app', image: o.image ?? app, ...(Object.keys(r).length > 0 ? { resources: r } : {}) },
      ],
    },
  };
}

export interface WorkloadOptions extends TemplateOptions {
  namespace?: string;
  /** Default 1. */
  replicas?: number;
  /** The `app` label of the template and the selector; default the workload's name (a ReplicaSet's: its owner's). */
  app?: string;
  /** The whole pod template, instead of one built from app/container/image/requests/limits. */
  template?: PodTemplate;
}

type WorkloadSpec = {
  replicas: number;
  selector: { matchLabels: Record<string, string> };
  template: PodTemplate;
};

function workloadSpec(app: string, o: WorkloadOptions): WorkloadSpec {
  return { replicas: o.replicas ?? 1, selector: { matchLabels: { app } }, template: o.template ?? podTemplate(app, o) };
}

export interface DeploymentOptions extends WorkloadOptions {
  strategy?: NonNullable<Deployment['spec']['strategy']>;
}

/**
 * A Deployment (apps/v1) of one `app` container; namespace `default`, 1 replica, no strategy (the API
 * then applies RollingUpdate 25%/25%).
 */
export function deployment(name: string, o: DeploymentOptions = {}): Deployment & KObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: o.namespace ?? 'default' },
    spec: { ...workloadSpec(o.app ?? name, o), ...(o.strategy ? { strategy: o.strategy } : {}) },
  };
}

export interface ReplicaSetOptions extends WorkloadOptions {
  /** Its Deployment: `ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name, controller: true }]`. */
  owner?: string;
}

function controlledBy(deployment: string) {
  return { apiVersion: 'apps/v1', kind: 'Deployment', name: deployment, controller: true };
}

/** A ReplicaSet (apps/v1), optionally owned by a Deployment; its app label defaults to the owner's name. */
export function replicaSet(name: string, o: ReplicaSetOptions = {}): ReplicaSet & KObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name,
      namespace: o.namespace ?? 'default',
      ...(o.owner ? { ownerReferences: [controlledBy(o.owner)] } : {}),
    },
    spec: workloadSpec(o.app ?? o.owner ?? name, o),
  };
}

export interface StatefulSetOptions extends WorkloadOptions {
  /** Default the StatefulSet's name. */
  serviceName?: string;
  volumeClaimTemplates?: unknown[];
}

/** A StatefulSet (apps/v1); serviceName defaults to its name. */
export function statefulSet(name: string, o: StatefulSetOptions = {}): StatefulSet & KObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name, namespace: o.namespace ?? 'default' },
    spec: {
      replicas: o.replicas ?? 1,
      serviceName: o.serviceName ?? name,
      selector: { matchLabels: { app: o.app ?? name } },
      template: o.template ?? podTemplate(o.app ?? name, o),
      ...(o.volumeClaimTemplates ? { volumeClaimTemplates: o.volumeClaimTemplates } : {}),
    },
  };
}

export interface PriorityClassOptions {
  globalDefault?: boolean;
  preemptionPolicy?: string;
}

/** A PriorityClass (scheduling.k8s.io/v1) of the given value. */
export function priorityClass(name: string, value: number, o: PriorityClassOptions = {}): PriorityClass & KObject {
  return {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name },
    value,
    ...(o.globalDefault !== undefined ? { globalDefault: o.globalDefault } : {}),
    ...(o.preemptionPolicy ? { preemptionPolicy: o.preemptionPolicy } : {}),
  };
}

/** A Namespace, optionally labelled. */
export function namespace(name: string, labels?: Record<string, string>): Namespace & KObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name, ...(labels ? { labels } : {}) } };
}

/** A snapshot holding the given objects (each must have `kind`). */
export function snapshotOf(...objects: KObject[]): Snapshot {
  const s = new Snapshot();
  for (const o of objects) s.put(o);
  return s;
}
