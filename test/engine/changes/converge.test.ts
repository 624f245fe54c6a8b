/**
 * converge() on the demo cluster (manifests/demo/README.md): a change applied, the controllers run to a
 * fixpoint, the outcome per workload.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readStateFiles } from '../../../src/cluster/file-source.ts';
import { parseCommand } from '../../../src/engine/changes/command.ts';
import { converge } from '../../../src/engine/converge.ts';

const DEMO = fileURLToPath(new URL('../../../manifests/demo', import.meta.url));
const NOW = Date.parse('2026-03-10T09:40:00Z');
const demo = readStateFiles(DEMO, { now: NOW }).snapshot;

function run(cmd: string) {
  const c = parseCommand(cmd);
  if (!c) throw new Error(`not a command: ${cmd}`);
  return converge(demo, [c], { now: NOW });
}

const QUOTA_REFUSAL =
  /^pods "api-[a-z0-9]+-[a-z0-9]{5}" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10$/;

describe('converge on the demo cluster', () => {
  it('set resources on api starts a rollout whose surge pod is refused by pods 10/10: it stalls', () => {
    const r = run('kubectl -n team-a set resources deploy/api -c api --requests=cpu=770m');
    expect(r.bounded).toBe(false);
    expect(r.refused).toBeUndefined();
    const api = r.workloads.find((w) => w.name === 'api')!;
    expect(api).toMatchObject({ kind: 'Deployment', wanted: 3, pods: 3, updated: 0, created: 0, complete: false });
    expect(api.failedCreate).toMatch(QUOTA_REFUSAL);
    // maxSurge 25% of 3 rounds up to 1: the new ReplicaSet is scaled to 1; maxUnavailable rounds down to 0.
    expect(r.events.filter((e) => e.type === 'ScaledUp').map((e) => e.type === 'ScaledUp' && [e.from, e.to])).toEqual([
      [0, 1],
    ]);
    const stalled = r.events.find((e) => e.type === 'RolloutStalled');
    expect(stalled?.type === 'RolloutStalled' && stalled.reason).toMatch(QUOTA_REFUSAL);
    // The input is untouched.
    expect(demo.list('ReplicaSet', 'team-a').filter((rs) => rs.metadata.name?.startsWith('api-'))).toHaveLength(1);
  });

  it('uncordon general-c-2: the Pending api pod schedules there and api is complete', () => {
    const r = run('kubectl uncordon general-c-2');
    const api = r.workloads.find((w) => w.name === 'api')!;
    expect(api).toMatchObject({ wanted: 3, pods: 3, scheduled: 3, pending: [], complete: true });
    expect(r.events).toContainEqual({ type: 'Scheduled', pod: 'team-a/api-6b9f4c7d8-gnt9f', node: 'general-c-2' });
  });

  it('raising pods to 14 lets the worker ReplicaSet create its third pod', () => {
    const r = run(`kubectl -n team-a patch resourcequota/team-quota --type merge -p '{"spec":{"hard":{"pods":"14"}}}'`);
    const worker = r.workloads.find((w) => w.name === 'worker')!;
    expect(worker).toMatchObject({ wanted: 3, pods: 3, created: 1, scheduled: 3, complete: true });
    expect(r.state.get('ResourceQuota', 'team-a', 'team-quota')?.status?.used?.pods).toBe('11');
  });

  it('scaling web to 8: every new pod refused by pods 10/10 (slow start stops at the first refusal)', () => {
    const r = run('kubectl -n team-a scale deploy/web --replicas=8');
    const web = r.workloads.find((w) => w.name === 'web')!;
    expect(web).toMatchObject({ wanted: 8, pods: 4, created: 0, complete: false });
    expect(r.events.filter((e) => e.type === 'FailedCreate')).toHaveLength(1);
  });

  it('scaling worker down to 2 deletes nothing that runs more than needed', () => {
    const r = run('kubectl -n team-a scale deploy/worker --replicas=2');
    expect(r.workloads.find((w) => w.name === 'worker')).toMatchObject({ wanted: 2, pods: 2, complete: true });
  });

  it('a refused change applies nothing', () => {
    const r = run(
      `kubectl -n team-a patch deploy/api --type json -p '[{"op":"add","path":"/spec/template/spec/tolerations/-","value":{"key":"k","operator":"Exists"}}]'`,
    );
    expect(r.refused?.message).toBe(
      'add operation does not apply: doc is missing path: "/spec/template/spec/tolerations/-": missing value',
    );
    expect(r.state).toBe(demo);
    expect(r.steps).toBe(0);
  });
});

describe('converge on the other cluster (test/fixtures/clusters/other): a DaemonSet wants one pod per node that should run it', () => {
  const OTHER = fileURLToPath(new URL('../../fixtures/clusters/other', import.meta.url));
  const now = Date.parse('2026-04-20T10:00:00Z');
  const other = readStateFiles(OTHER, { now }).snapshot;
  // daemon_controller.go NodeShouldRunDaemonPod: node-exporter tolerates everything, so all 12 nodes
  // want its pod (the stored status says desiredNumberScheduled: 12); 9 run, the rest are refused by
  // monitoring-quota pods 10/10. It used to say wanted 10 (the pods it has, plus one for the refusal).
  it.each([
    ['kubectl -n monitoring set resources ds/node-exporter -c node-exporter --requests=cpu=60m', 12, 9],
    [
      `kubectl -n monitoring patch resourcequota/monitoring-quota --type merge -p '{"spec":{"hard":{"pods":"13"}}}'`,
      12,
      12,
    ],
  ])('%s → wanted %i, scheduled %i', (cmd, wanted, scheduled) => {
    const c = parseCommand(cmd);
    if (!c) throw new Error(`not a command: ${cmd}`);
    const w = converge(other, [c], { now }).workloads.find((x) => x.name === 'node-exporter');
    expect(w && { wanted: w.wanted, scheduled: w.scheduled, complete: w.complete }).toEqual({
      wanted,
      scheduled,
      complete: wanted === scheduled,
    });
  });
});
