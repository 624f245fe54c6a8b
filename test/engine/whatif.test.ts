/**
 * What-if simulations against small states, every count worked out by hand in the comments.
 * Placement is made deterministic by capacity: where a test names nodes, only those nodes have room.
 */
import { describe, expect, it } from 'vitest';
import { reconcileQuotaStatus } from '../../src/engine/quota-ledger.ts';
import {
  findWorkload,
  tally,
  whatIfDrain,
  whatIfLimitRange,
  whatIfQuota,
  whatIfRequests,
  whatIfRollout,
  whatIfScale,
} from '../../src/engine/whatif/index.ts';
import { simulateWorkloadPods, type SimResult } from '../../src/engine/simulate.ts';
import type { Pod, Workload } from '../../src/k8s/objects.ts';
import type { KObject, Snapshot } from '../../src/k8s/snapshot.ts';
import { node, pod, snapshotOf } from '../support/builders.ts';

const NS = 'wi';
const RS = 'web-5f7c9';

const TEMPLATE = {
  metadata: { labels: { app: 'web' } },
  spec: {
    containers: [
      {
        name: 'app',
        image: 'web',
        resources: { requests: { cpu: '500m', memory: '256Mi' }, limits: { cpu: '2', memory: '1Gi' } },
      },
    ],
  },
};

function webPod(suffix: string, nodeName: string): KObject {
  const p = pod(`${RS}-${suffix}`, {
    namespace: NS,
    cpu: '500m',
    memory: '256Mi',
    node: nodeName,
    labels: { app: 'web' },
  });
  p.spec.containers[0]!.name = 'app';
  p.spec.containers[0]!.resources!.limits = { cpu: '2', memory: '1Gi' };
  p.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: RS, controller: true }];
  return p as KObject;
}

/**
 * w1 and w2: 2 CPU / 4Gi each. `filler` (namespace other) holds 1500m on w2.
 * web: 2 pods of 500m/256Mi (limits 2/1Gi), web-…-aaaaa on w1, web-…-bbbbb on w2.
 *   → free cpu: w1 2000 − 500 = 1500m (3 more web pods), w2 2000 − 1500 − 500 = 0.
 * Quota wi-quota: requests.cpu 10, pods `podsHard`; used 1000m and 2 pods.
 * LimitRange: defaultRequest 100m/128Mi, default 500m/512Mi.
 */
function whatIfState(podsHard = '5'): Snapshot {
  const s = snapshotOf(
    node('w1', { cpu: '2', memory: '4Gi' }),
    node('w2', { cpu: '2', memory: '4Gi' }),
    pod('filler', { namespace: 'other', cpu: '1500m', memory: '1Gi', node: 'w2' }) as KObject,
    {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'wi-quota', namespace: NS },
      spec: { hard: { 'requests.cpu': '10', pods: podsHard } },
    },
    {
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'defaults', namespace: NS },
      spec: {
        limits: [
          {
            type: 'Container',
            default: { cpu: '500m', memory: '512Mi' },
            defaultRequest: { cpu: '100m', memory: '128Mi' },
          },
        ],
      },
    },
    webPod('aaaaa', 'w1'),
    webPod('bbbbb', 'w2'),
    {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: RS,
        namespace: NS,
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', controller: true }],
      },
      spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: TEMPLATE },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: NS },
      spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: TEMPLATE },
    },
  );
  reconcileQuotaStatus(s);
  return s;
}

const INSUFFICIENT_CPU_2 =
  '0/2 nodes are available: 2 Insufficient cpu. no new claims to deallocate, preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.';

describe('findWorkload', () => {
  it.each([
    ['web', undefined, ['wi'], 'Deployment'],
    ['web', 'Deployment', ['other', 'wi'], 'Deployment'],
    ['web-5f7c9', undefined, ['wi'], 'ReplicaSet'],
  ])('%s (kind %s) in %j → %s', (name, kind, namespaces, found) => {
    const w = findWorkload(whatIfState(), name, kind, namespaces);
    expect(w?.kind).toBe(found);
    expect(w?.namespace).toBe('wi');
  });
  it('null when not there (or only in a namespace not asked)', () => {
    expect(findWorkload(whatIfState(), 'web', undefined, ['other'])).toBeNull();
    expect(findWorkload(whatIfState(), 'nope', undefined, ['wi'])).toBeNull();
  });
});

describe('whatIfScale', () => {
  it.each([
    // target, podsHard, attempted/admitted/rejected, scheduled/pending, nodes
    // 2 → 4: +2; pods 2+2 = 4 ≤ 5; w1 has room for 3 (1500m / 500m), w2 for 0 → both on w1.
    { to: 4, podsHard: '5', attempted: 2, admitted: 2, rejected: 0, scheduled: 2, pending: 0, nodes: { w1: 2 } },
    // 2 → 6: +4; pods 2+3 = 5 = hard, the 4th is rejected; the 3 admitted fill w1 (3 × 500m = 1500m).
    { to: 6, podsHard: '5', attempted: 4, admitted: 3, rejected: 1, scheduled: 3, pending: 0, nodes: { w1: 3 } },
    // 2 → 7 with pods 20: +5 all admitted; 3 fit w1, the other 2 stay Pending (no cpu anywhere).
    { to: 7, podsHard: '20', attempted: 5, admitted: 5, rejected: 0, scheduled: 3, pending: 2, nodes: { w1: 3 } },
  ])(
    '2 → $to with pods hard $podsHard',
    ({ to, podsHard, attempted, admitted, rejected, scheduled, pending, nodes }) => {
      const s = whatIfState(podsHard);
      const a = whatIfScale(s, findWorkload(s, 'web', undefined, [NS])!, to);
      expect(a.from).toBe(2);
      expect(a.to).toBe(to);
      expect(a.perPod).toEqual({ cpu: '500m', memory: '256Mi' });
      expect(a.tally).toMatchObject({ attempted, admitted, rejected, scheduled, pending, nodes });
    },
  );

  it('hitting `pods`: the exact rejection and what it takes', () => {
    const s = whatIfState('5');
    const a = whatIfScale(s, findWorkload(s, 'web', undefined, [NS])!, 6);
    expect(a.tally.rejections).toHaveLength(1);
    // used 2 + 3 admitted = 5 when the 4th arrives; limited 5.
    expect(a.tally.rejections[0]!.message).toMatch(
      /^pods "web-5f7c9-[a-z0-9]{5}" is forbidden: exceeded quota: wi-quota, requested: pods=1, used: pods=5, limited: pods=5$/,
    );
    expect(a.tally.rejections[0]).toMatchObject({ count: 1, layer: 'quota' });
    // 5 used + 1 × 1 rejected = 6
    expect(a.toGetAll).toEqual(['raise wi-quota pods to 6']);
  });

  it('hitting node capacity: the pending count and the scheduler message', () => {
    const s = whatIfState('20');
    const a = whatIfScale(s, findWorkload(s, 'web', undefined, [NS])!, 7);
    // both nodes full after 3 on w1: w1 2000 − 2000 = 0, w2 0; all pods priority 0 → no victims.
    expect(a.tally.pendingMessages).toEqual([{ message: INSUFFICIENT_CPU_2, count: 2 }]);
    expect(a.toGetAll).toEqual(['2 pods would need node capacity (500m cpu, 256Mi memory each)']);
  });

  it('scaling down adds no pods and leaves the state untouched', () => {
    const s = whatIfState();
    const a = whatIfScale(s, findWorkload(s, 'web', undefined, [NS])!, 1);
    expect(a.tally.attempted).toBe(0);
    expect(a.toGetAll).toBeUndefined();
    expect(s.count('Pod', NS)).toBe(2);
  });
});

describe('whatIfScale: a huge scale-up (issue 13) — refusals and unschedulable pods repeated, not recomputed', () => {
  /** What a pod's result says, without the objects. */
  const outcome = (r: SimResult) => ({
    kind: r.kind,
    name: r.name,
    allowed: r.admission.allowed,
    layer: r.admission.layer,
    message: r.admission.message,
    scheduling: r.scheduling,
  });
  function run(podsHard: string, count: number, repeat: boolean): SimResult[] {
    const s = whatIfState(podsHard);
    const w = findWorkload(s, 'web', undefined, [NS])!;
    const fork = s.fork();
    const results: SimResult[] = [];
    simulateWorkloadPods(fork, w.object as Workload, { namespace: NS }, results, [], { n: 1000 }, count, repeat);
    return results;
  }

  it.each([
    // pods 5: 3 admitted (w1), then every pod refused by `pods` — the refusal repeated with each pod's own name.
    ['5', 200],
    // pods 20: 18 admitted, 3 on w1 and 15 Pending (the scheduler outcome repeated), then refused by pods.
    ['20', 200],
    // pods 100: requests.cpu 10 stops it first (1000m used + 18 × 500m = 10).
    ['100', 300],
  ])('pods hard %s, +%i: exactly the outcomes of running every pod', (podsHard, count) => {
    const slow = run(podsHard, count, false).map(outcome);
    const fast = run(podsHard, count, true).map(outcome);
    expect(fast).toHaveLength(count);
    expect(fast).toEqual(slow);
  });

  it('+1,000 on a full cpu quota: exact tally, the raise re-verified (timed through the answerer: test/parse/question-bounds.test.ts)', () => {
    const s = whatIfState('2000');
    const w = findWorkload(s, 'web', undefined, [NS])!;
    const a = whatIfScale(s, w, 2 + 1000);
    // requests.cpu 10: used 1000m, 18 × 500m more → 18 admitted (3 on w1, 15 Pending), 982 refused.
    expect(a.tally).toMatchObject({
      attempted: 1000,
      admitted: 18,
      rejected: 982,
      scheduled: 3,
      pending: 15,
      nodes: { w1: 3 },
    });
    expect(a.tally.rejections).toHaveLength(1);
    expect(a.tally.rejections[0]).toMatchObject({ count: 982, layer: 'quota' });
    expect(a.tally.rejections[0]!.message).toMatch(
      /^pods "web-5f7c9-[a-z0-9]{5}" is forbidden: exceeded quota: wi-quota, requested: requests\.cpu=500m, used: requests\.cpu=10, limited: requests\.cpu=10$/,
    );
    // 10 + 982 × 500m = 501
    expect(a.toGetAll).toEqual([
      'raise wi-quota requests.cpu to 501',
      '15 pods would need node capacity (500m cpu, 256Mi memory each)',
    ]);
    expect(a.withRaisedQuota).toMatchObject({
      attempted: 1000,
      admitted: 1000,
      rejected: 0,
      scheduled: 3,
      pending: 997,
    });
  });
});

describe('whatIfQuota: the default pod (100m/128Mi) before → after', () => {
  it.each([
    // pods hard → default pods after, limitedBy
    // before: pods 5 − 2 = 3 · requests.cpu (10000 − 1000)/100 = 90 · nodes w1 1500/100 = 15, w2 0 → 3 (pods)
    ['5', 3, 'pods'],
    // pods 10: 10 − 2 = 8 < 15 → 8 (pods)
    ['10', 8, 'pods'],
    // pods 20: 18 > 15 → 15 (nodes)
    ['20', 15, 'nodes'],
  ])('pods → %s: 3 → %i (%s)', (value, after, limitedBy) => {
    const { converged, ...a } = whatIfQuota(whatIfState(), NS, 'wi-quota', 'pods', value)!;
    expect(converged.command).toBe(
      `kubectl -n wi patch resourcequota/wi-quota --type merge -p '{"spec":{"hard":{"pods":"${value}"}}}'`,
    );
    expect(a).toEqual({
      namespace: NS,
      quota: 'wi-quota',
      resource: 'pods',
      from: '5',
      to: value,
      defaultPodBefore: 3,
      defaultPodAfter: after,
      limitedByAfter: limitedBy,
    });
  });

  it('a new resource starts at from null; an unknown quota is null', () => {
    // limits.cpu 1, newly tracked: its used is what the quota controller would count — the two web pods'
    // limits, 2 × 2 = 4 > 1 — so no default pod (500m limit) fits any more.
    const a = whatIfQuota(whatIfState(), NS, 'wi-quota', 'limits.cpu', '1')!;
    expect(a).toMatchObject({
      from: null,
      to: '1',
      defaultPodBefore: 3,
      defaultPodAfter: 0,
      limitedByAfter: 'limits.cpu',
    });
    // limits.cpu 6: 6 − 4 = 2 free → ⌊2000/500⌋ = 4, but pods 5 − 2 used = 3 stop it first.
    expect(whatIfQuota(whatIfState(), NS, 'wi-quota', 'limits.cpu', '6')).toMatchObject({
      defaultPodAfter: 3,
      limitedByAfter: 'pods',
    });
    // limits.cpu 5: 1 free → ⌊1000/500⌋ = 2 < 3.
    expect(whatIfQuota(whatIfState(), NS, 'wi-quota', 'limits.cpu', '5')).toMatchObject({
      defaultPodAfter: 2,
      limitedByAfter: 'limits.cpu',
    });
    expect(whatIfQuota(whatIfState(), NS, 'nope', 'pods', '1')).toBeNull();
  });
});

describe('whatIfRequests: every pod replaced with the new template', () => {
  it.each([
    // 250m: both old pods released (w1 free 2000m, w2 500m); 2 × 250m fit somewhere → 2 scheduled.
    { value: '250m', scheduled: 2, pending: 0 },
    // 1500m: one on w1 (2000 → 500m left); the second fits neither (500m, 500m) → 1 Pending.
    { value: '1500m', scheduled: 1, pending: 1 },
  ])('requests.cpu=$value', ({ value, scheduled, pending }) => {
    const s = whatIfState();
    const a = whatIfRequests(s, findWorkload(s, 'web', undefined, [NS])!, 'requests', 'cpu', value, undefined);
    expect(a.change).toBe(`requests.cpu=${value}`);
    expect(a.tally).toMatchObject({ attempted: 2, admitted: 2, rejected: 0, scheduled, pending });
    if (value === '1500m') {
      expect(a.tally.nodes).toEqual({ w1: 1 });
      expect(a.tally.pendingMessages).toEqual([{ message: INSUFFICIENT_CPU_2, count: 1 }]);
    }
  });

  it('a request above the limit raises the limit with it (3 CPU > limit 2 → limit 3); nothing fits', () => {
    const s = whatIfState();
    const a = whatIfRequests(s, findWorkload(s, 'web', undefined, [NS])!, 'requests', 'cpu', '3', undefined);
    // One command: the limit set with the request.
    expect(a.converged.command).toBe('kubectl -n wi set resources deploy/web -c app --limits=cpu=3 --requests=cpu=3');
    // 3 CPU > allocatable 2 on both nodes: the surge pod (maxSurge 25% of 2 → 1) is admitted and stays
    // Pending; with maxUnavailable 25% of 2 → 0 no old pod may go, so the rollout stalls there.
    expect(a.tally).toMatchObject({ attempted: 2, admitted: 1, scheduled: 0, pending: 1 });
    expect(a.outcome).toMatchObject({ wanted: 2, pods: 3, updated: 1, complete: false });
    expect(a.tally.pendingMessages[0]!.message).toBe(
      '0/2 nodes are available: 2 Insufficient cpu. no new claims to deallocate, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.',
    );
  });
});

describe('whatIfDrain (converged: evicted pods are re-created by their controllers)', () => {
  it('w2 drained: filler (no controller) is deleted for good (--force); web-…-bbbbb is re-created on w1', () => {
    const d = whatIfDrain(whatIfState(), 'w2')!;
    // pods on w2: filler 1500m (bare), web-…-bbbbb 500m. kubectl drain --force deletes filler and nothing
    // re-creates it; web's ReplicaSet creates a replacement, which fits w1 (2000 − 500 = 1500m free).
    expect(d).toMatchObject({
      node: 'w2',
      pods: 2,
      command: 'kubectl drain w2 --ignore-daemonsets --delete-emptydir-data --force',
      rescheduled: { w1: 1 },
      stranded: [],
      deleted: ['other/filler'],
      refusedEvictions: [],
    });
    expect(d.fates).toEqual([
      { pod: 'other/filler', fate: 'deleted' },
      {
        pod: 'wi/web-5f7c9-bbbbb',
        fate: 'moved',
        replacement: expect.stringMatching(/^wi\/web-5f7c9-[a-z0-9]{5}$/),
        node: 'w1',
      },
    ]);
    expect(d.converged.workloads.map((w) => [w.name, w.created, w.scheduled, w.complete])).toEqual([
      ['web', 1, 2, true],
    ]);
  });

  it('w1 drained: the replacement of web-…-aaaaa fits nowhere (w2 full, w1 cordoned)', () => {
    const d = whatIfDrain(whatIfState(), 'w1')!;
    expect(d.pods).toBe(1);
    expect(d.command).toBe('kubectl drain w1 --ignore-daemonsets --delete-emptydir-data');
    expect(d.rescheduled).toEqual({});
    expect(d.stranded).toEqual([
      {
        pod: 'wi/web-5f7c9-aaaaa',
        message:
          '0/2 nodes are available: 1 Insufficient cpu, 1 node(s) were unschedulable. no new claims to deallocate, preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.',
      },
    ]);
  });

  it('w1 goes down: the same, and w1 counts as tainted unreachable; no command', () => {
    const d = whatIfDrain(whatIfState(), 'w1', {}, 'down')!;
    expect(d.command).toBe('');
    expect(d.stranded).toEqual([
      {
        pod: 'wi/web-5f7c9-aaaaa',
        message:
          '0/2 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint(s). no new claims to deallocate, preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.',
      },
    ]);
  });

  it('DaemonSet pods are left out; an unknown node is null', () => {
    const s = whatIfState();
    const ds = pod('agent-xyz12', { namespace: 'kube-system', cpu: '100m', node: 'w2' }) as Pod;
    ds.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', controller: true }];
    s.put(ds as KObject);
    const d = whatIfDrain(s, 'w2')!;
    expect(d.pods).toBe(2);
    expect(d.converged.evicted).toEqual(['other/filler', 'wi/web-5f7c9-bbbbb']);
    expect(whatIfDrain(s, 'nope')).toBeNull();
  });
});

describe('whatIfRollout: the rollout round by round, as the deployment controller drives it', () => {
  /**
   * api: 4 replicas of 100m/128Mi (limits the same) on r1 (8 CPU / 16Gi); quota ro-quota `hard`, used
   * 4 pods / 400m. One round = scale the new ReplicaSet up (≤ replicas + maxSurge pods in all), create
   * its missing pods (quota and scheduler), scale the old down (≥ replicas − maxUnavailable available).
   */
  function rolloutState(hard: Record<string, string>, strategy?: Record<string, unknown>, nodeCpu = '8'): Snapshot {
    const tpl = {
      metadata: { labels: { app: 'api' } },
      spec: {
        containers: [
          {
            name: 'app',
            image: 'api',
            resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '100m', memory: '128Mi' } },
          },
        ],
      },
    };
    const objs: KObject[] = [
      node('r1', { cpu: nodeCpu, memory: '16Gi' }) as KObject,
      { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'ro-quota', namespace: 'ro' }, spec: { hard } },
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'api', namespace: 'ro' },
        spec: {
          replicas: 4,
          selector: { matchLabels: { app: 'api' } },
          template: tpl,
          ...(strategy ? { strategy } : {}),
        },
      },
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: {
          name: 'api-7c5d9',
          namespace: 'ro',
          ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'api', controller: true }],
        },
        spec: { replicas: 4, selector: { matchLabels: { app: 'api' } }, template: tpl },
      },
    ];
    for (const sfx of ['aaaaa', 'bbbbb', 'ccccc', 'ddddd']) {
      const p = pod(`api-7c5d9-${sfx}`, { namespace: 'ro', cpu: '100m', memory: '128Mi', node: 'r1' });
      p.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'api-7c5d9', controller: true }];
      objs.push(p as KObject);
    }
    const s = snapshotOf(...objs);
    reconcileQuotaStatus(s);
    return s;
  }
  const api = (s: Snapshot) => findWorkload(s, 'api', undefined, ['ro'])!;
  const SURGE1_UNAVAIL0 = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } };

  it('25%/25% with room (pods 5): completes in 3 rounds, 5 pods at most, never fewer than 3', () => {
    const s = rolloutState({ pods: '5' });
    const a = whatIfRollout(s, api(s));
    // maxSurge ⌈0.25 × 4⌉ = 1, maxUnavailable ⌊0.25 × 4⌋ = 1 → minAvailable 3
    expect(a).toMatchObject({
      strategy: 'RollingUpdate',
      maxSurge: 1,
      maxUnavailable: 1,
      replicas: 4,
      target: 4,
      change: null,
    });
    // round 1: new 0 → 1 (4 + 1 = 5), admitted (pods 5/5); scale down 4 + 1 − 3 − 0 = 2 allowed, available 5 − 3 = 2 → old 2
    // round 2: 2 + 1 = 3 < 5 → new 1 → 3, 2 created (pods 5/5); available 2 + 3 = 5 − 3 = 2 → old 0
    // round 3: new 3 → 4, 1 created → 4 new running, no old → done
    expect(a.surgeTally).toMatchObject({ attempted: 1, admitted: 1, scheduled: 1, nodes: { r1: 1 } });
    // rounds: converge's controller steps (Deployment, ReplicaSet and scheduler syncs), no longer Deployment syncs
    expect(a.run).toMatchObject({ completed: true, rounds: 10, peakPods: 5, minRunning: 3, refusedCreates: 0 });
    expect(a.run.stall).toBeUndefined();
    expect(a.alternatives).toEqual([]);
    expect(a.advice).toBeUndefined();
  });

  it('25%/25% with a full quota (pods 4/4): every surge pod refused, yet it completes — maxUnavailable 1 lets old pods go', () => {
    const s = rolloutState({ pods: '4' });
    const a = whatIfRollout(s, api(s));
    // round 1: new → 1, refused (4/4); scale down 4 + 1 − 3 − (1 − 0) = 1, available 4 − 3 = 1 → old 3 (pods 3)
    // rounds 2–4: new +1 each (old + new = 4 < 5); of the 2 missing, 1 admitted (pods 4), 1 refused; old −1
    //   → after round 4: old 0, new 3 running, refusals 1 + 1 + 1 + 1 = 4
    // round 5: 1 missing created (pods 4/4) → 4 running, done
    expect(a.surgeTally).toMatchObject({ attempted: 1, admitted: 0, rejected: 1 });
    expect(a.surgeTally.rejections[0]!.message).toMatch(
      /exceeded quota: ro-quota, requested: pods=1, used: pods=4, limited: pods=4$/,
    );
    // FailedCreate events: the ReplicaSet controller retries a refused create when quota frees (7 refusals
    // counted over the rollout, where the round model retried once per round: 4)
    expect(a.run).toMatchObject({ completed: true, rounds: 15, peakPods: 4, minRunning: 3, refusedCreates: 7 });
    expect(a.advice).toBeUndefined();
  });

  it('maxSurge 1 / maxUnavailable 0 with a full quota stalls; maxSurge 0 + maxUnavailable 1 and Recreate, re-simulated, complete', () => {
    const s = rolloutState({ pods: '4' }, SURGE1_UNAVAIL0);
    const a = whatIfRollout(s, api(s));
    // round 1: new → 1, refused; scale down 4 + 1 − 4 − (1 − 0) = 0 → nothing. round 2: refused again, nothing moved → stuck
    expect(a.run).toMatchObject({
      completed: false,
      // refused once: nothing frees quota, so the ReplicaSet controller does not retry (the round model: 2)
      rounds: 3,
      refusedCreates: 1,
      stall: { oldPods: 4, newRunning: 0, newPending: 0, blockers: ['ro-quota pods: 4 of 4 used, a new pod needs 1'] },
    });
    // maxSurge 0 / maxUnavailable 1 (minAvailable 3): round 1 old 4 → 3; rounds 2–5 one new in (pods 4), one old out → 5 rounds
    // Recreate: all 4 old out (round 1), 4 new in (pods 4/4) (round 2), nothing running in between
    expect(a.alternatives.map((x) => [x.setting, x.run.completed, x.run.rounds, x.run.minRunning])).toEqual([
      [{ strategy: 'RollingUpdate', maxSurge: 0, maxUnavailable: 1 }, true, 14, 3],
      [{ strategy: 'Recreate', maxSurge: 0, maxUnavailable: 4 }, true, 5, 0],
    ]);
    expect(a.alternatives[0]!.patch).toBe(
      `kubectl -n ro patch deploy/api --type merge -p '{"spec":{"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":0,"maxUnavailable":1}}}}'`,
    );
    expect(a.alternatives[1]!.patch).toBe(
      `kubectl -n ro patch deploy/api --type merge -p '{"spec":{"strategy":{"type":"Recreate","rollingUpdate":null}}}'`,
    );
    expect(a.advice).toBe(
      'Set strategy.rollingUpdate.maxSurge: 0 with maxUnavailable: 1 (replace in place), or strategy Recreate.',
    );
  });

  it('a bigger template (300m) against requests.cpu 1200m: stalls at the last step, old 100m + surge 300m do not fit', () => {
    const s = rolloutState({ pods: '10', 'requests.cpu': '1200m' }, SURGE1_UNAVAIL0);
    const a = whatIfRollout(s, api(s), {}, [{ field: 'requests', resource: 'cpu', value: '300m' }]);
    // the request above the 100m limit raises the limit to 300m
    expect(a).toMatchObject({
      change: 'requests.cpu=300m',
      perPodBefore: { cpu: '100m', memory: '128Mi' },
      perPodAfter: { cpu: '300m', memory: '128Mi' },
    });
    // used 400m. Each round: one new (+300m), then one old out (−100m) while 4 stay available:
    // r1 700 → 600 · r2 900 → 800 · r3 1100 → 1000 (old 1, new 3) · r4: 1000 + 300 = 1300 > 1200 refused;
    // scale down 1 + 4 − 4 − (4 − 3) = 0 · r5: the same → stuck
    expect(a.run).toMatchObject({
      completed: false,
      rounds: 12,
      refusedCreates: 1,
      stall: { oldPods: 1, newRunning: 3, newPending: 0 },
    });
    expect(a.run.stall!.blockers).toEqual(['ro-quota requests.cpu: 1 of 1200m used, a new pod needs 300m']);
    // maxSurge 0 / maxUnavailable 1: one old out first; used climbs 300 → 600 → 900 → 1200 ≤ 1200 → completes
    // (round 1 only removes, rounds 2–5 one in, one out)
    expect(
      a.alternatives.map((x) => [x.setting.strategy, x.setting.maxUnavailable, x.run.completed, x.run.rounds]),
    ).toEqual([
      ['RollingUpdate', 1, true, 14],
      ['Recreate', 4, true, 5],
    ]);
  });

  it('new pods that fit nowhere: no strategy completes (r1 1 CPU, 4 × 500m)', () => {
    const s = rolloutState({ pods: '10' }, undefined, '1');
    const a = whatIfRollout(s, api(s), {}, [{ field: 'requests', resource: 'cpu', value: '500m' }]);
    // r1 free 1000 − 400 = 600m. round 1: +1 new (500m → 100m free); 2 old out (→ 300m)
    // round 2: +2 new, both Pending (500m > 300m); scale down 2 + 3 − 3 − 2 = 0 · round 3: nothing moves
    expect(a.run).toMatchObject({ completed: false, rounds: 7, stall: { oldPods: 2, newRunning: 1, newPending: 2 } });
    expect(a.run.stall!.blockers).toEqual([
      'Pending: 0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.',
    ]);
    // Recreate: 4 × 500m on 1000m → 2 run, 2 Pending
    const rec = a.alternatives.find((x) => x.setting.strategy === 'Recreate')!;
    expect(rec.run).toMatchObject({ completed: false, stall: { oldPods: 0, newRunning: 2, newPending: 2 } });
    expect(a.alternatives.every((x) => !x.run.completed)).toBe(true);
    expect(a.advice).toBe(
      'No strategy completes: the new pods do not fit even with every old pod gone — make room or lower their requests.',
    );
  });

  it('an image-only rollout keeps the resources (same numbers as a restart)', () => {
    const s = rolloutState({ pods: '4' });
    const a = whatIfRollout(s, api(s), {}, [{ field: 'image', value: 'api:2.0' }]);
    expect(a).toMatchObject({
      change: 'image=api:2.0',
      perPodBefore: { cpu: '100m', memory: '128Mi' },
      perPodAfter: { cpu: '100m', memory: '128Mi' },
    });
    expect(a.run).toMatchObject({ completed: true, rounds: 15, refusedCreates: 7 });
  });

  it('Recreate: no surge; all 4 down, then 4 new (pods 4/4 is enough)', () => {
    const s = rolloutState({ pods: '4' }, { type: 'Recreate' });
    const a = whatIfRollout(s, api(s));
    expect(a).toMatchObject({ strategy: 'Recreate', maxSurge: 0, maxUnavailable: 4 });
    expect(a.run).toMatchObject({ completed: true, rounds: 5, peakPods: 4, minRunning: 0 });
    expect(a.surgeTally).toMatchObject({ attempted: 4, admitted: 4, scheduled: 4 });
  });

  it('leaves the state untouched', () => {
    const s = rolloutState({ pods: '4' });
    whatIfRollout(s, api(s), {}, [{ field: 'requests', resource: 'cpu', value: '300m' }]);
    expect(s.count('Pod', 'ro')).toBe(4);
    expect(s.count('ReplicaSet', 'ro')).toBe(1);
  });
});

describe('whatIfRollout: a StatefulSet, highest ordinal first, one pod at a time', () => {
  /** db: 2 × 300m (db-0, db-1) on s1 (1 CPU); no quota. */
  function stsState(): Snapshot {
    const tpl = {
      metadata: { labels: { app: 'db' } },
      spec: { containers: [{ name: 'app', image: 'db', resources: { requests: { cpu: '300m' } } }] },
    };
    const objs: KObject[] = [
      node('s1', { cpu: '1', memory: '4Gi' }) as KObject,
      {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        metadata: { name: 'db', namespace: 'st' },
        spec: { replicas: 2, serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: tpl },
      },
    ];
    for (const i of [0, 1]) {
      const p = pod(`db-${i}`, { namespace: 'st', cpu: '300m', node: 's1', labels: { app: 'db' } });
      p.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', controller: true }];
      objs.push(p as KObject);
    }
    return snapshotOf(...objs);
  }

  it('500m: db-1 out (free 400 + 300 = 700m), db-1 in (200m left); db-0 out (500m), db-0 in → completes in 2', () => {
    const s = stsState();
    const a = whatIfRollout(s, findWorkload(s, 'db', undefined, ['st'])!, {}, [
      { field: 'requests', resource: 'cpu', value: '500m' },
    ]);
    expect(a).toMatchObject({ strategy: 'RollingUpdate', maxSurge: 0, maxUnavailable: 1, replicas: 2, target: 2 });
    expect(a.run).toMatchObject({ completed: true, rounds: 5, minRunning: 1 });
  });

  it('600m: db-1 fits (700m free → 100m), db-0 does not (400m free) → stalls with db-0 Pending', () => {
    const s = stsState();
    const a = whatIfRollout(s, findWorkload(s, 'db', undefined, ['st'])!, {}, [
      { field: 'requests', resource: 'cpu', value: '600m' },
    ]);
    expect(a.run).toMatchObject({ completed: false, rounds: 4, stall: { oldPods: 0, newRunning: 1, newPending: 1 } });
    expect(a.run.stall!.blockers[0]).toMatch(/^Pending: 0\/1 nodes are available: 1 Insufficient cpu\./);
    expect(a.alternatives).toEqual([]);
  });
});

describe("whatIfLimitRange: stored-form defaulting, each workload's next pod, the default pod before → after", () => {
  // whatIfState: LimitRange defaults (Container default 500m/512Mi, defaultRequest 100m/128Mi, no max);
  // web's template 500m/256Mi, limits 2/1Gi; wi-quota requests.cpu 10, pods `podsHard`, used 1000m / 2 pods;
  // node room: w1 1500m, w2 0.

  it('max cpu 1: web (limit 2) would be refused; the default pod (limit 500m) is unaffected: 3 → 3 (pods)', () => {
    const a = whatIfLimitRange(whatIfState(), NS, undefined, 'max', undefined, 'cpu', '1')!;
    expect(a).toMatchObject({
      limitRange: 'defaults',
      created: false,
      type: 'Container',
      field: 'max',
      resource: 'cpu',
      from: null,
      to: '1',
      filled: [],
      invalid: [],
      existingPods: 2,
    });
    // default pod: pods 5 − 2 = 3 · requests.cpu 9000/100 = 90 · nodes 1500/100 = 15 → 3 (pods), both sides
    expect(a.defaultPodBefore).toMatchObject({
      requests: { cpu: '100m', memory: '128Mi' },
      limits: { cpu: '500m', memory: '512Mi' },
      fits: 3,
      limitedBy: 'pods',
    });
    expect(a.defaultPodAfter).toMatchObject({
      requests: { cpu: '100m', memory: '128Mi' },
      limits: { cpu: '500m', memory: '512Mi' },
      fits: 3,
      limitedBy: 'pods',
    });
    const web = a.workloads.find((w) => w.ref === 'deploy/web')!;
    expect(web).toMatchObject({
      pods: 2,
      before: { limitRange: 'pass' },
      after: { limitRange: 'fail', message: 'maximum cpu usage per Container is 1, but limit is 2' },
    });
    expect(a.patch).toBe(
      `kubectl -n wi patch limitrange/defaults --type json -p '[{"op":"add","path":"/spec/limits/0/max","value":{"cpu":"1"}}]'`,
    );
  });

  it('defaultRequest cpu 250m (pods 20): the default pod 100m → 250m, fits 15 → 6, both bound by the nodes', () => {
    const a = whatIfLimitRange(whatIfState('20'), NS, undefined, 'defaultRequest', undefined, 'cpu', '250m')!;
    // before: pods 20 − 2 = 18 · cpu 9000/100 = 90 · nodes 1500/100 = 15 → 15 (nodes)
    // after:  pods 18 · cpu 9000/250 = 36 · nodes ⌊1500/250⌋ = 6 → 6 (nodes)
    expect(a).toMatchObject({ from: '100m', to: '250m', invalid: [] });
    expect(a.defaultPodBefore).toMatchObject({
      requests: { cpu: '100m', memory: '128Mi' },
      fits: 15,
      limitedBy: 'nodes',
    });
    expect(a.defaultPodAfter).toMatchObject({
      requests: { cpu: '250m', memory: '128Mi' },
      limits: { cpu: '500m', memory: '512Mi' },
      fits: 6,
      limitedBy: 'nodes',
    });
    // web sets its own requests: unchanged, still passes
    expect(a.workloads).toEqual([
      expect.objectContaining({
        ref: 'deploy/web',
        perPodBefore: { cpu: '500m', memory: '256Mi' },
        perPodAfter: { cpu: '500m', memory: '256Mi' },
        before: { limitRange: 'pass' },
        after: { limitRange: 'pass' },
      }),
    ]);
    expect(a.patch).toBe(
      `kubectl -n wi patch limitrange/defaults --type json -p '[{"op":"add","path":"/spec/limits/0/defaultRequest/cpu","value":"250m"}]'`,
    );
  });

  it('max cpu 250m below the default limit 500m: the API server would refuse the LimitRange', () => {
    const a = whatIfLimitRange(whatIfState(), NS, 'defaults', 'max', 'Container', 'cpu', '250m')!;
    expect(a.invalid).toEqual(['spec.limits[0].default[cpu]: default value 500m is greater than max value 250m']);
    // (and were it stored, the default pod's 500m limit would be refused)
    expect(a.defaultPodAfter).toMatchObject({ fits: 0, limitedBy: 'limitrange' });
  });

  it('maxLimitRequestRatio cpu 2: web (2 / 500m = 4) and the default pod (500m / 100m = 5) refused', () => {
    const a = whatIfLimitRange(whatIfState(), NS, undefined, 'maxLimitRequestRatio', undefined, 'cpu', '2')!;
    expect(a.workloads[0]!.after).toEqual({
      limitRange: 'fail',
      message: 'cpu max limit to request ratio per Container is 2, but provided ratio is 4.000000',
    });
    expect(a.defaultPodAfter.message).toBe(
      'pods "quota-doctor-probe" is forbidden: cpu max limit to request ratio per Container is 2, but provided ratio is 5.000000',
    );
  });

  it("a Pod item added: web's pod limits 2 > max 1", () => {
    const a = whatIfLimitRange(whatIfState(), NS, 'defaults', 'max', 'Pod', 'cpu', '1')!;
    expect(a.workloads[0]!.after).toEqual({
      limitRange: 'fail',
      message: 'maximum cpu usage per Pod is 1, but limit is 2',
    });
    expect(a.patch).toBe(
      `kubectl -n wi patch limitrange/defaults --type json -p '[{"op":"add","path":"/spec/limits/-","value":{"type":"Pod","max":{"cpu":"1"}}}]'`,
    );
  });

  it('no LimitRange yet: a new one, stored with default and defaultRequest filled from max (pods 20)', () => {
    const s = whatIfState('20');
    s.remove('LimitRange', NS, 'defaults');
    const a = whatIfLimitRange(s, NS, undefined, 'max', undefined, 'cpu', '1')!;
    // SetDefaults_LimitRangeItem: default.cpu := max 1, defaultRequest.cpu := default 1
    expect(a).toMatchObject({
      limitRange: 'limits',
      created: true,
      from: null,
      to: '1',
      filled: ['default.cpu=1', 'defaultRequest.cpu=1'],
      invalid: [],
    });
    // before: a pod with no requests is refused outright — wi-quota tracks requests.cpu, so it must specify it
    expect(a.defaultPodBefore).toMatchObject({ requests: {}, limits: {}, fits: 0, limitedBy: 'must-specify' });
    // after: 1 CPU each → pods 18 · requests.cpu 9000/1000 = 9 · nodes w1 ⌊1500/1000⌋ = 1, w2 0 → 1 (nodes)
    expect(a.defaultPodAfter).toMatchObject({
      requests: { cpu: '1' },
      limits: { cpu: '1' },
      fits: 1,
      limitedBy: 'nodes',
    });
    // web's limit 2 > max 1: its next pod is refused; its 2 running pods stay
    expect(a.workloads[0]).toMatchObject({
      ref: 'deploy/web',
      pods: 2,
      before: { limitRange: 'pass' },
      after: { limitRange: 'fail', message: 'maximum cpu usage per Container is 1, but limit is 2' },
    });
    expect(a.patch).toBe(
      `echo '{"apiVersion":"v1","kind":"LimitRange","metadata":{"name":"limits","namespace":"wi"},"spec":{"limits":[{"type":"Container","max":{"cpu":"1"}}]}}' | kubectl apply -f -`,
    );
  });

  it("a named LimitRange that is not there is null; the caller's state is untouched", () => {
    const s = whatIfState();
    expect(whatIfLimitRange(s, NS, 'nope', 'max', undefined, 'cpu', '1')).toBeNull();
    whatIfLimitRange(s, NS, undefined, 'max', undefined, 'cpu', '1');
    expect(s.get('LimitRange', NS, 'defaults')!.spec.limits[0]!.max).toBeUndefined();
  });
});

describe('tally', () => {
  it('groups rejections without the generated pod name and ignores non-pods', () => {
    const mk = (
      name: string,
      allowed: boolean,
      message: string | null,
      scheduling: { scheduled: boolean; node: string | null; message: string | null } | null,
      kind = 'Pod',
    ) =>
      ({
        kind,
        namespace: 'x',
        name,
        admission: { allowed, layer: allowed ? null : 'quota', message },
        object: { metadata: {} },
        quotaUsage: {},
        scheduling,
        detail: { admission: {} },
      }) as never;
    const t = tally([
      mk('rs', true, null, null, 'ReplicaSet'),
      mk(
        'a',
        false,
        'pods "a" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1',
        null,
      ),
      mk(
        'b',
        false,
        'pods "b" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1',
        null,
      ),
      mk('c', true, null, { scheduled: true, node: 'n1', message: null }),
      mk('d', true, null, { scheduled: true, node: 'n1', message: null }),
      mk('e', true, null, { scheduled: false, node: null, message: 'nope' }),
    ]);
    expect(t).toMatchObject({
      attempted: 5,
      admitted: 3,
      rejected: 2,
      scheduled: 2,
      pending: 1,
      nodes: { n1: 2 },
      pendingMessages: [{ message: 'nope', count: 1 }],
    });
    expect(t.rejections).toHaveLength(1);
    expect(t.rejections[0]!.count).toBe(2);
  });
});
