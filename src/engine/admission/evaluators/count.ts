/**
 * Generic object-count evaluator (apiserver/pkg/quota/v1/generic): `count/<resource>[.<group>]`, plus
 * the legacy names some core resources are also charged under.
 */
import { Quantity } from '../../../quantity.ts';
import type { Evaluator } from './types.ts';

const LEGACY_NAMES = new Set(['configmaps', 'secrets', 'replicationcontrollers', 'resourcequotas']);

export function countResourceName(resource: string, group: string): string {
  return group ? `count/${resource}.${group}` : `count/${resource}`;
}

export function countEvaluator(resource: string, group: string): Evaluator {
  const name = countResourceName(resource, group);
  const legacy = !group && LEGACY_NAMES.has(resource) ? resource : undefined;
  return {
    resource,
    group,
    handles: (operation, subresource) => operation === 'CREATE' && subresource === '',
    matchingResources: (names) => names.filter((n) => n === name || n === legacy),
    matchesScope: () => false,
    constraints: () => null,
    usage: () => {
      const out = new Map([[name, Quantity.fromInt(1)]]);
      if (legacy) out.set(legacy, Quantity.fromInt(1));
      return out;
    },
  };
}
