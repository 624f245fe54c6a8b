/**
 * A Goal carries its stage and scheduled count, set where it is computed (goal.ts), so verification's
 * progressOf reads them instead of matching the outcome's words. The stages of a workload's outcome, of
 * a replayed pod, and of a controller's refused create (the ResourceQuota plugin's own errors, k8s.io/apiserver
 * pkg/admission/plugin/resourcequota/controller.go, are 'quota'; any other refusal came before it).
 */
import { describe, expect, it } from 'vitest';
import type { Convergence, WorkloadOutcome } from '../../../src/engine/converge.ts';
import { apiRefusedGoal, goalAfter, refusalStage, type FixSubject } from '../../../src/engine/diagnose/goal.ts';
import { progressOf } from '../../../src/engine/fixes/verify.ts';
import type { KObject } from '../../../src/k8s/snapshot.ts';
import { node, pod, quota, snapshotOf } from '../../support/builders.ts';

describe('refusalStage: a FailedCreate message', () => {
  it.each<[string, string, 'quota' | 'admission']>([
    [
      'exceeded',
      'pods "w-1" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10',
      'quota',
    ],
    ['must specify', 'pods "w-1" is forbidden: failed quota: compute: must specify limits.cpu for: app', 'quota'],
    ['scopes', 'insufficient quota to match these scopes: [{PriorityClass In [high]}]', 'quota'],
    ['status unknown', 'pods "w-1" is forbidden: status unknown for quota: q, resources: pods', 'quota'],
    ['LimitRange', 'pods "w-1" is forbidden: maximum cpu usage per Container is 2, but limit is 4', 'admission'],
    [
      'validation',
      'Pod "w-1" is invalid: spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1',
      'admission',
    ],
    ['a quota named in other words', 'pods "w-1" is forbidden: the quota of this team is exceeded', 'admission'],
  ])('%s → %s', (_name, message, stage) => {
    expect(refusalStage(message)).toBe(stage);
  });
});

const w = (o: Partial<WorkloadOutcome>): WorkloadOutcome => ({
  kind: 'Deployment',
  namespace: 'ns',
  name: 'api',
  wanted: 3,
  created: 0,
  scheduled: 0,
  pods: 0,
  updated: 0,
  pending: [],
  complete: false,
  ...o,
});
const conv = (workloads: WorkloadOutcome[]): Convergence => ({
  state: snapshotOf(),
  steps: 1,
  bounded: false,
  workloads,
  events: [],
  evicted: [],
  created: [],
});
const subject: FixSubject = {
  kind: 'workload',
  ref: { kind: 'Deployment', namespace: 'ns', name: 'api' },
  pod: pod('api-1', { namespace: 'ns' }),
};

describe('goalAfter: stage and scheduled of a workload', () => {
  it.each<[string, WorkloadOutcome[], string, number, [number, number]]>([
    ['gone', [], 'gone', 0, [1, 0]],
    ['complete', [w({ scheduled: 3, pods: 3, updated: 3, complete: true })], 'reached', 3, [5, 3]],
    [
      'quota refuses the third pod',
      [
        w({
          scheduled: 2,
          pods: 2,
          updated: 2,
          failedCreate: 'pods "x" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2',
        }),
      ],
      'quota',
      2,
      [3, 2],
    ],
    [
      'a LimitRange refuses it',
      [
        w({
          scheduled: 1,
          pods: 1,
          updated: 1,
          failedCreate: 'pods "x" is forbidden: maximum cpu usage per Container is 2, but limit is 4',
        }),
      ],
      'admission',
      1,
      [2, 1],
    ],
    [
      'one Pending',
      [w({ scheduled: 2, pods: 3, updated: 3, pending: [{ pod: 'ns/api-3', message: '0/2 nodes' }] })],
      'pending',
      2,
      [4, 2],
    ],
    ['rolling out', [w({ scheduled: 3, pods: 3, updated: 1 })], 'pending', 3, [4, 3]],
  ])('%s → %s, %i scheduled', (_name, workloads, stage, scheduled, progress) => {
    const g = goalAfter(conv(workloads), subject, {});
    expect([g.stage, g.scheduled]).toEqual([stage, scheduled]);
    expect(progressOf(false, g)).toEqual(progress);
  });

  it('a change the API server refuses: api-refused, [0, 0]', () => {
    const g = apiRefusedGoal('deployments.apps "api" not found');
    expect(g).toEqual({
      reached: false,
      stage: 'api-refused',
      scheduled: 0,
      outcome: 'the API server refuses the change: deployments.apps "api" not found',
    });
    expect(progressOf(false, g)).toEqual([0, 0]);
  });
});

describe('goalAfter: a pasted object replayed (admission layer, scheduler)', () => {
  const state = snapshotOf(
    node('n1', { cpu: '1', memory: '2Gi' }),
    quota('q', { namespace: 'ns', hard: { pods: '1' }, used: { pods: '1' } }) as KObject,
  );
  it.each<[string, string, string, number]>([
    ['the pods quota is full', 'ns', 'quota', 0],
    ['another namespace, it fits n1', 'free', 'reached', 1],
  ])('%s → %s', (_name, ns, stage, scheduled) => {
    const p = pod('x', { namespace: ns, cpu: '100m' });
    const g = goalAfter({ ...conv([]), state }, { kind: 'object', namespace: ns, pod: p }, {});
    expect([g.stage, g.scheduled]).toEqual([stage, scheduled]);
  });

  it('too big for any node → pending', () => {
    const p = pod('x', { namespace: 'free', cpu: '4' });
    const g = goalAfter({ ...conv([]), state }, { kind: 'object', namespace: 'free', pod: p }, {});
    expect([g.stage, g.scheduled, g.reached]).toEqual(['pending', 0, false]);
  });
});
