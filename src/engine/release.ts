/**
 * Taking a pod out of the state the way deletion does: it leaves its node and every matching quota
 * gets its usage back (what the quota controller's recompute would do).
 */
import type { Pod, ResourceQuota } from '../k8s/objects.ts';
import type { KObject, Snapshot } from '../k8s/snapshot.ts';
import { resourceList } from '../quantity.ts';
import { podUsage } from './admission/evaluators/pods.ts';
import { podEvaluator } from './admission/evaluators/pods.ts';
import { quotaMatches } from './admission/resourcequota.ts';

export function releasePod(state: Snapshot, pod: Pod, now?: number): Snapshot {
  const ns = pod.metadata.namespace ?? 'default';
  const name = pod.metadata.name ?? '';
  const stored = state.get<Pod & KObject>('Pod', ns, name) ?? (pod as Pod & KObject);
  const usage = podUsage(stored, { now });
  const ev = podEvaluator();
  state.remove('Pod', ns, name);
  for (const q of state.list<ResourceQuota & KObject>('ResourceQuota', ns)) {
    if (!quotaMatches(ev, q, stored as KObject)) continue;
    const used = resourceList(q.status?.used);
    let changed = false;
    for (const [k, v] of usage) {
      const cur = used.get(k);
      if (cur && q.status?.hard && k in q.status.hard) {
        used.set(k, cur.sub(v));
        changed = true;
      }
    }
    if (changed) state.put({ ...q, status: { ...(q.status ?? {}), used: Object.fromEntries([...used].map(([k, v]) => [k, v.toString()])) } } as KObject);
  }
  return state;
}
