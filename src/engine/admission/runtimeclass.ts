/**
 * RuntimeClass admission (plugin/pkg/admission/runtimeclass/admission.go, v1.35; on by default, CREATE of pods
 * only, never a subresource).
 *
 * - `prepareObjects`: a pod naming a RuntimeClass that does not exist is refused
 *   (`pod rejected: RuntimeClass "<name>" not found`).
 * - `Admit` → `setOverhead`: the class's `overhead.podFixed` becomes `spec.overhead` (refused when the pod set a
 *   different one), so quota (pods.go podComputeUsageHelper) and the scheduler's NodeResourcesFit count it;
 *   `setScheduling`: the class's `scheduling.nodeSelector` is merged into the pod's (a conflicting value is
 *   refused) and its tolerations merged with the pod's (pkg/util/tolerations MergeTolerations).
 * - `Validate` → `validateOverhead`: a pod whose overhead differs from its class's, or that sets an overhead
 *   without a class defining one, is refused. This runs with the validating plugins, after object validation.
 */
import type { Pod, RuntimeClass, Toleration } from '../../k8s/objects.ts';
import type { Snapshot } from '../../k8s/snapshot.ts';
import { resourceList } from '../../quantity.ts';

export type RuntimeClassAdmit = { pod: Pod; error?: undefined } | { pod: Pod; error: string };

/** apiequality.Semantic.DeepEqual of two ResourceLists: the same names, quantities equal by value. */
function sameResources(a: Record<string, unknown> | null | undefined, b: Record<string, unknown> | null | undefined) {
  if (!a || !b) return !a === !b;
  const x = resourceList(a);
  const y = resourceList(b);
  if (x.size !== y.size) return false;
  for (const [k, v] of x) {
    const w = y.get(k);
    if (!w || !v.eq(w)) return false;
  }
  return true;
}

function sameToleration(a: Toleration, b: Toleration): boolean {
  return (
    (a.key ?? '') === (b.key ?? '') &&
    (a.operator ?? '') === (b.operator ?? '') &&
    (a.value ?? '') === (b.value ?? '') &&
    (a.effect ?? '') === (b.effect ?? '') &&
    (a.tolerationSeconds ?? null) === (b.tolerationSeconds ?? null)
  );
}

/** pkg/util/tolerations isSuperset: whether `ss` tolerates everything `t` does. */
export function isSuperset(ss: Toleration, t: Toleration): boolean {
  if (sameToleration(ss, t)) return true;
  // An empty key with Exists matches every key.
  if ((t.key ?? '') !== (ss.key ?? '') && ((ss.key ?? '') !== '' || ss.operator !== 'Exists')) return false;
  // An empty effect matches every effect.
  if ((t.effect ?? '') !== (ss.effect ?? '') && (ss.effect ?? '') !== '') return false;
  if (ss.effect === 'NoExecute' && ss.tolerationSeconds !== undefined && ss.tolerationSeconds !== null) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds === null || t.tolerationSeconds > ss.tolerationSeconds)
      return false;
  }
  switch (ss.operator ?? '') {
    case 'Equal':
    case '':
      return t.operator === 'Equal' && (t.value ?? '') === (ss.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/** pkg/util/tolerations MergeTolerations: both lists, a toleration another one covers dropped (the first of equals kept). */
export function mergeTolerations(first: readonly Toleration[], second: readonly Toleration[]): Toleration[] {
  const all = [...first, ...second];
  const merged: Toleration[] = [];
  next: for (let i = 0; i < all.length; i++) {
    const t = all[i]!;
    for (const m of merged) if (isSuperset(m, t)) continue next;
    for (const t2 of all.slice(i + 1)) if (!sameToleration(t, t2) && isSuperset(t2, t)) continue next;
    merged.push(t);
  }
  return merged;
}

function lookup(snapshot: Snapshot, pod: Pod): { rc: RuntimeClass | null; error?: string } {
  const name = pod.spec.runtimeClassName;
  if (name === undefined || name === null) return { rc: null };
  const rc = snapshot.get('RuntimeClass', undefined, name);
  if (!rc) return { rc: null, error: `pod rejected: RuntimeClass "${name}" not found` };
  return { rc };
}

/** The mutating half (`Admit`): overhead and scheduling copied from the pod's class. */
export function admitRuntimeClass(pod: Pod, snapshot: Snapshot): RuntimeClassAdmit {
  const { rc, error } = lookup(snapshot, pod);
  if (error) return { pod, error };
  if (!rc) return { pod };
  let out = pod;
  const podFixed = rc.overhead?.podFixed;
  if (podFixed) {
    if (pod.spec.overhead && !sameResources(podFixed, pod.spec.overhead))
      return { pod, error: "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead" };
    out = { ...out, spec: { ...out.spec, overhead: { ...podFixed } } };
  }
  const sched = rc.scheduling;
  if (sched) {
    const runtimeSelector = sched.nodeSelector ?? {};
    let selector = out.spec.nodeSelector;
    if (!selector) {
      selector = sched.nodeSelector ? { ...runtimeSelector } : selector;
    } else {
      selector = { ...selector };
      // Go ranges over a map: the first conflict found is random upstream; here in key order.
      for (const key of Object.keys(runtimeSelector).sort()) {
        const rcValue = runtimeSelector[key]!;
        const podValue = selector[key];
        if (podValue !== undefined && podValue !== rcValue)
          return {
            pod,
            error: `conflict: runtimeClass.scheduling.nodeSelector[${key}] = ${rcValue}; pod.spec.nodeSelector[${key}] = ${podValue}`,
          };
        selector[key] = rcValue;
      }
    }
    const tolerations = mergeTolerations(out.spec.tolerations ?? [], sched.tolerations ?? []);
    out = { ...out, spec: { ...out.spec, nodeSelector: selector, tolerations } };
  }
  return { pod: out };
}

/** The validating half (`Validate` → validateOverhead): null when the pod's overhead is its class's. */
export function validateRuntimeClass(pod: Pod, snapshot: Snapshot): string | null {
  const { rc, error } = lookup(snapshot, pod);
  if (error) return error;
  const podFixed = rc?.overhead?.podFixed;
  if (podFixed) {
    if (!sameResources(podFixed, pod.spec.overhead))
      return "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead";
  } else if (pod.spec.overhead) {
    return 'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead';
  }
  return null;
}
