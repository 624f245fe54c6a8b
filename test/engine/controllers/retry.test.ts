/**
 * Two convergence cases against upstream:
 * - a controller refused before the snapshot retries once quota frees: the ReplicaSet controller requeues a
 *   sync that failed to create pods (pkg/controller/replicaset/replica_set.go processNextWorkItem →
 *   handleErr → queue.AddRateLimited), so it tries again whatever freed the room;
 * - a rollout inside a `pods` quota with room for exactly the surge pod completes, one surge at a time
 *   (pkg/controller/deployment/rolling.go rolloutRolling: reconcileNewReplicaSet, then
 *   reconcileOldReplicaSets once the new pod is available).
 */
import { describe, expect, it } from 'vitest';
import type { Change } from '../../../src/engine/changes/types.ts';
import { converge } from '../../../src/engine/converge.ts';
import { syncQuotas } from '../../../src/engine/quota-ledger.ts';
import type { Deployment } from '../../../src/k8s/objects.ts';
import type { KObject } from '../../../src/k8s/snapshot.ts';
import { deployment, node, pod, quota, replicaSet, snapshotOf } from '../../support/builders.ts';

function podsOf(rs: string, n: number, offset = 0): KObject[] {
  const out: KObject[] = [];
  for (let i = 0; i < n; i++)
    out.push(
      pod(`${rs}-${String(i + offset).padStart(5, 'x')}`, {
        namespace: 'ns',
        cpu: '100m',
        node: 'n1',
        container: 'app',
        labels: { app: rs.replace(/-old$/, '') },
        owner: { kind: 'ReplicaSet', name: rs },
      }) as KObject,
    );
  return out;
}

/** `web` (Deployment, `web-old`) runs `replicas` pods; `batch` (a bare ReplicaSet) wants 2 and has 1. */
function cluster(
  replicas: number,
  hardPods: number,
  strategy?: NonNullable<Deployment['spec']['strategy']>,
  withBatch = true,
) {
  const d = deployment('web', { namespace: 'ns', replicas, requests: { cpu: '100m' }, strategy });
  const rs = replicaSet('web-old', { namespace: 'ns', owner: 'web', replicas, requests: { cpu: '100m' } });
  rs.metadata.creationTimestamp = '2026-01-01T00:00:00Z';
  const batch = replicaSet('batch', { namespace: 'ns', replicas: 2, requests: { cpu: '100m' } });
  return syncQuotas(
    snapshotOf(
      node('n1', { cpu: '64', memory: '64Gi', pods: '200' }),
      d,
      rs,
      ...(withBatch ? [batch, ...podsOf('batch', 1)] : []),
      quota('q', { namespace: 'ns', hard: { pods: String(hardPods) } }),
      ...podsOf('web-old', replicas),
    ),
    'ns',
  );
}

const web = { kind: 'Deployment', namespace: 'ns', name: 'web' };

describe('a ReplicaSet refused before the snapshot retries when quota frees (replica_set.go handleErr → AddRateLimited)', () => {
  it.each<[string, Change, number, boolean]>([
    ['web scaled 3 → 2 frees one pod: batch creates its second', { kind: 'scale', target: web, replicas: 2 }, 2, true],
    [
      'web scaled 3 → 1 frees two: batch takes one, one stays free',
      { kind: 'scale', target: web, replicas: 1 },
      2,
      true,
    ],
    ['web scaled 3 → 3 frees nothing: batch stays short', { kind: 'scale', target: web, replicas: 3 }, 1, false],
    [
      'the quota raised to 5: batch creates its second',
      { kind: 'quota', namespace: 'ns', name: 'q', hard: { pods: '5' } },
      2,
      true,
    ],
  ])('%s', (_, change, batchPods, complete) => {
    const r = converge(cluster(3, 4), [change]);
    expect(r.bounded).toBe(false);
    const live = r.state.list('Pod', 'ns').filter((p) => p.metadata.name?.startsWith('batch-'));
    expect(live).toHaveLength(batchPods);
    const b = r.workloads.find((w) => w.name === 'batch');
    if (complete) expect(b).toMatchObject({ kind: 'ReplicaSet', wanted: 2, pods: 2, created: 1, complete: true });
    else expect(b).toBeUndefined();
  });
});

describe('a rollout in a pods quota with room for one surge pod completes (rolling.go rolloutRolling)', () => {
  const setResources: Change = { kind: 'setResources', target: web, container: 'app', requests: { cpu: '200m' } };
  function scalings(r: ReturnType<typeof converge>): string[] {
    return r.events.flatMap((e) =>
      e.type === 'ScaledUp' || e.type === 'ScaledDown'
        ? [`${e.replicaSet === 'web-old' ? 'old' : 'new'} ${e.from}→${e.to}`]
        : [],
    );
  }
  it.each<[string, NonNullable<Deployment['spec']['strategy']> | undefined]>([
    ['maxSurge 1, maxUnavailable 0', { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } }],
    ['the defaults 25%/25% (of 3: surge 1, unavailable 0)', undefined],
  ])('pods 4, 3 running, %s: surge 4/4 admitted, old scaled down, next surge …', (_, strategy) => {
    // No `batch` competing here: a pods quota of 4 for web's 3 pods.
    const r = converge(cluster(3, 4, strategy, false), [setResources]);
    expect(r.bounded).toBe(false);
    expect(scalings(r)).toEqual(['new 0→1', 'old 3→2', 'new 1→2', 'old 2→1', 'new 2→3', 'old 1→0']);
    expect(r.events.filter((e) => e.type === 'FailedCreate')).toEqual([]);
    expect(r.workloads).toEqual([
      expect.objectContaining({ name: 'web', wanted: 3, pods: 3, updated: 3, created: 3, complete: true }),
    ]);
    expect(r.state.get('ResourceQuota', 'ns', 'q')?.status?.used?.pods).toBe('3');
  });
});
