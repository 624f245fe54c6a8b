/**
 * Headroom (`quota NS`) against small states whose numbers are worked out by hand in the comments.
 * docs/kubernetes-semantics.md §3.4 (LimitRange defaults), §4.3/§4.5 (quota usage and the exceeded check), §6.2 (fit).
 */
import { describe, expect, it } from 'vitest';
import { computeHeadroom, countFits, headroomJson, headroomMemo, nodeBound } from '../../src/engine/headroom.ts';
import { perPodRequests } from '../../src/engine/pod-resources.ts';
import { reconcileQuotaStatus } from '../../src/engine/quota-ledger.ts';
import type { Pod } from '../../src/k8s/objects.ts';
import type { KObject, Snapshot } from '../../src/k8s/snapshot.ts';
import { node, pod, snapshotOf } from '../support/builders.ts';

const NS = 'hr';

function quota(ns: string, name: string, hard: Record<string, string>, used?: Record<string, string>): KObject {
  return {
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: { name, namespace: ns },
    spec: { hard },
    ...(used ? { status: { hard, used } } : {}),
  };
}

function limitRange(ns: string, defaultRequest: Record<string, string>, dflt: Record<string, string>): KObject {
  return {
    apiVersion: 'v1',
    kind: 'LimitRange',
    metadata: { name: 'defaults', namespace: ns },
    spec: { limits: [{ type: 'Container', default: dflt, defaultRequest }] },
  };
}

function ownedBy(p: Pod, rs: string): KObject {
  p.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rs, controller: true }];
  return p as KObject;
}

const WEB_TEMPLATE = {
  metadata: { labels: { app: 'web' } },
  spec: { containers: [{ name: 'app', image: 'web', resources: { requests: { cpu: '300m', memory: '256Mi' } } }] },
};

/**
 * Nodes: n1 4 CPU / 8Gi, n2 2 CPU / 4Gi (110 pods each), n3 16 CPU / 64Gi tainted gpu=yes:NoSchedule,
 * n4 16 CPU / 64Gi cordoned.
 * Pods of `hr`: solo 400m/512Mi on n1, web ×2 (300m/256Mi) one on n1 and one on n2.
 *   → quota used: requests.cpu 400+300+300 = 1000m = 1, requests.memory 512+256+256 = 1024Mi = 1Gi, pods 3.
 *   → free: n1 cpu 4000−700 = 3300m, memory 8192−768 = 7424Mi, pods 110−2 = 108;
 *           n2 cpu 2000−300 = 1700m, memory 4096−256 = 3840Mi, pods 110−1 = 109.
 * Quota team-quota: requests.cpu 2, requests.memory 2Gi, pods `podsHard` (status.used computed).
 * LimitRange defaults: defaultRequest 100m/128Mi, default 500m/512Mi.
 */
function headroomState(podsHard = '5'): Snapshot {
  const s = snapshotOf(
    node('n1', { cpu: '4', memory: '8Gi' }),
    node('n2', { cpu: '2', memory: '4Gi' }),
    node('n3', { cpu: '16', memory: '64Gi', taints: [{ key: 'gpu', value: 'yes', effect: 'NoSchedule' }] }),
    node('n4', { cpu: '16', memory: '64Gi', unschedulable: true }),
    quota(NS, 'team-quota', { 'requests.cpu': '2', 'requests.memory': '2Gi', pods: podsHard }),
    limitRange(NS, { cpu: '100m', memory: '128Mi' }, { cpu: '500m', memory: '512Mi' }),
    pod('solo', { namespace: NS, cpu: '400m', memory: '512Mi', node: 'n1' }) as KObject,
    ownedBy(pod('web-5f7c9-aaaaa', { namespace: NS, cpu: '300m', memory: '256Mi', node: 'n1' }), 'web-5f7c9'),
    ownedBy(pod('web-5f7c9-bbbbb', { namespace: NS, cpu: '300m', memory: '256Mi', node: 'n2' }), 'web-5f7c9'),
    {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: 'web-5f7c9',
        namespace: NS,
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', controller: true }],
      },
      spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: WEB_TEMPLATE },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: NS },
      spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: WEB_TEMPLATE },
    },
  );
  reconcileQuotaStatus(s);
  return s;
}

describe('computeHeadroom: quota, LimitRange defaults, node bound', () => {
  const h = computeHeadroom(headroomState(), NS);

  it.each([
    // resource, hard, used (computed from the 3 pods), free = hard − used
    ['pods', '5', '3', '2'], // 5 − 3
    ['requests.cpu', '2', '1', '1'], // 400m + 300m + 300m = 1000m; 2 − 1
    ['requests.memory', '2Gi', '1Gi', '1Gi'], // 512Mi + 256Mi + 256Mi = 1024Mi; 2Gi − 1Gi
  ])('quota %s: hard %s, used %s, free %s', (res, hard, used, free) => {
    expect(h.quotas).toHaveLength(1);
    expect(h.quotas[0]!.name).toBe('team-quota');
    expect(h.quotas[0]!.scopes).toEqual([]);
    expect(h.quotas[0]!.resources[res]).toEqual({ hard, used, free });
  });

  it('lists the LimitRange as stored', () => {
    expect(h.limitRanges).toEqual([
      {
        name: 'defaults',
        type: 'Container',
        default: { cpu: '500m', memory: '512Mi' },
        defaultRequest: { cpu: '100m', memory: '128Mi' },
        min: {},
        max: {},
        maxLimitRequestRatio: {},
      },
    ]);
  });

  it('default pod gets 100m/128Mi → 500m/512Mi and is stopped by pods after 2', () => {
    // bounds: pods 2/1 = 2 · requests.cpu 1000m/100m = 10 · requests.memory 1024Mi/128Mi = 8
    // nodes: n1 min(3300/100, 7424/128, 108) = min(33, 58, 108) = 33; n2 min(1700/100, 3840/128, 109) = 17;
    //        n3 tainted, n4 cordoned → 33 + 17 = 50. min(2, 10, 8, 50) = 2 (pods).
    expect(h.defaultPod).toEqual({
      fits: 2,
      limitedBy: 'pods',
      quota: 'team-quota',
      requests: { cpu: '100m', memory: '128Mi' },
      limits: { cpu: '500m', memory: '512Mi' },
    });
  });

  it('largest schedulable pod: n1 (3300m / 7424Mi), not the tainted or cordoned 16-CPU nodes', () => {
    // n1 4000m − 700m = 3300m beats n2 2000m − 300m = 1700m; memory 8192Mi − 768Mi = 7424Mi.
    expect(h.largestSchedulablePod).toEqual({ cpu: '3300m', memory: '7424Mi', node: 'n1' });
  });

  it('web (300m/256Mi): +2 more, stopped by pods', () => {
    // pods 2 · requests.cpu ⌊1000/300⌋ = 3 · requests.memory 1024/256 = 4 → 2 (pods)
    expect(h.workloads).toHaveLength(1);
    expect(h.workloads[0]).toMatchObject({
      ref: 'deploy/web',
      kind: 'Deployment',
      name: 'web',
      replicas: 2,
      perPod: { cpu: '300m', memory: '256Mi' },
      fits: 2,
      limitedBy: 'pods',
      quota: 'team-quota',
    });
    expect(h.pending).toEqual([]);
  });

  it('headroomJson has the docs/contract.md shape', () => {
    const j = headroomJson(h);
    expect(j).toMatchObject({
      namespace: NS,
      quotas: [{ name: 'team-quota', scopes: [], resources: { pods: { hard: '5', used: '3', free: '2' } } }],
      defaultPod: { fits: 2, limitedBy: 'pods' },
      largestSchedulablePod: { cpu: '3300m', memory: '7424Mi', node: 'n1' },
    });
  });
});

describe('computeHeadroom: which bound wins', () => {
  it.each([
    // podsHard, default pod fits / limitedBy, web fits / limitedBy
    // pods 5: see above.
    ['5', 2, 'pods', 2, 'pods'],
    // pods 50 (47 free): default pod min(47, cpu 10, memory 8, nodes 50) = 8 requests.memory;
    //   web min(47, cpu ⌊1000/300⌋ = 3, memory 1024/256 = 4, nodes n1 min(⌊3300/300⌋ = 11, 7424/256 = 29)
    //   + n2 min(⌊1700/300⌋ = 5, 3840/256 = 15) = 16) = 3 requests.cpu.
    ['50', 8, 'requests.memory', 3, 'requests.cpu'],
    // pods 3 (0 free): nothing fits, the full pods quota stops both.
    ['3', 0, 'pods', 0, 'pods'],
  ])('pods hard %s → default pod %i (%s), web %i (%s)', (podsHard, fits, limitedBy, webFits, webLimitedBy) => {
    const h = computeHeadroom(headroomState(podsHard), NS);
    expect(h.defaultPod.fits).toBe(fits);
    expect(h.defaultPod.limitedBy).toBe(limitedBy);
    expect(h.workloads[0]!.fits).toBe(webFits);
    expect(h.workloads[0]!.limitedBy).toBe(webLimitedBy);
  });

  it('countFits and nodeBound on the admitted web pod', () => {
    const s = headroomState('50');
    const p = pod('web-probe', { namespace: NS, cpu: '300m', memory: '256Mi' });
    // nodes: 11 (n1) + 5 (n2) = 16, see above.
    expect(nodeBound(s, p)).toBe(16);
    expect(countFits(s, p)).toEqual({ fits: 3, limitedBy: 'requests.cpu', quota: 'team-quota' });
  });
});

describe('computeHeadroom: a namespace without a quota is bounded by the nodes', () => {
  it.each([
    // No LimitRange: the pod requests nothing, only pod slots bound it: n1 108 + n2 109 = 217.
    ['no LimitRange', [] as KObject[], 217, {}],
    // defaultRequest 1 CPU / 1Gi: n1 min(⌊3300/1000⌋ = 3, ⌊7424/1024⌋ = 7) = 3; n2 min(⌊1700/1000⌋ = 1, ⌊3840/1024⌋ = 3) = 1 → 4.
    [
      'LimitRange 1 CPU / 1Gi',
      [limitRange('open', { cpu: '1', memory: '1Gi' }, { cpu: '2', memory: '2Gi' })],
      4,
      { cpu: '1', memory: '1Gi' },
    ],
  ])('%s → %i more, limitedBy nodes', (_label, extra, fits, requests) => {
    const s = headroomState();
    s.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'open' } });
    for (const o of extra) s.put(o);
    const h = computeHeadroom(s, 'open');
    expect(h.quotas).toEqual([]);
    expect(h.defaultPod.fits).toBe(fits);
    expect(h.defaultPod.limitedBy).toBe('nodes');
    expect(h.defaultPod.requests).toEqual(requests);
  });

  it('a StatefulSet whose claims do not exist yet is still counted by the nodes', () => {
    // db requests 1 CPU / 1Gi: n1 ⌊3300/1000⌋ = 3, n2 ⌊1700/1000⌋ = 1 → 4 (the claim data-db-N is created by the controller).
    const s = headroomState();
    s.put({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db', namespace: 'open' },
      spec: {
        replicas: 1,
        serviceName: 'db',
        selector: { matchLabels: { app: 'db' } },
        template: {
          metadata: { labels: { app: 'db' } },
          spec: { containers: [{ name: 'db', image: 'db', resources: { requests: { cpu: '1', memory: '1Gi' } } }] },
        },
        volumeClaimTemplates: [
          {
            metadata: { name: 'data' },
            spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
          },
        ],
      },
    });
    const h = computeHeadroom(s, 'open');
    expect(h.workloads).toEqual([
      expect.objectContaining({
        ref: 'statefulset/db',
        fits: 4,
        limitedBy: 'nodes',
        perPod: { cpu: '1', memory: '1Gi' },
      }),
    ]);
  });
});

describe('computeHeadroom: a must-specify quota without LimitRange refuses the default pod', () => {
  it('refused outright, limitedBy must-specify, with the exact message', () => {
    const s = headroomState();
    s.put(
      quota(
        'strict',
        'compute',
        { 'limits.cpu': '4', 'limits.memory': '8Gi' },
        { 'limits.cpu': '0', 'limits.memory': '0' },
      ),
    );
    const h = computeHeadroom(s, 'strict');
    expect(h.defaultPod.fits).toBe(0);
    expect(h.defaultPod.limitedBy).toBe('must-specify');
    expect(h.defaultPod.message).toBe(
      'pods "quota-doctor-probe" is forbidden: failed quota: compute: must specify limits.cpu for: app; limits.memory for: app',
    );
    expect(h.defaultPod.requests).toEqual({});
    expect(h.quotas[0]!.resources['limits.cpu']).toEqual({ hard: '4', used: '0', free: '4' });
  });
});

describe('computeHeadroom: Pending pods', () => {
  it('lists Pending pods of the namespace by name, with their owner', () => {
    const s = headroomState();
    s.put(ownedBy(pod('web-5f7c9-ccccc', { namespace: NS, cpu: '300m', memory: '256Mi' }), 'web-5f7c9'));
    const h = computeHeadroom(s, NS);
    expect(h.pending).toEqual([{ name: 'web-5f7c9-ccccc', owner: 'deploy/web', reason: undefined }]);
  });
});

describe('computeHeadroom: what it keeps between answers follows the state', () => {
  const KINDS = [
    'Node',
    'Pod',
    'ResourceQuota',
    'LimitRange',
    'ReplicaSet',
    'Deployment',
    'StatefulSet',
    'Job',
    'PriorityClass',
    'Namespace',
    'PersistentVolumeClaim',
    'StorageClass',
  ];
  /** The same objects in a new snapshot: nothing remembered, every number computed afresh. */
  function fresh(s: Snapshot): Snapshot {
    const out = snapshotOf();
    for (const k of KINDS) for (const o of s.list(k)) out.put(o);
    return out;
  }
  const web = (cpu: string) => ({
    ...WEB_TEMPLATE,
    spec: { containers: [{ name: 'app', image: 'web', resources: { requests: { cpu, memory: '256Mi' } } }] },
  });

  it.each<[string, (s: Snapshot) => void]>([
    [
      'the quota is raised',
      (s) =>
        s.put(
          quota(
            NS,
            'team-quota',
            { 'requests.cpu': '8', 'requests.memory': '8Gi', pods: '50' },
            { 'requests.cpu': '1', 'requests.memory': '1Gi', pods: '3' },
          ),
        ),
    ],
    [
      'the LimitRange defaults change',
      (s) => s.put(limitRange(NS, { cpu: '250m', memory: '256Mi' }, { cpu: '1', memory: '1Gi' })),
    ],
    [
      'a pod lands on n1',
      (s) => s.put(pod('big', { namespace: 'other', cpu: '3', memory: '7Gi', node: 'n1' }) as KObject),
    ],
    ['n2 grows', (s) => s.put(node('n2', { cpu: '32', memory: '128Gi' }))],
    ['n1 is cordoned', (s) => s.put(node('n1', { cpu: '4', memory: '8Gi', unschedulable: true }))],
    [
      'the Deployment asks for more cpu',
      (s) =>
        s.put({
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: 'web', namespace: NS },
          spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: web('900m') },
        }),
    ],
    [
      'a PriorityClass becomes the global default',
      (s) =>
        s.put({
          apiVersion: 'scheduling.k8s.io/v1',
          kind: 'PriorityClass',
          metadata: { name: 'high' },
          value: 1000,
          globalDefault: true,
        }),
    ],
  ])('%s: a fork answers as a fresh snapshot would, and the original keeps its answer', (_what, change) => {
    const s = headroomState('20');
    const before = headroomJson(computeHeadroom(s, NS));
    expect(headroomJson(computeHeadroom(s.fork(), NS))).toEqual(before);
    const f = s.fork();
    change(f);
    const after = headroomJson(computeHeadroom(f, NS));
    expect(after).toEqual(headroomJson(computeHeadroom(fresh(f), NS)));
    expect(headroomJson(computeHeadroom(s, NS))).toEqual(before);
    // A second answer on the changed fork (everything remembered now) is the same again.
    expect(headroomJson(computeHeadroom(f, NS))).toEqual(after);
  });

  it('the changes above change the answer (the check is not vacuous)', () => {
    const s = headroomState('20');
    const before = headroomJson(computeHeadroom(s, NS));
    const f = s.fork();
    f.put(node('n2', { cpu: '32', memory: '128Gi' }));
    f.put(limitRange(NS, { cpu: '250m', memory: '256Mi' }, { cpu: '1', memory: '1Gi' }));
    expect(headroomJson(computeHeadroom(f, NS))).not.toEqual(before);
  });
});

describe('headroom memo: owned by the snapshot, dropped by any write admission could see', () => {
  const cm = (ns: string): KObject => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'settings', namespace: ns },
    data: { a: '1' },
  });
  const remembered = (s: Snapshot): boolean =>
    headroomMemo(s).admission(NS, s.get('Deployment', NS, 'web')!, undefined) !== undefined;

  it.each<[string, (s: Snapshot) => void, boolean]>([
    ['nothing written', () => {}, true],
    ['a ConfigMap of another namespace', (s) => s.put(cm('other')), true],
    [
      'a Pod of another namespace',
      (s) => s.put(pod('p', { namespace: 'other', cpu: '1', node: 'n1' }) as KObject),
      true,
    ],
    // A kind admission does not read today: the memo does not rely on knowing which kinds it reads.
    ['a ConfigMap of the namespace', (s) => s.put(cm(NS)), false],
    ['a Pod of the namespace removed', (s) => void s.remove('Pod', NS, 'solo'), false],
    ['a Node (cluster-scoped)', (s) => s.put(node('n9', { cpu: '1', memory: '1Gi' })), false],
    [
      'a PriorityClass (cluster-scoped)',
      (s) => s.put({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'low' }, value: 1 }),
      false,
    ],
  ])('%s: the fork still remembers the admission → %s; the original always does', (_what, change, kept) => {
    const s = headroomState('20');
    computeHeadroom(s, NS);
    expect(remembered(s)).toBe(true);
    const f = s.fork();
    change(f);
    expect(remembered(f)).toBe(kept);
    expect(remembered(s)).toBe(true);
  });

  it('an answer on an unchanged fork (one per question) is remembered for the snapshot and its next forks', () => {
    const s = headroomState('20');
    computeHeadroom(s.fork(), NS);
    expect([remembered(s), remembered(s.fork())]).toEqual([true, true]);
  });

  it("a fork that wrote elsewhere keeps the namespace's entries, and what it remembers then stays its own", () => {
    const s = headroomState('20');
    computeHeadroom(s, NS);
    const f = s.fork();
    f.put(cm('other'));
    const g = s.fork();
    g.put(cm(NS));
    computeHeadroom(g, NS);
    expect([remembered(s), remembered(f), remembered(g)]).toEqual([true, true, true]);
    expect(headroomMemo(g).admission(NS, g.get('Deployment', NS, 'web')!, undefined)).not.toBe(
      headroomMemo(s).admission(NS, s.get('Deployment', NS, 'web')!, undefined),
    );
  });

  it("a write to the original after the fork drops only the original's entries", () => {
    const s = headroomState('20');
    computeHeadroom(s, NS);
    const f = s.fork();
    s.put(cm(NS));
    expect([remembered(s), remembered(f)]).toEqual([false, true]);
  });

  it('a snapshot with the same objects remembers nothing; another `now` is another admission', () => {
    const s = headroomState('20');
    computeHeadroom(s, NS);
    const t = snapshotOf(...s.list('Deployment', NS));
    expect(headroomMemo(t).admission(NS, t.get('Deployment', NS, 'web')!, undefined)).toBeUndefined();
    expect(headroomMemo(s).admission(NS, s.get('Deployment', NS, 'web')!, 1_700_000_000_000)).toBeUndefined();
  });
});

describe('perPodRequests: what a reply shows per pod', () => {
  const gpuPod: Pod = {
    ...pod('g', { cpu: '1500m', memory: '1Gi', requests: { 'nvidia.com/gpu': '1', 'ephemeral-storage': '1Gi' } }),
  };
  it.each<[string, Pod, boolean, Record<string, string>]>([
    ['cpu and memory only', gpuPod, false, { cpu: '1500m', memory: '1Gi' }],
    [
      'with extended resources (names with a /), not ephemeral-storage',
      gpuPod,
      true,
      { cpu: '1500m', memory: '1Gi', 'nvidia.com/gpu': '1' },
    ],
    ['nothing requested', pod('e'), true, {}],
  ])('%s', (_what, p, extended, want) => {
    const got = perPodRequests(p, { extended });
    expect(got).toEqual(want);
    expect(Object.keys(got)).toEqual(Object.keys(want));
  });
});

describe('nodeBound: the eligibility it keeps follows the pods that can exclude nodes', () => {
  const guard = (name: string, nodeName: string, anti: boolean): KObject =>
    pod(name, {
      namespace: 'a',
      cpu: '100m',
      memory: '100Mi',
      node: nodeName,
      ...(anti
        ? {
            affinity: {
              podAntiAffinity: {
                requiredDuringSchedulingIgnoredDuringExecution: [
                  { labelSelector: { matchLabels: { app: 'web' } }, topologyKey: 'kubernetes.io/hostname' },
                ],
              },
            },
          }
        : {}),
    }) as KObject;
  const incoming = pod('web-x', { namespace: 'a', cpu: '1', memory: '1Gi', labels: { app: 'web' } });

  // n1 and n2: 4 CPU each, so 4 + 4 = 8 copies of a 1-CPU pod before anything lands.
  // A 100m pod on n1 leaves 3.9 CPU there (3 copies): 7. With required anti-affinity against app=web
  // on n1's hostname, n1 is excluded altogether: 4.
  it.each<[string, KObject[], (s: Snapshot) => void, number]>([
    ['an ordinary pod lands on n1', [], (s) => s.put(guard('plain', 'n1', false)), 7],
    ['a pod with required anti-affinity against app=web lands on n1', [], (s) => s.put(guard('guard', 'n1', true)), 4],
    ['that pod leaves again', [guard('guard', 'n1', true)], (s) => void s.remove('Pod', 'a', 'guard'), 8],
  ])('%s: a fork remembering the eligibility answers as a fresh snapshot', (_what, present, change, want) => {
    const s = snapshotOf(node('n1', { cpu: '4', memory: '8Gi' }), node('n2', { cpu: '4', memory: '8Gi' }), ...present);
    const before = nodeBound(s, incoming);
    const f = s.fork();
    change(f);
    expect(nodeBound(f, incoming)).toBe(want);
    expect(nodeBound(snapshotOf(...f.list('Node'), ...f.list('Pod')), incoming)).toBe(want);
    expect(nodeBound(s, incoming)).toBe(before);
  });
});
