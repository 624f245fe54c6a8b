/**
 * Object builders for tests: `node('n1', { cpu: '4' })`, `pod('web', { cpu: '500m' })`.
 * Every builder returns a plain object with `kind` set, ready for `snapshot.put`.
 */
import type { Affinity, Node, Pod, Taint, Toleration, TopologySpreadConstraint } from '../../src/k8s/objects.ts';
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
  const requests: Record<string, string> = { ...(o.cpu ? { cpu: o.cpu } : {}), ...(o.memory ? { memory: o.memory } : {}), ...(o.requests ?? {}) };
  const status: NonNullable<Pod['status']> = { phase: o.phase ?? (o.node ? 'Running' : 'Pending') };
  if (o.startTime) status.startTime = o.startTime;
  if (o.nominatedNodeName) status.nominatedNodeName = o.nominatedNodeName;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: o.namespace ?? 'default', ...(o.labels ? { labels: o.labels } : {}) },
    spec: {
      containers: [
        {
          name: 'c',
          image: 'registry.k8s.io/pause:3.10',
          resources: Object.keys(requests).length > 0 ? { requests } : {},
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
      ...(o.volumes ? { volumes: o.volumes.map((v) => ({ name: v.name, persistentVolumeClaim: { claimName: v.claimName } })) } : {}),
    },
    status,
  };
}

/** A snapshot holding the given objects (each must have `kind`). */
export function snapshotOf(...objects: KObject[]): Snapshot {
  const s = new Snapshot();
  for (const o of objects) s.put(o);
  return s;
}
