/**
 * Load and abuse: 200 `/quota` commands and 200 pasted errors (distinct event ids), all at once, against a
 * slow cluster (every `load()` takes 1–2 s) behind the real Bolt app and the real Answerer over
 * manifests/demo. Every command is acked within Slack's 3 s; every message and command is answered exactly
 * once; the heap comes back down afterwards. Then the per-user and per-channel rate limits: the extra
 * requests get a polite "try again in N s", never silence and never an answer.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createAnswerer } from '../../src/answer/index.ts';
import { FileSource } from '../../src/cluster/file-source.ts';
import type { ClusterSource, SourceResult } from '../../src/cluster/source.ts';
import { CHANNEL_A, CHANNEL_PLATFORM, messageEvent, startHarness, type Harness } from '../slack/harness.ts';
import { PASTE, prng } from './inputs.ts';

const DEMO = fileURLToPath(new URL('../../manifests/demo', import.meta.url));

/** manifests/demo, but every load takes 1–2 s (seeded), like a cold or overloaded API server. */
class SlowSource implements ClusterSource {
  readonly kind = 'live';
  private readonly inner = new FileSource(DEMO);
  private readonly rnd = prng(42);
  loads = 0;
  describe(): string {
    return 'slow demo';
  }
  async load(opts: { signal?: AbortSignal } = {}): Promise<SourceResult> {
    this.loads++;
    const ms = 1000 + Math.floor(this.rnd() * 1000);
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(resolve, ms);
      opts.signal?.addEventListener('abort', () => {
        clearTimeout(t);
        reject(new Error('aborted'));
      });
    });
    return this.inner.load();
  }
  async ready(): Promise<boolean> {
    return true;
  }
  async close(): Promise<void> {}
}

function gc(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

const N = 200;
const figures: Record<string, unknown> = {};
afterAll(() => console.log(`hardening load: ${JSON.stringify(figures)}`));

describe(`load: ${N} slash commands and ${N} pasted errors at once, against a 1–2 s cluster`, () => {
  let h: Harness;
  afterAll(async () => {
    await h?.stop();
  });

  it('every command acked within 3 s, every message and command answered exactly once, the heap bounded', async () => {
    const source = new SlowSource();
    h = await startHarness({ answerer: createAnswerer(), source, deadlineMs: 20_000 });
    // Warm the demo parse, so the heap baseline includes the cached state.
    await source.load();
    gc();
    const heapBefore = process.memoryUsage().heapUsed;

    const commands = Array.from({ length: N }, (_, i) =>
      h.command(i % 2 ? 'team-a' : 'team-b', { channel: CHANNEL_PLATFORM, user: `U0LOAD${i}`, id: `load-cmd-${i}` }),
    );
    const messages = Array.from({ length: N }, (_, i) =>
      h.event(
        messageEvent(PASTE, {
          channel: CHANNEL_PLATFORM,
          user: `U0PASTE${i}`,
          ts: `1700400000.${String(i).padStart(6, '0')}`,
        }),
        { eventId: `EvLoad${i}` },
      ),
    );
    const acks = await Promise.all(commands);
    const eventAcks = await Promise.all(messages);
    expect(acks.every((a) => a.status === 200)).toBe(true);
    expect(eventAcks.every((a) => a.status === 200)).toBe(true);
    const maxAck = Math.max(...acks.map((a) => a.ms));
    const maxEventAck = Math.max(...eventAcks.map((a) => a.ms));
    figures.commandsAckedWithin3s = `${acks.filter((a) => a.ms < 3000).length}/${N}`;
    figures.maxCommandAckMs = Math.round(maxAck);
    figures.maxEventAckMs = Math.round(maxEventAck);
    expect(maxAck).toBeLessThan(3000);
    expect(maxEventAck).toBeLessThan(3000);
    for (const a of acks) expect((a.ack as { text: string }).text).toMatch(/^Checking team-[ab]…$/);

    await h.handle.idle();
    const t0 = Date.now();
    await h.fake.waitFor(() => h.fake.responds.length >= N && h.fake.callsTo('chat.postMessage').length >= N, 30_000);
    figures.drainMsAfterIdle = Date.now() - t0;

    // Exactly once: per command id one response_url post; per message one threaded reply.
    const perCommand = new Map<string, number>();
    for (const r of h.fake.responds) perCommand.set(r.id, (perCommand.get(r.id) ?? 0) + 1);
    const perThread = new Map<string, number>();
    for (const c of h.fake.callsTo('chat.postMessage'))
      perThread.set(String(c.params.thread_ts), (perThread.get(String(c.params.thread_ts)) ?? 0) + 1);
    expect(perCommand.size).toBe(N);
    expect(perThread.size).toBe(N);
    const duplicates = [...perCommand.values(), ...perThread.values()].filter((n) => n !== 1).length;
    figures.duplicateReplies = duplicates;
    expect(duplicates).toBe(0);
    // Answers, not timeouts or errors.
    for (const r of h.fake.responds) expect(String(r.body.text)).toMatch(/^📊 team-[ab] — /);
    for (const c of h.fake.callsTo('chat.postMessage')) expect(String(c.params.text)).toMatch(/team-quota/);

    gc();
    const growthMb = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;
    figures.heapGrowthMb = Math.round(growthMb);
    expect(growthMb).toBeLessThan(64);
  });
});

describe('rate limits: the extra requests get a polite "try again", never an answer, never silence', () => {
  it('per user: 3 a minute, the 4th and 5th /quota are told when to come back', async () => {
    const h = await startHarness({
      answerer: createAnswerer(),
      source: new FileSource(DEMO),
      rate: { user: { capacity: 3, perSeconds: 60 }, channel: { capacity: 100, perSeconds: 60 } },
    });
    try {
      const acks = [];
      for (let i = 0; i < 5; i++) acks.push(await h.command('team-a', { channel: CHANNEL_A, user: 'U0GREEDY' }));
      const texts = acks.map((a) => String((a.ack as { text: string }).text));
      expect(texts.slice(0, 3).every((t) => t === 'Checking team-a…')).toBe(true);
      for (const t of texts.slice(3))
        expect(t).toMatch(/^⏳ You're asking faster than I can check — try again in \d+ s$/);
      expect((acks[3]!.ack as { response_type: string }).response_type).toBe('ephemeral');
      // Another user in the same channel is not held back by the greedy one.
      const other = await h.command('team-a', { channel: CHANNEL_A, user: 'U0PATIENT' });
      expect((other.ack as { text: string }).text).toBe('Checking team-a…');
      await h.handle.idle();
      await h.fake.waitFor(() => h.fake.responds.length === 4, 5000);
    } finally {
      await h.stop();
    }
  });

  it('per channel: 4 a minute across users; pasted errors past it get an ephemeral "try again", not a reply', async () => {
    const h = await startHarness({
      answerer: createAnswerer(),
      source: new FileSource(DEMO),
      rate: { user: { capacity: 100, perSeconds: 60 }, channel: { capacity: 4, perSeconds: 60 } },
    });
    try {
      for (let i = 0; i < 6; i++) {
        await h.event(messageEvent(PASTE, { channel: CHANNEL_A, user: `U0CROWD${i}`, ts: `1700500000.00000${i}` }));
        await h.handle.idle();
      }
      expect(h.fake.callsTo('chat.postMessage')).toHaveLength(4);
      const polite = h.fake.callsTo('chat.postEphemeral');
      expect(polite).toHaveLength(2);
      for (const p of polite) {
        expect(String(p.params.text)).toMatch(
          /^⏳ This channel is asking faster than I can check — try again in \d+ s$/,
        );
        expect(String(p.params.user)).toMatch(/^U0CROWD[45]$/);
      }
      // The mention and the shortcut share the channel's bucket.
      await h.event({
        type: 'app_mention',
        channel: CHANNEL_A,
        user: 'U0CROWD9',
        text: '<@UBOT> quota team-a',
        ts: '1700500001.000001',
      });
      const sc = await h.shortcut({ text: PASTE, ts: '1700500002.000001' }, { channel: CHANNEL_A, user: 'U0CROWD8' });
      await h.handle.idle();
      expect(h.fake.callsTo('chat.postEphemeral')).toHaveLength(3);
      expect(String(h.fake.respondsTo(sc.id)[0]!.body.text)).toMatch(/^⏳ This channel is asking faster/);
      expect(h.fake.callsTo('chat.postMessage')).toHaveLength(4);
    } finally {
      await h.stop();
    }
  });
});
