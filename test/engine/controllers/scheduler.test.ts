/**
 * The scheduler's preemption inside convergence (pkg/scheduler/framework/preemption): the victims are
 * deleted, the preemptor binds on the next attempt, and the victims' controllers re-create them — which
 * then wait Pending themselves.
 */
import { describe, expect, it } from 'vitest';
import { converge } from '../../../src/engine/converge.ts';
import type { KObject } from '../../../src/k8s/snapshot.ts';
import { deployment, node, pod, priorityClass, replicaSet, snapshotOf } from '../../support/builders.ts';

describe('preemption victims re-created by their controllers', () => {
  it('a high-priority pod evicts a low one; its ReplicaSet re-creates it and it waits', () => {
    const objects: KObject[] = [
      node('n1', { cpu: '2' }),
      priorityClass('high', 1000),
      replicaSet('filler', { namespace: 'ns', replicas: 2, requests: { cpu: '1' } }),
      pod('filler-aaaaa', {
        namespace: 'ns',
        cpu: '1',
        node: 'n1',
        container: 'app',
        labels: { app: 'filler' },
        owner: { kind: 'ReplicaSet', name: 'filler' },
      }) as KObject,
      pod('filler-bbbbb', {
        namespace: 'ns',
        cpu: '1',
        node: 'n1',
        container: 'app',
        labels: { app: 'filler' },
        owner: { kind: 'ReplicaSet', name: 'filler' },
      }) as KObject,
    ];
    const vip = deployment('vip', { namespace: 'ns', replicas: 0, requests: { cpu: '1' } });
    vip.spec.template.spec.priorityClassName = 'high';
    objects.push(vip);
    const r = converge(snapshotOf(...objects), [
      { kind: 'scale', target: { kind: 'Deployment', namespace: 'ns', name: 'vip' }, replicas: 1 },
    ]);
    expect(r.bounded).toBe(false);
    const preempted = r.events.filter((e) => e.type === 'Preempted');
    expect(preempted).toHaveLength(1);
    expect(r.evicted).toHaveLength(1);
    const filler = r.workloads.find((w) => w.name === 'filler')!;
    expect(filler).toMatchObject({ kind: 'ReplicaSet', wanted: 2, pods: 2, scheduled: 1, created: 1, complete: false });
    expect(filler.pending).toHaveLength(1);
    expect(filler.pending[0]!.message).toMatch(/^0\/1 nodes are available: 1 Insufficient cpu\./);
    expect(r.workloads.find((w) => w.name === 'vip')).toMatchObject({ wanted: 1, scheduled: 1, complete: true });
  });
});
