/**
 * zod schemas of the Kubernetes objects quota-doctor reads. Unknown fields pass through (looseObject),
 * so an object keeps everything the user wrote; wrong types are reported with their field path.
 * Quantities stay as the text (or number) the user wrote and are parsed with `src/quantity.ts` when used,
 * but a quantity that does not parse is a schema error here, naming its path.
 */
import { z } from 'zod';
import { Quantity } from '../quantity.ts';

export const quantitySchema = z.union([z.string(), z.number()]).superRefine((v, ctx) => {
  try {
    Quantity.parse(v);
  } catch (e) {
    ctx.addIssue({ code: 'custom', message: e instanceof Error ? e.message : String(e) });
  }
});

export const resourceListSchema = z.record(z.string(), quantitySchema);
export type ResourceListObject = z.infer<typeof resourceListSchema>;

const stringMap = z.record(z.string(), z.string());

export const objectMetaSchema = z.looseObject({
  name: z.string().optional(),
  generateName: z.string().optional(),
  namespace: z.string().optional(),
  uid: z.string().optional(),
  resourceVersion: z.string().optional(),
  labels: stringMap.nullish(),
  annotations: stringMap.nullish(),
  creationTimestamp: z.union([z.string(), z.date()]).nullish(),
  deletionTimestamp: z.union([z.string(), z.date()]).nullish(),
  deletionGracePeriodSeconds: z.number().nullish(),
  ownerReferences: z
    .array(
      z.looseObject({
        kind: z.string(),
        name: z.string(),
        apiVersion: z.string().optional(),
        controller: z.boolean().nullish(),
      }),
    )
    .nullish(),
});
export type ObjectMeta = z.infer<typeof objectMetaSchema>;

export const resourceRequirementsSchema = z.looseObject({
  requests: resourceListSchema.nullish(),
  limits: resourceListSchema.nullish(),
});
export type ResourceRequirements = z.infer<typeof resourceRequirementsSchema>;

export const containerPortSchema = z.looseObject({
  containerPort: z.number().optional(),
  hostPort: z.number().nullish(),
  hostIP: z.string().nullish(),
  protocol: z.string().nullish(),
  name: z.string().nullish(),
});

export const containerSchema = z.looseObject({
  name: z.string(),
  image: z.string().optional(),
  resources: resourceRequirementsSchema.nullish(),
  restartPolicy: z.string().nullish(),
  ports: z.array(containerPortSchema).nullish(),
});
export type Container = z.infer<typeof containerSchema>;

export const labelSelectorRequirementSchema = z.looseObject({
  key: z.string(),
  operator: z.string(),
  values: z.array(z.string()).nullish(),
});
export const labelSelectorSchema = z.looseObject({
  matchLabels: stringMap.nullish(),
  matchExpressions: z.array(labelSelectorRequirementSchema).nullish(),
});
export type LabelSelector = z.infer<typeof labelSelectorSchema>;

export const nodeSelectorTermSchema = z.looseObject({
  matchExpressions: z.array(labelSelectorRequirementSchema).nullish(),
  matchFields: z.array(labelSelectorRequirementSchema).nullish(),
});
export type NodeSelectorTerm = z.infer<typeof nodeSelectorTermSchema>;
export const nodeSelectorSchema = z.looseObject({ nodeSelectorTerms: z.array(nodeSelectorTermSchema) });

export const podAffinityTermSchema = z.looseObject({
  labelSelector: labelSelectorSchema.nullish(),
  namespaces: z.array(z.string()).nullish(),
  namespaceSelector: labelSelectorSchema.nullish(),
  topologyKey: z.string(),
  matchLabelKeys: z.array(z.string()).nullish(),
  mismatchLabelKeys: z.array(z.string()).nullish(),
});
export type PodAffinityTerm = z.infer<typeof podAffinityTermSchema>;
const weightedPodAffinityTermSchema = z.looseObject({ weight: z.number(), podAffinityTerm: podAffinityTermSchema });
const podAffinitySchema = z.looseObject({
  requiredDuringSchedulingIgnoredDuringExecution: z.array(podAffinityTermSchema).nullish(),
  preferredDuringSchedulingIgnoredDuringExecution: z.array(weightedPodAffinityTermSchema).nullish(),
});

export const affinitySchema = z.looseObject({
  nodeAffinity: z
    .looseObject({
      requiredDuringSchedulingIgnoredDuringExecution: nodeSelectorSchema.nullish(),
      preferredDuringSchedulingIgnoredDuringExecution: z.array(z.unknown()).nullish(),
    })
    .nullish(),
  podAffinity: podAffinitySchema.nullish(),
  podAntiAffinity: podAffinitySchema.nullish(),
});
export type Affinity = z.infer<typeof affinitySchema>;

export const tolerationSchema = z.looseObject({
  key: z.string().nullish(),
  operator: z.string().nullish(),
  value: z.string().nullish(),
  effect: z.string().nullish(),
  tolerationSeconds: z.number().nullish(),
});
export type Toleration = z.infer<typeof tolerationSchema>;

export const topologySpreadConstraintSchema = z.looseObject({
  maxSkew: z.number(),
  topologyKey: z.string(),
  whenUnsatisfiable: z.string(),
  labelSelector: labelSelectorSchema.nullish(),
  minDomains: z.number().nullish(),
  nodeAffinityPolicy: z.string().nullish(),
  nodeTaintsPolicy: z.string().nullish(),
  matchLabelKeys: z.array(z.string()).nullish(),
});
export type TopologySpreadConstraint = z.infer<typeof topologySpreadConstraintSchema>;

export const volumeSchema = z.looseObject({
  name: z.string(),
  persistentVolumeClaim: z.looseObject({ claimName: z.string(), readOnly: z.boolean().nullish() }).nullish(),
  ephemeral: z.unknown().optional(),
});

export const podSpecSchema = z.looseObject({
  containers: z.array(containerSchema),
  initContainers: z.array(containerSchema).nullish(),
  ephemeralContainers: z.array(z.unknown()).nullish(),
  nodeName: z.string().nullish(),
  nodeSelector: stringMap.nullish(),
  affinity: affinitySchema.nullish(),
  tolerations: z.array(tolerationSchema).nullish(),
  topologySpreadConstraints: z.array(topologySpreadConstraintSchema).nullish(),
  priority: z.number().nullish(),
  priorityClassName: z.string().nullish(),
  preemptionPolicy: z.string().nullish(),
  runtimeClassName: z.string().nullish(),
  overhead: resourceListSchema.nullish(),
  resources: resourceRequirementsSchema.nullish(),
  activeDeadlineSeconds: z.number().nullish(),
  schedulerName: z.string().nullish(),
  schedulingGates: z.array(z.looseObject({ name: z.string() })).nullish(),
  volumes: z.array(volumeSchema).nullish(),
  hostNetwork: z.boolean().nullish(),
  restartPolicy: z.string().nullish(),
});
export type PodSpec = z.infer<typeof podSpecSchema>;

const containerStatusSchema = z.looseObject({
  name: z.string(),
  allocatedResources: resourceListSchema.nullish(),
  resources: resourceRequirementsSchema.nullish(),
  restartCount: z.number().nullish(),
  state: z.unknown().optional(),
  lastState: z.unknown().optional(),
});

export const podSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.literal('Pod').optional(),
  metadata: objectMetaSchema,
  spec: podSpecSchema,
  status: z
    .looseObject({
      phase: z.string().nullish(),
      qosClass: z.string().nullish(),
      nominatedNodeName: z.string().nullish(),
      reason: z.string().nullish(),
      containerStatuses: z.array(containerStatusSchema).nullish(),
      initContainerStatuses: z.array(containerStatusSchema).nullish(),
      conditions: z
        .array(
          z.looseObject({
            type: z.string(),
            status: z.string(),
            reason: z.string().nullish(),
            message: z.string().nullish(),
          }),
        )
        .nullish(),
    })
    .nullish(),
});
export type Pod = z.infer<typeof podSchema>;

export const podTemplateSchema = z.looseObject({
  metadata: objectMetaSchema.nullish(),
  spec: podSpecSchema,
});
export type PodTemplate = z.infer<typeof podTemplateSchema>;

export const limitRangeItemSchema = z.looseObject({
  type: z.string(),
  max: resourceListSchema.nullish(),
  min: resourceListSchema.nullish(),
  default: resourceListSchema.nullish(),
  defaultRequest: resourceListSchema.nullish(),
  maxLimitRequestRatio: resourceListSchema.nullish(),
});
export type LimitRangeItem = z.infer<typeof limitRangeItemSchema>;

export const limitRangeSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.literal('LimitRange').optional(),
  metadata: objectMetaSchema,
  spec: z.looseObject({ limits: z.array(limitRangeItemSchema) }),
});
export type LimitRange = z.infer<typeof limitRangeSchema>;

export const scopedResourceSelectorRequirementSchema = z.looseObject({
  scopeName: z.string(),
  operator: z.string(),
  values: z.array(z.string()).nullish(),
});
export type ScopeRequirement = z.infer<typeof scopedResourceSelectorRequirementSchema>;

export const resourceQuotaSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.literal('ResourceQuota').optional(),
  metadata: objectMetaSchema,
  spec: z
    .looseObject({
      hard: resourceListSchema.nullish(),
      scopes: z.array(z.string()).nullish(),
      scopeSelector: z
        .looseObject({ matchExpressions: z.array(scopedResourceSelectorRequirementSchema).nullish() })
        .nullish(),
    })
    .nullish(),
  status: z.looseObject({ hard: resourceListSchema.nullish(), used: resourceListSchema.nullish() }).nullish(),
});
export type ResourceQuota = z.infer<typeof resourceQuotaSchema>;

export const pvcSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.literal('PersistentVolumeClaim').optional(),
  metadata: objectMetaSchema,
  spec: z.looseObject({
    accessModes: z.array(z.string()).nullish(),
    resources: resourceRequirementsSchema.nullish(),
    storageClassName: z.string().nullish(),
    volumeName: z.string().nullish(),
    volumeAttributesClassName: z.string().nullish(),
  }),
  status: z
    .looseObject({
      phase: z.string().nullish(),
      allocatedResources: resourceListSchema.nullish(),
      capacity: resourceListSchema.nullish(),
    })
    .nullish(),
});
export type PersistentVolumeClaim = z.infer<typeof pvcSchema>;

export const pvSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.literal('PersistentVolume').optional(),
  metadata: objectMetaSchema,
  spec: z.looseObject({
    capacity: resourceListSchema.nullish(),
    storageClassName: z.string().nullish(),
    claimRef: z.looseObject({ namespace: z.string().nullish(), name: z.string().nullish() }).nullish(),
    nodeAffinity: z.looseObject({ required: nodeSelectorSchema.nullish() }).nullish(),
  }),
  status: z.looseObject({ phase: z.string().nullish() }).nullish(),
});
export type PersistentVolume = z.infer<typeof pvSchema>;

export const serviceSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.literal('Service').optional(),
  metadata: objectMetaSchema,
  spec: z
    .looseObject({
      type: z.string().nullish(),
      ports: z.array(z.looseObject({ port: z.number().optional(), nodePort: z.number().nullish() })).nullish(),
      allocateLoadBalancerNodePorts: z.boolean().nullish(),
    })
    .nullish(),
});
export type Service = z.infer<typeof serviceSchema>;

export const priorityClassSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.literal('PriorityClass').optional(),
  metadata: objectMetaSchema,
  value: z.number(),
  globalDefault: z.boolean().nullish(),
  preemptionPolicy: z.string().nullish(),
});
export type PriorityClass = z.infer<typeof priorityClassSchema>;

export const storageClassSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.literal('StorageClass').optional(),
  metadata: objectMetaSchema,
  provisioner: z.string().optional(),
  volumeBindingMode: z.string().nullish(),
  allowVolumeExpansion: z.boolean().nullish(),
});
export type StorageClass = z.infer<typeof storageClassSchema>;

export const namespaceSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.literal('Namespace').optional(),
  metadata: objectMetaSchema,
  status: z.looseObject({ phase: z.string().nullish() }).nullish(),
});
export type Namespace = z.infer<typeof namespaceSchema>;

/** node.k8s.io/v1 RuntimeClass: what the RuntimeClass admission plugin copies onto a pod (overhead, scheduling). */
export const runtimeClassSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.literal('RuntimeClass').optional(),
  metadata: objectMetaSchema,
  handler: z.string().optional(),
  overhead: z.looseObject({ podFixed: resourceListSchema.nullish() }).nullish(),
  scheduling: z
    .looseObject({ nodeSelector: stringMap.nullish(), tolerations: z.array(tolerationSchema).nullish() })
    .nullish(),
});
export type RuntimeClass = z.infer<typeof runtimeClassSchema>;

/**
 * policy/v1 PodDisruptionBudget: what the eviction API checks a drain's evictions against
 * (engine/controllers/disruption.ts). Read-only: its status is the disruption controller's.
 */
export const podDisruptionBudgetSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.literal('PodDisruptionBudget').optional(),
  metadata: objectMetaSchema,
  spec: z
    .looseObject({
      minAvailable: z.union([z.number(), z.string()]).nullish(),
      maxUnavailable: z.union([z.number(), z.string()]).nullish(),
      selector: labelSelectorSchema.nullish(),
      unhealthyPodEvictionPolicy: z.enum(['IfHealthyBudget', 'AlwaysAllow']).nullish(),
    })
    .nullish(),
  status: z
    .looseObject({
      disruptionsAllowed: z.number().nullish(),
      currentHealthy: z.number().nullish(),
      desiredHealthy: z.number().nullish(),
      expectedPods: z.number().nullish(),
      observedGeneration: z.number().nullish(),
    })
    .nullish(),
});
export type PodDisruptionBudget = z.infer<typeof podDisruptionBudgetSchema>;

export const taintSchema = z.looseObject({ key: z.string(), value: z.string().nullish(), effect: z.string() });
export type Taint = z.infer<typeof taintSchema>;

export const nodeSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.literal('Node').optional(),
  metadata: objectMetaSchema,
  spec: z.looseObject({ unschedulable: z.boolean().nullish(), taints: z.array(taintSchema).nullish() }).nullish(),
  status: z
    .looseObject({
      allocatable: resourceListSchema.nullish(),
      capacity: resourceListSchema.nullish(),
      conditions: z.array(z.looseObject({ type: z.string(), status: z.string() })).nullish(),
    })
    .nullish(),
});
export type Node = z.infer<typeof nodeSchema>;

const workloadMeta = { apiVersion: z.string().optional(), metadata: objectMetaSchema };
const intOrString = z.union([z.number(), z.string()]);

export const deploymentSchema = z.looseObject({
  ...workloadMeta,
  kind: z.literal('Deployment'),
  spec: z.looseObject({
    replicas: z.number().nullish(),
    selector: labelSelectorSchema.nullish(),
    template: podTemplateSchema,
    strategy: z
      .looseObject({
        type: z.string().nullish(),
        rollingUpdate: z
          .looseObject({ maxSurge: intOrString.nullish(), maxUnavailable: intOrString.nullish() })
          .nullish(),
      })
      .nullish(),
  }),
  status: z.looseObject({ replicas: z.number().nullish(), readyReplicas: z.number().nullish() }).nullish(),
});
export const replicaSetSchema = z.looseObject({
  ...workloadMeta,
  kind: z.literal('ReplicaSet'),
  spec: z.looseObject({
    replicas: z.number().nullish(),
    selector: labelSelectorSchema.nullish(),
    template: podTemplateSchema,
  }),
  status: z.looseObject({ replicas: z.number().nullish() }).nullish(),
});
export const statefulSetSchema = z.looseObject({
  ...workloadMeta,
  kind: z.literal('StatefulSet'),
  spec: z.looseObject({
    replicas: z.number().nullish(),
    selector: labelSelectorSchema.nullish(),
    template: podTemplateSchema,
    volumeClaimTemplates: z.array(z.unknown()).nullish(),
  }),
});
export const daemonSetSchema = z.looseObject({
  ...workloadMeta,
  kind: z.literal('DaemonSet'),
  spec: z.looseObject({ selector: labelSelectorSchema.nullish(), template: podTemplateSchema }),
});
export const jobSchema = z.looseObject({
  ...workloadMeta,
  kind: z.literal('Job'),
  spec: z.looseObject({
    parallelism: z.number().nullish(),
    completions: z.number().nullish(),
    template: podTemplateSchema,
  }),
});
export const cronJobSchema = z.looseObject({
  ...workloadMeta,
  kind: z.literal('CronJob'),
  spec: z.looseObject({
    schedule: z.string().optional(),
    jobTemplate: z.looseObject({
      metadata: objectMetaSchema.nullish(),
      spec: z.looseObject({
        parallelism: z.number().nullish(),
        completions: z.number().nullish(),
        template: podTemplateSchema,
      }),
    }),
  }),
});
export type Deployment = z.infer<typeof deploymentSchema>;
export type ReplicaSet = z.infer<typeof replicaSetSchema>;
export type StatefulSet = z.infer<typeof statefulSetSchema>;
export type DaemonSet = z.infer<typeof daemonSetSchema>;
export type Job = z.infer<typeof jobSchema>;
export type CronJob = z.infer<typeof cronJobSchema>;
export type Workload = Deployment | ReplicaSet | StatefulSet | DaemonSet | Job | CronJob;

export const eventSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.literal('Event').optional(),
  metadata: objectMetaSchema,
  involvedObject: z
    .looseObject({ kind: z.string().nullish(), name: z.string().nullish(), namespace: z.string().nullish() })
    .nullish(),
  regarding: z
    .looseObject({ kind: z.string().nullish(), name: z.string().nullish(), namespace: z.string().nullish() })
    .nullish(),
  reason: z.string().nullish(),
  message: z.string().nullish(),
  note: z.string().nullish(),
  type: z.string().nullish(),
  count: z.number().nullish(),
  firstTimestamp: z.union([z.string(), z.date()]).nullish(),
  lastTimestamp: z.union([z.string(), z.date()]).nullish(),
  eventTime: z.union([z.string(), z.date()]).nullish(),
});
export type KEvent = z.infer<typeof eventSchema>;

// --- Volume-plugin and Dynamic Resource Allocation kinds (scheduler: NodeVolumeLimits, DynamicResources) ---

/** storage.k8s.io/v1 CSINode: per-node CSI drivers and their attach limits (`allocatable.count`). */
export const csiNodeSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.literal('CSINode').optional(),
  metadata: objectMetaSchema,
  spec: z
    .looseObject({
      drivers: z
        .array(
          z.looseObject({
            name: z.string(),
            nodeID: z.string().nullish(),
            topologyKeys: z.array(z.string()).nullish(),
            allocatable: z.looseObject({ count: z.number().nullish() }).nullish(),
          }),
        )
        .nullish(),
    })
    .nullish(),
});
export type CSINode = z.infer<typeof csiNodeSchema>;

/** storage.k8s.io/v1 CSIDriver. */
export const csiDriverSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.literal('CSIDriver').optional(),
  metadata: objectMetaSchema,
  spec: z
    .looseObject({
      attachRequired: z.boolean().nullish(),
      storageCapacity: z.boolean().nullish(),
      volumeLifecycleModes: z.array(z.string()).nullish(),
    })
    .nullish(),
});
export type CSIDriver = z.infer<typeof csiDriverSchema>;

const deviceSelectorSchema = z.looseObject({ cel: z.looseObject({ expression: z.string() }).nullish() });
const exactDeviceRequestSchema = z.looseObject({
  deviceClassName: z.string().nullish(),
  selectors: z.array(deviceSelectorSchema).nullish(),
  allocationMode: z.string().nullish(),
  count: z.number().nullish(),
  adminAccess: z.boolean().nullish(),
});

/** resource.k8s.io/v1 ResourceClaim (the requests and, once allocated, the devices). */
export const resourceClaimSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.literal('ResourceClaim').optional(),
  metadata: objectMetaSchema,
  spec: z
    .looseObject({
      devices: z
        .looseObject({
          requests: z
            .array(
              z.looseObject({
                name: z.string(),
                exactly: exactDeviceRequestSchema.nullish(),
                firstAvailable: z.array(exactDeviceRequestSchema.extend({ name: z.string() })).nullish(),
              }),
            )
            .nullish(),
          constraints: z.array(z.unknown()).nullish(),
        })
        .nullish(),
    })
    .nullish(),
  status: z
    .looseObject({
      allocation: z
        .looseObject({
          devices: z
            .looseObject({
              results: z
                .array(
                  z.looseObject({
                    request: z.string().nullish(),
                    driver: z.string(),
                    pool: z.string(),
                    device: z.string(),
                    adminAccess: z.boolean().nullish(),
                  }),
                )
                .nullish(),
            })
            .nullish(),
          nodeSelector: nodeSelectorSchema.nullish(),
        })
        .nullish(),
      reservedFor: z
        .array(z.looseObject({ resource: z.string().nullish(), name: z.string().nullish(), uid: z.string().nullish() }))
        .nullish(),
    })
    .nullish(),
});
export type ResourceClaim = z.infer<typeof resourceClaimSchema>;

/** resource.k8s.io/v1 DeviceClass. */
export const deviceClassSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.literal('DeviceClass').optional(),
  metadata: objectMetaSchema,
  spec: z.looseObject({ selectors: z.array(deviceSelectorSchema).nullish() }).nullish(),
});
export type DeviceClass = z.infer<typeof deviceClassSchema>;

/** resource.k8s.io/v1 ResourceSlice: one driver's devices of one pool, on a node or a set of nodes. */
export const resourceSliceSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.literal('ResourceSlice').optional(),
  metadata: objectMetaSchema,
  spec: z.looseObject({
    driver: z.string(),
    pool: z.looseObject({
      name: z.string(),
      generation: z.number().nullish(),
      resourceSliceCount: z.number().nullish(),
    }),
    nodeName: z.string().nullish(),
    nodeSelector: nodeSelectorSchema.nullish(),
    allNodes: z.boolean().nullish(),
    perDeviceNodeSelection: z.boolean().nullish(),
    devices: z
      .array(
        z.looseObject({
          name: z.string(),
          attributes: z.record(z.string(), z.unknown()).nullish(),
          capacity: z.record(z.string(), z.unknown()).nullish(),
        }),
      )
      .nullish(),
  }),
});
export type ResourceSlice = z.infer<typeof resourceSliceSchema>;
// --- end of volume-plugin and DRA kinds ---

/** Schemas by kind, for every kind the state reader accepts (docs/contract.md). */
export const schemaByKind = {
  Namespace: namespaceSchema,
  Node: nodeSchema,
  Pod: podSchema,
  ResourceQuota: resourceQuotaSchema,
  LimitRange: limitRangeSchema,
  PersistentVolumeClaim: pvcSchema,
  PersistentVolume: pvSchema,
  StorageClass: storageClassSchema,
  PriorityClass: priorityClassSchema,
  RuntimeClass: runtimeClassSchema,
  PodDisruptionBudget: podDisruptionBudgetSchema,
  Service: serviceSchema,
  Deployment: deploymentSchema,
  ReplicaSet: replicaSetSchema,
  StatefulSet: statefulSetSchema,
  DaemonSet: daemonSetSchema,
  Job: jobSchema,
  CronJob: cronJobSchema,
  Event: eventSchema,
  CSINode: csiNodeSchema,
  CSIDriver: csiDriverSchema,
  ResourceClaim: resourceClaimSchema,
  DeviceClass: deviceClassSchema,
  ResourceSlice: resourceSliceSchema,
} as const;
export type KnownKind = keyof typeof schemaByKind;
/**
 * The object type of each known kind. Every object of a known kind that quota-doctor holds went through
 * its schema (decode.ts: user input and state files), through the live cache's projection of that
 * kind (cluster/projection.ts), or was built by code typed by it: so `Snapshot.list('Pod')` is `Pod[]`
 * and `isKind(o, 'Pod')` may narrow on `kind` alone.
 */
export type KindMap = { [K in KnownKind]: z.infer<(typeof schemaByKind)[K]> };
export const WORKLOAD_KINDS = ['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob'] as const;
export type WorkloadKind = (typeof WORKLOAD_KINDS)[number];

export function isKnownKind(kind: unknown): kind is KnownKind {
  return typeof kind === 'string' && Object.hasOwn(schemaByKind, kind);
}

/** An object of kind `kind` (see `KindMap` for why the kind alone tells). */
export function isKind<K extends KnownKind>(o: { kind?: string }, kind: K): o is KindMap[K] {
  return o.kind === kind;
}

export function isWorkloadKind(kind: string): kind is WorkloadKind {
  return (WORKLOAD_KINDS as readonly string[]).includes(kind);
}

/** A Deployment, ReplicaSet, StatefulSet, DaemonSet, Job or CronJob. */
export function isWorkload(o: { kind?: string }): o is Workload {
  return isWorkloadKind(o.kind ?? '');
}

/** Resource (plural, lower case) and API group of a kind, as the API server names it in errors. */
export const RESOURCE_OF_KIND: Record<string, { resource: string; group: string }> = {
  Pod: { resource: 'pods', group: '' },
  PersistentVolumeClaim: { resource: 'persistentvolumeclaims', group: '' },
  Service: { resource: 'services', group: '' },
  ConfigMap: { resource: 'configmaps', group: '' },
  Secret: { resource: 'secrets', group: '' },
  ReplicationController: { resource: 'replicationcontrollers', group: '' },
  ResourceQuota: { resource: 'resourcequotas', group: '' },
  LimitRange: { resource: 'limitranges', group: '' },
  Namespace: { resource: 'namespaces', group: '' },
  Node: { resource: 'nodes', group: '' },
  Event: { resource: 'events', group: '' },
  Deployment: { resource: 'deployments', group: 'apps' },
  ReplicaSet: { resource: 'replicasets', group: 'apps' },
  StatefulSet: { resource: 'statefulsets', group: 'apps' },
  DaemonSet: { resource: 'daemonsets', group: 'apps' },
  Job: { resource: 'jobs', group: 'batch' },
  CronJob: { resource: 'cronjobs', group: 'batch' },
  PriorityClass: { resource: 'priorityclasses', group: 'scheduling.k8s.io' },
  StorageClass: { resource: 'storageclasses', group: 'storage.k8s.io' },
  RuntimeClass: { resource: 'runtimeclasses', group: 'node.k8s.io' },
  PodDisruptionBudget: { resource: 'poddisruptionbudgets', group: 'policy' },
  Ingress: { resource: 'ingresses', group: 'networking.k8s.io' },
  CSINode: { resource: 'csinodes', group: 'storage.k8s.io' },
  CSIDriver: { resource: 'csidrivers', group: 'storage.k8s.io' },
  ResourceClaim: { resource: 'resourceclaims', group: 'resource.k8s.io' },
  DeviceClass: { resource: 'deviceclasses', group: 'resource.k8s.io' },
  ResourceSlice: { resource: 'resourceslices', group: 'resource.k8s.io' },
};

/** The resource of an arbitrary object: known kinds from the table, others by the usual lower-case plural. */
export function resourceOf(kind: string, apiVersion?: string): { resource: string; group: string } {
  const known = RESOURCE_OF_KIND[kind];
  if (known) return known;
  const group = apiVersion?.includes('/') ? apiVersion.split('/')[0]! : '';
  const lower = kind.toLowerCase();
  const plural = lower.endsWith('s') ? `${lower}es` : lower.endsWith('y') ? `${lower.slice(0, -1)}ies` : `${lower}s`;
  return { resource: plural, group };
}

export const CLUSTER_SCOPED_KINDS = new Set([
  'Namespace',
  'Node',
  'PriorityClass',
  'StorageClass',
  'RuntimeClass',
  'PersistentVolume',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'CSINode',
  'CSIDriver',
  'DeviceClass',
  'ResourceSlice',
]);
