/**
 * Two replicas, one answer: two real Bolt apps (two createSlackApp on two ports) behind one fake Slack,
 * each with its own client-node CoordinationV1Api against one loopback Lease server with strict
 * resourceVersion semantics (test/support/fake-leases.ts). A redelivered event (same event_id,
 * x-slack-retry-num ≥ 1) that lands on the other replica is dropped there.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoordinationV1Api } from '@kubernetes/client-node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { leaseApi } from '../../src/cluster/lease-api.ts';
import {
  IDS_ANNOTATION,
  LEASE_BUCKETS,
  LEASE_PREFIX,
  LeaseDedupe,
  MAX_IDS_PER_LEASE,
  WINDOW_MS,
} from '../../src/slack/lease-dedupe.ts';
import { startFakeSlack, type FakeSlack } from '../support/fake-slack.ts';
import { startFakeLeases, type FakeLeases } from '../support/fake-leases.ts';
import { formBody, postSigned, slackSignature } from '../support/sign.ts';
import {
  CHANNEL_A,
  messageEvent,
  PASTED_ERROR,
  SIGNING_SECRET,
  startHarness,
  VERIFICATION_TOKEN,
  type Harness,
} from './harness.ts';

const NS = 'quota-doctor';

let fake: FakeSlack;
let leases: FakeLeases;

function dedupe(now?: () => number, states?: string[]): LeaseDedupe {
  return new LeaseDedupe({
    api: leases.kubeConfig().makeApiClient(CoordinationV1Api),
    namespace: NS,
    ...(now ? { now } : {}),
    ...(states ? { onState: (s) => states.push(s) } : {}),
  });
}

/** Each replica's LeaseDedupe and the states it reported (the app logs them in production: src/slack/dedupe.ts). */
const made: { d: LeaseDedupe; states: string[] }[] = [];
async function replicas(shared: boolean): Promise<[Harness, Harness]> {
  made.length = 0;
  const d = () => {
    const states: string[] = [];
    const x = dedupe(undefined, states);
    made.push({ d: x, states });
    return x;
  };
  const a = await startHarness({ fake, sharedDedupe: shared ? d() : null });
  const b = await startHarness({ fake, sharedDedupe: shared ? d() : null });
  return [a, b];
}

const repliesTo = (ts: string) => fake.callsTo('chat.postMessage').filter((c) => c.params.thread_ts === ts).length;

beforeAll(async () => {
  fake = await startFakeSlack();
  leases = (await startFakeLeases()).seed(NS, LEASE_PREFIX, LEASE_BUCKETS);
});
afterAll(async () => {
  await fake?.close();
  await leases?.close();
});

let running: Harness[] = [];
afterEach(async () => {
  leases.fail(undefined);
  for (const h of running) await h.stop();
  running = [];
});

describe('two replicas behind one Slack', () => {
  it('the same event to replica A, then its retry to replica B: exactly one reply (without the Leases: two)', async () => {
    for (const [shared, want] of [
      [true, 1],
      [false, 2],
    ] as const) {
      const [a, b] = await replicas(shared);
      running.push(a, b);
      const ts = shared ? '1701000000.000001' : '1701000000.000002';
      const ev = messageEvent(PASTED_ERROR, { channel: CHANNEL_A, ts });
      const eventId = shared ? 'EvReplicaOne' : 'EvReplicaNoLease';
      expect((await a.event(ev, { eventId })).status).toBe(200);
      await a.handle.idle();
      expect((await b.event(ev, { eventId, retryNum: 1 })).status).toBe(200);
      await b.handle.idle();
      expect(repliesTo(ts), shared ? 'with Leases' : 'in-process dedupe only').toBe(want);
    }
  });

  it('chatter costs no Lease: a channel message that gets no reply reads and writes no Lease; a paste does', async () => {
    const [a, b] = await replicas(true);
    running.push(a, b);
    const before = { ...leases.counts };
    const chatter = messageEvent('lunch at noon, anyone?', { channel: CHANNEL_A, ts: '1701000000.000101' });
    expect((await a.event(chatter, { eventId: 'EvChatter' })).status).toBe(200);
    expect((await b.event(chatter, { eventId: 'EvChatter', retryNum: 1 })).status).toBe(200);
    await a.handle.idle();
    await b.handle.idle();
    expect(repliesTo('1701000000.000101')).toBe(0);
    expect([leases.counts.get - before.get, leases.counts.put - before.put]).toEqual([0, 0]);
    const paste = messageEvent(PASTED_ERROR, { channel: CHANNEL_A, ts: '1701000000.000102' });
    expect((await a.event(paste, { eventId: 'EvPasteOnce' })).status).toBe(200);
    await a.handle.idle();
    expect(repliesTo('1701000000.000102')).toBe(1);
    expect(leases.counts.put - before.put).toBe(1);
  });

  it('40 events × 3 deliveries (original + 2 retries) spread over both replicas, all at once: exactly 40 replies', async () => {
    const [a, b] = await replicas(true);
    running.push(a, b);
    const conflictsBefore = leases.counts.conflicts;
    const N = 40;
    const sent = await Promise.all(
      Array.from({ length: N }, (_, i) => {
        const ts = `1701000100.${String(i).padStart(6, '0')}`;
        const ev = messageEvent(PASTED_ERROR, { channel: CHANNEL_A, ts });
        const eventId = `EvSpread${i}`;
        const [first, other] = i % 2 === 0 ? [a, b] : [b, a];
        return Promise.all([
          first.event(ev, { eventId }),
          other.event(ev, { eventId, retryNum: 1 }),
          (i % 3 === 0 ? first : other).event(ev, { eventId, retryNum: 2 }),
        ]);
      }),
    );
    expect(sent.flat().map((r) => r.status)).toEqual(Array(3 * N).fill(200));
    await Promise.all([a.handle.idle(), b.handle.idle()]);
    const counts = Array.from({ length: N }, (_, i) => repliesTo(`1701000100.${String(i).padStart(6, '0')}`));
    expect(made.map((m) => m.d.stats.unknown)).toEqual([0, 0]);
    expect(made.reduce((n, m) => n + m.d.stats.first, 0)).toBe(N);
    expect(counts).toEqual(Array(N).fill(1));
    // Both replicas raced on the same Leases: optimistic concurrency (409 → re-read) decided them.
    console.log(
      `replicas: ${N} events × 3 deliveries → ${counts.reduce((x, y) => x + y, 0)} replies; ${leases.counts.conflicts - conflictsBefore} Lease conflicts retried`,
    );
    expect(a.handle.metrics.registry.getSingleMetric('quota_doctor_slack_duplicates_total')).toBeDefined();
  });

  it('the same signed /quota body to both replicas (a replay): one answer, by its trigger_id', async () => {
    const [a, b] = await replicas(true);
    running.push(a, b);
    const body = formBody({
      token: VERIFICATION_TOKEN,
      team_id: 'T0FAKE',
      channel_id: CHANNEL_A,
      user_id: 'U0ALICE',
      command: '/quota',
      text: 'team-a',
      response_url: fake.responseUrl('replica-cmd'),
      trigger_id: 'trig-replica',
    });
    const ts = Math.floor(Date.now() / 1000);
    const sig = slackSignature(SIGNING_SECRET, ts, body);
    const r1 = await postSigned(`${a.base}/slack/events`, SIGNING_SECRET, body, {
      kind: 'form',
      timestamp: ts,
      signature: sig,
    });
    const r2 = await postSigned(`${b.base}/slack/events`, SIGNING_SECRET, body, {
      kind: 'form',
      timestamp: ts,
      signature: sig,
    });
    expect([r1.status, r2.status]).toEqual([200, 200]);
    await Promise.all([a.handle.idle(), b.handle.idle()]);
    await fake.waitFor(() => fake.respondsTo('replica-cmd').length >= 1, 5000);
    expect(fake.respondsTo('replica-cmd')).toHaveLength(1);
  });

  it('Leases failing (500): both replicas answer (fail open), each logs it once; they recover', async () => {
    const [a, b] = await replicas(true);
    running.push(a, b);
    leases.fail(500);
    for (let i = 0; i < 3; i++) {
      const ts = `1701000200.00000${i}`;
      const ev = messageEvent(PASTED_ERROR, { channel: CHANNEL_A, ts });
      await a.event(ev, { eventId: `EvDown${i}` });
      await a.handle.idle();
      await b.event(ev, { eventId: `EvDown${i}`, retryNum: 1 });
      await b.handle.idle();
      // Answer rather than lose the message: the retry on B is answered too.
      expect(repliesTo(ts)).toBe(2);
    }
    expect(made.map((m) => m.states)).toEqual([['failing'], ['failing']]);
    leases.fail(undefined);
    const ts = '1701000200.000009';
    const ev = messageEvent(PASTED_ERROR, { channel: CHANNEL_A, ts });
    await a.event(ev, { eventId: 'EvBack' });
    await a.handle.idle();
    await b.event(ev, { eventId: 'EvBack', retryNum: 1 });
    await b.handle.idle();
    expect(repliesTo(ts)).toBe(1);
    expect(made.map((m) => m.states)).toEqual([
      ['failing', 'recovered'],
      ['failing', 'recovered'],
    ]);
  });
});

describe('LeaseDedupe against the strict Lease server', () => {
  it('claims, duplicates, the 10-minute window, and the bound on ids per Lease', async () => {
    let now = 1_800_000_000_000;
    const clock = () => now;
    const r1 = dedupe(clock);
    const r2 = dedupe(clock);
    expect(await r1.claim('EvWin')).toBe('first');
    expect(await r2.claim('EvWin')).toBe('duplicate');
    expect(await r1.claim('EvWin')).toBe('duplicate');
    now += WINDOW_MS - 1000;
    expect(await r2.claim('EvWin')).toBe('duplicate');
    now += 2000; // 10 min 1 s after the claim: pruned, a new delivery is answered
    expect(await r2.claim('EvWin')).toBe('first');
    // One bucket never holds more than MAX_IDS_PER_LEASE ids.
    const name = r1.leaseFor('EvWin');
    const same: string[] = [];
    for (let i = 0; same.length < MAX_IDS_PER_LEASE + 5; i++)
      if (r1.leaseFor(`EvFill${i}`) === name) same.push(`EvFill${i}`);
    for (const id of same) {
      now += 1;
      expect(await r1.claim(id)).toBe('first');
    }
    const lease = leases.get(NS, name) as { metadata: { annotations: Record<string, string> } };
    expect(Object.keys(JSON.parse(lease.metadata.annotations[IDS_ANNOTATION]!) as Record<string, number>)).toHaveLength(
      MAX_IDS_PER_LEASE,
    );
    expect(r1.stats.unknown + r2.stats.unknown).toBe(0);
  }, 60_000);

  it('spreads ids over the 8 Leases', () => {
    const d = dedupe();
    const used = new Set(Array.from({ length: 200 }, (_, i) => d.leaseFor(`Ev${i}`)));
    expect([...used].sort()).toEqual(Array.from({ length: LEASE_BUCKETS }, (_, i) => `${LEASE_PREFIX}${i}`).sort());
  });

  it.each([
    { name: 'a missing Lease (404)', setup: () => undefined, ns: 'not-seeded' },
    { name: 'forbidden (403)', setup: () => leases.fail(403), ns: NS },
    { name: 'server error (500)', setup: () => leases.fail(500), ns: NS },
  ])('$name → unknown (fail open), reported once', async ({ setup, ns }) => {
    const states: string[] = [];
    const d = new LeaseDedupe({
      api: leases.kubeConfig().makeApiClient(CoordinationV1Api),
      namespace: ns,
      onState: (s) => states.push(s),
    });
    setup();
    expect(await d.claim('EvX1')).toBe('unknown');
    expect(await d.claim('EvX2')).toBe('unknown');
    expect(states).toEqual(['failing']);
    leases.fail(undefined);
  });

  it('a slow API server: the claim gives up within its budget (1.5 s) → unknown', async () => {
    const d = dedupe();
    leases.delayMs = 3000;
    try {
      const t0 = performance.now();
      expect(await d.claim('EvSlow')).toBe('unknown');
      expect(performance.now() - t0).toBeLessThan(2000);
    } finally {
      leases.delayMs = 0;
    }
  });
});

describe('the production wiring: QUOTA_DOCTOR_DEDUPE_NAMESPACE and the kubeconfig (src/cluster/lease-api.ts)', () => {
  it('with no dedupe handed in, each app builds its own Lease client from KUBECONFIG: one reply across two replicas', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qd-leases-'));
    const file = join(dir, 'config');
    writeFileSync(
      file,
      [
        'apiVersion: v1',
        'kind: Config',
        `clusters: [{name: leases, cluster: {server: "${leases.url}", insecure-skip-tls-verify: true}}]`,
        'users: [{name: bot, user: {token: lease-token}}]',
        'contexts: [{name: leases, context: {cluster: leases, user: bot}}]',
        'current-context: leases',
        '',
      ].join('\n'),
    );
    const env = { KUBECONFIG: file };
    const putsBefore = leases.counts.put;
    const a = await startHarness({ fake, dedupeNamespace: NS, leaseApi: () => leaseApi(env) });
    const b = await startHarness({ fake, dedupeNamespace: NS, leaseApi: () => leaseApi(env) });
    running.push(a, b);
    const ts = '1701000300.000001';
    const ev = messageEvent(PASTED_ERROR, { channel: CHANNEL_A, ts });
    await a.event(ev, { eventId: 'EvWired' });
    await a.handle.idle();
    await b.event(ev, { eventId: 'EvWired', retryNum: 1 });
    await b.handle.idle();
    expect(repliesTo(ts)).toBe(1);
    expect(leases.counts.put - putsBefore).toBe(1);
    for (const h of [a, b]) expect(h.logs.filter((l) => l.includes('cross-replica dedupe on Leases'))).toHaveLength(1);
  });

  it('no cluster configuration: dedupe stays in-process, said once at start, and messages are still answered', async () => {
    const a = await startHarness({
      fake,
      dedupeNamespace: NS,
      leaseApi: () => leaseApi({ KUBECONFIG: join(tmpdir(), 'qd-no-such-kubeconfig') }),
    });
    running.push(a);
    const ts = '1701000300.000002';
    await a.event(messageEvent(PASTED_ERROR, { channel: CHANNEL_A, ts }), { eventId: 'EvUnwired' });
    await a.handle.idle();
    expect(repliesTo(ts)).toBe(1);
    expect(a.logs.filter((l) => l.includes('cross-replica dedupe is off'))).toHaveLength(1);
  });
});
