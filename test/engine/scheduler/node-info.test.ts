import { describe, expect, it } from 'vitest';
import { nodeInfoIndex } from '../../../src/engine/scheduler/node-info.ts';
import { bindPod, findLargestFreeNodes } from '../../../src/engine/scheduler/schedule.ts';
import { node, pod, snapshotOf } from '../../support/builders.ts';

describe('node-info index', () => {
  it('sums requests of non-terminal bound pods (cpu milli, memory bytes) and counts pods', () => {
    const s = snapshotOf(node('n1'), pod('a', { node: 'n1', cpu: '250m', memory: '1Gi' }), pod('b', { node: 'n1', cpu: '0.5' }), pod('done', { node: 'n1', cpu: '2', phase: 'Succeeded' }), pod('pending', { cpu: '1' }));
    const info = nodeInfoIndex(s).get('n1')!;
    expect(info.requested.cpu).toBe(750);
    expect(info.requested.memory).toBe(1024 ** 3);
    expect(info.pods.size).toBe(2);
    // Scoring defaults only: b has no memory request → 200Mi.
    expect(info.nonZeroRequested.memory).toBe(1024 ** 3 + 200 * 1024 ** 2);
    expect(info.allocatable.cpu).toBe(4000);
    expect(info.allowedPods).toBe(110);
  });

  it('follows puts and removes incrementally', () => {
    const s = snapshotOf(node('n1'), pod('a', { node: 'n1', cpu: '1' }));
    const index = nodeInfoIndex(s);
    s.put(pod('b', { node: 'n1', cpu: '2' }));
    expect(index.get('n1')!.requested.cpu).toBe(3000);
    s.put(pod('a', { node: 'n1', cpu: '1', phase: 'Failed' }));
    expect(index.get('n1')!.requested.cpu).toBe(2000);
    s.remove('Pod', 'default', 'b');
    expect(index.get('n1')!.requested.cpu).toBe(0);
    expect(index.get('n1')!.pods.size).toBe(0);
  });

  it('forks copy-on-write: a child never changes the parent', () => {
    const parent = snapshotOf(node('n1'), node('n2'), pod('a', { node: 'n1', cpu: '1' }));
    const before = nodeInfoIndex(parent).get('n1')!;
    const child = parent.fork();
    bindPod(child, pod('b', { cpu: '2' }), 'n1');
    expect(nodeInfoIndex(child).get('n1')!.requested.cpu).toBe(3000);
    expect(nodeInfoIndex(parent).get('n1')!.requested.cpu).toBe(1000);
    expect(nodeInfoIndex(parent).get('n1')).toBe(before);
    // Untouched nodes stay shared.
    expect(nodeInfoIndex(child).get('n2')).toBe(nodeInfoIndex(parent).get('n2'));
  });

  it('lists nodes by name and ignores pods on unknown nodes until the node appears', () => {
    const s = snapshotOf(node('b'), pod('x', { node: 'ghost', cpu: '1' }), node('a'));
    const index = nodeInfoIndex(s);
    expect(index.nodeNames()).toEqual(['a', 'b']);
    s.put(node('ghost'));
    expect(index.nodeNames()).toEqual(['a', 'b', 'ghost']);
    expect(index.get('ghost')!.requested.cpu).toBe(1000);
  });

  it('ranks free headroom of schedulable nodes', () => {
    const s = snapshotOf(node('a', { cpu: '4' }), node('b', { cpu: '8' }), node('c', { cpu: '16', unschedulable: true }), pod('p', { node: 'b', cpu: '6', memory: '1Gi' }));
    expect(findLargestFreeNodes(s, 2)).toEqual([
      { node: 'a', cpuMilli: 4000, memoryBytes: 8 * 1024 ** 3, pods: 110 },
      { node: 'b', cpuMilli: 2000, memoryBytes: 7 * 1024 ** 3, pods: 109 },
    ]);
  });
});
