import { describe, expect, it } from 'vitest';
import type { KObject } from '../../../src/k8s/snapshot.ts';
import { schedulePod } from '../../../src/engine/scheduler/schedule.ts';
import { node, pod, snapshotOf } from '../../support/builders.ts';

describe('DefaultPreemption', () => {
  it.each<[string, KObject[], ReturnType<typeof pod>, { nominatedNode: string; victims: string[] }]>([
    [
      'removes only what is needed, reprieving the most important first',
      [
        node('n1', { cpu: '4' }),
        pod('low-1', { node: 'n1', cpu: '1', priority: 1 }),
        pod('low-2', { node: 'n1', cpu: '1', priority: 2 }),
        pod('low-3', { node: 'n1', cpu: '2', priority: 3 }),
      ],
      pod('web', { cpu: '2', priority: 10 }),
      // Reprieve order low-3 (fits back), low-2 (no: only 0 left), low-1 (no).
      { nominatedNode: 'n1', victims: ['default/low-2', 'default/low-1'] },
    ],
    [
      'picks the node whose highest victim has the lowest priority',
      [
        node('a', { cpu: '2' }),
        node('b', { cpu: '2' }),
        pod('pa', { node: 'a', cpu: '2', priority: 5 }),
        pod('pb', { node: 'b', cpu: '2', priority: 1 }),
      ],
      pod('web', { cpu: '1', priority: 10 }),
      { nominatedNode: 'b', victims: ['default/pb'] },
    ],
    [
      'then fewest victims',
      [
        node('a', { cpu: '2' }),
        node('b', { cpu: '2' }),
        pod('a1', { node: 'a', cpu: '1', priority: 1 }),
        pod('a2', { node: 'a', cpu: '1', priority: 1 }),
        pod('b1', { node: 'b', cpu: '2', priority: 1 }),
      ],
      pod('web', { cpu: '2', priority: 10 }),
      { nominatedNode: 'b', victims: ['default/b1'] },
    ],
    [
      'equal-priority pods are never victims',
      [
        node('a', { cpu: '2' }),
        node('b', { cpu: '2' }),
        pod('a1', { node: 'a', cpu: '2', priority: 10 }),
        pod('b1', { node: 'b', cpu: '2', priority: 9 }),
      ],
      pod('web', { cpu: '1', priority: 10 }),
      { nominatedNode: 'b', victims: ['default/b1'] },
    ],
  ])('%s', (_n, objects, incoming, want) => {
    const r = schedulePod(snapshotOf(...objects), incoming);
    expect(r.scheduled).toBe(false);
    expect({ nominatedNode: r.nominatedNode, victims: r.victims }).toEqual(want);
    // Success: only the first sentence.
    expect(r.message).toMatch(/^0\/\d+ nodes are available: [^.]*\.$/);
  });

  it('resolves priority from the PriorityClass when spec.priority is unset', () => {
    const pc: KObject = { kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000 };
    const r = schedulePod(
      snapshotOf(node('n1', { cpu: '1' }), pc, pod('low', { node: 'n1', cpu: '1', priority: 0 })),
      pod('web', { cpu: '1', priorityClassName: 'high' }),
    );
    expect(r.victims).toEqual(['default/low']);
  });

  it('preemptionPolicy Never from the class', () => {
    const pc: KObject = {
      kind: 'PriorityClass',
      metadata: { name: 'high-np' },
      value: 1000,
      preemptionPolicy: 'Never',
    };
    const r = schedulePod(
      snapshotOf(node('n1', { cpu: '1' }), pc, pod('low', { node: 'n1', cpu: '1', priority: 0 })),
      pod('web', { cpu: '1', priorityClassName: 'high-np' }),
    );
    expect(r.message).toBe(
      '0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, preemption: not eligible due to preemptionPolicy=Never.',
    );
  });

  it('mixed nodes: unresolvable, no victims, still insufficient', () => {
    const objs = [
      node('cp', { cpu: '8', taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] }),
      node('eq', { cpu: '2' }),
      node('big', { cpu: '2' }),
      pod('same', { node: 'eq', cpu: '2', priority: 5 }),
      pod('tiny-low', { node: 'big', cpu: '500m', priority: 1 }),
      pod('big-high', { node: 'big', cpu: '1500m', priority: 9 }),
    ];
    expect(schedulePod(snapshotOf(...objs), pod('web', { cpu: '1', priority: 5 })).message).toBe(
      '0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 1 Insufficient cpu, 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.',
    );
  });

  it('not eligible while a victim of an earlier preemption is terminating on the nominated node', () => {
    const victim = pod('low', { node: 'n1', cpu: '1', priority: 0 });
    victim.metadata.deletionTimestamp = '2025-01-01T00:00:00Z';
    victim.status!.conditions = [{ type: 'DisruptionTarget', status: 'True', reason: 'PreemptionByScheduler' }];
    const r = schedulePod(
      snapshotOf(node('n1', { cpu: '1' }), victim),
      pod('web', { cpu: '1', priority: 10, nominatedNodeName: 'n1' }),
      { draEnabled: false },
    );
    expect(r.message).toBe(
      '0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to a terminating pod on the nominated node.',
    );
  });

  it('victims are removed from the topology-spread counts during the simulation', () => {
    const nodes = [node('a1', { cpu: '1', labels: { zone: 'a' } }), node('b1', { cpu: '1', labels: { zone: 'b' } })];
    const spread = [
      {
        maxSkew: 1,
        topologyKey: 'zone',
        whenUnsatisfiable: 'DoNotSchedule',
        labelSelector: { matchLabels: { app: 'web' } },
      },
    ];
    const objs = [
      ...nodes,
      pod('wa', { node: 'a1', cpu: '1', labels: { app: 'web' }, priority: 0 }),
      pod('batch', { node: 'b1', cpu: '1', priority: 0 }),
    ];
    const r = schedulePod(
      snapshotOf(...objs),
      pod('w2', { cpu: '1', labels: { app: 'web' }, priority: 10, topologySpreadConstraints: spread }),
    );
    // a1 fails spread (1 + 1 − 0 > 1) and resources; b1 needs `batch` gone. Preempting wa on a1 also works:
    // both have one victim of priority 0, so the name decides.
    expect(r.nominatedNode).toBe('a1');
    expect(r.victims).toEqual(['default/wa']);
  });
});
