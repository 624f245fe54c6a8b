/**
 * Service quota evaluator (pkg/quota/v1/evaluator/core/services.go).
 */
import type { Service } from '../../../k8s/objects.ts';
import { Quantity, type ResourceList } from '../../../quantity.ts';
import type { Evaluator } from './types.ts';

const SERVICE_RESOURCES = new Set(['services', 'count/services', 'services.loadbalancers', 'services.nodeports']);

export function serviceUsage(svc: Service): ResourceList {
  const type = svc.spec?.type ?? 'ClusterIP';
  const ports = svc.spec?.ports ?? [];
  let nodePorts = 0;
  if (type === 'NodePort') nodePorts = ports.length;
  else if (type === 'LoadBalancer') {
    // With allocateLoadBalancerNodePorts: false only explicitly set node ports count.
    nodePorts =
      svc.spec?.allocateLoadBalancerNodePorts === false
        ? ports.filter((p) => (p.nodePort ?? 0) !== 0).length
        : ports.length;
  }
  return new Map([
    ['count/services', Quantity.fromInt(1)],
    ['services', Quantity.fromInt(1)],
    ['services.loadbalancers', Quantity.fromInt(type === 'LoadBalancer' ? 1 : 0)],
    ['services.nodeports', Quantity.fromInt(nodePorts)],
  ]);
}

export const serviceEvaluator: Evaluator = {
  resource: 'services',
  group: '',
  handles: (operation, subresource) => (operation === 'CREATE' || operation === 'UPDATE') && subresource === '',
  matchingResources: (names) => names.filter((n) => SERVICE_RESOURCES.has(n)),
  matchesScope: () => false,
  constraints: () => null,
  usage: (obj) => serviceUsage(obj as Service),
};
