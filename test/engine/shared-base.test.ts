/**
 * Convergences forked from one state share what does not depend on their changes (issue #15's bench:
 * every fix a diagnose verifies converges a fork of the same base): the pods-by-owner index and the
 * Pending pods of namespaces a fork did not write (Snapshot.memoNs), and the scheduler's verdicts on
 * nodes it did not write (schedule.ts SharedRow, anchored at the base's node-info index). That changes
 * only the cost. On a generated 200-node / 2,000-pod cluster: each change converged on the shared base —
 * after other changes, in either order, twice — equals the same change converged with `shareBase: false`
 * on a state built afresh, event for event and pod for pod (a scale-down that frees room for the
 * cluster's Pending pods, a rollout, a preemption); the base is left as it was; and a diagnose whose
 * fixes are verified gives byte-identical JSON on the shared base (cold, warm, interleaved with another
 * diagnose) and on a fresh copy.
 */
import { describe, expect, it } from 'vitest';
import { generateCluster } from '../../bench/generate.ts';
import { diagnose } from '../../src/answer/diagnose.ts';
import type { Change } from '../../src/engine/changes/types.ts';
import { converge, type Convergence } from '../../src/engine/converge.ts';
import { reconcileQuotaStatus } from '../../src/engine/quota-ledger.ts';
import { nodeInfoIndex } from '../../src/engine/scheduler/node-info.ts';
import { ScheduleCache, schedulePod } from '../../src/engine/scheduler/schedule.ts';
import { type KObject, Snapshot } from '../../src/k8s/snapshot.ts';
import { deployment, node, pod, priorityClass } from '../support/builders.ts';
import { digest, summary } from '../support/convergence-digest.ts';

const NOW = Date.parse('2026-01-01T00:00:00Z');

interface Built {
  state: Snapshot;
  ns: string;
  workload: string;
  /** The node the `held` pod is held to, and the pod whose deletion makes room for it there. */
  held: { node: string; victim: string };
}

/** The generated cluster, with a high-priority Deployment that fits only where it preempts. */
function build(): Built {
  const g = generateCluster({ nodes: 200, pods: 2000, seed: 7 });
  const s = new Snapshot();
  for (const o of g.objects) s.put(o);
  s.put(priorityClass('high', 1000));
  const big = { cpu: '3900m', memory: '1Gi' };
  const vip = deployment('vip', { namespace: g.bigNamespace, replicas: 0, requests: big, limits: big });
  vip.spec.template.spec.priorityClassName = 'high';
  vip.spec.template.spec.nodeSelector = { 'node.kubernetes.io/instance-type': 'm6i.xlarge' };
  s.put(vip as KObject);
  // A Pending pod held to one node, which it fits once that node's largest pod is gone (deletePod below).
  const index = nodeInfoIndex(s);
  const held = index.nodeNames().find((n) => n.startsWith('general-') && (index.get(n)?.pods.size ?? 0) > 0)!;
  const info = index.get(held)!;
  const largest = [...info.pods.values()].sort((a, b) => b.request.cpu - a.request.cpu || (a.key < b.key ? -1 : 1))[0]!;
  const cpu = `${info.allocatable.cpu - info.requested.cpu + largest.request.cpu}m`;
  s.put({
    ...pod('held', { namespace: g.bigNamespace, cpu, memory: '64Mi' }),
    spec: {
      containers: [{ name: 'app', image: 'x', resources: { requests: { cpu, memory: '64Mi' } } }],
      nodeSelector: { 'kubernetes.io/hostname': held },
    },
  });
  reconcileQuotaStatus(s, NOW);
  nodeInfoIndex(s);
  return { state: s, ns: g.bigNamespace, workload: g.bigWorkload, held: { node: held, victim: largest.key } };
}

function changesOf(b: Built): Record<string, Change> {
  const target = { kind: 'Deployment', namespace: b.ns, name: b.workload };
  const replicas = b.state.get('Deployment', b.ns, b.workload)?.spec.replicas ?? 1;
  return {
    'scale down (frees room: the cluster-wide Pending pods are retried)': {
      kind: 'scale',
      target,
      replicas: replicas - 1,
    },
    'set resources (a rollout)': {
      kind: 'setResources',
      target,
      container: 'app',
      requests: { cpu: '50m', memory: '64Mi' },
      limits: { cpu: '50m', memory: '64Mi' },
    },
    'delete the pod that keeps held off its node (held binds there)': {
      kind: 'deletePod',
      namespace: b.held.victim.slice(0, b.held.victim.indexOf('/')),
      name: b.held.victim.slice(b.held.victim.indexOf('/') + 1),
    },
    'scale the high-priority vip (preemption)': {
      kind: 'scale',
      target: { kind: 'Deployment', namespace: b.ns, name: 'vip' },
      replicas: 3,
    },
  };
}

let shared: Built | undefined;
const base = (): Built => (shared ??= build());

describe('convergences on a shared base equal convergences computed from scratch', () => {
  const names = Object.keys(changesOf(base()));
  // The reference: a state built afresh for each change, nothing shared (shareBase: false).
  const reference = new Map(
    names.map((n) => {
      const b = build();
      return [n, summary(converge(b.state, [changesOf(b)[n]!], { now: NOW, shareBase: false }))];
    }),
  );

  it('the cases mean something: the Pending pods are retried, a rollout completes, vip preempts', () => {
    const b = build();
    const c = changesOf(b);
    const down = converge(b.state, [c[names[0]!]!], { now: NOW, shareBase: false });
    const roll = converge(b.state, [c[names[1]!]!], { now: NOW, shareBase: false });
    const held = converge(b.state, [c[names[2]!]!], { now: NOW, shareBase: false });
    const vip = converge(b.state, [c[names[3]!]!], { now: NOW, shareBase: false });
    const count = (r: Convergence, type: string) => r.events.filter((e) => e.type === type).length;
    expect(held.events.find((e) => e.type === 'Scheduled' && e.pod === `${b.ns}/held`)).toEqual({
      type: 'Scheduled',
      pod: `${b.ns}/held`,
      node: b.held.node,
    });
    expect(
      [down, roll, held, vip].map((r) => [r.steps, count(r, 'Scheduled'), count(r, 'ScaledUp'), count(r, 'Preempted')]),
    ).toEqual([
      // [steps, Scheduled, ScaledUp, Preempted]: 7 Pending pods of the cluster bound once room frees;
      // the rollout re-creates 400 pods through 3 scale-ups; held binds where its node's largest pod
      // was, with the 7 and the deleted pod's replacement; vip's 3 pods preempt 22 pods, re-created.
      [4, 7, 0, 0],
      [10, 407, 3, 0],
      [3, 9, 0, 0],
      [5, 32, 1, 22],
    ]);
  });

  it.each([
    ['in order', [0, 1, 2, 3, 0, 1, 2, 3]],
    ['reversed', [3, 2, 1, 0, 3, 2, 1, 0]],
    ['interleaved', [1, 3, 0, 2, 1, 2, 3, 0]],
  ])(
    'each change converged on one base (%s, each twice) equals its reference, and the base is unchanged',
    (_o, order) => {
      const b = base();
      const before = digest(b.state);
      const c = changesOf(b);
      for (const i of order as number[]) {
        const n = names[i]!;
        expect(summary(converge(b.state, [c[n]!], { now: NOW })), n).toBe(reference.get(n));
      }
      expect(digest(b.state)).toBe(before);
    },
  );
});

describe('a diagnose with verified fixes: byte-identical on a shared base and on a fresh copy', () => {
  /** The bench's fixes case: the big namespace's quota full on pods, a ReplicaSet's refusal pasted. */
  function quotaFull(b: Built): { state: Snapshot; text: string } {
    const rq = b.state.get('ResourceQuota', b.ns, 'team-quota')!;
    const used = String(rq.status?.used?.pods ?? '');
    const full = b.state.fork();
    const hard = { ...(rq.spec?.hard ?? {}), pods: used };
    full.put({ ...rq, kind: 'ResourceQuota', spec: { ...rq.spec, hard }, status: { ...rq.status, hard } });
    const text = `Error creating: pods "${b.workload}-7c9d8b6f5-abcde" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=${used}, limited: pods=${used}`;
    return { state: full, text };
  }
  /** A bigger request than fits in the namespace's quota: the fixes lower it or raise the quota (rollouts). */
  function cpuOver(b: Built): { state: Snapshot; text: string } {
    const rq = b.state.get('ResourceQuota', b.ns, 'team-quota')!;
    const hard = rq.status?.hard ?? {};
    const used = rq.status?.used ?? {};
    return {
      state: b.state,
      text: `Error creating: pods "${b.workload}-7c9d8b6f5-abcde" is forbidden: exceeded quota: team-quota, requested: requests.cpu=64, used: requests.cpu=${used['requests.cpu']}, limited: requests.cpu=${hard['requests.cpu']}`,
    };
  }
  const run = (x: { state: Snapshot; text: string }, ns: string) =>
    JSON.stringify(diagnose({ text: x.text, state: x.state, namespace: ns, now: NOW }).json);

  it('quota full on pods, and a cpu request over the quota: cold, warm, interleaved', () => {
    const fresh = (f: (b: Built) => { state: Snapshot; text: string }) => {
      const b = build();
      return run(f(b), b.ns);
    };
    const refFull = fresh(quotaFull);
    const refCpu = fresh(cpuOver);
    const b = base();
    const before = digest(b.state);
    const full = quotaFull(b);
    const cpu = cpuOver(b);
    expect(run(full, b.ns)).toBe(refFull);
    expect(run(cpu, b.ns)).toBe(refCpu);
    expect(run(full, b.ns)).toBe(refFull);
    expect(run(cpu, b.ns)).toBe(refCpu);
    expect(digest(b.state)).toBe(before);
    // It means something: the quota-full case has verified fixes (scale-downs), each converged.
    const fixes = JSON.parse(refFull).findings.flatMap((f: { fixes?: { verified: boolean }[] }) => f.fixes ?? []);
    expect(fixes.filter((f: { verified: boolean }) => f.verified).length).toBeGreaterThan(0);
  });
});

/**
 * What the sharing rests on: an index forked from the anchor records every node it writes (its lineage's
 * `touched`, copied into its own forks), and a scheduler never takes the anchor's verdict for such a
 * node. A record that misses a write — a node filled or freed by the fork, or by the fork it was forked
 * from (the settled state, engine/fixes/settle.ts, is such a parent of every fix's try) — would place the
 * pod by stale verdicts. Each case: the anchor's shared row for the pod's shape is filled first (a fork
 * schedules the shape on every node), then the shape is scheduled on the case's fork, and the answer is
 * the exact node, equal to a scheduler with no cache on a state built afresh from the same objects.
 */
describe('nodes a fork wrote are judged afresh, never by the anchor’s shared verdicts', () => {
  const SHAPE = { cpu: '3', memory: '1Gi' };
  const filler = (n: string, cpu: string) =>
    ({ ...pod(`fill-${n}-${cpu}`, { namespace: 'ns', cpu, memory: '64Mi', node: n }) }) as KObject;
  /** n1..n4 of 4 CPU; `filled` carry a 2-CPU pod (the 3-CPU shape does not fit there). */
  function anchorWith(filled: string[]): Snapshot {
    const s = new Snapshot();
    for (const n of ['n1', 'n2', 'n3', 'n4']) s.put(node(n, { cpu: '4', memory: '8Gi' }) as KObject);
    for (const n of filled) s.put(filler(n, '2'));
    nodeInfoIndex(s);
    return s;
  }
  const shape = () => ({ ...pod('shape', { namespace: 'ns', ...SHAPE }) });
  const schedule = (s: Snapshot, cache?: ScheduleCache) => {
    const r = schedulePod(s, shape(), cache ? { cache, statusesOnlyWhenUnscheduled: true } : {});
    return { scheduled: r.scheduled, node: r.node, message: r.message };
  };
  /** The same objects in a snapshot of their own: no anchor, no shared row, no cache. */
  const afresh = (s: Snapshot) => {
    const c = new Snapshot();
    for (const kind of ['Node', 'Pod']) for (const o of s.list(kind)) c.put(o);
    return schedule(c);
  };
  const fill = (s: Snapshot, nodes: string[]) => {
    for (const n of nodes) s.put(filler(n, '2'));
    return s;
  };
  const free = (s: Snapshot, nodes: string[]) => {
    for (const n of nodes) s.remove('Pod', 'ns', `fill-${n}-2`);
    return s;
  };

  it.each<[string, string[], (a: Snapshot) => Snapshot, string | null]>([
    ['a fork fills n1..n3 (the anchor: every node fits): n4', [], (a) => fill(a.fork(), ['n1', 'n2', 'n3']), 'n4'],
    [
      'a fork of that fork, which writes nothing itself: its parent’s writes count (n4)',
      [],
      (a) => fill(a.fork(), ['n1', 'n2', 'n3']).fork(),
      'n4',
    ],
    [
      'three generations, each filling one node: n4',
      [],
      (a) => fill(fill(fill(a.fork(), ['n1']).fork(), ['n2']).fork(), ['n3']).fork(),
      'n4',
    ],
    [
      'the anchor fits only n4; a fork frees n1 and fills n4: n1',
      ['n1', 'n2', 'n3'],
      (a) => fill(free(a.fork(), ['n1']), ['n4']),
      'n1',
    ],
    [
      'the same split over a fork and its fork: n1',
      ['n1', 'n2', 'n3'],
      (a) => fill(free(a.fork(), ['n1']).fork(), ['n4']),
      'n1',
    ],
    ['the anchor fits nowhere; a fork frees n3: n3', ['n1', 'n2', 'n3', 'n4'], (a) => free(a.fork(), ['n3']), 'n3'],
    [
      'the anchor fits nowhere; a fork of a fork frees n3: n3',
      ['n1', 'n2', 'n3', 'n4'],
      (a) => free(a.fork(), ['n3']).fork(),
      'n3',
    ],
    [
      'the anchor fits nowhere; a fork cordons n2: nowhere, n2 with its own reason in the message',
      ['n1', 'n2', 'n3', 'n4'],
      (a) => {
        const f = a.fork();
        f.put(node('n2', { cpu: '4', memory: '8Gi', unschedulable: true }) as KObject);
        return f.fork();
      },
      null,
    ],
    [
      'the anchor fits nowhere; a fork frees n3 and cordons it: nowhere',
      ['n1', 'n2', 'n3', 'n4'],
      (a) => {
        const f = free(a.fork(), ['n3']);
        f.put(node('n3', { cpu: '4', memory: '8Gi', unschedulable: true }) as KObject);
        return f;
      },
      null,
    ],
    ['a fork fills n1..n4: nowhere', [], (a) => fill(a.fork(), ['n1', 'n2', 'n3', 'n4']), null],
  ])('%s', (_what, filled, make, want) => {
    const a = anchorWith(filled);
    // Fill the anchor's shared row for the shape: every node's verdict on the anchor is known after this.
    schedule(a.fork(), new ScheduleCache());
    const f = make(a);
    const got = schedule(f, new ScheduleCache());
    expect(got.node).toBe(want);
    expect(got).toEqual(afresh(f));
    if (want === null) expect(got.message).toMatch(/^0\/4 nodes are available: /);
    // A second attempt on the same fork (its shared row now read, not filled) says the same.
    expect(schedule(f, new ScheduleCache())).toEqual(got);
  });
});
