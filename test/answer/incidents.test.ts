/**
 * Incidents from the demo cluster (manifests/demo): what proactive mode would report, exact, and when each
 * clears. The demo's clock is 2026-03-10 ~10:00 UTC (its events run up to 09:20).
 */
import { describe, expect, it } from 'vitest';
import { readStateFiles } from '../../src/cluster/file-source.ts';
import { detectIncidents, resolutionLine } from '../../src/answer/incidents.ts';
import type { Pod } from '../../src/k8s/objects.ts';
import type { Snapshot } from '../../src/k8s/snapshot.ts';

const NOW = Date.parse('2026-03-10T10:00:00Z');
const demo = (): Snapshot => readStateFiles('manifests/demo').snapshot;

describe('detectIncidents on the demo cluster', () => {
  it('finds every story, one incident per key, sorted', () => {
    const got = detectIncidents(demo(), { now: NOW, quotaThreshold: () => 80 }).map((i) => [
      i.key,
      i.title,
      i.since,
      i.count,
    ]);
    expect(got).toEqual([
      [
        'batch/Job/nightly-etl-29551740/quota/exceeded:batch-low:requests.cpu',
        "batch: nightly-etl-29551740 can't create pods (ResourceQuota): 8/10 pods",
        '2026-03-10T01:00:01.000Z',
        65,
      ],
      [
        'batch/Pod/reindex-backfill/scheduler/FailedScheduling',
        'batch: pod reindex-backfill Pending',
        '2026-03-10T09:12:09.000Z',
        6,
      ],
      [
        'batch/ResourceQuota/batch-low/quota/threshold:requests.cpu',
        'batch: ResourceQuota batch-low: requests.cpu 20/22 (90%)',
        undefined,
        1,
      ],
      [
        'ml/Job/finetune-7b/scheduler/FailedScheduling',
        'ml: finetune-7b: pod finetune-7b-jmngj Pending',
        '2026-03-10T08:14:27.000Z',
        17,
      ],
      [
        'ml/Pod/notebook-priya/scheduler/FailedScheduling',
        'ml: pod notebook-priya Pending',
        '2026-03-10T09:02:44.000Z',
        9,
      ],
      [
        'team-a/Deployment/api/scheduler/FailedScheduling',
        'team-a: api: pod api-6b9f4c7d8-gnt9f Pending',
        '2026-03-10T07:58:05.000Z',
        21,
      ],
      [
        'team-a/Deployment/exporter/limitrange/limitrange:Container.cpu.ratio',
        "team-a: exporter can't create pods (LimitRange): 0/1 pods",
        '2026-03-10T09:20:11.000Z',
        14,
      ],
      [
        'team-a/Deployment/worker/quota/exceeded:team-quota:pods',
        "team-a: worker can't create pods (ResourceQuota): 2/3 pods",
        '2026-03-10T09:05:31.000Z',
        11,
      ],
      [
        'team-b/Deployment/report-gen/quota/must-specify:compute:limits.cpu,limits.memory',
        "team-b: report-gen can't create pods (ResourceQuota): 0/2 pods",
        '2026-03-10T08:30:00.000Z',
        18,
      ],
    ]);
  });

  it.each([
    ['no threshold: no quota incidents', {}, 8],
    ['threshold 95%: batch-low at 90% is below it', { quotaThreshold: () => 95 }, 8],
    ['only team-a', { namespaces: new Set(['team-a']) }, 3],
    ['only namespaces nobody owns', { namespaces: new Set(['kube-system']) }, 0],
    // Pending pods younger than the threshold are not incidents yet: at 10:00, api (07:58) and finetune-7b
    // (08:14) have waited over an hour, notebook-priya (09:02) and reindex-backfill (09:12) not.
    ['pending after 1 h', { pendingAfterMs: 3_600_000 }, 6],
    ['pending after 1 day: the 4 refused workloads only', { pendingAfterMs: 86_400_000 }, 4],
  ])('%s', (_name, opts, count) => {
    expect(detectIncidents(demo(), { now: NOW, ...opts })).toHaveLength(count);
  });

  it('keeps the fingerprint when only the generated pod name changes, and changes it with the numbers', () => {
    const s = demo();
    const before = detectIncidents(s, { now: NOW, namespaces: new Set(['team-a']) }).find((i) =>
      i.key.includes('worker'),
    )!;
    expect(before.fingerprint).toBe(
      'Error creating: pods "…" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10|2/3',
    );
    expect(before.paste).toBe(
      'Warning  FailedCreate  replicaset/worker-5d8c7b9f4  Error creating: pods "worker-5d8c7b9f4-glpms" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10',
    );
  });
});

function addPodLike(s: Snapshot, ns: string, from: string, name: string): void {
  const p = structuredClone(s.get('Pod', ns, from)) as Pod;
  p.metadata.name = name;
  s.put(p);
}

describe('resolution', () => {
  it('worker: a third pod of its ReplicaSet clears it, and the line says 3/3', () => {
    const s = demo();
    const [worker] = detectIncidents(s, { now: NOW, namespaces: new Set(['team-a']) }).filter((i) =>
      i.key.includes('/worker/'),
    );
    const existing = s.list('Pod', 'team-a').find((p) => p.metadata.name?.startsWith('worker-5d8c7b9f4-'))!;
    addPodLike(s, 'team-a', existing.metadata.name!, 'worker-5d8c7b9f4-new01');
    const after = detectIncidents(s, { now: NOW, namespaces: new Set(['team-a']) }).map((i) => i.key);
    expect(after).not.toContain(worker!.key);
    expect(resolutionLine(worker!, s)).toBe('✅ worker is back to 3/3');
  });

  it('a Pending pod that got a node clears, a deleted bare pod too', () => {
    const s = demo();
    const api = s.list('Pod', 'team-a').find((p) => p.metadata.name === 'api-6b9f4c7d8-gnt9f')!;
    const bound = structuredClone(api) as Pod;
    bound.spec = { ...bound.spec!, nodeName: 'general-c-2' };
    bound.status = { ...bound.status, phase: 'Running' };
    s.put(bound);
    s.remove('Pod', 'batch', 'reindex-backfill');
    const keys = detectIncidents(s, { now: NOW }).map((i) => i.key);
    expect(keys.filter((k) => k.includes('FailedScheduling'))).toEqual([
      'ml/Job/finetune-7b/scheduler/FailedScheduling',
      'ml/Pod/notebook-priya/scheduler/FailedScheduling',
    ]);
  });
});

describe('stalled rollouts', () => {
  it('a new ReplicaSet refused while the old one runs: the rollout of worker is stalled', () => {
    const s = demo();
    // worker's pods move to an older ReplicaSet of the same Deployment; the refused one is the new one.
    const old = structuredClone(s.get('ReplicaSet', 'team-a', 'worker-5d8c7b9f4')!);
    old.metadata = { ...old.metadata, name: 'worker-7f6d5c4b3' };
    s.put(old);
    for (const p of s.list('Pod', 'team-a').filter((x) => x.metadata.name?.startsWith('worker-5d8c7b9f4-'))) {
      const moved = structuredClone(p);
      moved.metadata.ownerReferences = [{ kind: 'ReplicaSet', name: 'worker-7f6d5c4b3', controller: true }];
      s.put(moved);
    }
    const worker = detectIncidents(s, { now: NOW, namespaces: new Set(['team-a']) }).find((i) =>
      i.key.includes('/worker/'),
    );
    expect(worker?.title).toBe('team-a: the rollout of worker is stalled (ResourceQuota): 0/3 pods');
  });

  it('a new ReplicaSet whose pod is Pending while the old one runs: stalled by capacity', () => {
    const s = demo();
    const api = s.list('Pod', 'team-a').find((p) => p.metadata.name === 'api-6b9f4c7d8-gnt9f')!;
    const rsName = api.metadata.ownerReferences![0]!.name;
    const old = structuredClone(s.get('ReplicaSet', 'team-a', rsName)!);
    old.metadata = { ...old.metadata, name: 'api-55d6c8b7f9' };
    s.put(old);
    for (const p of s
      .list('Pod', 'team-a')
      .filter((x) => x.metadata.name?.startsWith(`${rsName}-`) && x.spec?.nodeName)) {
      const moved = structuredClone(p);
      moved.metadata.ownerReferences = [{ kind: 'ReplicaSet', name: 'api-55d6c8b7f9', controller: true }];
      s.put(moved);
    }
    const i = detectIncidents(s, { now: NOW, namespaces: new Set(['team-a']) }).find((x) => x.key.includes('/api/'));
    expect(i?.title).toBe('team-a: the rollout of api is stalled: pod api-6b9f4c7d8-gnt9f Pending');
  });
});
