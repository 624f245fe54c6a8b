import { describe, expect, it } from 'vitest';
import { nodeInfoIndex } from '../../../src/engine/scheduler/node-info.ts';
import { bindPod, schedulePod } from '../../../src/engine/scheduler/schedule.ts';
import { Snapshot } from '../../../src/k8s/snapshot.ts';
import { node, pod, snapshotOf } from '../../support/builders.ts';

describe('schedulePod', () => {
  it('no nodes at all', () => {
    expect(schedulePod(new Snapshot(), pod('web')).message).toBe('no nodes available to schedule pods');
  });

  it('gated pods are not attempted', () => {
    expect(schedulePod(snapshotOf(node('n1')), pod('web', { schedulingGates: ['example.com/wait'] }))).toEqual({
      scheduled: false,
      node: null,
      message: null,
      nodeStatuses: new Map(),
      gated: true,
    });
  });

  it.each([
    [
      'least allocated wins',
      [node('a', { cpu: '4' }), node('b', { cpu: '4' }), pod('x', { node: 'a', cpu: '2', memory: '4Gi' })],
      pod('web', { cpu: '1', memory: '1Gi' }),
      'b',
    ],
    [
      'bigger node wins',
      [node('a', { cpu: '2', memory: '4Gi' }), node('b', { cpu: '8', memory: '16Gi' })],
      pod('web', { cpu: '1', memory: '1Gi' }),
      'b',
    ],
    ['tie → smallest name', [node('b'), node('a'), node('c')], pod('web', { cpu: '1' }), 'a'],
    // a: cpu 75% used, memory 200Mi (default) + 1Gi; b: cpu 50%, memory 2Gi → b scores higher.
    [
      'pods without a memory request count 200Mi when scoring',
      [
        node('a', { cpu: '4', memory: '4Gi' }),
        node('b', { cpu: '4', memory: '4Gi' }),
        pod('x', { node: 'a', cpu: '2' }),
        pod('y', { node: 'b', cpu: '1', memory: '1Gi' }),
      ],
      pod('web', { cpu: '1', memory: '1Gi' }),
      'b',
    ],
  ])('%s', (_n, objects, incoming, want) => {
    expect(schedulePod(snapshotOf(...objects), incoming).node).toBe(want);
  });

  it('nominated pods of higher priority hold their place', () => {
    const s = snapshotOf(
      node('a', { cpu: '2' }),
      node('b', { cpu: '2' }),
      pod('nominee', { cpu: '2', priority: 100, nominatedNodeName: 'a' }),
    );
    expect(schedulePod(s, pod('web', { cpu: '1', priority: 0 })).node).toBe('b');
    // A lower-priority nominee does not.
    const s2 = snapshotOf(node('a', { cpu: '2' }), pod('nominee', { cpu: '2', priority: 0, nominatedNodeName: 'a' }));
    expect(schedulePod(s2, pod('web', { cpu: '1', priority: 100 })).node).toBe('a');
  });

  it('bindPod places replicas one after another, updating the index', () => {
    const s = snapshotOf(node('a', { cpu: '2' }), node('b', { cpu: '2' }));
    const placed: string[] = [];
    for (let i = 0; i < 5; i++) {
      const p = pod(`web-${i}`, { cpu: '1' });
      const r = schedulePod(s, p, { draEnabled: false });
      if (!r.scheduled) {
        expect(r.message).toBe(
          '0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.',
        );
        break;
      }
      bindPod(s, p, r.node!);
      placed.push(r.node!);
    }
    expect(placed).toEqual(['a', 'b', 'a', 'b']);
    expect(nodeInfoIndex(s).get('a')!.requested.cpu).toBe(2000);
  });

  it('does not modify the snapshot', () => {
    const s = snapshotOf(node('a', { cpu: '1' }), pod('low', { node: 'a', cpu: '1', priority: 0 }));
    schedulePod(s, pod('web', { cpu: '1', priority: 10 }));
    expect(nodeInfoIndex(s).get('a')!.pods.size).toBe(1);
    expect(s.count('Pod')).toBe(1);
  });
});
