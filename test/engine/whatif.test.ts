/**
 * What-if simulations against small states, every count worked out by hand in the comments.
 * Placement is made deterministic by capacity: where a test names nodes, only those nodes have room.
 */
import { describe, expect, it } from 'vitest';
import { reconcileQuotaStatus } from '../../src/engine/quota-status.ts';
import { findWorkload, tally, whatIfDrain, whatIfQuota, whatIfRequests, whatIfRollout, whatIfScale } from '../../src/engine/whatif.ts';
import type { Pod } from '../../src/k8s/objects.ts';
import type { KObject, Snapshot } from '../../src/k8s/snapshot.ts';
import { node, pod, snapshotOf } from '../support/builders.ts';

const NS = 'wi';
const RS = 'web-5f7c9';

const TEMPLATE = {
  metadata: { labels: { app: 'web' } },
  spec: { containers: [{ name: 'app', image: 'web', resources: { requests: { cpu: '500m', memory: '256Mi' }, limits: { cpu: '2', memory: '1Gi' } } }] },
};

function webPod(suffix: string, nodeName: string): KObject {
  const p = pod(`${RS}-${suffix}`, { namespace: NS, cpu: '500m', memory: '256Mi', node: nodeName, labels: { app: 'web' } });
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
    { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'wi-quota', namespace: NS }, spec: { hard: { 'requests.cpu': '10', pods: podsHard } } },
    { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'defaults', namespace: NS }, spec: { limits: [{ type: 'Container', default: { cpu: '500m', memory: '512Mi' }, defaultRequest: { cpu: '100m', memory: '128Mi' } }] } },
    webPod('aaaaa', 'w1'),
    webPod('bbbbb', 'w2'),
    { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: RS, namespace: NS, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', controller: true }] }, spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: TEMPLATE } },
    { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: NS }, spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: TEMPLATE } },
  );
  reconcileQuotaStatus(s);
  return s;
}

const INSUFFICIENT_CPU_2 = '0/2 nodes are available: 2 Insufficient cpu. no new claims to deallocate, preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.';

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
  ])('2 → $to with pods hard $podsHard', ({ to, podsHard, attempted, admitted, rejected, scheduled, pending, nodes }) => {
    const s = whatIfState(podsHard);
    const a = whatIfScale(s, findWorkload(s, 'web', undefined, [NS])!, to);
    expect(a.from).toBe(2);
    expect(a.to).toBe(to);
    expect(a.perPod).toEqual({ cpu: '500m', memory: '256Mi' });
    expect(a.tally).toMatchObject({ attempted, admitted, rejected, scheduled, pending, nodes });
  });

  it('hitting `pods`: the exact rejection and what it takes', () => {
    const s = whatIfState('5');
    const a = whatIfScale(s, findWorkload(s, 'web', undefined, [NS])!, 6);
    expect(a.tally.rejections).toHaveLength(1);
    // used 2 + 3 admitted = 5 when the 4th arrives; limited 5.
    expect(a.tally.rejections[0]!.message).toMatch(/^pods "web-5f7c9-[a-z0-9]{5}" is forbidden: exceeded quota: wi-quota, requested: pods=1, used: pods=5, limited: pods=5$/);
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
    const a = whatIfQuota(whatIfState(), NS, 'wi-quota', 'pods', value)!;
    expect(a).toEqual({ namespace: NS, quota: 'wi-quota', resource: 'pods', from: '5', to: value, defaultPodBefore: 3, defaultPodAfter: after, limitedByAfter: limitedBy });
  });

  it('a new resource starts at from null; an unknown quota is null', () => {
    // limits.cpu 1 with used 0: the default pod's 500m limit → ⌊1000/500⌋ = 2 < 3 pods
    const a = whatIfQuota(whatIfState(), NS, 'wi-quota', 'limits.cpu', '1')!;
    expect(a).toMatchObject({ from: null, to: '1', defaultPodBefore: 3, defaultPodAfter: 2, limitedByAfter: 'limits.cpu' });
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
    // 3 CPU > allocatable 2 on both nodes → both admitted (quota 6 ≤ 10), both Pending
    expect(a.tally).toMatchObject({ attempted: 2, admitted: 2, scheduled: 0, pending: 2 });
    expect(a.tally.pendingMessages[0]!.message).toBe('0/2 nodes are available: 2 Insufficient cpu. no new claims to deallocate, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.');
  });
});

describe('whatIfDrain', () => {
  it('w2 goes: filler (1500m) lands on w1, the web pod is stranded', () => {
    const d = whatIfDrain(whatIfState(), 'w2')!;
    // pods on w2: filler 1500m, web-…-bbbbb 500m; same priority → by name: filler first, fills w1's 1500m.
    expect(d).toEqual({
      node: 'w2',
      pods: 2,
      rescheduled: { w1: 1 },
      stranded: [{ pod: 'wi/web-5f7c9-bbbbb', message: '0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.' }],
    });
  });

  it('w1 goes: its web pod fits nowhere (w2 full)', () => {
    const d = whatIfDrain(whatIfState(), 'w1')!;
    expect(d.pods).toBe(1);
    expect(d.rescheduled).toEqual({});
    expect(d.stranded.map((x) => x.pod)).toEqual(['wi/web-5f7c9-aaaaa']);
  });

  it('DaemonSet pods are left out; an unknown node is null', () => {
    const s = whatIfState();
    const ds = pod('agent-xyz12', { namespace: 'kube-system', cpu: '100m', node: 'w2' }) as Pod;
    ds.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', controller: true }];
    s.put(ds as KObject);
    expect(whatIfDrain(s, 'w2')!.pods).toBe(2);
    expect(whatIfDrain(s, 'nope')).toBeNull();
  });
});

describe('whatIfRollout: the surge pods next to the old ones', () => {
  /** api: 4 replicas of 100m on a roomy node; quota pods `podsHard` with 4 used. */
  function rolloutState(podsHard: string, strategy?: Record<string, unknown>): Snapshot {
    const tpl = { metadata: { labels: { app: 'api' } }, spec: { containers: [{ name: 'app', image: 'api', resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '100m', memory: '128Mi' } } }] } };
    const objs: KObject[] = [
      node('r1', { cpu: '8', memory: '16Gi' }) as KObject,
      { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'ro-quota', namespace: 'ro' }, spec: { hard: { pods: podsHard } } },
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'api', namespace: 'ro' }, spec: { replicas: 4, selector: { matchLabels: { app: 'api' } }, template: tpl, ...(strategy ? { strategy } : {}) } },
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'api-7c5d9', namespace: 'ro', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'api', controller: true }] }, spec: { replicas: 4, selector: { matchLabels: { app: 'api' } }, template: tpl } },
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

  it('maxSurge 25% of 4 → 1 extra pod; with room (pods 5) it is admitted, no advice', () => {
    const s = rolloutState('5');
    const a = whatIfRollout(s, findWorkload(s, 'api', undefined, ['ro'])!);
    // maxSurge ⌈0.25 × 4⌉ = 1, maxUnavailable ⌊0.25 × 4⌋ = 1
    expect(a).toMatchObject({ strategy: 'RollingUpdate', maxSurge: 1, maxUnavailable: 1, replicas: 4 });
    expect(a.surgeTally).toMatchObject({ attempted: 1, admitted: 1, scheduled: 1, nodes: { r1: 1 } });
    expect(a.advice).toBeUndefined();
  });

  it('with a full quota (pods 4/4) the surge pod is refused → advice: maxSurge 0 or Recreate', () => {
    const s = rolloutState('4');
    const a = whatIfRollout(s, findWorkload(s, 'api', undefined, ['ro'])!);
    expect(a.surgeTally).toMatchObject({ attempted: 1, admitted: 0, rejected: 1 });
    expect(a.surgeTally.rejections[0]!.message).toMatch(/exceeded quota: ro-quota, requested: pods=1, used: pods=4, limited: pods=4$/);
    expect(a.advice).toBe('No surge pod fits: set strategy.rollingUpdate.maxSurge: 0 with maxUnavailable: 1 (replace in place), or strategy Recreate.');
  });

  it('maxSurge 3 with one free pod → only 1 fits', () => {
    const s = rolloutState('5', { type: 'RollingUpdate', rollingUpdate: { maxSurge: 3, maxUnavailable: 0 } });
    const a = whatIfRollout(s, findWorkload(s, 'api', undefined, ['ro'])!);
    // pods 4 + 1 = 5 admitted, the 2nd and 3rd surge pods are refused
    expect(a.surgeTally).toMatchObject({ attempted: 3, admitted: 1, rejected: 2 });
    expect(a.advice).toBe('Only 1 surge pod fit: set maxSurge: 1 (or 0 with maxUnavailable ≥ 1).');
  });

  it('a surge pod admitted but Pending (no node room) stalls the rollout just the same', () => {
    const s = rolloutState('5');
    // r1 shrunk to 400m: the 4 api pods (4 × 100m) fill it, the surge pod has nowhere to go.
    s.put(node('r1', { cpu: '400m', memory: '16Gi' }) as KObject);
    const a = whatIfRollout(s, findWorkload(s, 'api', undefined, ['ro'])!);
    expect(a.surgeTally).toMatchObject({ attempted: 1, admitted: 1, scheduled: 0, pending: 1 });
    expect(a.advice).toBe('No surge pod fits: set strategy.rollingUpdate.maxSurge: 0 with maxUnavailable: 1 (replace in place), or strategy Recreate.');
  });

  it('Recreate needs no surge', () => {
    const s = rolloutState('4', { type: 'Recreate' });
    const a = whatIfRollout(s, findWorkload(s, 'api', undefined, ['ro'])!);
    expect(a).toMatchObject({ strategy: 'Recreate', maxSurge: 0, maxUnavailable: 4 });
    expect(a.surgeTally.attempted).toBe(0);
    expect(a.advice).toBeUndefined();
  });
});

describe('tally', () => {
  it('groups rejections without the generated pod name and ignores non-pods', () => {
    const mk = (name: string, allowed: boolean, message: string | null, scheduling: { scheduled: boolean; node: string | null; message: string | null } | null, kind = 'Pod') =>
      ({ kind, namespace: 'x', name, admission: { allowed, layer: allowed ? null : 'quota', message }, object: { metadata: {} }, quotaUsage: {}, scheduling, detail: { admission: {} } }) as never;
    const t = tally([
      mk('rs', true, null, null, 'ReplicaSet'),
      mk('a', false, 'pods "a" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1', null),
      mk('b', false, 'pods "b" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1', null),
      mk('c', true, null, { scheduled: true, node: 'n1', message: null }),
      mk('d', true, null, { scheduled: true, node: 'n1', message: null }),
      mk('e', true, null, { scheduled: false, node: null, message: 'nope' }),
    ]);
    expect(t).toMatchObject({ attempted: 5, admitted: 3, rejected: 2, scheduled: 2, pending: 1, nodes: { n1: 2 }, pendingMessages: [{ message: 'nope', count: 1 }] });
    expect(t.rejections).toHaveLength(1);
    expect(t.rejections[0]!.count).toBe(2);
  });
});
