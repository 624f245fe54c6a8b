/**
 * The resources LiveSource reads, by API group and version, with the client-node call that lists each
 * one (cluster-wide or in one namespace) and the path its watch uses. `manifests/rbac.yaml` grants
 * exactly these (get/list/watch), and `test/cluster/rbac.test.ts` checks the two agree.
 */
import {
  AppsV1Api,
  BatchV1Api,
  CoreV1Api,
  NodeV1Api,
  PolicyV1Api,
  ResourceV1Api,
  SchedulingV1Api,
  StorageV1Api,
  type ConfigurationOptions,
  type KubeConfig,
} from '@kubernetes/client-node';

export type ResourceName =
  | 'namespaces'
  | 'nodes'
  | 'pods'
  | 'resourcequotas'
  | 'limitranges'
  | 'persistentvolumeclaims'
  | 'services'
  | 'events'
  | 'deployments'
  | 'replicasets'
  | 'statefulsets'
  | 'daemonsets'
  | 'jobs'
  | 'cronjobs'
  | 'priorityclasses'
  | 'storageclasses'
  | 'runtimeclasses'
  | 'poddisruptionbudgets'
  | 'csinodes'
  | 'csidrivers'
  | 'resourceclaims'
  | 'deviceclasses'
  | 'resourceslices';

/** Query parameters every list call takes (client-node names `continue` `_continue`). */
export interface ListParams {
  limit?: number;
  _continue?: string;
  fieldSelector?: string;
  resourceVersion?: string;
  resourceVersionMatch?: string;
}

export interface Apis {
  core: CoreV1Api;
  apps: AppsV1Api;
  batch: BatchV1Api;
  scheduling: SchedulingV1Api;
  storage: StorageV1Api;
  node: NodeV1Api;
  policy: PolicyV1Api;
  resource: ResourceV1Api;
}

export function makeApis(kc: KubeConfig): Apis {
  return {
    core: kc.makeApiClient(CoreV1Api),
    apps: kc.makeApiClient(AppsV1Api),
    batch: kc.makeApiClient(BatchV1Api),
    scheduling: kc.makeApiClient(SchedulingV1Api),
    storage: kc.makeApiClient(StorageV1Api),
    node: kc.makeApiClient(NodeV1Api),
    policy: kc.makeApiClient(PolicyV1Api),
    resource: kc.makeApiClient(ResourceV1Api),
  };
}

type ListCall = (apis: Apis, p: ListParams, namespace: string | undefined, o: ConfigurationOptions) => Promise<unknown>;

export interface ResourceDef {
  resource: ResourceName;
  kind: string;
  /** '' for the core group. */
  group: string;
  version: string;
  namespaced: boolean;
  list: ListCall;
}

function def(
  resource: ResourceName,
  kind: string,
  group: string,
  version: string,
  namespaced: boolean,
  list: ListCall,
): ResourceDef {
  return { resource, kind, group, version, namespaced, list };
}

export const RESOURCES: Record<ResourceName, ResourceDef> = {
  namespaces: def('namespaces', 'Namespace', '', 'v1', false, (a, p, _ns, o) => a.core.listNamespace(p, o)),
  nodes: def('nodes', 'Node', '', 'v1', false, (a, p, _ns, o) => a.core.listNode(p, o)),
  priorityclasses: def('priorityclasses', 'PriorityClass', 'scheduling.k8s.io', 'v1', false, (a, p, _ns, o) =>
    a.scheduling.listPriorityClass(p, o),
  ),
  storageclasses: def('storageclasses', 'StorageClass', 'storage.k8s.io', 'v1', false, (a, p, _ns, o) =>
    a.storage.listStorageClass(p, o),
  ),
  // RuntimeClass admission copies a class's overhead and scheduling onto the pod (engine/admission/runtimeclass.ts).
  runtimeclasses: def('runtimeclasses', 'RuntimeClass', 'node.k8s.io', 'v1', false, (a, p, _ns, o) =>
    a.node.listRuntimeClass(p, o),
  ),
  // NodeVolumeLimits counts attachable volumes per driver from CSINode; CSIDriver says which drivers attach.
  csinodes: def('csinodes', 'CSINode', 'storage.k8s.io', 'v1', false, (a, p, _ns, o) => a.storage.listCSINode(p, o)),
  csidrivers: def('csidrivers', 'CSIDriver', 'storage.k8s.io', 'v1', false, (a, p, _ns, o) =>
    a.storage.listCSIDriver(p, o),
  ),
  // DynamicResources (resource.k8s.io/v1, GA in 1.34): a cluster that does not serve the group answers 404,
  // and the resource is then absent, not unread (reflector.ts).
  deviceclasses: def('deviceclasses', 'DeviceClass', 'resource.k8s.io', 'v1', false, (a, p, _ns, o) =>
    a.resource.listDeviceClass(p, o),
  ),
  resourceslices: def('resourceslices', 'ResourceSlice', 'resource.k8s.io', 'v1', false, (a, p, _ns, o) =>
    a.resource.listResourceSlice(p, o),
  ),
  resourceclaims: def('resourceclaims', 'ResourceClaim', 'resource.k8s.io', 'v1', true, (a, p, ns, o) =>
    ns
      ? a.resource.listNamespacedResourceClaim({ ...p, namespace: ns }, o)
      : a.resource.listResourceClaimForAllNamespaces(p, o),
  ),
  pods: def('pods', 'Pod', '', 'v1', true, (a, p, ns, o) =>
    ns ? a.core.listNamespacedPod({ ...p, namespace: ns }, o) : a.core.listPodForAllNamespaces(p, o),
  ),
  resourcequotas: def('resourcequotas', 'ResourceQuota', '', 'v1', true, (a, p, ns, o) =>
    ns
      ? a.core.listNamespacedResourceQuota({ ...p, namespace: ns }, o)
      : a.core.listResourceQuotaForAllNamespaces(p, o),
  ),
  limitranges: def('limitranges', 'LimitRange', '', 'v1', true, (a, p, ns, o) =>
    ns ? a.core.listNamespacedLimitRange({ ...p, namespace: ns }, o) : a.core.listLimitRangeForAllNamespaces(p, o),
  ),
  persistentvolumeclaims: def('persistentvolumeclaims', 'PersistentVolumeClaim', '', 'v1', true, (a, p, ns, o) =>
    ns
      ? a.core.listNamespacedPersistentVolumeClaim({ ...p, namespace: ns }, o)
      : a.core.listPersistentVolumeClaimForAllNamespaces(p, o),
  ),
  services: def('services', 'Service', '', 'v1', true, (a, p, ns, o) =>
    ns ? a.core.listNamespacedService({ ...p, namespace: ns }, o) : a.core.listServiceForAllNamespaces(p, o),
  ),
  events: def('events', 'Event', '', 'v1', true, (a, p, ns, o) =>
    ns ? a.core.listNamespacedEvent({ ...p, namespace: ns }, o) : a.core.listEventForAllNamespaces(p, o),
  ),
  // A drain's evictions are checked against the PodDisruptionBudgets (engine/controllers/disruption.ts).
  poddisruptionbudgets: def('poddisruptionbudgets', 'PodDisruptionBudget', 'policy', 'v1', true, (a, p, ns, o) =>
    ns
      ? a.policy.listNamespacedPodDisruptionBudget({ ...p, namespace: ns }, o)
      : a.policy.listPodDisruptionBudgetForAllNamespaces(p, o),
  ),
  deployments: def('deployments', 'Deployment', 'apps', 'v1', true, (a, p, ns, o) =>
    ns ? a.apps.listNamespacedDeployment({ ...p, namespace: ns }, o) : a.apps.listDeploymentForAllNamespaces(p, o),
  ),
  replicasets: def('replicasets', 'ReplicaSet', 'apps', 'v1', true, (a, p, ns, o) =>
    ns ? a.apps.listNamespacedReplicaSet({ ...p, namespace: ns }, o) : a.apps.listReplicaSetForAllNamespaces(p, o),
  ),
  statefulsets: def('statefulsets', 'StatefulSet', 'apps', 'v1', true, (a, p, ns, o) =>
    ns ? a.apps.listNamespacedStatefulSet({ ...p, namespace: ns }, o) : a.apps.listStatefulSetForAllNamespaces(p, o),
  ),
  daemonsets: def('daemonsets', 'DaemonSet', 'apps', 'v1', true, (a, p, ns, o) =>
    ns ? a.apps.listNamespacedDaemonSet({ ...p, namespace: ns }, o) : a.apps.listDaemonSetForAllNamespaces(p, o),
  ),
  jobs: def('jobs', 'Job', 'batch', 'v1', true, (a, p, ns, o) =>
    ns ? a.batch.listNamespacedJob({ ...p, namespace: ns }, o) : a.batch.listJobForAllNamespaces(p, o),
  ),
  cronjobs: def('cronjobs', 'CronJob', 'batch', 'v1', true, (a, p, ns, o) =>
    ns ? a.batch.listNamespacedCronJob({ ...p, namespace: ns }, o) : a.batch.listCronJobForAllNamespaces(p, o),
  ),
};

export const ALL_RESOURCES = Object.keys(RESOURCES) as ResourceName[];

/** The URL path of a resource's collection: what a watch requests (`?watch=true` is added by client-node). */
export function collectionPath(d: ResourceDef, namespace?: string): string {
  const base = d.group === '' ? `/api/${d.version}` : `/apis/${d.group}/${d.version}`;
  return namespace && d.namespaced
    ? `${base}/namespaces/${encodeURIComponent(namespace)}/${d.resource}`
    : `${base}/${d.resource}`;
}
