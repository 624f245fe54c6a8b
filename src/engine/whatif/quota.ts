/** "raise pods of team-quota to 14". */
import type { Pod } from '../../k8s/objects.ts';
import type { Snapshot } from '../../k8s/snapshot.ts';
import { Quantity } from '../../quantity.ts';
import { nodeInfoIndex } from '../scheduler/node-info.ts';
import { withQuotaHard } from '../quota-ledger.ts';
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
  const fork = withQuotaHard(state.fork(), namespace, quotaName, resource, Quantity.parse(value), opts.now);
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
  };
}
