/**
 * "raise pods of team-quota to 14": the quota edit as a change (a merge patch of spec.hard), converged —
 * controllers of the namespace refused by the quota before (a ReplicaSet short of pods) try again and may
 * take the room — then how many pods of the default shape fit before and after, and the one command.
 */
import type { Pod } from '../../k8s/objects.ts';
import type { Snapshot } from '../../k8s/snapshot.ts';
import { Quantity } from '../../quantity.ts';
import { nodeInfoIndex } from '../scheduler/node-info.ts';
import { type ChangeAnswer, whatIfChange } from './change.ts';
import type { SimOptions } from '../simulate.ts';
import { countFits } from '../headroom.ts';

export interface QuotaChangeAnswer {
  namespace: string;
  quota: string;
  resource: string;
  from: string | null;
  to: string;
  defaultPodBefore: number;
  defaultPodAfter: number;
  limitedByAfter: string | null;
  /** The edit converged: its command, the workloads that now create their pods. */
  converged: ChangeAnswer;
}

export function whatIfQuota(
  state: Snapshot,
  namespace: string,
  quotaName: string,
  resource: string,
  value: string,
  opts: SimOptions = {},
): QuotaChangeAnswer | null {
  const q = state.get('ResourceQuota', namespace, quotaName);
  if (!q) return null;
  const v = Quantity.parse(value).toString();
  nodeInfoIndex(state);
  const converged = whatIfChange(state, { kind: 'quota', namespace, name: quotaName, hard: { [resource]: v } }, opts);
  const fork = converged.state;
  const probe = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'quota-doctor-probe', namespace },
    spec: { containers: [{ name: 'app', image: 'app' }] },
  } as Pod;
  const before = countFits(state, probe, opts);
  const after = countFits(fork, probe, opts);
  return {
    namespace,
    quota: quotaName,
    resource,
    from: q.status?.hard?.[resource] !== undefined ? Quantity.parse(q.status.hard[resource]).toString() : null,
    to: v,
    defaultPodBefore: before.fits,
    defaultPodAfter: after.fits,
    limitedByAfter: after.limitedBy,
    converged,
  };
}
