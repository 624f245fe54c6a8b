/**
 * The seed scenarios end to end: a paste + the state it came from → layer, the numbers, and verified
 * fixes in the form of docs/replies.md. Every amount is worked out by hand in the comments.
 */
import { describe, expect, it } from 'vitest';
import { diagnose, parseMustSpecify } from '../../src/answer/diagnose.ts';
import { reconcileQuotaStatus } from '../../src/engine/quota-ledger.ts';
import type { KObject, Snapshot } from '../../src/k8s/snapshot.ts';
import { node, pod, snapshotOf } from '../support/builders.ts';

type Resources = { requests?: Record<string, string>; limits?: Record<string, string> } | undefined;

/** A Deployment and its ReplicaSet `<name>-<hash>` with one container `app`. */
function deployment(ns: string, name: string, hash: string, replicas: number, resources: Resources): KObject[] {
  const template = {
    metadata: { labels: { app: name } },
    spec: { containers: [{ name: 'app', image: name, ...(resources ? { resources } : {}) }] },
  };
  return [
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name, namespace: ns },
      spec: { replicas, selector: { matchLabels: { app: name } }, template },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: `${name}-${hash}`,
        namespace: ns,
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name, controller: true }],
      },
      spec: { replicas, selector: { matchLabels: { app: name } }, template },
    },
  ];
}

function rsPod(ns: string, rs: string, suffix: string, resources: Resources, nodeName?: string): KObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${rs}-${suffix}`,
      namespace: ns,
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rs, controller: true }],
    },
    spec: {
      containers: [{ name: 'app', image: 'x', ...(resources ? { resources } : {}) }],
      ...(nodeName ? { nodeName } : {}),
    },
    status: { phase: nodeName ? 'Running' : 'Pending' },
  };
}

function withQuotaStatus(s: Snapshot): Snapshot {
  reconcileQuotaStatus(s);
  return s;
}

describe('(a) LimitRange defaults consume the quota', () => {
  // ns lr: quota requests.cpu 2; LimitRange defaultRequest cpu 500m (default 1).
  // batch: 3 × 600m = 1800m used. `app` sets no resources → gets 500m → 1800m + 500m = 2300m > 2.
  const BATCH = { requests: { cpu: '600m' }, limits: { cpu: '600m' } };
  const state = () =>
    withQuotaStatus(
      snapshotOf(
        node('n1', { cpu: '8', memory: '16Gi' }),
        {
          apiVersion: 'v1',
          kind: 'ResourceQuota',
          metadata: { name: 'lr-quota', namespace: 'lr' },
          spec: { hard: { 'requests.cpu': '2' } },
        },
        {
          apiVersion: 'v1',
          kind: 'LimitRange',
          metadata: { name: 'defaults', namespace: 'lr' },
          spec: { limits: [{ type: 'Container', default: { cpu: '1' }, defaultRequest: { cpu: '500m' } }] },
        },
        ...deployment('lr', 'app', '7d4b9c6f5', 1, undefined),
        ...deployment('lr', 'batch', '6c8d7f9b4', 3, BATCH),
        rsPod('lr', 'batch-6c8d7f9b4', 'aaaaa', BATCH, 'n1'),
        rsPod('lr', 'batch-6c8d7f9b4', 'bbbbb', BATCH, 'n1'),
        rsPod('lr', 'batch-6c8d7f9b4', 'ccccc', BATCH, 'n1'),
      ),
    );
  const text =
    'Error creating: pods "app-7d4b9c6f5-x2k9q" is forbidden: exceeded quota: lr-quota, requested: requests.cpu=500m, used: requests.cpu=1800m, limited: requests.cpu=2';
  const d = diagnose({ text, state: state(), namespace: 'lr' });
  const f = d.json.findings[0]!;
  const r = d.answer.replies[0]!;

  it('quota layer, the numbers, free = 2 − 1800m = 200m', () => {
    expect(d.json.findings).toHaveLength(1);
    expect(f).toMatchObject({
      layer: 'quota',
      kind: 'quota-exceeded',
      namespace: 'lr',
      facts: { quota: 'lr-quota', exceeding: ['requests.cpu'] },
    });
    expect(r.headline).toBe('Rejected at admission — ResourceQuota lr-quota — pod app-7d4b9c6f5-x2k9q (lr)');
    expect(r.table!.rows).toEqual([['requests.cpu', '500m', '1800m', '2', '200m']]);
    // over by 1800m + 500m − 2 = 300m
    expect(r.lines).toContain(
      'requests.cpu: over by 300m — request ≤ 200m, free 300m in the namespace, or raise the quota to 2300m.',
    );
  });

  it('names the LimitRange default as where the 500m came from, and who holds the rest', () => {
    expect(r.lines).toContain(
      'LimitRange defaults count too: cpu request for container app; cpu limit for container app (the pod did not set them).',
    );
    expect(r.lines).toContain('Holding requests.cpu: deploy/batch 3 × 600m = 1800m');
  });

  it.each([
    // set the request explicitly to the 200m that is free (instead of the 500m default)
    {
      who: 'app-team',
      summary: 'lower requests.cpu of container app to ≤ 200m',
      change: 'kubectl -n lr set resources deploy/app -c app --requests=cpu=200m',
    },
    // need 300m; one batch pod frees 600m (⌈300/600⌉ = 1)
    {
      who: 'app-team',
      summary: 'scale deploy/batch 3 → 2 (frees 600m of requests.cpu; stops 1 running pod)',
      change: 'kubectl -n lr scale deploy/batch --replicas=2',
      sideEffects: ['stops lr/batch-6c8d7f9b4-aaaaa, running on n1'],
    },
    // 1800m + 500m
    {
      who: 'platform',
      summary: 'raise lr-quota requests.cpu to 2300m',
      change: `kubectl -n lr patch resourcequota/lr-quota --type merge -p '{"spec":{"hard":{"requests.cpu":"2300m"}}}'`,
    },
  ])('fix: $summary (verified: the app Deployment gets its pod, on n1)', (fix) => {
    expect(f.fixes).toContainEqual({
      sideEffects: [],
      ...fix,
      verified: true,
      outcome: '1/1 pods of deploy/app admitted and scheduled (n1)',
    });
  });

  it('offers exactly those three fixes, in that order', () => {
    expect(f.fixes.map((x) => x.summary)).toEqual([
      'lower requests.cpu of container app to ≤ 200m',
      'scale deploy/batch 3 → 2 (frees 600m of requests.cpu; stops 1 running pod)',
      'raise lr-quota requests.cpu to 2300m',
    ]);
  });
});

describe('(b) the `pods` quota is full while CPU is left', () => {
  // ns pq: quota pods 3, requests.cpu 4. web 2 + worker 1 = 3 pods of 100m (300m of 4 CPU used).
  const R = { requests: { cpu: '100m', memory: '64Mi' } };
  const state = () =>
    withQuotaStatus(
      snapshotOf(
        node('n1', { cpu: '8', memory: '16Gi' }),
        {
          apiVersion: 'v1',
          kind: 'ResourceQuota',
          metadata: { name: 'pq-quota', namespace: 'pq' },
          spec: { hard: { 'requests.cpu': '4', pods: '3' } },
        },
        ...deployment('pq', 'web', '5c6d7f8b9', 2, R),
        ...deployment('pq', 'worker', '4b5c6d7f8', 2, R),
        rsPod('pq', 'web-5c6d7f8b9', 'aaaaa', R, 'n1'),
        rsPod('pq', 'web-5c6d7f8b9', 'bbbbb', R, 'n1'),
        rsPod('pq', 'worker-4b5c6d7f8', 'ccccc', R, 'n1'),
      ),
    );
  const d = diagnose({
    text: 'Error creating: pods "worker-4b5c6d7f8-ddddd" is forbidden: exceeded quota: pq-quota, requested: pods=1, used: pods=3, limited: pods=3',
    state: state(),
    namespace: 'pq',
  });
  const f = d.json.findings[0]!;
  const r = d.answer.replies[0]!;

  it('quota layer, pods 3/3, free 0', () => {
    expect(f).toMatchObject({
      layer: 'quota',
      kind: 'quota-exceeded',
      facts: { quota: 'pq-quota', exceeding: ['pods'] },
    });
    expect(r.table!.rows).toEqual([['pods', '1', '3', '3', '0']]);
    // 3 + 1 − 3 = 1 over; raise to 3 + 1 = 4
    expect(r.lines).toContain('pods: over by 1 — free 1 in the namespace, or raise the quota to 4.');
    expect(r.lines).toContain('Holding pods: deploy/web 2 × 1 = 2 · deploy/worker 1 × 1 = 1');
  });

  it('fixes: scale another workload down by one, or raise pods to 4 — never "lower cpu"', () => {
    expect(f.fixes).toEqual([
      {
        who: 'app-team',
        summary: 'scale deploy/web 2 → 1 (frees 1 of pods; stops 1 running pod)',
        change: 'kubectl -n pq scale deploy/web --replicas=1',
        verified: true,
        outcome: '2/2 pods of deploy/worker admitted and scheduled (n1)',
        sideEffects: ['stops pq/web-5c6d7f8b9-aaaaa, running on n1'],
      },
      {
        who: 'app-team',
        summary: 'scale deploy/worker 2 → 1: runs the 1 pod the quota admits now (gives up 1 wanted replica)',
        change: 'kubectl -n pq scale deploy/worker --replicas=1',
        verified: true,
        outcome: '1/1 pods of deploy/worker admitted and scheduled (n1)',
        sideEffects: [],
      },
      {
        who: 'platform',
        summary: 'raise pq-quota pods to 4',
        change: `kubectl -n pq patch resourcequota/pq-quota --type merge -p '{"spec":{"hard":{"pods":"4"}}}'`,
        verified: true,
        outcome: '2/2 pods of deploy/worker admitted and scheduled (n1)',
        sideEffects: [],
      },
    ]);
  });
});

describe('(c) 10000 CPU: admitted, no node fits, preemption not helpful', () => {
  // n1: 4 CPU, 8Gi; a kube-system pod holds 500m → 3500m free. `huge` requests cpu 10000 (10k cores).
  const state = () =>
    snapshotOf(
      node('n1', { cpu: '4', memory: '8Gi' }),
      pod('sys', { namespace: 'kube-system', cpu: '500m', node: 'n1' }) as KObject,
      pod('huge', { namespace: 'big', cpu: '10000' }) as KObject,
    );
  const msg =
    '0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.';
  const d = diagnose({ text: `Warning  FailedScheduling  pod/huge  ${msg}`, state: state(), namespace: 'big' });
  const f = d.json.findings[0]!;
  const r = d.answer.replies[0]!;

  it('scheduler layer, 0/1 nodes, Insufficient cpu, preemption cannot help', () => {
    expect(f).toMatchObject({
      layer: 'scheduler',
      kind: 'unschedulable',
      facts: { total: 1, reasons: [{ count: 1, reason: 'Insufficient cpu' }] },
    });
    expect(r.headline).toBe('Admitted, but no node fits — scheduler (0/1 nodes) — pod huge (big)');
    // 10000 cores > n1's 4 allocatable: no node can ever hold it (src/answer/tie.ts replaces the generic line).
    expect(r.lines).toContain(
      'No node can ever hold it: it requests 10k cpu, more than any node allocates (the largest, n1, has 4). Preemption cannot make room that no node has.',
    );
    expect(r.lines).toContain('Quota is not the problem here: raising it will not help.');
    // short = 10000 − 3.5 = 9996.5 cores = 9996500m
    expect(r.lines).toContain(
      '1 node short on resources — needs 10k CPU / 0 memory; most free: n1 with 3500m CPU / 8Gi (short 9996500m cpu)',
    );
  });

  it('fixes: a lower request (≤ the 3500m free on n1), the bare Pod re-created; no node: none holds 10k CPU', () => {
    expect(f.fixes).toEqual([
      {
        who: 'app-team',
        summary: 'lower requests.cpu of c to ≤ 3500m (fits n1)',
        change:
          'kubectl -n big get pod huge -o json | kubectl set resources --local -f - -c c --requests=cpu=3500m -o json | kubectl replace --force -f -',
        verified: true,
        outcome: 'admitted, runs on n1',
        sideEffects: [],
      },
    ]);
    expect(r.lines).toContain(
      'requests 10k CPU; the largest node allocates 4 CPU (n1, of the 1 node it may use): no node can hold it, whatever is freed',
    );
    expect(f.now).toBe('fails');
  });

  it('without a pod name it is tied to the Pending pod whose re-simulation gives the message (no event left)', () => {
    const d2 = diagnose({ text: msg, state: state(), namespace: 'big' });
    expect(d2.answer.replies[0]!.headline).toBe('Admitted, but no node fits — scheduler (0/1 nodes) — pod huge (big)');
    expect(d2.answer.replies[0]!.lines[0]).toBe(
      'This is pod/huge (big): no FailedScheduling event left (they expire), but re-simulated now it gets this message.',
    );
  });
});

describe('(c′) an unschedulable pod whose request comes from LimitRange defaults', () => {
  // ns lrs: defaultRequest cpu 1; n1 2 CPU with 1500m taken → 500m free; the ReplicaSet's pod sets no cpu.
  const s = snapshotOf(
    node('n1', { cpu: '2', memory: '8Gi' }),
    pod('busy', { namespace: 'x', cpu: '1500m', node: 'n1' }) as KObject,
    {
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'defaults', namespace: 'lrs' },
      spec: { limits: [{ type: 'Container', default: { cpu: '1' }, defaultRequest: { cpu: '1' } }] },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'app-6b7c8d9f5', namespace: 'lrs' },
      spec: {
        replicas: 1,
        template: { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'app', image: 'x' }] } },
      },
    },
  );
  const d = diagnose({
    text: 'Warning FailedScheduling pod/app-6b7c8d9f5-abcde 0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.',
    state: s,
    namespace: 'lrs',
  });

  it('counts the defaulted 1 CPU: short 1 − 500m = 500m, lower to ≤ 500m', () => {
    expect(d.answer.replies[0]!.lines).toContain(
      '1 node short on resources — needs 1 CPU / 0 memory; most free: n1 with 500m CPU / 8Gi (short 500m cpu)',
    );
    expect(d.json.findings[0]!.fixes[0]).toEqual({
      who: 'app-team',
      summary: 'lower requests.cpu of app to ≤ 500m (fits n1)',
      change: 'kubectl -n lrs set resources rs/app-6b7c8d9f5 -c app --requests=cpu=500m',
      verified: true,
      outcome: '1/1 pods of rs/app-6b7c8d9f5 admitted and scheduled (n1)',
      sideEffects: [],
    });
  });
});

describe('(d) a limit 20 times the request against maxLimitRequestRatio 10', () => {
  const state = () =>
    snapshotOf(
      node('n1', { cpu: '8', memory: '16Gi' }),
      {
        apiVersion: 'v1',
        kind: 'LimitRange',
        metadata: { name: 'defaults', namespace: 'rt' },
        spec: { limits: [{ type: 'Container', maxLimitRequestRatio: { cpu: '10' } }] },
      },
      ...deployment('rt', 'exporter', '8f6d5c4b9', 1, { requests: { cpu: '100m' }, limits: { cpu: '2' } }),
    );
  const d = diagnose({
    text: 'Error creating: pods "exporter-8f6d5c4b9-79btt" is forbidden: cpu max limit to request ratio per Container is 10, but provided ratio is 20.000000',
    state: state(),
    namespace: 'rt',
  });
  const f = d.json.findings[0]!;

  it('limitrange layer with the ratio violation', () => {
    expect(f).toMatchObject({
      layer: 'limitrange',
      kind: 'limitrange',
      facts: {
        violations: [{ scope: 'Container', resource: 'cpu', bound: 'ratio', limit: '10', actual: '20.000000' }],
      },
    });
    expect(d.answer.replies[0]!.lines).toContain(
      'cpu: limit/request of each container may be at most 10, is 20.000000 → raise the request or lower the limit.',
    );
  });

  it.each([
    // request ≥ limit / 10 = 2000m / 10 = 200m
    {
      summary: 'set requests.cpu of app to 200m',
      change: 'kubectl -n rt set resources deploy/exporter -c app --requests=cpu=200m',
    },
    // limit ≤ request × 10 = 100m × 10 = 1000m = 1
    {
      summary: 'set limits.cpu of app to 1',
      change: 'kubectl -n rt set resources deploy/exporter -c app --limits=cpu=1',
    },
  ])('both ways: $summary', (fix) => {
    expect(f.fixes).toContainEqual({
      who: 'app-team',
      ...fix,
      verified: true,
      outcome: '1/1 pods of deploy/exporter admitted and scheduled (n1)',
      sideEffects: [],
    });
  });

  it('exactly those two', () => {
    expect(f.fixes).toHaveLength(2);
  });
});

describe('the state moved on since the paste', () => {
  it('a must-specify paste that would now fail on pods says so', () => {
    // ns pq-like: quota pods 1 (1 used) and a LimitRange that defaults everything: must-specify cannot happen now.
    const s = withQuotaStatus(
      snapshotOf(
        node('n1'),
        {
          apiVersion: 'v1',
          kind: 'ResourceQuota',
          metadata: { name: 'q', namespace: 'm' },
          spec: { hard: { pods: '1', 'limits.cpu': '4' } },
        },
        {
          apiVersion: 'v1',
          kind: 'LimitRange',
          metadata: { name: 'defaults', namespace: 'm' },
          spec: { limits: [{ type: 'Container', default: { cpu: '500m' }, defaultRequest: { cpu: '100m' } }] },
        },
        pod('one', { namespace: 'm', cpu: '100m', node: 'n1' }) as KObject,
      ),
    );
    const d = diagnose({
      text: 'Error creating: pods "x-abcde" is forbidden: failed quota: q: must specify limits.cpu',
      state: s,
      namespace: 'm',
    });
    expect(d.json.findings[0]!.kind).toBe('quota-must-specify');
    expect(d.answer.replies[0]!.lines[0]).toBe(
      'Now it would be refused differently: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1',
    );
    expect(d.json.findings[0]!.fixes.map((x) => x.summary)).toEqual(['raise q pods to 2']);
  });

  it('an exceeded paste that would now pass says retrying should work, and offers no fix', () => {
    const s = withQuotaStatus(
      snapshotOf(node('n1'), {
        apiVersion: 'v1',
        kind: 'ResourceQuota',
        metadata: { name: 'q', namespace: 'm' },
        spec: { hard: { pods: '5' } },
      }),
    );
    const d = diagnose({
      text: 'Error creating: pods "x-abcde" is forbidden: exceeded quota: q, requested: pods=1, used: pods=5, limited: pods=5',
      state: s,
      namespace: 'm',
    });
    expect(d.answer.replies[0]!.lines[0]).toMatch(
      /^Now it would pass: the state changed since this error \(admitted, schedules on n1\)\. Retrying should work\.$/,
    );
    expect(d.json.findings[0]!.fixes).toEqual([]);
  });
});

describe('without a state', () => {
  it('explains from the text and says the fixes are not verified', () => {
    const d = diagnose({
      text: 'Error creating: pods "x-abcde" is forbidden: exceeded quota: q, requested: pods=1, used: pods=5, limited: pods=5',
      namespace: 'm',
    });
    expect(d.recognised).toBe(true);
    expect(d.json.findings[0]!.fixes).toEqual([]);
    expect(d.answer.replies[0]!.gaps).toContain(
      'No cluster state: numbers are from the text only; fixes are not verified.',
    );
  });
});

describe('parseMustSpecify', () => {
  it.each([
    [
      'must specify limits.cpu for: app; limits.memory for: app,sidecar',
      { 'limits.cpu': ['app'], 'limits.memory': ['app', 'sidecar'] },
    ],
    ['must specify limits.cpu,limits.memory', { 'limits.cpu': [], 'limits.memory': [] }],
  ])('%s', (text, out) => {
    expect(parseMustSpecify(text)).toEqual(out);
  });
});
