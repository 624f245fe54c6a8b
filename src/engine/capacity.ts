/** Free capacity questions about the nodes, shared by fix generation and diagnosis. */
import type { Node } from '../k8s/objects.ts';
import type { KObject, Snapshot } from '../k8s/snapshot.ts';
import { freeResources, nodeInfoIndex } from './scheduler/node-info.ts';

/** The schedulable, untainted node with the most free cpu (then memory). */
export function largestNode(
  state: Snapshot,
): { node: Node & KObject; name: string; cpu: number; memory: number; pool?: string } | null {
  const index = nodeInfoIndex(state);
  let best: { node: Node & KObject; name: string; cpu: number; memory: number; pool?: string } | null = null;
  for (const name of index.nodeNames()) {
    const info = index.get(name);
    if (!info?.node || info.unschedulable) continue;
    if (info.taints.some((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute')) continue;
    const f = freeResources(info);
    if (!best || f.cpu > best.cpu || (f.cpu === best.cpu && f.memory > best.memory)) {
      const labels = info.labels;
      best = {
        node: info.node as Node & KObject,
        name,
        cpu: f.cpu,
        memory: f.memory,
        pool:
          labels.pool ??
          labels['node-pool'] ??
          labels['cloud.google.com/gke-nodepool'] ??
          labels['eks.amazonaws.com/nodegroup'] ??
          labels.agentpool,
      };
    }
  }
  return best;
}
