/**
 * Workload controllers → the pods they would create (names as the controllers make them), and the
 * rolling-update surge budget of a Deployment.
 *
 * Deployment → ReplicaSet `<name>-<pod-template-hash>` → pods `<rs>-<5 chars>`; ReplicaSet, Job and
 * DaemonSet pods `<name>-<5 chars>`; StatefulSet pods `<name>-<ordinal>` (plus their claims from
 * volumeClaimTemplates, `<template>-<name>-<ordinal>`); CronJob → one Job `<name>-<minutes>`.
 */
import type {
  CronJob,
  DaemonSet,
  Deployment,
  Job,
  Node,
  PersistentVolumeClaim,
  Pod,
  PodTemplate,
  ReplicaSet,
  StatefulSet,
  Workload,
} from '../k8s/objects.ts';
import type { KObject } from '../k8s/snapshot.ts';
import { clone } from './defaults.ts';
import { generateNameSuffix } from './admit.ts';

export interface Expansion {
  /** Intermediate objects the controller creates (a Deployment's ReplicaSet, a CronJob's Job). */
  owned: KObject[];
  /** Claims to create before the pods (StatefulSet volumeClaimTemplates). */
  claims: KObject[];
  /** The pods, in creation order. */
  pods: Pod[];
  /** Who creates the pods (for FailedCreate wording): kind and name. */
  creator: { kind: string; name: string };
}

/** The FNV-32a hash Kubernetes uses for pod-template-hash, encoded with the same alphabet. */
export function podTemplateHash(template: unknown): string {
  const text = JSON.stringify(template);
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619) >>> 0;
  }
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  let out = '';
  let v = h;
  do {
    out += alphabet[v % alphabet.length];
    v = Math.floor(v / alphabet.length);
  } while (v > 0);
  return out.slice(0, 10);
}

function podFromTemplate(
  template: PodTemplate,
  ns: string,
  name: string,
  owner: { kind: string; name: string; apiVersion: string },
  extraLabels: Record<string, string> = {},
): Pod {
  const t = clone(template);
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: ns,
      labels: { ...(t.metadata?.labels ?? {}), ...extraLabels },
      ...(t.metadata?.annotations ? { annotations: t.metadata.annotations } : {}),
      ownerReferences: [{ apiVersion: owner.apiVersion, kind: owner.kind, name: owner.name, controller: true }],
    },
    spec: t.spec,
  } as Pod;
}

function replicas(n: number | null | undefined, dflt = 1): number {
  return n === undefined || n === null ? dflt : Math.max(0, n);
}

function randomPods(
  template: PodTemplate,
  ns: string,
  base: string,
  count: number,
  owner: { kind: string; name: string; apiVersion: string },
  labels: Record<string, string> = {},
  seed = 0,
): Pod[] {
  const out: Pod[] = [];
  for (let i = 0; i < count; i++)
    out.push(
      podFromTemplate(template, ns, `${base}-${generateNameSuffix(`${ns}/${base}/${seed + i}`)}`, owner, labels),
    );
  return out;
}

export interface ExpandOptions {
  /** Nodes for DaemonSets. */
  nodes?: Node[];
  /** Replica count override (what-if scaling); pods already running are not re-created by callers. */
  replicas?: number;
  /** Offset for generated names (so repeated expansions do not collide). */
  seed?: number;
  /** DaemonSet eligibility: whether a node would take the pod (taints/affinity); default all nodes. */
  nodeEligible?: (pod: Pod, node: Node) => boolean;
  /** A Deployment's existing ReplicaSet: new pods are its pods (no new ReplicaSet is created). */
  existingReplicaSet?: { name: string; hash?: string };
}

export function expandWorkload(w: Workload, opts: ExpandOptions = {}): Expansion {
  const ns = w.metadata.namespace ?? 'default';
  const name = w.metadata.name ?? 'workload';
  const seed = opts.seed ?? 0;
  switch (w.kind) {
    case 'Deployment': {
      const d = w as Deployment;
      const existing = opts.existingReplicaSet;
      const hash = existing?.hash ?? podTemplateHash(d.spec.template);
      const rsName = existing?.name ?? `${name}-${hash}`;
      const n = opts.replicas ?? replicas(d.spec.replicas);
      // The ReplicaSet's pods, whether it exists already or the Deployment controller creates it now.
      const pods = randomPods(
        d.spec.template,
        ns,
        rsName,
        n,
        { kind: 'ReplicaSet', name: rsName, apiVersion: 'apps/v1' },
        { 'pod-template-hash': hash },
        seed,
      );
      const creator = { kind: 'ReplicaSet', name: rsName };
      if (existing) return { owned: [], claims: [], pods, creator };
      const rs: KObject = {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: {
          name: rsName,
          namespace: ns,
          labels: { ...(d.spec.template.metadata?.labels ?? {}), 'pod-template-hash': hash },
          ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name, controller: true }],
        },
        spec: { replicas: n, selector: d.spec.selector, template: d.spec.template },
      };
      return { owned: [rs], claims: [], pods, creator };
    }
    case 'ReplicaSet': {
      const r = w as ReplicaSet;
      const n = opts.replicas ?? replicas(r.spec.replicas);
      return {
        owned: [],
        claims: [],
        pods: randomPods(r.spec.template, ns, name, n, { kind: 'ReplicaSet', name, apiVersion: 'apps/v1' }, {}, seed),
        creator: { kind: 'ReplicaSet', name },
      };
    }
    case 'StatefulSet': {
      const s = w as StatefulSet;
      const n = opts.replicas ?? replicas(s.spec.replicas);
      const pods: Pod[] = [];
      const claims: KObject[] = [];
      const start = opts.seed ?? 0;
      for (let i = start; i < start + n; i++) {
        const podName = `${name}-${i}`;
        const pod = podFromTemplate(
          s.spec.template,
          ns,
          podName,
          { kind: 'StatefulSet', name, apiVersion: 'apps/v1' },
          { 'statefulset.kubernetes.io/pod-name': podName, 'apps.kubernetes.io/pod-index': String(i) },
        );
        for (const tpl of (s.spec.volumeClaimTemplates ?? []) as PersistentVolumeClaim[]) {
          const claimName = `${tpl.metadata?.name ?? 'data'}-${podName}`;
          claims.push({
            apiVersion: 'v1',
            kind: 'PersistentVolumeClaim',
            metadata: { ...(tpl.metadata ?? {}), name: claimName, namespace: ns },
            spec: clone(tpl.spec ?? {}),
          } as KObject);
          const vols = (pod.spec.volumes ??= []);
          if (!vols.some((v) => v.name === tpl.metadata?.name))
            vols.push({ name: tpl.metadata?.name ?? 'data', persistentVolumeClaim: { claimName } });
        }
        pods.push(pod);
      }
      return { owned: [], claims, pods, creator: { kind: 'StatefulSet', name } };
    }
    case 'Job': {
      const j = w as Job;
      const par = replicas(j.spec.parallelism);
      const n =
        opts.replicas ??
        (j.spec.completions !== undefined && j.spec.completions !== null ? Math.min(par, j.spec.completions) : par);
      return {
        owned: [],
        claims: [],
        pods: randomPods(
          j.spec.template,
          ns,
          name,
          n,
          { kind: 'Job', name, apiVersion: 'batch/v1' },
          { 'job-name': name, 'batch.kubernetes.io/job-name': name },
          seed,
        ),
        creator: { kind: 'Job', name },
      };
    }
    case 'CronJob': {
      const c = w as CronJob;
      const jobName = `${name}-${29000000 + seed}`;
      const spec = c.spec.jobTemplate.spec;
      const par = replicas(spec.parallelism);
      const n =
        opts.replicas ??
        (spec.completions !== undefined && spec.completions !== null ? Math.min(par, spec.completions) : par);
      const job: KObject = {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: {
          name: jobName,
          namespace: ns,
          ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name, controller: true }],
        },
        spec: clone(spec),
      };
      return {
        owned: [job],
        claims: [],
        pods: randomPods(
          spec.template,
          ns,
          jobName,
          n,
          { kind: 'Job', name: jobName, apiVersion: 'batch/v1' },
          { 'job-name': jobName },
          seed,
        ),
        creator: { kind: 'Job', name: jobName },
      };
    }
    case 'DaemonSet': {
      const d = w as DaemonSet;
      const pods: Pod[] = [];
      let i = seed;
      for (const node of opts.nodes ?? []) {
        const nodeName = node.metadata.name ?? '';
        const pod = podFromTemplate(d.spec.template, ns, `${name}-${generateNameSuffix(`${ns}/${name}/${i++}`)}`, {
          kind: 'DaemonSet',
          name,
          apiVersion: 'apps/v1',
        });
        // The DaemonSet controller pins each pod with a required matchFields term on metadata.name.
        pod.spec.affinity = {
          ...(pod.spec.affinity ?? {}),
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] }],
            },
          },
        };
        pod.spec.tolerations = [...(pod.spec.tolerations ?? []), ...DAEMONSET_TOLERATIONS];
        if (opts.nodeEligible && !opts.nodeEligible(pod, node)) continue;
        pods.push(pod);
      }
      return { owned: [], claims: [], pods, creator: { kind: 'DaemonSet', name } };
    }
    default:
      return { owned: [], claims: [], pods: [], creator: { kind: String((w as KObject).kind), name } };
  }
}

/** Tolerations the DaemonSet controller adds to its pods (pkg/controller/daemon/util). */
const DAEMONSET_TOLERATIONS = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
];

/** The pod template of a workload. */
export function workloadTemplate(w: Workload): PodTemplate {
  return w.kind === 'CronJob' ? (w as CronJob).spec.jobTemplate.spec.template : (w as Deployment).spec.template;
}

export function workloadReplicas(w: Workload): number {
  switch (w.kind) {
    case 'Deployment':
    case 'ReplicaSet':
    case 'StatefulSet':
      return replicas((w as Deployment).spec.replicas);
    case 'Job':
      return replicas((w as Job).spec.parallelism);
    default:
      return 1;
  }
}

/** maxSurge / maxUnavailable of a rolling update, resolved against the replica count (intstr rules). */
export function surgeBudget(d: Deployment): {
  strategy: string;
  maxSurge: number;
  maxUnavailable: number;
  peakPods: number;
} {
  const n = replicas(d.spec.replicas);
  const strategy = d.spec.strategy?.type ?? 'RollingUpdate';
  if (strategy === 'Recreate') return { strategy, maxSurge: 0, maxUnavailable: n, peakPods: n };
  const ru = d.spec.strategy?.rollingUpdate;
  const resolve = (v: number | string | null | undefined, dflt: string, roundUp: boolean) => {
    const val = v ?? dflt;
    if (typeof val === 'number') return val;
    const pct = Number(val.replace('%', ''));
    const raw = (pct * n) / 100;
    return roundUp ? Math.ceil(raw) : Math.floor(raw);
  };
  const maxSurge = resolve(ru?.maxSurge, '25%', true);
  let maxUnavailable = resolve(ru?.maxUnavailable, '25%', false);
  // Both zero is invalid; the controller treats maxUnavailable as 1 then (ResolveFenceposts).
  if (maxSurge === 0 && maxUnavailable === 0) maxUnavailable = 1;
  return { strategy, maxSurge, maxUnavailable, peakPods: n + maxSurge };
}
