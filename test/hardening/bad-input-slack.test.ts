/**
 * The bad-input corpus of ./bad-input.test.ts through the Slack message path: the real Bolt app
 * (HTTPReceiver), the fake Slack, createAnswerer over manifests/demo. A message the parser recognises is
 * answered exactly once, anything else is silence (chatter), never "Something went wrong", never an error
 * log line; the message shortcut answers every worst case exactly once; every payload fits Slack's limits;
 * bodies over Bolt's 4 MB limit are refused with 413, unanswered. A size cap that cut the paste says so.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnswerer, MAX_MESSAGE_BYTES } from '../../src/answer/index.ts';
import { FileSource } from '../../src/cluster/file-source.ts';
import { parsePaste } from '../../src/parse/index.ts';
import { CHANNEL_PLATFORM, messageEvent, startHarness, type Harness } from '../slack/harness.ts';
import { fuzzCorpus, PASTE } from './inputs.ts';

const DEMO_ABS = fileURLToPath(new URL('../../manifests/demo', import.meta.url));
const BOUND_MS = 5_000;
/** Bolt's HTTPReceiver refuses bodies over 4 MB with 413 (HTTPModuleFunctions `defaultBodyLimit`); Slack caps message text at 40,000 characters anyway. */
const BOLT_BODY_LIMIT = 4 * 1024 * 1024;

/** Posts through `send`; a body over Bolt's limit must be refused (413, or the socket closed mid-upload), never answered. */
async function sendOrRefused<T extends { status: number }>(
  bytes: number,
  send: () => Promise<T>,
): Promise<T | 'refused'> {
  if (bytes <= BOLT_BODY_LIMIT) return send();
  try {
    const r = await send();
    expect(r.status).toBe(413);
  } catch (e) {
    expect(String((e as { cause?: unknown }).cause ?? e)).toMatch(/ECONNRESET|EPIPE|other side closed/);
  }
  return 'refused';
}

const { special, corpus } = fuzzCorpus();

const slowest: Record<string, { ms: number; name: string }> = {};
function record(path: string, name: string, ms: number): void {
  if (!slowest[path] || ms > slowest[path].ms) slowest[path] = { ms: Math.round(ms), name };
}

describe('bad input: the Slack message path (real Bolt, fake Slack, real Answerer over manifests/demo)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ answerer: createAnswerer(), source: new FileSource(DEMO_ABS), deadlineMs: 10_000 });
  });
  afterAll(async () => {
    await h?.stop(); // fails if any payload broke a Slack limit
    console.log(
      `hardening bad-input Slack: ${corpus.length} messages + ${special.length} shortcuts; slowest ${JSON.stringify({ message: slowest.message, shortcut: slowest.shortcut })}`,
    );
  });

  it(`every message is answered once when recognised, silent otherwise, never an error (${corpus.length} inputs)`, async () => {
    let seq = 0;
    let refused = 0;
    // Eight at a time (Slack delivers concurrently too); an input's time is its batch's, an upper bound.
    const BATCH = 8;
    // Bodies over Bolt's limit go alone: the receiver resets their connection, which must not hit a neighbour's.
    const big = (i: { text: string }) => Buffer.byteLength(JSON.stringify(i.text)) + 600 > BOLT_BODY_LIMIT;
    const batches = [
      ...corpus.filter(big).map((i) => [i]),
      ...Array.from({ length: Math.ceil(corpus.filter((i) => !big(i)).length / BATCH) }, (_, b) =>
        corpus.filter((i) => !big(i)).slice(b * BATCH, (b + 1) * BATCH),
      ),
    ];
    for (const group of batches) {
      const batch = group.map((inp) => ({ inp, ts: `1700100000.${String(++seq).padStart(6, '0')}` }));
      const t0 = performance.now();
      const sent = await Promise.all(
        batch.map(({ inp, ts }) =>
          sendOrRefused(Buffer.byteLength(JSON.stringify(inp.text)) + 600, () =>
            h.event(messageEvent(inp.text, { channel: CHANNEL_PLATFORM, ts })),
          ),
        ),
      );
      await h.handle.idle();
      const ms = performance.now() - t0;
      for (const [k, { inp, ts }] of batch.entries()) {
        const res = sent[k]!;
        const posts = h.fake.callsTo('chat.postMessage').filter((c) => c.params.thread_ts === ts);
        if (res === 'refused') {
          refused++;
          expect(posts, inp.name).toHaveLength(0);
          continue;
        }
        expect(res.status, inp.name).toBe(200);
        record('message', inp.name, ms);
        expect(ms, inp.name).toBeLessThan(BOUND_MS);
        // A message that @-mentions the bot is the app_mention listener's (Slack fires both): not answered here.
        // Over the message cap (1 MiB), a reply says it is too long, unparsed.
        const mentioned = inp.text.includes('<@UBOT>');
        const tooLong = Buffer.byteLength(inp.text) > MAX_MESSAGE_BYTES;
        const p = tooLong || mentioned ? undefined : parsePaste(inp.text);
        const recognised =
          inp.text.trim() !== '' &&
          !mentioned &&
          (tooLong || (p !== undefined && (p.findings.length > 0 || p.manifests.some((m) => m.ok))));
        if (tooLong && !mentioned)
          expect(String(posts[0]?.params.text), inp.name).toMatch(
            /^ℹ️ That message is too long for me to read \(\d+\.\d MiB\)\nI read messages of up to 1 MiB\./,
          );
        expect(posts.length, `${inp.name}: ${posts.length} replies`).toBe(recognised ? 1 : 0);
        for (const post of posts) {
          expect(String(post.params.text).trim(), inp.name).not.toBe('');
          expect(String(post.params.text), inp.name).not.toMatch(/Something went wrong/);
        }
      }
    }
    expect(
      h.logs.filter((l) => /"level":"error"/.test(l)),
      'no error was logged',
    ).toEqual([]);
    // Only the 5 MB pastes and the 100,000 documents are over Bolt's body limit.
    expect(refused).toBe(
      corpus.filter((i) => Buffer.byteLength(JSON.stringify(i.text)) + 600 > BOLT_BODY_LIMIT).length,
    );
  });

  it("a 3.5 MB paste (over the 1 MiB cap, under Bolt's 4 MB body limit) is not parsed: the reply says it is too long and what is allowed", async () => {
    const ts = '1700199999.000001';
    const text = `${PASTE}\n`.repeat(25_000);
    const res = await h.event(messageEvent(text, { channel: CHANNEL_PLATFORM, ts }));
    expect(res.status).toBe(200);
    await h.handle.idle();
    const posts = h.fake.callsTo('chat.postMessage').filter((c) => c.params.thread_ts === ts);
    expect(posts).toHaveLength(1);
    expect(String(posts[0]!.params.text)).toBe(
      `ℹ️ That message is too long for me to read (${(Buffer.byteLength(text) / 1024 / 1024).toFixed(1)} MiB)\nI read messages of up to 1 MiB. Paste the error itself, or the one manifest it is about.`,
    );
  });

  it(`the message shortcut answers every worst case exactly once (${special.length} inputs)`, async () => {
    let seq = 0;
    for (const inp of special) {
      const ts = `1700200000.${String(++seq).padStart(6, '0')}`;
      const t0 = performance.now();
      const r = await sendOrRefused(Buffer.byteLength(encodeURIComponent(JSON.stringify(inp.text))) + 1200, () =>
        h.shortcut({ text: inp.text, ts }, { channel: CHANNEL_PLATFORM }),
      );
      await h.handle.idle();
      if (r === 'refused') {
        expect(
          h.fake.callsTo('chat.postMessage').filter((c) => c.params.thread_ts === ts),
          inp.name,
        ).toHaveLength(0);
        continue;
      }
      expect(r.status, inp.name).toBe(200);
      record('shortcut', inp.name, performance.now() - t0);
      expect(performance.now() - t0, inp.name).toBeLessThan(BOUND_MS);
      const threaded = h.fake.callsTo('chat.postMessage').filter((c) => c.params.thread_ts === ts);
      const ephemeral = h.fake.respondsTo(r.id);
      expect(threaded.length + ephemeral.length, inp.name).toBe(1);
      const text = String((threaded[0]?.params ?? ephemeral[0]?.body)?.text ?? '');
      expect(text.trim(), inp.name).not.toBe('');
      expect(text, inp.name).not.toMatch(/Something went wrong/);
    }
  });
});
