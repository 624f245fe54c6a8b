/**
 * The Deployment controller against upstream (pkg/controller/deployment): the fencepost arithmetic of
 * util/deployment_util.go (ResolveFenceposts: maxSurge rounds up, maxUnavailable down; MaxUnavailable
 * capped at replicas; NewRSNewReplicas) and the rounds rolling.go's rolloutRolling and recreate.go's
 * rolloutRecreate drive, with pods available as soon as they are bound.
 */
import { describe, expect, it } from 'vitest';
import { converge } from '../../../src/engine/converge.ts';
import {
  equalIgnoreHash,
  maxUnavailable,
  newRSNewReplicas,
  resolveFenceposts,
} from '../../../src/engine/controllers/deployment.ts';
import type { Deployment } from '../../../src/k8s/objects.ts';
import type { KObject } from '../../../src/k8s/snapshot.ts';
import { deployment, node, pod, replicaSet, snapshotOf } from '../../support/builders.ts';

describe('ResolveFenceposts (deployment_util.go)', () => {
  it.each([
    ['25%', '25%', 10, 3, 2],
    ['25%', '25%', 4, 1, 1],
    ['25%', '25%', 3, 1, 0],
    ['25%', '25%', 1, 1, 0],
    [0, 0, 5, 0, 1],
    ['0%', '0%', 5, 0, 1],
    ['50%', 0, 3, 2, 0],
    [2, '10%', 5, 2, 0],
    [undefined, undefined, 7, 2, 1],
  ] as const)('maxSurge %s, maxUnavailable %s of %i → surge %i, unavailable %i', (s, u, n, surge, unavailable) => {
    expect(resolveFenceposts(s, u, n)).toEqual({ surge, unavailable });
  });

  it('MaxUnavailable is capped at replicas, and 0 for Recreate or 0 replicas', () => {
    const d = (replicas: number, strategy: NonNullable<Deployment['spec']['strategy']>) =>
      deployment('d', { replicas, strategy }) as Deployment;
    expect(maxUnavailable(d(3, { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 5 } }))).toBe(3);
    expect(maxUnavailable(d(3, { type: 'Recreate' }))).toBe(0);
    expect(maxUnavailable(d(0, { type: 'RollingUpdate' }))).toBe(0);
  });

  it.each([
    // replicas 10, surge 3: up to 13 pods in all, never more than 10 new.
    [10, 10, 0, 3],
    [10, 13, 3, 3],
    [10, 8, 3, 8],
    [10, 8, 8, 10],
    [10, 12, 5, 6],
  ])('NewRSNewReplicas: %i replicas, %i in all, %i new → %i', (replicas, all, current, next) => {
    expect(newRSNewReplicas(deployment('d', { replicas }) as Deployment, all, current)).toBe(next);
  });

  it('EqualIgnoreHash leaves pod-template-hash out', () => {
    const a = {
      metadata: { labels: { app: 'x', 'pod-template-hash': 'abc' } },
      spec: { containers: [{ name: 'c', image: 'i' }] },
    };
    const b = { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'i' }] } };
    expect(equalIgnoreHash(a, b)).toBe(true);
    expect(equalIgnoreHash(a, { ...b, spec: { containers: [{ name: 'c', image: 'j' }] } })).toBe(false);
  });
});

/** A Deployment `web` of `replicas` running pods of 100m on a node with room for everything. */
function running(replicas: number, strategy?: NonNullable<Deployment['spec']['strategy']>) {
  const objects: KObject[] = [node('n1', { cpu: '64', memory: '64Gi', pods: '200' })];
  const d = deployment('web', { namespace: 'ns', replicas, requests: { cpu: '100m' }, strategy });
  const rs = replicaSet('web-old', { namespace: 'ns', owner: 'web', replicas, requests: { cpu: '100m' } });
  rs.metadata.creationTimestamp = '2026-01-01T00:00:00Z';
  objects.push(d, rs);
  for (let i = 0; i < replicas; i++)
    objects.push(
      pod(`web-old-${String(i).padStart(5, 'x')}`, {
        namespace: 'ns',
        cpu: '100m',
        node: 'n1',
        container: 'app',
        labels: { app: 'web' },
        owner: { kind: 'ReplicaSet', name: 'web-old' },
      }) as KObject,
    );
  return snapshotOf(...objects);
}

function scalings(r: ReturnType<typeof converge>): string[] {
  return r.events.flatMap((e) =>
    e.type === 'ScaledUp' || e.type === 'ScaledDown'
      ? [`${e.replicaSet === 'web-old' ? 'old' : 'new'} ${e.from}→${e.to}`]
      : [],
  );
}

describe('rollout rounds (rolling.go rolloutRolling, recreate.go rolloutRecreate)', () => {
  const change = {
    kind: 'setResources' as const,
    target: { kind: 'Deployment', namespace: 'ns', name: 'web' },
    container: 'app',
    requests: { cpu: '200m' },
  };

  it('10 replicas, 25%/25%: surge 3, unavailable 2 → new 0→3, old 10→5, new 3→8, old 5→0, new 8→10', () => {
    const r = converge(running(10), [change]);
    expect(scalings(r)).toEqual(['new 0→3', 'old 10→5', 'new 3→8', 'old 5→0', 'new 8→10']);
    expect(r.workloads).toEqual([
      expect.objectContaining({
        kind: 'Deployment',
        name: 'web',
        wanted: 10,
        pods: 10,
        updated: 10,
        created: 10,
        complete: true,
      }),
    ]);
    expect(r.evicted).toHaveLength(10);
  });

  it('3 replicas, maxSurge 0 / maxUnavailable 1: one pod replaced at a time', () => {
    const r = converge(running(3, { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } }), [
      change,
    ]);
    expect(scalings(r)).toEqual(['old 3→2', 'new 0→1', 'old 2→1', 'new 1→2', 'old 1→0', 'new 2→3']);
  });

  it('Recreate: every old pod goes before the new ReplicaSet scales up', () => {
    const r = converge(running(3, { type: 'Recreate' }), [change]);
    expect(scalings(r)).toEqual(['old 3→0', 'new 0→3']);
    expect(r.workloads[0]).toMatchObject({ complete: true, updated: 3 });
  });

  it('a plain scale keeps the ReplicaSet (no rollout)', () => {
    const r = converge(running(3), [{ kind: 'scale', target: change.target, replicas: 5 }]);
    expect(scalings(r)).toEqual(['old 3→5']);
    expect(r.workloads[0]).toMatchObject({ wanted: 5, pods: 5, created: 2, complete: true });
  });

  it('a Deployment whose template matches none of its ReplicaSets is a rollout in progress', () => {
    const s = running(2);
    const d = s.get('Deployment', 'ns', 'web')!;
    s.put({
      ...d,
      spec: { ...d.spec, template: { ...d.spec.template, metadata: { labels: { app: 'web', v: '2' } } } },
    });
    const r = converge(s, [{ kind: 'scale', target: change.target, replicas: 2 }]);
    expect(r.workloads[0]).toMatchObject({ updated: 2, complete: true });
    expect(r.events.some((e) => e.type === 'ScaledUp' && e.replicaSet !== 'web-old')).toBe(true);
  });

  it('the rollout stalls when the surge pod does not fit: old pods stay (maxUnavailable 0)', () => {
    const s = running(3);
    const n = s.get('Node', undefined, 'n1')!;
    // Room for exactly the 3 old pods at 100m.
    s.put({ ...n, status: { ...n.status, allocatable: { cpu: '300m', memory: '64Gi', pods: '200' } } });
    const r = converge(s, [change]);
    expect(r.bounded).toBe(false);
    expect(r.workloads[0]).toMatchObject({ pods: 4, updated: 1, scheduled: 3, complete: false });
    expect(r.workloads[0]!.pending[0]!.message).toMatch(/^0\/1 nodes are available: 1 Insufficient cpu\./);
    expect(r.events.some((e) => e.type === 'RolloutStalled')).toBe(true);
  });
});
