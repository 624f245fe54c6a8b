import { describe, expect, it } from 'vitest';
import { makePodEntry, nodeInfoIndex, RequestPool, type PodRequest } from '../../../src/engine/scheduler/node-info.ts';
import { bindPod, findLargestFreeNodes } from '../../../src/engine/scheduler/schedule.ts';
import { node, pod, snapshotOf } from '../../support/builders.ts';

describe('node-info index', () => {
  it('sums requests of non-terminal bound pods (cpu milli, memory bytes) and counts pods', () => {
    const s = snapshotOf(
      node('n1'),
      pod('a', { node: 'n1', cpu: '250m', memory: '1Gi' }),
      pod('b', { node: 'n1', cpu: '0.5' }),
      pod('done', { node: 'n1', cpu: '2', phase: 'Succeeded' }),
      pod('pending', { cpu: '1' }),
    );
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
    const s = snapshotOf(
      node('a', { cpu: '4' }),
      node('b', { cpu: '8' }),
      node('c', { cpu: '16', unschedulable: true }),
      pod('p', { node: 'b', cpu: '6', memory: '1Gi' }),
    );
    expect(findLargestFreeNodes(s, 2)).toEqual([
      { node: 'a', cpuMilli: 4000, memoryBytes: 8 * 1024 ** 3, pods: 110 },
      { node: 'b', cpuMilli: 2000, memoryBytes: 7 * 1024 ** 3, pods: 109 },
    ]);
  });

  describe('RequestPool (owned by an index, not by the module)', () => {
    const v = (
      cpu: number,
      memory: number,
      ephemeralStorage = 0,
      scalars: ReadonlyMap<string, number> = new Map(),
    ): PodRequest => ({ cpu, memory, ephemeralStorage, scalars });
    it.each([
      { name: 'same shape → one shared vector', a: v(100, 1024), b: v(100, 1024), same: true },
      { name: 'cpu differs', a: v(100, 1024), b: v(200, 1024), same: false },
      { name: 'memory differs', a: v(100, 1024), b: v(100, 2048), same: false },
      { name: 'ephemeral storage differs', a: v(100, 1024, 1), b: v(100, 1024, 2), same: false },
      {
        name: 'with scalars: never interned',
        a: v(100, 1024, 0, new Map([['nvidia.com/gpu', 1]])),
        b: v(100, 1024, 0, new Map([['nvidia.com/gpu', 1]])),
        same: false,
      },
    ])('$name', ({ a, b, same }) => {
      const pool = new RequestPool();
      const ia = pool.intern(a);
      const ib = pool.intern(b);
      expect(ia === ib).toBe(same);
      expect([ia.cpu, ia.memory, ia.ephemeralStorage, [...ia.scalars]]).toEqual([
        a.cpu,
        a.memory,
        a.ephemeralStorage,
        [...a.scalars],
      ]);
      expect([ib.cpu, ib.memory, ib.ephemeralStorage, [...ib.scalars]]).toEqual([
        b.cpu,
        b.memory,
        b.ephemeralStorage,
        [...b.scalars],
      ]);
    });

    it('starts over past MAX_SHAPES distinct shapes', () => {
      const pool = new RequestPool();
      for (let i = 0; i < RequestPool.MAX_SHAPES; i++) pool.intern(v(i, 0));
      expect(pool.size).toBe(RequestPool.MAX_SHAPES);
      const first = pool.intern(v(0, 0));
      expect(pool.size).toBe(RequestPool.MAX_SHAPES);
      pool.intern(v(-1, 0));
      expect(pool.size).toBe(1);
      expect(pool.intern(v(0, 0))).not.toBe(first);
    });

    it('one pool per index and its forks; separate indexes share nothing', () => {
      const s1 = snapshotOf(
        node('n1'),
        node('n2'),
        pod('a', { node: 'n1', cpu: '1', memory: '1Gi' }),
        pod('b', { node: 'n2', cpu: '1', memory: '1Gi' }),
      );
      const s2 = snapshotOf(node('n1'), pod('a', { node: 'n1', cpu: '1', memory: '1Gi' }));
      const reqOf = (s: typeof s1, n: string, key: string) => nodeInfoIndex(s).get(n)!.pods.get(key)!.request;
      expect(reqOf(s1, 'n2', 'default/b')).toBe(reqOf(s1, 'n1', 'default/a'));
      const child = s1.fork();
      child.put(pod('c', { node: 'n2', cpu: '1', memory: '1Gi' }));
      expect(reqOf(child, 'n2', 'default/c')).toBe(reqOf(s1, 'n1', 'default/a'));
      expect(reqOf(s2, 'n1', 'default/a')).not.toBe(reqOf(s1, 'n1', 'default/a'));
      expect(reqOf(s2, 'n1', 'default/a')).toEqual(reqOf(s1, 'n1', 'default/a'));
      // The incoming pod's entry (no pool) gets a vector of its own.
      expect(makePodEntry(pod('d', { cpu: '1', memory: '1Gi' }), false).request).not.toBe(reqOf(s1, 'n1', 'default/a'));
    });
  });

  describe("an entry's required anti-affinity terms (PodInfo.RequiredAntiAffinityTerms)", () => {
    const anti = (extra: Record<string, unknown> = {}) => ({
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { topologyKey: 'zone', labelSelector: { matchLabels: { app: 'web' } }, ...extra },
        ],
      },
    });
    interface Row {
      name: string;
      extra: Record<string, unknown>;
      target: { namespace: string; labels: Record<string, string> };
      matches: boolean;
    }
    it.each<Row>([
      {
        name: 'own namespace by default',
        extra: {},
        target: { namespace: 'team', labels: { app: 'web' } },
        matches: true,
      },
      { name: 'another namespace', extra: {}, target: { namespace: 'other', labels: { app: 'web' } }, matches: false },
      {
        name: 'explicit namespaces',
        extra: { namespaces: ['other'] },
        target: { namespace: 'other', labels: { app: 'web' } },
        matches: true,
      },
      { name: 'selector mismatch', extra: {}, target: { namespace: 'team', labels: { app: 'db' } }, matches: false },
      // An existing pod's terms are compiled without the matchLabelKeys merge (the incoming pod's are merged).
      {
        name: 'matchLabelKeys not merged',
        extra: { matchLabelKeys: ['ver'] },
        target: { namespace: 'team', labels: { app: 'web', ver: '2' } },
        matches: true,
      },
    ])('$name', ({ extra, target, matches }) => {
      const p = pod('x', { namespace: 'team', node: 'n1', labels: { app: 'web', ver: '1' }, affinity: anti(extra) });
      const e = nodeInfoIndex(snapshotOf(node('n1'), p))
        .get('n1')!
        .pods.get('team/x')!;
      expect(e.requiredAntiAffinityTerms).toHaveLength(1);
      const t = e.requiredAntiAffinityTerms[0]!;
      expect(t.topologyKey).toBe('zone');
      expect(t.namespaces.has(target.namespace) && t.selector(target.labels)).toBe(matches);
    });

    it('none without required anti-affinity (required affinity alone does not count)', () => {
      const p = pod('y', {
        node: 'n1',
        affinity: {
          podAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              { topologyKey: 'zone', labelSelector: { matchLabels: { app: 'web' } } },
            ],
          },
        },
      });
      const e = nodeInfoIndex(snapshotOf(node('n1'), p))
        .get('n1')!
        .pods.get('default/y')!;
      expect(e.requiredAntiAffinityTerms).toEqual([]);
      expect(e.hasRequiredAffinity).toBe(true);
    });
  });
});
