import type { ScopeRequirement } from '../../../k8s/objects.ts';
import type { KObject } from '../../../k8s/snapshot.ts';
import type { ResourceList } from '../../../quantity.ts';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE';

export interface UsageContext {
  /** Current time as epoch milliseconds (the engine has no clock: callers pass it). */
  now?: number;
  podLevelResources?: boolean;
}

/** A quota evaluator (apiserver/pkg/quota/v1 Evaluator), one per resource kind. */
export interface Evaluator {
  resource: string;
  group: string;
  handles(operation: Operation, subresource: string, obj: KObject, old?: KObject): boolean;
  /** The subset of quota resource names this evaluator tracks. */
  matchingResources(names: string[]): string[];
  matchesScope(req: ScopeRequirement, obj: KObject): boolean;
  /** "must specify" style constraints; a message or null. */
  constraints(required: string[], obj: KObject): string | null;
  usage(obj: KObject, ctx: UsageContext): ResourceList;
}
