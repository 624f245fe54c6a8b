/**
 * The Lease leader and the ConfigMap store of proactive mode, on a strict loopback Lease/ConfigMap server
 * (404 for a missing object, 409 for a stale resourceVersion) with the real client-node on top.
 */
import { CoordinationV1Api, CoreV1Api } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { LeaseLeader, microTime } from '../../../src/slack/alerts/leader.ts';
import { bounded, ConfigMapStore, DATA_KEY, MAX_POSTED, parseState } from '../../../src/slack/alerts/store.ts';
import { type FakeLeases, startFakeLeases } from '../../support/fake-leases.ts';

const NS = 'quota-doctor';
const LEASE = 'quota-doctor-leader';
let fake: FakeLeases;

afterEach(async () => {
  await fake?.close();
});

function clock(start: number) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('LeaseLeader (client-go tryAcquireOrRenew)', () => {
  it('one of two replicas leads; the other takes over only after the lease expires', async () => {
    fake = await startFakeLeases();
    fake.seed(NS, LEASE, 1);
    // seed() names Leases prefix+index: rename by seeding the exact one.
    const api = fake.kubeConfig().makeApiClient(CoordinationV1Api);
    const c = clock(Date.parse('2026-12-01T10:00:00Z'));
    const a = new LeaseLeader({ api, namespace: NS, name: `${LEASE}0`, identity: 'pod-a', now: c.now });
    const b = new LeaseLeader({ api, namespace: NS, name: `${LEASE}0`, identity: 'pod-b', now: c.now });
    const rounds: [string, boolean, boolean][] = [];
    rounds.push(['start', await a.tick(), await b.tick()]);
    c.advance(5000);
    rounds.push(['+5 s', await a.tick(), await b.tick()]);
    // a stops renewing; 14 s after its last renewal b still waits, at 16 s it takes over.
    c.advance(14_000);
    rounds.push(['a silent 14 s', a.isLeader, await b.tick()]);
    c.advance(2000);
    rounds.push(['a silent 16 s', a.isLeader, await b.tick()]);
    rounds.push(['a comes back', await a.tick(), b.isLeader]);
    expect(rounds).toEqual([
      ['start', true, false],
      ['+5 s', true, false],
      ['a silent 14 s', true, false],
      ['a silent 16 s', false, true],
      ['a comes back', false, true],
    ]);
    const spec = fake.get(NS, `${LEASE}0`)?.spec as Record<string, unknown>;
    expect(spec.holderIdentity).toBe('pod-b');
    expect(spec.leaseTransitions).toBe(2);
    expect(spec.leaseDurationSeconds).toBe(15);
    expect(spec.renewTime).toBe('2026-12-01T10:00:21.000000Z');
  });

  it('release hands the Lease over at once', async () => {
    fake = await startFakeLeases();
    fake.seed(NS, LEASE, 1);
    const api = fake.kubeConfig().makeApiClient(CoordinationV1Api);
    const c = clock(Date.parse('2026-12-01T10:00:00Z'));
    const a = new LeaseLeader({ api, namespace: NS, name: `${LEASE}0`, identity: 'pod-a', now: c.now });
    const b = new LeaseLeader({ api, namespace: NS, name: `${LEASE}0`, identity: 'pod-b', now: c.now });
    expect(await a.tick()).toBe(true);
    await a.release();
    c.advance(1500);
    expect([a.isLeader, await b.tick()]).toEqual([false, true]);
  });

  it.each([
    ['missing Lease (404): nobody leads', undefined, false],
    ['forbidden (403): nobody leads', 403, false],
    ['server error (500): nobody leads', 500, false],
  ])('%s', async (_name, failWith, leads) => {
    fake = await startFakeLeases();
    if (failWith !== undefined) {
      fake.seed(NS, LEASE, 1);
      fake.fail(failWith);
    }
    const api = fake.kubeConfig().makeApiClient(CoordinationV1Api);
    const a = new LeaseLeader({ api, namespace: NS, name: `${LEASE}0`, identity: 'pod-a' });
    expect(await a.tick()).toBe(leads);
  });

  it('a race for a free Lease has one winner (409 for the other)', async () => {
    fake = await startFakeLeases();
    fake.seed(NS, LEASE, 1);
    const api = fake.kubeConfig().makeApiClient(CoordinationV1Api);
    const leaders = ['a', 'b', 'c', 'd'].map(
      (id) => new LeaseLeader({ api, namespace: NS, name: `${LEASE}0`, identity: `pod-${id}` }),
    );
    const won = await Promise.all(leaders.map((l) => l.tick()));
    expect(won.filter(Boolean)).toHaveLength(1);
  });

  it('writes MicroTime as the API server wants it', () => {
    expect(microTime(Date.parse('2026-12-01T10:00:00.123Z'))).toBe('2026-12-01T10:00:00.123000Z');
  });
});

describe('ConfigMapStore', () => {
  const entry = (i: number) => ({
    channel: 'C0TEAMA',
    key: `team-a/Deployment/w${i}/quota/x`,
    ts: `1700000000.${String(i).padStart(6, '0')}`,
    fingerprint: 'f',
    postedAt: i,
    title: `w${i}`,
    namespace: 'team-a',
  });

  it('round-trips through the ConfigMap, keeps the resourceVersion, re-reads once on 409', async () => {
    fake = await startFakeLeases();
    fake.seedConfigMap(NS, 'quota-doctor-incidents');
    const api = fake.kubeConfig().makeApiClient(CoreV1Api);
    const a = new ConfigMapStore(api, NS, 'quota-doctor-incidents', () => 10);
    const b = new ConfigMapStore(api, NS, 'quota-doctor-incidents', () => 10);
    expect(await a.load()).toEqual({ posted: [], mutes: [] });
    expect(await b.load()).toEqual({ posted: [], mutes: [] });
    expect(await a.save({ posted: [entry(1)], mutes: [{ channel: 'C0TEAMA', key: 'k', until: 99 }] })).toBe(true);
    // b read before a wrote: its write conflicts, it re-reads the version and writes its own state.
    expect(await b.save({ posted: [entry(2)], mutes: [] })).toBe(true);
    expect(fake.counts.conflicts).toBe(1);
    expect(await a.load()).toEqual({ posted: [entry(2)], mutes: [] });
  });

  it('cannot read: undefined (the notifier then posts nothing)', async () => {
    fake = await startFakeLeases();
    const api = fake.kubeConfig().makeApiClient(CoreV1Api);
    expect(await new ConfigMapStore(api, NS, 'absent').load()).toBeUndefined();
  });

  it.each([
    ['empty', undefined, { posted: [], mutes: [] }],
    ['not JSON', '{', { posted: [], mutes: [] }],
    ['an array', '[]', { posted: [], mutes: [] }],
    [
      'malformed entries are left out',
      JSON.stringify({ posted: [{ channel: 1 }, { ...entry(3) }], mutes: [{ channel: 'C', key: 'k' }] }),
      { posted: [entry(3)], mutes: [] },
    ],
  ])('parseState: %s', (_name, text, want) => {
    expect(parseState(text)).toEqual(want);
  });

  it('bounded keeps the newest posts and live mutes', () => {
    const posted = Array.from({ length: MAX_POSTED + 5 }, (_, i) => entry(i));
    const out = bounded(
      {
        posted,
        mutes: [
          { channel: 'C', key: 'old', until: 5 },
          { channel: 'C', key: 'new', until: 50 },
        ],
      },
      10,
    );
    expect(out.posted).toHaveLength(MAX_POSTED);
    expect(out.posted[0]!.postedAt).toBe(5);
    expect(out.mutes.map((m) => m.key)).toEqual(['new']);
    expect(DATA_KEY).toBe('incidents.json');
  });
});
