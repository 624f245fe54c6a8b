/**
 * NamespaceLifecycle admission (staging/src/k8s.io/apiserver/pkg/admission/plugin/namespace/lifecycle/admission.go,
 * `Lifecycle.Admit`, v1.35): the first plugin of the default chain. A namespaced object cannot be created or
 * updated in a namespace that does not exist (the live lookup's NotFound, returned as is: 404
 * `namespaces "<ns>" not found`), and nothing new can be created in a namespace whose phase is Terminating
 * (403 `… is forbidden: unable to create new content in namespace <ns> because it is being terminated`).
 *
 * The engine knows a namespace is missing only when the state lists namespaces at all: a state without any
 * Namespace object (a folder of manifests, a case without `namespaces`) says nothing about them.
 */
import type { Snapshot } from '../../k8s/snapshot.ts';
import type { Operation } from './evaluators/types.ts';

/** The namespaces the API server keeps alive (NewLifecycle's immortalNamespaces, plus the node-lease one it creates). */
const IMMORTAL: readonly string[] = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

export type LifecycleRefusal =
  | { reason: 'not-found'; httpStatus: 404; message: string }
  | { reason: 'terminating'; httpStatus: 403; message: string };

/** Null when the namespace admits the operation; otherwise the refusal (its message unwrapped for 403). */
export function admitNamespaceLifecycle(
  snapshot: Snapshot,
  namespace: string,
  operation: Operation,
): LifecycleRefusal | null {
  // Deletions are always allowed; Namespace objects themselves are cluster-scoped and never reach here.
  if (operation === 'DELETE') return null;
  const ns = snapshot.get('Namespace', undefined, namespace);
  if (!ns) {
    if (IMMORTAL.includes(namespace) || snapshot.count('Namespace') === 0 || snapshot.hasNamespace(namespace))
      return null;
    // errors.NewNotFound(namespaces, name) from the live Get.
    return { reason: 'not-found', httpStatus: 404, message: `namespaces "${namespace}" not found` };
  }
  if (operation === 'CREATE' && ns.status?.phase === 'Terminating') {
    return {
      reason: 'terminating',
      httpStatus: 403,
      message: `unable to create new content in namespace ${namespace} because it is being terminated`,
    };
  }
  return null;
}
