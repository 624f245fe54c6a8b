/**
 * The ReplicaSet controller against upstream (pkg/controller/replicaset/replica_set.go): which pods
 * getPodsToDelete takes first (controller.ActivePodsWithRanks), slowStartBatch ending at the first refusal.
 */
import { describe, expect, it } from 'vitest';
import { converge } from '../../../src/engine/converge.ts';
import { rankPodsForDeletion } from '../../../src/engine/controllers/replica_set.ts';
import type { Pod } from '../../../src/k8s/objects.ts';
import type { KObject } from '../../../src/k8s/snapshot.ts';
import { node, pod, quota, replicaSet, snapshotOf } from '../../support/builders.ts';

function p(
  name: string,
  o: { node?: string; phase?: string; ready?: boolean; restarts?: number; created?: string },
): Pod {
  const x = pod(name, { node: o.node, phase: o.phase });
  if (o.ready !== undefined)
    x.status = { ...x.status, conditions: [{ type: 'Ready', status: o.ready ? 'True' : 'False' }] };
  if (o.restarts !== undefined)
    x.status = { ...x.status, containerStatuses: [{ name: 'c', restartCount: o.restarts }] };
  if (o.created) x.metadata.creationTimestamp = o.created;
  return x;
}

describe('getPodsToDelete order (ActivePodsWithRanks)', () => {
  it.each([
    ['unassigned before assigned', [p('a', { node: 'n1' }), p('b', {})], ['b', 'a']],
    [
      'Pending before Running',
      [p('a', { node: 'n1', phase: 'Running' }), p('b', { node: 'n2', phase: 'Pending' })],
      ['b', 'a'],
    ],
    ['not ready before ready', [p('a', { node: 'n1', ready: true }), p('b', { node: 'n2', ready: false })], ['b', 'a']],
    [
      'more siblings on the node first',
      [p('a', { node: 'n1', ready: true }), p('b', { node: 'n2', ready: true }), p('c', { node: 'n2', ready: true })],
      ['b', 'c', 'a'],
    ],
    ['more restarts first', [p('a', { node: 'n1', restarts: 0 }), p('b', { node: 'n2', restarts: 3 })], ['b', 'a']],
    [
      'newer first',
      [
        p('a', { node: 'n1', created: '2026-01-01T00:00:00Z' }),
        p('b', { node: 'n2', created: '2026-02-01T00:00:00Z' }),
      ],
      ['b', 'a'],
    ],
  ] as [string, Pod[], string[]][])('%s', (_name, pods, order) => {
    expect(rankPodsForDeletion(pods, pods).map((x) => x.metadata.name)).toEqual(order);
  });
});

describe('manageReplicas', () => {
  function state(podsHard: string) {
    const objects: KObject[] = [
      node('n1', { cpu: '8' }),
      quota('q', { namespace: 'ns', hard: { pods: podsHard }, used: { pods: '1' } }),
      replicaSet('rs', { namespace: 'ns', replicas: 1, requests: { cpu: '100m' } }),
      pod('rs-aaaaa', {
        namespace: 'ns',
        cpu: '100m',
        node: 'n1',
        labels: { app: 'rs' },
        container: 'app',
        owner: { kind: 'ReplicaSet', name: 'rs' },
      }) as KObject,
    ];
    return snapshotOf(...objects);
  }

  it('creates in slow-start batches and stops at the first refused create (pods 4: 3 created, then refused)', () => {
    const r = converge(state('4'), [
      { kind: 'scale', target: { kind: 'ReplicaSet', namespace: 'ns', name: 'rs' }, replicas: 10 },
    ]);
    const creates = r.events.filter((e) => e.type === 'SuccessfulCreate' || e.type === 'FailedCreate');
    // Batches 1, 2 (3 created, pods 4/4), then a batch of 4: all 4 refused, the remaining 2 skipped.
    // Binding the new pods updates them, which syncs the ReplicaSet again: a new first batch of 1, refused.
    expect(creates.map((e) => [e.type, 'count' in e ? e.count : 0])).toEqual([
      ['SuccessfulCreate', 3],
      ['FailedCreate', 4],
      ['FailedCreate', 1],
    ]);
    expect(r.workloads[0]).toMatchObject({ wanted: 10, pods: 4, created: 3, complete: false });
    expect(r.workloads[0]!.failedCreate).toMatch(
      /exceeded quota: q, requested: pods=1, used: pods=4, limited: pods=4$/,
    );
  });

  it('scaling down deletes the unscheduled pod first', () => {
    const s = state('10');
    s.put(
      pod('rs-ppppp', {
        namespace: 'ns',
        cpu: '100m',
        labels: { app: 'rs' },
        owner: { kind: 'ReplicaSet', name: 'rs' },
      }) as KObject,
    );
    const rs = s.get('ReplicaSet', 'ns', 'rs')!;
    s.put({ ...rs, spec: { ...rs.spec, replicas: 2 } });
    const r = converge(s, [
      { kind: 'scale', target: { kind: 'ReplicaSet', namespace: 'ns', name: 'rs' }, replicas: 1 },
    ]);
    expect(r.evicted).toEqual(['ns/rs-ppppp']);
  });
});
