/**
 * Pod resource aggregation shared by quota, the scheduler and LimitRanger's Pod type
 * (component-helpers/resource/helpers.go PodRequests / PodLimits, v1.35; docs/kubernetes-semantics.md §5).
 */
import type { Container, Pod } from '../k8s/objects.ts';
import { Quantity, addLists, byteCompare, maxLists, resourceList, type ResourceList } from '../quantity.ts';

export interface AggregateOptions {
  /** Leave out `spec.overhead` (LimitRanger's Pod type does). */
  excludeOverhead?: boolean;
  /** Honour pod-level `spec.resources` (PodLevelResources, on by default since 1.34). */
  podLevelResources?: boolean;
  /** Use container statuses too (in-place resize: quota and already-assigned pods). */
  useStatusResources?: boolean;
  /**
   * Pod-level override limited to cpu and memory. LimitRanger keeps its own copy of
   * isSupportedPodLevelResource (plugin/pkg/admission/limitranger/admission.go:
   * `supportedPodLevelResources = sets.New(ResourceCPU, ResourceMemory)`), which, unlike
   * component-helpers, does not accept hugepages-*.
   */
  podLevelCpuMemoryOnly?: boolean;
}

export function isSidecar(c: Container): boolean {
  return c.restartPolicy === 'Always';
}

export function containerRequests(c: Container): ResourceList {
  return resourceList(c.resources?.requests);
}

export function containerLimits(c: Container): ResourceList {
  return resourceList(c.resources?.limits);
}

/** Pod-level resource names that replace the container aggregate (IsSupportedPodLevelResource). */
export function isSupportedPodLevelResource(name: string): boolean {
  return name === 'cpu' || name === 'memory' || name.startsWith('hugepages-');
}

function hasPodLevel(list: Record<string, unknown> | null | undefined): boolean {
  return !!list && Object.keys(list).some(isSupportedPodLevelResource);
}

export function podLevelRequestsSet(pod: Pod): boolean {
  return hasPodLevel(pod.spec.resources?.requests);
}

export function podLevelLimitsSet(pod: Pod): boolean {
  return hasPodLevel(pod.spec.resources?.limits);
}

function resizeInfeasible(pod: Pod): boolean {
  return !!pod.status?.conditions?.some((c) => c.type === 'PodResizePending' && c.reason === 'Infeasible');
}

function statusOf(pod: Pod, name: string, init: boolean) {
  const list = init ? pod.status?.initContainerStatuses : pod.status?.containerStatuses;
  return list?.find((s) => s.name === name);
}

function effectiveContainer(
  pod: Pod,
  c: Container,
  init: boolean,
  which: 'requests' | 'limits',
  opts: AggregateOptions,
): ResourceList {
  const spec = which === 'requests' ? containerRequests(c) : containerLimits(c);
  if (!opts.useStatusResources) return spec;
  const st = statusOf(pod, c.name, init);
  if (!st) return spec;
  // In-place resize: max(spec, allocated, actuated) for requests; max(spec, actuated) for limits.
  let out: ResourceList = resizeInfeasible(pod) ? new Map() : spec;
  if (which === 'requests' && st.allocatedResources) out = maxLists(out, resourceList(st.allocatedResources));
  const actuated = which === 'requests' ? st.resources?.requests : st.resources?.limits;
  if (actuated) out = maxLists(out, resourceList(actuated));
  return out;
}

function aggregate(pod: Pod, which: 'requests' | 'limits', opts: AggregateOptions): ResourceList {
  let total: ResourceList = new Map();
  for (const c of pod.spec.containers) total = addLists(total, effectiveContainer(pod, c, false, which, opts));
  let sidecars: ResourceList = new Map();
  let initMax: ResourceList = new Map();
  for (const ic of pod.spec.initContainers ?? []) {
    const own = effectiveContainer(pod, ic, true, which, opts);
    let candidate: ResourceList;
    if (isSidecar(ic)) {
      total = addLists(total, own);
      sidecars = addLists(sidecars, own);
      candidate = sidecars;
    } else {
      candidate = addLists(own, sidecars);
    }
    initMax = maxLists(initMax, candidate);
  }
  let result = maxLists(total, initMax);
  const podLevel = which === 'requests' ? pod.spec.resources?.requests : pod.spec.resources?.limits;
  if ((opts.podLevelResources ?? true) && hasPodLevel(podLevel)) {
    result = new Map(result);
    const supported = opts.podLevelCpuMemoryOnly
      ? (k: string) => k === 'cpu' || k === 'memory'
      : isSupportedPodLevelResource;
    for (const [k, v] of Object.entries(podLevel!)) if (supported(k)) result.set(k, Quantity.parse(v));
  }
  if (!opts.excludeOverhead && pod.spec.overhead) {
    const overhead = resourceList(pod.spec.overhead);
    if (which === 'requests') result = addLists(result, overhead);
    else {
      result = new Map(result);
      for (const [k, v] of overhead) {
        const cur = result.get(k);
        if (cur) result.set(k, cur.add(v));
      }
    }
  }
  return result;
}

export function podRequests(pod: Pod, opts: AggregateOptions = {}): ResourceList {
  return aggregate(pod, 'requests', opts);
}

/**
 * A pod's requests as a reply shows them per pod: cpu and memory, and with `extended` also the
 * extended resources (names with a `/`, e.g. `nvidia.com/gpu`); canonical text, names in byte order.
 * The pod is one admission has produced (defaults applied).
 */
export function perPodRequests(admitted: Pod, opts: { extended: boolean }): Record<string, string> {
  const out: Record<string, string> = {};
  const req = podRequests(admitted);
  for (const k of [...req.keys()].sort(byteCompare)) {
    if (k === 'cpu' || k === 'memory' || (opts.extended && k.includes('/'))) out[k] = req.get(k)!.toString();
  }
  return out;
}

export function podLimits(pod: Pod, opts: AggregateOptions = {}): ResourceList {
  return aggregate(pod, 'limits', opts);
}

export type QOSClass = 'BestEffort' | 'Burstable' | 'Guaranteed';

/** GetPodQOS (pkg/apis/core/v1/helper/qos), summing algorithm of v1.35 (docs/kubernetes-semantics.md §2.5). */
export function podQOS(pod: Pod, podLevelResources = true): QOSClass {
  const given = pod.status?.qosClass;
  if (given === 'BestEffort' || given === 'Burstable' || given === 'Guaranteed') return given;
  const computeRes = (n: string) => n === 'cpu' || n === 'memory';
  let requests: ResourceList = new Map();
  let limits: ResourceList = new Map();
  let isGuaranteed = true;
  const visit = (req: ResourceList, lim: ResourceList) => {
    for (const [k, v] of req) if (computeRes(k) && v.sign() > 0) requests = addLists(requests, new Map([[k, v]]));
    const qosLimitsFound = new Set<string>();
    for (const [k, v] of lim) {
      if (computeRes(k) && v.sign() > 0) {
        qosLimitsFound.add(k);
        limits = addLists(limits, new Map([[k, v]]));
      }
    }
    if (!(qosLimitsFound.has('cpu') && qosLimitsFound.has('memory'))) isGuaranteed = false;
  };
  if (
    podLevelResources &&
    (pod.spec.resources?.requests || pod.spec.resources?.limits) &&
    (podLevelRequestsSet(pod) || podLevelLimitsSet(pod))
  ) {
    visit(resourceList(pod.spec.resources?.requests), resourceList(pod.spec.resources?.limits));
  } else {
    for (const c of [...pod.spec.containers, ...(pod.spec.initContainers ?? [])])
      visit(containerRequests(c), containerLimits(c));
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (isGuaranteed) {
    for (const [k, v] of requests) {
      const l = limits.get(k);
      if (!l?.eq(v)) {
        isGuaranteed = false;
        break;
      }
    }
  }
  if (isGuaranteed && requests.size === limits.size) return 'Guaranteed';
  return 'Burstable';
}

/** Pods that no longer hold resources: Succeeded/Failed (the scheduler and quota both skip them). */
export function isTerminal(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}
