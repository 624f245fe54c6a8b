/**
 * Bodies that are not objects, timestamps from the future and slow bodies, against the real HTTPReceiver
 * behind src/slack/request-guard.ts. Before the guard, a correctly signed `null` threw `TypeError: Cannot
 * read properties of null (reading 'ssl_check')` in a detached promise inside Bolt and ended the process.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUEST_TIMEOUT_MS } from '../../src/slack/app.ts';
import { postSigned, slackSignature } from '../support/sign.ts';
import {
  CHANNEL_A,
  messageEvent,
  PASTED_ERROR,
  SIGNING_SECRET,
  startHarness,
  StubAnswerer,
  VERIFICATION_TOKEN,
  type Harness,
} from './harness.ts';

const NOT_OBJECTS: { name: string; kind: 'json' | 'form'; body: string }[] = [
  { name: 'json null', kind: 'json', body: 'null' },
  { name: 'json []', kind: 'json', body: '[]' },
  { name: 'json [{}]', kind: 'json', body: '[{"type":"event_callback"}]' },
  { name: 'json 1', kind: 'json', body: '1' },
  { name: 'json "x"', kind: 'json', body: '"x"' },
  { name: 'json true', kind: 'json', body: 'true' },
  { name: 'json false', kind: 'json', body: 'false' },
  { name: 'form payload=null', kind: 'form', body: 'payload=null' },
  { name: 'form payload=[]', kind: 'form', body: 'payload=%5B%5D' },
  { name: 'form payload=1', kind: 'form', body: 'payload=1' },
  { name: 'form payload="x"', kind: 'form', body: 'payload=%22x%22' },
  { name: 'form payload=true', kind: 'form', body: 'payload=true' },
];

describe('signed bodies that are not objects: 400, the process stays up', () => {
  let h: Harness;
  const answerer = new StubAnswerer();
  const unhandled: unknown[] = [];
  const onUnhandled = (e: unknown) => unhandled.push(e);
  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    h = await startHarness({ answerer });
  });
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await h?.stop();
  });

  it.each(NOT_OBJECTS)('$name signed → 400; unsigned → 401', async ({ kind, body }) => {
    const signed = await postSigned(`${h.base}/slack/events`, SIGNING_SECRET, body, { kind });
    expect(signed.status).toBe(400);
    const unsigned = await fetch(`${h.base}/slack/events`, {
      method: 'POST',
      body,
      headers: { 'content-type': kind === 'form' ? 'application/x-www-form-urlencoded' : 'application/json' },
    });
    expect(unsigned.status).toBe(401);
    const badSig = await postSigned(`${h.base}/slack/events`, SIGNING_SECRET, body, {
      kind,
      signature: `v0=${'f'.repeat(64)}`,
    });
    expect(badSig.status).toBe(401);
  });

  it('after all of them the app still answers, nothing reached the answerer, no unhandled rejection', async () => {
    expect(answerer.calls).toHaveLength(0);
    const r = await h.event(messageEvent(PASTED_ERROR, { channel: CHANNEL_A, ts: '1700900000.000001' }));
    expect(r.status).toBe(200);
    await h.handle.idle();
    expect(h.fake.callsTo('chat.postMessage').filter((c) => c.params.thread_ts === '1700900000.000001')).toHaveLength(
      1,
    );
    expect(unhandled).toEqual([]);
    const refusals = h.logs.filter((l) => l.includes('refused a request to /slack/events'));
    // 12 signed (400) + 12 badly signed (401) + 12 unsigned (401).
    expect(refusals).toHaveLength(3 * NOT_OBJECTS.length);
    expect(refusals.filter((l) => l.includes('"status":400'))).toHaveLength(NOT_OBJECTS.length);
  });

  it("Slack's unsigned ssl_check=1 is still answered 200 (by Bolt)", async () => {
    const r = await fetch(`${h.base}/slack/events`, {
      method: 'POST',
      body: 'ssl_check=1&token=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(r.status).toBe(200);
  });
});

describe('request timestamps: more than 5 minutes from our clock, either way, is refused', () => {
  let h: Harness;
  const answerer = new StubAnswerer();
  beforeAll(async () => {
    h = await startHarness({ answerer });
  });
  afterAll(async () => {
    await h?.stop();
  });

  const body = (id: string) =>
    JSON.stringify({
      token: VERIFICATION_TOKEN,
      team_id: 'T0FAKE',
      api_app_id: 'A0QD',
      type: 'event_callback',
      event_id: id,
      event_time: 1,
      event: messageEvent(PASTED_ERROR, { channel: CHANNEL_A, ts: `1700910000.${id.slice(-6)}` }),
    });

  const CASES: { name: string; offsetSec: number; status: number }[] = [
    { name: '+10 years', offsetSec: 10 * 365 * 86_400, status: 401 },
    { name: '+1 day', offsetSec: 86_400, status: 401 },
    { name: '+5 min 10 s', offsetSec: 310, status: 401 },
    { name: '+4 min 50 s', offsetSec: 290, status: 200 },
    { name: 'now', offsetSec: 0, status: 200 },
    { name: '-4 min 50 s', offsetSec: -290, status: 200 },
    { name: '-5 min 10 s', offsetSec: -310, status: 401 },
    { name: '-10 years', offsetSec: -10 * 365 * 86_400, status: 401 },
  ];

  it.each(CASES.map((c, i) => ({ ...c, i })))('$name → $status', async ({ offsetSec, status, i }) => {
    const ts = Math.floor(Date.now() / 1000) + offsetSec;
    const b = body(`EvTs${String(i).padStart(6, '0')}`);
    const r = await postSigned(`${h.base}/slack/events`, SIGNING_SECRET, b, {
      kind: 'json',
      timestamp: ts,
      signature: slackSignature(SIGNING_SECRET, ts, b),
    });
    expect(r.status).toBe(status);
    await h.handle.idle();
    expect(
      h.fake
        .callsTo('chat.postMessage')
        .filter((c) => c.params.thread_ts === `1700910000.${String(i).padStart(6, '0')}`),
    ).toHaveLength(status === 200 ? 1 : 0);
  });

  it('a timestamp that is not a plain number of seconds → 401', async () => {
    for (const ts of ['1e9', '', '-1', ' 1700000000', '0x6553f100']) {
      const b = body('EvTsOdd000001');
      const res = await fetch(`${h.base}/slack/events`, {
        method: 'POST',
        body: b,
        headers: {
          'content-type': 'application/json',
          'x-slack-request-timestamp': ts,
          'x-slack-signature': slackSignature(SIGNING_SECRET, Number(ts), b),
        },
      });
      expect(res.status, JSON.stringify(ts)).toBe(401);
    }
  });
});

/** Sends headers announcing `length` bytes, then one byte every `everyMs`; resolves with what the server did and when. */
function trickle(
  port: number,
  length: number,
  everyMs: number,
): Promise<{ closedAfterMs: number; response: string; bytesSent: number }> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const sock = connect(port, '127.0.0.1');
    let response = '';
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    sock.on('connect', () => {
      sock.write(
        `POST /slack/events HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${length}\r\n\r\n`,
      );
      timer = setInterval(() => {
        if (sent < length && !sock.destroyed) {
          sock.write(' ');
          sent++;
        }
      }, everyMs);
    });
    sock.on('data', (d) => (response += d.toString()));
    sock.on('error', () => undefined);
    sock.on('close', () => {
      clearInterval(timer);
      resolve({ closedAfterMs: performance.now() - t0, response, bytesSent: sent });
    });
  });
}

describe('a slow body is cut', () => {
  it(`the shipped bound is ${REQUEST_TIMEOUT_MS} ms (Node's default is 300 s)`, () => {
    expect(REQUEST_TIMEOUT_MS).toBe(10_000);
  });

  it('a body trickling one byte per 100 ms is closed at the request timeout (1 s here) with 408, while other requests are served', async () => {
    const h = await startHarness({ requestTimeoutMs: 1000 });
    try {
      const port = Number(new URL(h.base).port);
      const slow = trickle(port, 600, 100);
      // Meanwhile the app answers others.
      await new Promise((r) => setTimeout(r, 300));
      expect((await h.get('/healthz')).status).toBe(200);
      const r = await slow;
      expect(r.response).toMatch(/^HTTP\/1\.1 408/);
      expect(r.closedAfterMs).toBeGreaterThanOrEqual(900);
      expect(r.closedAfterMs).toBeLessThan(2500);
      // 600 bytes would have taken 60 s.
      expect(r.bytesSent).toBeLessThan(30);
    } finally {
      await h.stop();
    }
  });
});
