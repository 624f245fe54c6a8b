/**
 * The one priority resolver, shared by admission (the Priority admission plugin,
 * plugin/pkg/admission/priority/admission.go) and the scheduler (a pod's priority in its cycle and as a
 * preemption victim).
 *
 * - A pod naming a class gets that class's value; the two system classes exist in every cluster (the
 *   API server creates them at start-up), so a snapshot without their objects still resolves them.
 * - A pod naming no class gets the global default class; with several global defaults (a race upstream
 *   tolerates) the one with the lowest value; with none, priority 0 and no class.
 */
import type { PriorityClass } from '../k8s/objects.ts';
import type { Snapshot } from '../k8s/snapshot.ts';

/** scheduling.SystemPriorityClasses (pkg/apis/scheduling/types.go): SystemCriticalPriority = 2000000000. */
export const SYSTEM_PRIORITY_CLASSES: Readonly<Record<string, number>> = Object.freeze({
  'system-cluster-critical': 2000000000,
  'system-node-critical': 2000001000,
});

/** scheduling.DefaultPriorityWhenNoDefaultClassExists. */
export const DEFAULT_PRIORITY = 0;

/** v1.PreemptLowerPriority: the policy of a class (or pod) that states none. */
export const DEFAULT_PREEMPTION_POLICY = 'PreemptLowerPriority';

export type PriorityResolution =
  /** No class named and no global default: priority 0. */
  | { kind: 'none'; value: number }
  /** The class was found (an object in the snapshot, or a system class). */
  | { kind: 'class'; className: string; value: number; preemptionPolicy: string | undefined }
  /** The pod names a class the snapshot does not hold. */
  | { kind: 'missing'; className: string };

/** getDefaultPriorityClass: the global default class with the lowest value. */
export function defaultPriorityClass(classes: readonly PriorityClass[]): PriorityClass | undefined {
  let best: PriorityClass | undefined;
  for (const c of classes) if (c.globalDefault && (best === undefined || c.value < best.value)) best = c;
  return best;
}

/** Resolves the class a pod names (or, with no name, the global default) against the snapshot. */
export function resolvePriorityClass(snapshot: Snapshot, className: string | null | undefined): PriorityResolution {
  const classes = snapshot.list('PriorityClass');
  let name = className ?? '';
  let pc: PriorityClass | undefined;
  if (name === '') {
    pc = defaultPriorityClass(classes);
    if (!pc) return { kind: 'none', value: DEFAULT_PRIORITY };
    name = pc.metadata.name ?? '';
  } else {
    pc = classes.find((c) => c.metadata.name === name);
  }
  const value = pc?.value ?? SYSTEM_PRIORITY_CLASSES[name];
  if (value === undefined) return { kind: 'missing', className: name };
  return { kind: 'class', className: name, value, preemptionPolicy: pc?.preemptionPolicy ?? undefined };
}

/**
 * The priority and preemption policy the scheduler uses for a pod: `spec.priority` (set by admission)
 * when present, else what admission would have set; a class missing from the snapshot counts as 0.
 */
export function podPriority(
  snapshot: Snapshot,
  spec: { priority?: number | null; priorityClassName?: string | null; preemptionPolicy?: string | null },
): { priority: number; preemptionPolicy: string } {
  const r = resolvePriorityClass(snapshot, spec.priorityClassName);
  const fromClass = r.kind === 'missing' ? DEFAULT_PRIORITY : r.value;
  const classPolicy = r.kind === 'class' ? r.preemptionPolicy : undefined;
  return {
    priority: spec.priority ?? fromClass,
    preemptionPolicy: spec.preemptionPolicy ?? classPolicy ?? DEFAULT_PREEMPTION_POLICY,
  };
}
