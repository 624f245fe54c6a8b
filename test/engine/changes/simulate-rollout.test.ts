/**
 * `simulate -f` of a workload that already exists in the state is an update: applied, then rolled out by
 * the controllers (engine/converge.ts) — not a second workload created beside the first.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readStateFiles } from '../../../src/cluster/file-source.ts';
import { simulate } from '../../../src/engine/simulate.ts';
import type { KObject } from '../../../src/k8s/snapshot.ts';

const DEMO = fileURLToPath(new URL('../../../manifests/demo', import.meta.url));
const NOW = Date.parse('2026-03-10T09:40:00Z');
const demo = readStateFiles(DEMO, { now: NOW }).snapshot;

function worker(image: string, replicas: number): KObject {
  const d = structuredClone(demo.get('Deployment', 'team-a', 'worker')!);
  d.spec.replicas = replicas;
  d.spec.template.spec.containers[0]!.image = image;
  const { status: _s, ...rest } = d;
  void _s;
  return rest as KObject;
}

describe('simulate: an existing workload rolls out', () => {
  it('a new image for worker: the new ReplicaSet surge pod is refused by pods 10/10', () => {
    const out = simulate(demo, [worker('worker:2', 3)], { now: NOW });
    expect(out.results.map((r) => [r.kind, r.admission.allowed])).toEqual([
      ['Deployment', true],
      ['Pod', false],
    ]);
    expect(out.results[1]!.admission).toEqual({
      allowed: false,
      layer: 'quota',
      message: expect.stringMatching(
        /^pods "worker-[a-z0-9]+-[a-z0-9]{5}" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10$/,
      ),
    });
    // The old pods still run: maxUnavailable 25% of 3 is 0.
    expect(out.state.list('Pod', 'team-a').filter((p) => p.metadata.name?.startsWith('worker-')).length).toBe(2);
  });

  it('the same template, fewer replicas: a scale-down, no pod created', () => {
    const d = structuredClone(demo.get('Deployment', 'team-a', 'worker')!);
    d.spec.replicas = 1;
    const out = simulate(demo, [d as KObject], { now: NOW });
    expect(out.results.map((r) => r.kind)).toEqual(['Deployment']);
    expect(out.state.list('Pod', 'team-a').filter((p) => p.metadata.name?.startsWith('worker-')).length).toBe(1);
  });

  it("existingWorkloads: 'create' keeps the old meaning (a CREATE of the object and its pods)", () => {
    const out = simulate(demo, [worker('worker:2', 1)], { now: NOW, existingWorkloads: 'create' });
    expect(out.results[0]!.kind).toBe('Deployment');
    expect(out.results.length).toBeGreaterThan(1);
  });
});
