/**
 * Issue #15 red-team leftovers, table-driven: tolerations as the API server would take them (PodSpec
 * tolerations have no patchStrategy), offered only where the pod's selection matches the tainted nodes;
 * an added node's DaemonSet pods counted as the DaemonSet controller would (NodeShouldRunDaemonPod);
 * fixes paid by a higher-priority workload or by scaling a running workload to 0 ranked last, saying who
 * pays; combinations up to MAX_CHANGES changes, each a step toward the goal (02 catalog, 09 es-3, 13
 * reindex get verified fixes).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../../src/answer/diagnose.ts';
import { readStateFiles } from '../../../src/cluster/file-source.ts';
import { jsonPatch } from '../../../src/engine/changes/patch.ts';
import { rankPlans } from '../../../src/engine/fixes/rank.ts';
import {
  addTolerationChange,
  belongsOn,
  daemonPodsOnNewNode,
  newNodeHelps,
  taintedNodesWords,
} from '../../../src/engine/fixes/unschedulable.ts';
import type { Plan } from '../../../src/engine/fixes/types.ts';
import { apiRefusedGoal, type Goal } from '../../../src/engine/diagnose/goal.ts';
import {
  isStep,
  MAX_CHANGES,
  MAX_DEEP_FOLLOW_UPS,
  MAX_LEVELS,
  MAX_TRIES,
  progressOf,
} from '../../../src/engine/fixes/verify.ts';
import { nodeInfoIndex } from '../../../src/engine/scheduler/node-info.ts';
import type { Pod } from '../../../src/k8s/objects.ts';
import { node, pod, snapshotOf } from '../../support/builders.ts';

const OTHER = fileURLToPath(new URL('../../fixtures/clusters/other', import.meta.url));
const DEMO = fileURLToPath(new URL('../../../manifests/demo', import.meta.url));
const NOW = Date.parse('2026-04-14T14:00:00Z');
const DEMO_NOW = Date.parse('2026-03-10T09:40:00Z');
const other = readStateFiles(OTHER).snapshot;
const demo = readStateFiles(DEMO).snapshot;

const verifiedOf = (ns: string, text: string) =>
  diagnose({ text, state: other.fork(), namespace: ns, now: NOW })
    .json.findings.flatMap((f) => f.fixes)
    .filter((x) => x.verified);

const RECOMMENDER =
  "0/12 nodes are available: 1 Insufficient memory, 3 node(s) didn't match Pod's node affinity/selector, 3 node(s) had untolerated taint(s), 6 Insufficient cpu. no new claims to deallocate, preemption: 0/12 nodes are available: 6 No preemption victims found for incoming pod, 6 Preemption is not helpful for scheduling.";
const CATALOG =
  'Error creating: pods "catalog-m78dlqc-7zppn" is forbidden: maximum cpu usage per Container is 2, but limit is 4';
const ES3 =
  "0/12 nodes are available: 3 node(s) didn't match pod anti-affinity rules, 3 node(s) had untolerated taint(s), 6 node(s) didn't match Pod's node affinity/selector. no new claims to deallocate, preemption: 0/12 nodes are available: 3 node(s) didn't match pod anti-affinity rules, 9 Preemption is not helpful for scheduling.";
const REINDEX =
  'Error creating: pods "reindex-29603520-hfkdg" is forbidden: exceeded quota: search-business, requested: pods=1,requests.cpu=1, used: pods=8,requests.cpu=5, limited: pods=8,requests.cpu=5';
const NOTEBOOK =
  "0/10 nodes are available: 1 node(s) were unschedulable, 3 node(s) had untolerated taint(s), 6 node(s) didn't match Pod's node affinity/selector. no new claims to deallocate, preemption: 0/10 nodes are available: 10 Preemption is not helpful for scheduling.";

const TOL = { key: 'dedicated', operator: 'Equal', value: 'ingress', effect: 'NoSchedule' } as const;

describe('tolerations: a JSON patch the API server takes (k8s.io/api core/v1 PodSpec.tolerations has no patchStrategy)', () => {
  it.each([
    [
      'a template without tolerations: the whole list is added (`/-` would be "doc is missing path")',
      {},
      [{ op: 'add', path: '/spec/template/spec/tolerations', value: [TOL] }],
      [TOL],
    ],
    [
      'a template with tolerations: appended with `/-` (a merge or strategic patch would replace the list)',
      { tolerations: [{ key: 'a', operator: 'Exists' }] },
      [{ op: 'add', path: '/spec/template/spec/tolerations/-', value: TOL }],
      [{ key: 'a', operator: 'Exists' }, TOL],
    ],
  ] as const)('%s', (_name, spec, body, after) => {
    const c = addTolerationChange(
      spec,
      { kind: 'Deployment', namespace: 'ns', name: 'd' },
      '/spec/template/spec/tolerations',
      TOL,
    );
    expect(c).toEqual({
      kind: 'patch',
      target: { kind: 'Deployment', namespace: 'ns', name: 'd' },
      type: 'json',
      body,
    });
    const r = jsonPatch({ spec: { template: { spec } } }, body);
    expect(r).toEqual({ doc: { spec: { template: { spec: { ...spec, tolerations: after } } } } });
  });

  it('the `/-` patch on a template without tolerations is what kubectl refuses', () => {
    expect(
      jsonPatch({ spec: { template: { spec: { containers: [] } } } }, [
        { op: 'add', path: '/spec/template/spec/tolerations/-', value: TOL },
      ]),
    ).toEqual({
      error: 'add operation does not apply: doc is missing path: "/spec/template/spec/tolerations/-": missing value',
    });
  });

  const index = nodeInfoIndex(other);
  const ingress = ['ing-a-1', 'ing-b-1', 'ing-c-1'].map((n) => index.get(n)!);
  const gpuState = snapshotOf(
    node('g1', { labels: { pool: 'gpu' }, allocatable: { 'nvidia.com/gpu': '4' } }),
    node('g2', { labels: { pool: 'gpu' }, allocatable: { 'nvidia.com/gpu': '4' } }),
    node('x1', { labels: { team: 'x' } }),
  );
  const gpuIndex = nodeInfoIndex(gpuState);
  const gpus = ['g1', 'g2'].map((n) => gpuIndex.get(n)!);
  it.each([
    [
      'recommender selects arm64; the ingress pool is amd64: not where it belongs',
      other.get('Deployment', 'shop', 'recommender')!.spec.template as Pod,
      ingress,
      null,
    ],
    [
      'a nodeSelector matching every tainted node',
      pod('p', { nodeSelector: { pool: 'gpu' } }),
      gpus,
      "the pod's nodeSelector pool=gpu selects them",
    ],
    [
      'no selector, asking for a resource only they offer',
      pod('p', { requests: { 'nvidia.com/gpu': '1' } }),
      gpus,
      'only they offer nvidia.com/gpu',
    ],
    ['no selector, nothing only they offer', pod('p', { cpu: '1' }), gpus, null],
    [
      'a selector that matches only some of them',
      pod('p', { nodeSelector: { 'kubernetes.io/hostname': 'g1' } }),
      gpus,
      null,
    ],
  ])('belongsOn: %s', (_name, p, infos, want) => {
    expect(belongsOn(p, infos)).toBe(want);
  });

  it.each([
    ['3 nodes of one pool', ingress, 'the 3 nodes of pool ingress, tainted dedicated=ingress'],
    ['one node', ingress.slice(0, 1), 'node ing-a-1 of pool ingress, tainted dedicated=ingress'],
    ['nodes of no common pool', [gpuIndex.get('x1')!, gpus[0]!], 'the 2 nodes tainted dedicated=ingress'],
  ])('taintedNodesWords: %s', (_name, infos, want) => {
    expect(taintedNodesWords(infos, 'dedicated=ingress')).toBe(want);
  });

  it('the demo notebook: its toleration names the gpu pool it selects, and no cordoned general node counts as usable', () => {
    const out = diagnose({ text: NOTEBOOK, state: demo.fork(), namespace: 'ml', now: DEMO_NOW });
    const fixes = out.json.findings.flatMap((f) => f.fixes);
    expect(fixes.map((f) => [f.summary, f.change, f.verified])).toEqual([
      [
        "tolerate nvidia.com/gpu=present:NoSchedule (the 2 nodes of pool gpu, tainted nvidia.com/gpu=present; the pod's nodeSelector pool=gpu selects them)",
        `kubectl -n ml patch pod/notebook-priya --type json -p '[{"op":"add","path":"/spec/tolerations/-","value":{"key":"nvidia.com/gpu","operator":"Equal","value":"present","effect":"NoSchedule"}}]'`,
        true,
      ],
    ]);
    const text = out.answer.replies.flatMap((r) => r.lines).join('\n');
    expect(text).not.toContain('no node can hold it');
  });
});

describe('an added node gets the DaemonSet pods the DaemonSet controller would give it (daemon_controller.go NodeShouldRunDaemonPod)', () => {
  it.each([
    ['mem-a-1 (memdb)', 'mem-a-1', ['kube-system/ds/kube-proxy', 'monitoring/ds/node-exporter']],
    [
      'ing-a-1 (tainted dedicated=ingress; both DaemonSets tolerate it)',
      'ing-a-1',
      ['kube-system/ds/kube-proxy', 'monitoring/ds/node-exporter'],
    ],
  ])('like %s', (_name, like, want) => {
    const ds = daemonPodsOnNewNode(other, other.get('Node', undefined, like)!, { now: NOW });
    expect(ds.map((d) => d.ref)).toEqual(want);
    // monitoring-quota is at pods 10/10: the new node's node-exporter pod would be refused.
    expect(ds.map((d) => d.refused?.quota ?? null)).toEqual([null, 'monitoring-quota']);
  });

  it.each([
    ['a DaemonSet selecting another pool', { pool: 'other' }, []],
    ['a DaemonSet selecting the pool', { pool: 'gpu' }, ['ns/ds/agent']],
  ])('%s', (_name, nodeSelector, want) => {
    const state = snapshotOf(node('g1', { labels: { pool: 'gpu' } }), {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent', namespace: 'ns', uid: 'u' },
      spec: {
        selector: { matchLabels: { app: 'agent' } },
        template: {
          metadata: { labels: { app: 'agent' } },
          spec: { nodeSelector, containers: [{ name: 'a', image: 'x', resources: { requests: { cpu: '10m' } } }] },
        },
      },
    });
    expect(daemonPodsOnNewNode(state, state.get('Node', undefined, 'g1')!, {}).map((d) => d.ref)).toEqual(want);
  });

  it('09 es-3: the add-node alone is not verified (node-exporter 9/13, was 9/12 — not "9/10"); with the quota for its node-exporter it is', () => {
    const fixes = diagnose({ text: ES3, state: other.fork(), namespace: 'search', now: NOW }).json.findings.flatMap(
      (f) => f.fixes,
    );
    expect(fixes.map((f) => [f.summary, f.verified])).toEqual([
      [
        'add a node like mem-a-1 to pool memdb (7910m CPU / 54028Mi allocatable; it also runs 2 DaemonSet pods: kube-system/ds/kube-proxy, monitoring/ds/node-exporter), and raise monitoring/monitoring-quota pods to 11 for monitoring/ds/node-exporter on the new node',
        true,
      ],
    ]);
  });

  it.each([
    ['anti-affinity per hostname: a new node helps', 'kubernetes.io/hostname', ['n1']],
    ['anti-affinity per zone: a new node in the zone does not', 'topology.kubernetes.io/zone', []],
  ])('newNodeHelps: %s', (_name, topologyKey, want) => {
    const p = pod('p', {
      affinity: {
        podAntiAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            { labelSelector: { matchLabels: { app: 'es' } }, topologyKey },
          ],
        },
      },
    });
    const statuses = new Map([
      ['n1', { reasons: ["node(s) didn't match pod anti-affinity rules"] }],
      ['n2', { reasons: ['node(s) had untolerated taint(s)'] }],
    ]);
    expect(newNodeHelps(p, statuses)).toEqual(want);
  });
});

describe('ranking weighs victim priority and business cost (rank.ts)', () => {
  const plan = (summary: string, o: Partial<Plan> = {}): Plan => ({
    who: 'app-team',
    summary,
    changes: [],
    cost: 1,
    ...o,
  });
  it('a fix someone else pays for goes after every other fix, tolerations last', () => {
    expect(
      rankPlans([
        plan('tolerate', { last: true }),
        plan('scale storefront 6 → 1', { cost: 2, harm: true }),
        plan('add a node', { who: 'platform', cost: 3 }),
        plan('lower requests', { cost: 1 }),
      ]).map((p) => p.summary),
    ).toEqual(['lower requests', 'add a node', 'scale storefront 6 → 1', 'tolerate']);
  });

  it('04 recommender: scaling storefront (business, above standard) comes after cart, and says who pays', () => {
    expect(verifiedOf('shop', RECOMMENDER).map((f) => [f.summary, f.sideEffects?.[0]])).toEqual([
      [
        'scale deploy/cart 5 → 0 (frees 4608Mi of requests.memory; stops 3 running pods; deploy/cart pays: scaled to 0, it stops serving), then lower requests.cpu of recommender to ≤ 470m (fits gen-b-1, gen-b-2)',
        'stops shop/cart-knd4zwn-l4zht, running on gen-c-2',
      ],
      [
        "scale deploy/storefront 6 → 1 (frees 5Gi of requests.memory; stops 5 running pods; deploy/storefront pays: its priority business 10000 is above deploy/recommender's standard 1000), then lower requests.cpu of recommender to ≤ 470m (fits gen-b-1, gen-b-2)",
        "who pays: deploy/storefront (priority business 10000, above deploy/recommender's standard 1000) — 5 running pods stop",
      ],
    ]);
  });
});

describe('combinations up to MAX_CHANGES changes, each a step toward the goal (verify.ts)', () => {
  it('the bounds', () => {
    expect([MAX_CHANGES, MAX_LEVELS, MAX_DEEP_FOLLOW_UPS, MAX_TRIES]).toEqual([3, 3, 3, 30]);
  });

  it.each([
    ['the API server refuses the change', true, apiRefusedGoal('x'), [0, 0]],
    [
      'the subject is gone',
      false,
      { reached: false, stage: 'gone', scheduled: 0, outcome: 'deploy/c is gone' },
      [1, 0],
    ],
    [
      'refused by a LimitRange',
      false,
      {
        reached: false,
        stage: 'admission',
        scheduled: 0,
        outcome: '0/2 pods scheduled; a new pod is refused: pods "c" is forbidden: maximum cpu usage',
      },
      [2, 0],
    ],
    [
      'refused by a quota',
      false,
      {
        reached: false,
        stage: 'quota',
        scheduled: 1,
        outcome: '1/2 pods scheduled; a new pod is refused: … exceeded quota: q',
      },
      [3, 1],
    ],
    [
      'Pending',
      false,
      { reached: false, stage: 'pending', scheduled: 1, outcome: '1/2 pods scheduled; 1 stays Pending: 0/13 nodes' },
      [4, 1],
    ],
    // The outcome's words once decided this by regex, which read 0 pods from "2/2 pods of … admitted and scheduled".
    [
      'the goal',
      false,
      { reached: true, stage: 'reached', scheduled: 2, outcome: '2/2 pods of deploy/c admitted and scheduled' },
      [5, 2],
    ],
  ] as [string, boolean, Goal, [number, number]][])('progressOf: %s', (_name, refused, goal, want) => {
    expect(progressOf(refused, goal)).toEqual(want);
  });

  it.each([
    ['quota → Pending is a step', [3, 0], [4, 0], true],
    ['more pods scheduled is a step', [4, 0], [4, 1], true],
    ['the same is not', [4, 1], [4, 1], false],
    ['Pending → refused is not', [4, 0], [3, 0], false],
  ] as const)('isStep: %s', (_name, a, b, want) => {
    expect(isStep([a[0], a[1]], [b[0], b[1]])).toBe(want);
  });

  it.each([
    [
      '02 catalog: the limit, the quota freed, the request lowered to what 2 nodes have free — one set resources',
      'shop',
      CATALOG,
      [
        'kubectl -n shop scale deploy/cart --replicas=0 && kubectl -n shop set resources deploy/catalog -c catalog --limits=cpu=2 --requests=cpu=470m',
      ],
    ],
    [
      '09 es-3: a memdb node (anti-affinity is per hostname) and monitoring-quota for its node-exporter',
      'search',
      ES3,
      [`kubectl -n monitoring patch resourcequota/monitoring-quota --type merge -p '{"spec":{"hard":{"pods":"11"}}}'`],
    ],
    [
      '13 reindex: the quota raised, a general node so it need not preempt ledger, monitoring-quota for its node-exporter',
      'search',
      REINDEX,
      [
        `kubectl -n search patch resourcequota/search-business --type merge -p '{"spec":{"hard":{"pods":"11","requests.cpu":"7500m"}}}' && kubectl -n monitoring patch resourcequota/monitoring-quota --type merge -p '{"spec":{"hard":{"pods":"11"}}}'`,
        `kubectl -n search scale statefulset/es --replicas=0 && kubectl -n monitoring patch resourcequota/monitoring-quota --type merge -p '{"spec":{"hard":{"pods":"11"}}}'`,
      ],
    ],
  ])('%s', (_name, ns, text, want) => {
    const fixes = verifiedOf(ns, text);
    expect(fixes.map((f) => f.change)).toEqual(want);
    // No verified fix holds more than MAX_CHANGES changes (commands, and a node pool change).
    for (const f of fixes) {
      const n =
        (f.change ? f.change.split(' && ').length : 0) + (/add (a node|\d+ nodes) like/.test(f.summary) ? 1 : 0);
      expect(n, f.summary).toBeLessThanOrEqual(MAX_CHANGES);
    }
  });
});
