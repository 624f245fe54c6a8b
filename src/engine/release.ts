/**
 * Taking a pod out of the state the way deletion does: it leaves its node and every matching quota
 * gets its usage back (the quota ledger's release).
 */
import type { Pod } from '../k8s/objects.ts';
import type { Snapshot } from '../k8s/snapshot.ts';
import { releaseQuotas } from './quota-ledger.ts';

export function releasePod(state: Snapshot, pod: Pod, now?: number): Snapshot {
  const ns = pod.metadata.namespace ?? 'default';
  const name = pod.metadata.name ?? '';
  const stored = state.get('Pod', ns, name) ?? pod;
  state.remove('Pod', ns, name);
  releaseQuotas(state, stored, now);
  return state;
}
