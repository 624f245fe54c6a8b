/**
 * Fixes are judged against the settled state (engine/fixes/settle.ts, docs/kubernetes-semantics.md): a
 * Pending pod our model says fits would already have been bound by kube-scheduler, so every fix is tried
 * from the state with those pods bound, and none is credited with (or charged for) binding them.
 *
 * The reference for "the settled path gives the right answer": the same two steps — settle, then the
 * change — each converged on a state built afresh with nothing shared (`shareBase: false`, no scheduler
 * cache, no memo). That is the semantics by construction. Converging base + settle + change in ONE run
 * is not the same by construction: the change's freed room would be on offer in the same scheduling
 * round as the settle's pods (a least-allocated score sees the freed node), while the settled path binds
 * the settle's pods first, as they are older than any fix — so it is not used as the reference.
 */
import { describe, expect, it } from 'vitest';
import { generateCluster } from '../../../bench/generate.ts';
import { diagnose } from '../../../src/answer/diagnose.ts';
import type { Change } from '../../../src/engine/changes/types.ts';
import { converge } from '../../../src/engine/converge.ts';
import { resyncOf, type FixSubject } from '../../../src/engine/diagnose/goal.ts';
import { forgetFixMemo, judgedState, settledState, settleTouchesSubject } from '../../../src/engine/fixes/settle.ts';
import type { Plan } from '../../../src/engine/fixes/types.ts';
import { verifyPlans } from '../../../src/engine/fixes/verify.ts';
import { reconcileQuotaStatus } from '../../../src/engine/quota-ledger.ts';
import { nodeInfoIndex } from '../../../src/engine/scheduler/node-info.ts';
import type { Pod } from '../../../src/k8s/objects.ts';
import { type KObject, Snapshot } from '../../../src/k8s/snapshot.ts';
import { deployment, node, pod, priorityClass, quota, replicaSet, snapshotOf } from '../../support/builders.ts';
import { digest, summary } from '../../support/convergence-digest.ts';

const NOW = Date.parse('2026-01-01T00:00:00Z');
const NS = 'team-big';

/** The generated 200-node / 2,000-pod cluster: 7 of its pods are Pending, and our model says each fits. */
function build(): Snapshot {
  const g = generateCluster({ nodes: 200, pods: 2000, seed: 7 });
  const s = new Snapshot();
  for (const o of g.objects) s.put(o);
  reconcileQuotaStatus(s, NOW);
  nodeInfoIndex(s);
  return s;
}

/** The cluster's Pending pods, and where the settle binds each (the scheduler's own choice). */
const SETTLE_BINDS = [
  'team-big/svc-16-7mdzqtj-p5pvf general-b-118',
  'team-big/svc-2-qf652gl-bcj69 general-c-119',
  'team-big/svc-40-rcvkx4d-bwsfp general-b-124',
  'team-big/svc-41-ctd6vlj-glrnl general-c-122',
  'team-big/svc-44-g2mdbhn-rsd86 general-b-49',
  'team-big/svc-62-jw4z4v-jjqmd general-c-119',
  'team-big/svc-69-tbc9btj-fnq64 general-b-121',
];
const PENDING = SETTLE_BINDS.map((l) => l.slice(0, l.indexOf(' ')));

const scale = (name: string, replicas: number): Change => ({
  kind: 'scale',
  target: { kind: 'Deployment', namespace: NS, name },
  replicas,
});

describe('the settle: the Pending pods our model says fit are bound once, before any fix', () => {
  it('binds exactly the 7 Pending pods, where the scheduler puts them, and leaves no pod unbound', () => {
    const s = build();
    expect(
      s
        .list('Pod')
        .filter((p) => !p.spec.nodeName)
        .map((p) => `${p.metadata.namespace}/${p.metadata.name}`)
        .sort(),
    ).toEqual([...PENDING].sort());
    const st = settledState(s, { now: NOW });
    expect(st.conv!.events.map((e) => (e.type === 'Scheduled' ? `${e.pod} ${e.node}` : e.type)).sort()).toEqual(
      SETTLE_BINDS,
    );
    expect(st.state.list('Pod').filter((p) => !p.spec.nodeName)).toEqual([]);
    expect(st.conv!.bounded).toBe(false);
  });

  it('is kept with the state: shared by an unwritten fork and across `now` (no pod terminating), new after a write', () => {
    const s = build();
    const st = settledState(s, { now: NOW });
    expect(settledState(s, { now: NOW })).toBe(st);
    expect(settledState(s.fork(), { now: NOW })).toBe(st);
    expect(settledState(s, { now: NOW + 60_000 })).toBe(st);
    expect(settledState(s, { now: NOW, k8sVersion: '1.34' })).not.toBe(st);
    const written = s.fork();
    written.put(priorityClass('unrelated', 5));
    expect(settledState(written, { now: NOW })).not.toBe(st);
  });

  it("a fork written while the memo is still empty never sees its parent's later settle (a question on a superseded generation)", () => {
    const s = build();
    // s carries a fix memo, emptied by a write (as a cache generation does after its parent's questions).
    settledState(s, { now: NOW, k8sVersion: '1.34' });
    s.put(priorityClass('earlier', 3));
    // As the live cache does: the next generation is forked and written before the old one's question settles.
    const next = s.fork();
    next.put(priorityClass('unrelated', 5));
    const old = settledState(s, { now: NOW });
    const mine = settledState(next, { now: NOW });
    expect(mine).not.toBe(old);
    expect(mine.state.get('PriorityClass', undefined, 'unrelated')).toBeDefined();
    expect(old.state.get('PriorityClass', undefined, 'unrelated')).toBeUndefined();
    // And the other way: the parent written after the fork, the unwritten fork settling first.
    const p = build();
    const child = p.fork();
    const childSettle = settledState(child, { now: NOW });
    p.put(priorityClass('unrelated', 5));
    expect(settledState(p, { now: NOW })).not.toBe(childSettle);
  });

  it('forgetFixMemo lets a superseded state go of its settle; forks already taken keep theirs', () => {
    const s = build();
    const inUse = s.fork();
    const st = settledState(inUse, { now: NOW });
    forgetFixMemo(s);
    expect(settledState(inUse, { now: NOW })).toBe(st);
    expect(settledState(s, { now: NOW })).not.toBe(st);
  });

  it('equals the two steps computed from scratch (nothing shared): the settle, then each change from it', () => {
    const s = build();
    const settled = settledState(s, { now: NOW }).state;
    const fresh = build();
    const refSettle = converge(fresh, [], {
      now: NOW,
      scheduleAllPending: true,
      shareBase: false,
      scheduleCache: false,
    });
    expect(digest(settled)).toBe(digest(refSettle.state));
    const before = digest(settled);
    const changes: Change[] = [
      scale('svc-0', 399),
      scale('svc-39', 39),
      { kind: 'quota', namespace: NS, name: 'team-quota', hard: { pods: '2100' } },
      scale('svc-0', 420),
    ];
    for (const c of changes) {
      const opts = { now: NOW, resync: resyncOf(NS, { kind: 'Deployment', namespace: NS, name: 'svc-0' }) };
      const got = converge(settled, [c], opts);
      const ref = converge(refSettle.state, [c], { ...opts, shareBase: false, scheduleCache: false });
      expect(summary(got), JSON.stringify(c)).toBe(summary(ref));
      // No try credits or mentions the settle's pods: none of them is scheduled, deleted or created again.
      const words = JSON.stringify([got.events, got.evicted]);
      for (const k of PENDING) expect(words, `${JSON.stringify(c)} ${k}`).not.toContain(k);
    }
    expect(digest(settled)).toBe(before);
  });
});

describe('a Pending pod that fits nowhere, retried by each capacity-freeing try', () => {
  /** The cluster with a 64-CPU bare pod (no node allocates that much) and one held off n1 by its selector. */
  function withStuck(): Snapshot {
    const s = build();
    s.put(pod('huge', { namespace: NS, cpu: '64', memory: '1Gi' }) as KObject);
    s.put(
      pod('pinned', {
        namespace: NS,
        cpu: '3900m',
        memory: '1Gi',
        nodeSelector: { 'kubernetes.io/hostname': 'general-a-1' },
      }) as KObject,
    );
    reconcileQuotaStatus(s, NOW);
    nodeInfoIndex(s);
    return s;
  }

  it('retried on each try: the same messages and placements as a scan with nothing shared or cached', () => {
    const s = withStuck();
    const settled = settledState(s, { now: NOW });
    const stuck = settled
      .conv!.events.filter((e) => e.type === 'FailedScheduling')
      .map((e) => e.pod)
      .sort();
    expect(stuck).toEqual(['team-big/huge', 'team-big/pinned']);
    const fresh = withStuck();
    const refSettle = converge(fresh, [], {
      now: NOW,
      scheduleAllPending: true,
      shareBase: false,
      scheduleCache: false,
    });
    for (const c of [scale('svc-0', 399), scale('svc-39', 30), scale('svc-0', 200)]) {
      const got = converge(settled.state, [c], { now: NOW });
      const ref = converge(refSettle.state, [c], { now: NOW, shareBase: false, scheduleCache: false });
      expect(summary(got), JSON.stringify(c)).toBe(summary(ref));
      // It means something: the stuck pods were tried again (a FailedScheduling of each, with its message).
      expect(
        got.events
          .filter((e) => e.type === 'FailedScheduling')
          .map((e) => e.pod)
          .sort(),
      ).toEqual(stuck);
    }
  });
});

describe('a diagnose on the settled state', () => {
  it('the quota-full paste: scale-downs that stop running pods (the Pending ones would run), no settle pod in any fix', () => {
    const s = build();
    const rq = s.get('ResourceQuota', NS, 'team-quota')!;
    const used = String(rq.status?.used?.pods ?? '');
    const full = s.fork();
    const hard = { ...(rq.spec?.hard ?? {}), pods: used };
    full.put({ ...rq, kind: 'ResourceQuota', spec: { ...rq.spec, hard }, status: { ...rq.status, hard } });
    const text = `Error creating: pods "svc-0-7c9d8b6f5-abcde" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=${used}, limited: pods=${used}`;
    const fixes = diagnose({ text, state: full, namespace: NS, now: NOW }).json.findings.flatMap((f) => f.fixes ?? []);
    expect(fixes.map((f) => [f.change, f.verified, f.outcome, f.sideEffects])).toEqual([
      [
        'kubectl -n team-big scale deploy/svc-0 --replicas=399',
        true,
        'admitted, schedules on general-c-134',
        ['stops team-big/svc-0-rv27xlf-26tml, running on general-b-19'],
      ],
      [
        'kubectl -n team-big scale deploy/svc-39 --replicas=39',
        true,
        'admitted, schedules on general-c-134',
        ['stops team-big/svc-39-429kftj-2cqrh, running on general-c-32'],
      ],
      [
        `kubectl -n team-big patch resourcequota/team-quota --type merge -p '{"spec":{"hard":{"pods":"${Number(used) + 1}"}}}'`,
        true,
        'admitted, schedules on general-c-134',
        [],
      ],
    ]);
    // The Pending replicas the state shows are no "Pending replica that holds quota without running": the
    // settle binds them, so no plan drops one for free.
    expect(fixes.some((f) => /Pending replica/.test(f.summary))).toBe(false);
    const words = JSON.stringify(fixes);
    for (const k of PENDING) expect(words).not.toContain(k.slice(NS.length + 1));
  });
});

describe('the subject and the settle', () => {
  const subjectFor = (s: Snapshot, name: string): FixSubject => {
    const p = s.list('Pod', NS).find((x) => x.metadata.name?.startsWith(`${name}-`))!;
    return { kind: 'workload', ref: { kind: 'Deployment', namespace: NS, name }, pod: p };
  };

  it.each([
    ['svc-2: its Pending pod is one the settle binds — judged against the state as it is', 'svc-2', true],
    ['svc-62: the same', 'svc-62', true],
    ['svc-0: none of its pods moves — judged against the settled state', 'svc-0', false],
    ['svc-39: the same', 'svc-39', false],
  ])('%s', (_what, name, touched) => {
    const s = build();
    const subject = subjectFor(s, name);
    const settled = settledState(s, { now: NOW });
    expect(settleTouchesSubject(s, settled, subject)).toBe(touched);
    expect(judgedState(s, subject, { now: NOW })).toBe(touched ? s : settled.state);
  });

  it('a subject not in the state (a pasted object) is judged against the settled state', () => {
    const s = build();
    const subject: FixSubject = { kind: 'object', namespace: NS, pod: pod('x', { namespace: NS, cpu: '100m' }) };
    expect(judgedState(s, subject, { now: NOW })).toBe(settledState(s, { now: NOW }).state);
  });
});

describe('tries never write the settled state', () => {
  const plans: Plan[] = [
    { who: 'app-team', summary: 'scale svc-39 down', changes: [scale('svc-39', 39)], cost: 2 },
    {
      who: 'platform',
      summary: 'raise the quota',
      changes: [{ kind: 'quota', namespace: NS, name: 'team-quota', hard: { pods: '2100' } }],
      cost: 2,
    },
  ];
  const subjectOf = (s: Snapshot): FixSubject => ({
    kind: 'workload',
    ref: { kind: 'Deployment', namespace: NS, name: 'svc-0' },
    pod: s.list('Pod', NS).find((p) => p.metadata.name?.startsWith('svc-0-'))!,
  });

  it('two fixes verified in both orders give byte-identical answers, and the settled state is unchanged', () => {
    const a = build();
    const settledA = settledState(a, { now: NOW }).state;
    const beforeA = digest(settledA);
    const ab = plans.map((p) => JSON.stringify(verifyPlans(a, subjectOf(a), [p], { now: NOW })));
    expect(digest(settledA)).toBe(beforeA);
    const b = build();
    const settledB = settledState(b, { now: NOW }).state;
    const ba = [...plans].reverse().map((p) => JSON.stringify(verifyPlans(b, subjectOf(b), [p], { now: NOW })));
    expect(digest(settledB)).toBe(beforeA);
    expect([...ba].reverse()).toEqual(ab);
    // Verified again on the first state, after the other: the same bytes.
    expect(plans.map((p) => JSON.stringify(verifyPlans(a, subjectOf(a), [p], { now: NOW })))).toEqual(ab);
    expect(ab.every((x) => JSON.parse(x)[0].verified === false || JSON.parse(x)[0].verified === true)).toBe(true);
  });
});

describe('a settle that preempts', () => {
  /**
   * n1 holds a low-priority pod of deploy/low; vip (priority 1000, Pending) fits only by preempting it:
   * the settle preempts low's pod, binds vip, and low's controller re-creates its pod, which stays
   * Pending (n1 is full, n2 too small). A fix for web (another Deployment) that frees room (it deletes
   * the idle pod on n2: the scheduler retries what waits) must not report any of that — from the state as
   * it is, the same fix would be charged with preempting low's pod and leaving deploy/low short.
   */
  function preempting(): Snapshot {
    const s = snapshotOf(
      node('n1', { cpu: '4', memory: '8Gi' }),
      node('n2', { cpu: '1', memory: '8Gi' }),
      pod('idle', { namespace: 'ns', cpu: '200m', memory: '64Mi', node: 'n2' }) as KObject,
      priorityClass('high', 1000),
      deployment('low', { namespace: 'ns', replicas: 1, requests: { cpu: '3', memory: '1Gi' } }) as KObject,
      replicaSet('low-5f7c8d9b6', {
        namespace: 'ns',
        replicas: 1,
        owner: 'low',
        requests: { cpu: '3', memory: '1Gi' },
      }) as KObject,
      pod('low-5f7c8d9b6-aaaaa', {
        namespace: 'ns',
        cpu: '3',
        memory: '1Gi',
        node: 'n1',
        owner: { kind: 'ReplicaSet', name: 'low-5f7c8d9b6' },
      }) as KObject,
      {
        ...pod('vip', { namespace: 'ns', cpu: '3', memory: '1Gi', priority: 1000, priorityClassName: 'high' }),
      } as KObject,
      deployment('web', { namespace: 'ns', replicas: 0, requests: { cpu: '100m', memory: '64Mi' } }) as KObject,
      quota('q', { namespace: 'ns', hard: { pods: '10' } }) as KObject,
    );
    reconcileQuotaStatus(s, NOW);
    return s;
  }

  it('its evictions are no side effect of a fix: web scales up, only the idle pod it deletes is said', () => {
    const s = preempting();
    const settled = settledState(s, { now: NOW });
    expect(
      settled
        .conv!.events.filter((e) => e.type === 'Preempted' || e.type === 'Scheduled')
        .map((e) => `${e.type} ${e.pod}`),
    ).toEqual(['Preempted ns/low-5f7c8d9b6-aaaaa', 'Scheduled ns/vip']);
    const web: Pod = pod('web-x', { namespace: 'ns', cpu: '100m', memory: '64Mi' });
    const subject: FixSubject = {
      kind: 'workload',
      ref: { kind: 'Deployment', namespace: 'ns', name: 'web' },
      pod: web,
    };
    const fixes = verifyPlans(
      s,
      subject,
      [
        {
          who: 'app-team',
          summary: 'delete idle, scale web to 1',
          changes: [
            { kind: 'deletePod', namespace: 'ns', name: 'idle' },
            { kind: 'scale', target: subject.ref, replicas: 1 },
          ],
          cost: 1,
        },
      ],
      { now: NOW },
    );
    expect(fixes.map((f) => [f.verified, f.outcome, f.sideEffects])).toEqual([
      [true, '1/1 pods of deploy/web admitted and scheduled (n2)', ['stops ns/idle, running on n2']],
    ]);
  });
});
