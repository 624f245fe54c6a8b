/**
 * simulate: objects created in the same manifest shape what follows — a new ResourceQuota gets the status
 * the quota controller would give it, a new LimitRange is stored defaulted, cluster-scoped objects keep no
 * namespace, and the caller's snapshot is never changed.
 */
import { describe, expect, it } from 'vitest';
import { Snapshot, type KObject } from '../../src/k8s/snapshot.ts';
import { simulate } from '../../src/engine/simulate.ts';
import { limitRange, namespace, node, pod as podOf, quota } from '../support/builders.ts';

const n1 = node('n1', { cpu: '4', memory: '8Gi', pods: '110' });
const pod = (name: string, cpu?: string): KObject => podOf(name, { namespace: 'fresh', cpu }) as KObject;

describe('simulate: a manifest that creates its own rules', () => {
  it.each([
    // pods: 1 → the first pod fits, the second is refused by the quota created two objects earlier.
    [
      'pods quota',
      { pods: '1' },
      [pod('a'), pod('b')],
      [true, false],
      'pods "b" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1',
    ],
    // requests.cpu: 1 → 600m fits (600m ≤ 1), the next 600m would make 1200m > 1.
    [
      'cpu quota',
      { 'requests.cpu': '1' },
      [pod('a', '600m'), pod('b', '600m')],
      [true, false],
      'pods "b" is forbidden: exceeded quota: q, requested: requests.cpu=600m, used: requests.cpu=600m, limited: requests.cpu=1',
    ],
  ] as const)('%s', (_n, hard, pods, allowed, message) => {
    const state = new Snapshot();
    state.put(n1);
    const objects: KObject[] = [namespace('fresh'), quota('q', { namespace: 'fresh', hard }), ...pods];
    const out = simulate(state, objects, {});
    expect(out.results.map((r) => r.admission.allowed)).toEqual([true, true, ...allowed]);
    expect(out.results[0]!.namespace).toBe('');
    expect(out.results.at(-1)!.admission.message).toBe(message);
    // The quota was stored with status.hard from spec and status.used recomputed (nothing yet) then charged.
    const q = out.state.get('ResourceQuota', 'fresh', 'q')!;
    expect(q.status?.hard).toEqual(hard);
    // The caller's snapshot is untouched.
    expect(state.get('ResourceQuota', 'fresh', 'q')).toBeUndefined();
    expect(state.count('Pod')).toBe(0);
  });

  it('a LimitRange created first defaults the pods after it', () => {
    const state = new Snapshot();
    state.put(n1);
    const out = simulate(state, [limitRange('lr', { namespace: 'fresh', container: { max: { cpu: '1' } } }), pod('a')]);
    // SetDefaults_LimitRangeItem: default := max, defaultRequest := default → the pod gets cpu 1 / 1.
    const c = (out.results[1]!.object as unknown as { spec: { containers: { resources: unknown }[] } }).spec
      .containers[0]!;
    expect(c.resources).toEqual({ limits: { cpu: '1' }, requests: { cpu: '1' } });
    expect(out.results[1]!.scheduling).toEqual({ scheduled: true, node: 'n1', message: null });
  });
});
