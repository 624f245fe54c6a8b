/**
 * What two convergences (or two states) are compared by in the shared-base and settle tests: everything a
 * convergence reports with every pod of its state and where it runs (`summary`), and a state as its
 * objects and node sums say (`digest`: what a leaked write would change).
 */
import type { Convergence } from '../../src/engine/converge.ts';
import { freeResources, nodeInfoIndex } from '../../src/engine/scheduler/node-info.ts';
import type { Snapshot } from '../../src/k8s/snapshot.ts';

/** Everything a convergence reports, and every pod of its state with its node, nomination and phase. */
export function summary(r: Convergence): string {
  const pods = r.state
    .list('Pod')
    .map(
      (p) =>
        `${p.metadata.namespace}/${p.metadata.name} ${p.spec.nodeName ?? '-'} ${p.status?.nominatedNodeName ?? ''} ${p.status?.phase ?? ''}`,
    )
    .sort();
  const { state: _s, ...rest } = r;
  void _s;
  return JSON.stringify({ ...rest, pods });
}

/** The state as its objects and node sums say: what a leaked write would change. */
export function digest(s: Snapshot): string {
  const index = nodeInfoIndex(s);
  const nodes = index.nodeNames().map((n) => {
    const info = index.get(n)!;
    return [n, freeResources(info), info.pods.size, info.nominated.size];
  });
  const pods = s.list('Pod').map((p) => [p.metadata.namespace, p.metadata.name, p.spec.nodeName ?? null]);
  return JSON.stringify({ nodes, pods, rs: s.list('ReplicaSet').map((r) => [r.metadata.name, r.spec.replicas]) });
}
