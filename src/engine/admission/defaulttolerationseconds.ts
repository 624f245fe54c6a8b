/**
 * DefaultTolerationSeconds admission (plugin/pkg/admission/defaulttolerationseconds/admission.go, `Plugin.Admit`,
 * v1.35; on by default). Every pod (CREATE and UPDATE, never a subresource) that does not already tolerate
 * `node.kubernetes.io/not-ready:NoExecute` and `node.kubernetes.io/unreachable:NoExecute` gets an `Exists`
 * toleration for each, with `tolerationSeconds: 300` (the --default-*-toleration-seconds flags' default).
 *
 * A toleration counts when its key is that key or empty, and its effect is NoExecute or empty — whatever its
 * operator. So a new pod is never kept off a node tainted only `unreachable:NoExecute` (or `not-ready`).
 */
import type { Pod, Toleration } from '../../k8s/objects.ts';

export const TAINT_NODE_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_NODE_UNREACHABLE = 'node.kubernetes.io/unreachable';
export const DEFAULT_TOLERATION_SECONDS = 300;

function tolerates(list: readonly Toleration[], key: string): boolean {
  return list.some((t) => (t.key === key || !t.key) && (t.effect === 'NoExecute' || !t.effect));
}

/** The pod with the two default tolerations appended where missing (the pod itself when nothing changes). */
export function applyDefaultTolerationSeconds(pod: Pod, seconds = DEFAULT_TOLERATION_SECONDS): Pod {
  const list = pod.spec.tolerations ?? [];
  const add: Toleration[] = [];
  // helper.AddOrUpdateTolerationInPod: nothing matches these exactly (else they would tolerate), so it appends.
  for (const key of [TAINT_NODE_NOT_READY, TAINT_NODE_UNREACHABLE]) {
    if (!tolerates(list, key)) add.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds });
  }
  if (add.length === 0) return pod;
  return { ...pod, spec: { ...pod.spec, tolerations: [...list, ...add] } };
}
