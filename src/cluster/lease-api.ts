/**
 * The Lease client of the cross-replica dedupe (src/slack/lease-dedupe.ts): client-node's
 * CoordinationV1Api on the kubeconfig the bot reads the cluster with (`loadKubeConfig`: KUBECONFIG,
 * ~/.kube/config, then the in-cluster service account). Throws one clear line when there is none.
 */
import { CoordinationV1Api, CoreV1Api } from '@kubernetes/client-node';
import { loadKubeConfig } from './live-source.ts';

export function leaseApi(env: NodeJS.ProcessEnv = process.env): CoordinationV1Api {
  return loadKubeConfig({ env }).makeApiClient(CoordinationV1Api);
}

/**
 * The clients of proactive mode (src/slack/alerts/): the leader Lease and the incidents ConfigMap, in the
 * bot's own namespace, on the same kubeconfig.
 */
export function alertApis(env: NodeJS.ProcessEnv = process.env): { leases: CoordinationV1Api; configMaps: CoreV1Api } {
  const kc = loadKubeConfig({ env });
  return { leases: kc.makeApiClient(CoordinationV1Api), configMaps: kc.makeApiClient(CoreV1Api) };
}
