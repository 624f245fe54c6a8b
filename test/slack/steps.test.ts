import { afterEach, describe, expect, it } from 'vitest';
import type { Context } from '@slack/bolt';
import type { Answer } from '../../src/answer/types.ts';
import type { Logger } from '../../src/slack/logger.ts';
import { createMetrics } from '../../src/slack/metrics.ts';
import type { RateDecision } from '../../src/slack/rate-limit.ts';
import { createSteps, setTurn, Turn, turnOf } from '../../src/slack/steps.ts';
import { CHANNEL_A, PASTED_ERROR, StubAnswerer, messageEvent, startHarness, type Harness } from './harness.ts';

const RATE_TEXT = "⏳ You're asking faster than I can check — try again in 60 s";
const USER = 'U0ERIN';

let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

async function settle(x: Harness): Promise<void> {
  await new Promise((r) => setTimeout(r, 150));
  await x.handle.idle();
}

/** The `answered` log lines, parsed. */
function answeredLines(x: Harness): Record<string, unknown>[] {
  return x.logs
    .join('')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.msg === 'answered');
}

interface Sent {
  id?: string;
  ack?: unknown;
}

/** Where the rate-limit reply of one entry arrives, as { response_type, text, user, thread_ts } seen by Slack. */
interface EntryCase {
  entry: 'message' | 'mention' | 'command' | 'shortcut';
  send(x: Harness, n: number): Promise<Sent>;
  /** Answers delivered by the handler so far (the handler ran). */
  answered(x: Harness, sent: Sent[]): number;
  /** What the rate-limited asker got, through the entry's own channel, and nothing through the others. */
  limitedReply(x: Harness, sent: Sent): unknown;
}

const ts = (n: number) => `1700100000.00010${n}`;

const CASES: EntryCase[] = [
  {
    entry: 'message',
    send: async (x, n) => {
      await x.event(messageEvent(PASTED_ERROR, { user: USER, ts: ts(n) }));
      return {};
    },
    answered: (x) => x.fake.callsTo('chat.postMessage').length,
    limitedReply: (x) => {
      expect(x.fake.responds).toHaveLength(0);
      return x.fake.callsTo('chat.postEphemeral').map((c) => ({
        channel: c.params.channel,
        user: c.params.user,
        thread_ts: c.params.thread_ts,
        text: c.params.text,
      }));
    },
  },
  {
    entry: 'mention',
    send: async (x, n) => {
      await x.event({
        type: 'app_mention',
        channel: CHANNEL_A,
        user: USER,
        text: '<@UBOT> what if web scales to 8 in team-a?',
        ts: ts(n),
      });
      return {};
    },
    answered: (x) => x.fake.callsTo('chat.postMessage').length,
    limitedReply: (x) => {
      expect(x.fake.responds).toHaveLength(0);
      return x.fake.callsTo('chat.postEphemeral').map((c) => ({
        channel: c.params.channel,
        user: c.params.user,
        thread_ts: c.params.thread_ts,
        text: c.params.text,
      }));
    },
  },
  {
    entry: 'command',
    send: (x) => x.command('team-a', { channel: CHANNEL_A, user: USER }),
    answered: (x, sent) => sent.filter((s) => s.id !== undefined && x.fake.respondsTo(s.id).length > 0).length,
    limitedReply: (x, sent) => {
      expect(x.fake.respondsTo(sent.id!)).toHaveLength(0);
      expect(x.fake.callsTo('chat.postEphemeral')).toHaveLength(0);
      const ack = sent.ack as { response_type: string; text: string };
      return [{ response_type: ack.response_type, text: ack.text }];
    },
  },
  {
    entry: 'shortcut',
    send: (x, n) => x.shortcut({ text: PASTED_ERROR, ts: ts(n) }, { channel: CHANNEL_A, user: USER }),
    answered: (x) => x.fake.callsTo('chat.postMessage').length,
    limitedReply: (x, sent) => {
      expect(x.fake.callsTo('chat.postEphemeral')).toHaveLength(0);
      return x.fake.respondsTo(sent.id!).map((r) => ({ response_type: r.body.response_type, text: r.body.text }));
    },
  },
];

const EXPECTED_REPLY: Record<EntryCase['entry'], unknown[]> = {
  message: [{ channel: CHANNEL_A, user: USER, thread_ts: ts(2), text: RATE_TEXT }],
  mention: [{ channel: CHANNEL_A, user: USER, thread_ts: ts(2), text: RATE_TEXT }],
  command: [{ response_type: 'ephemeral', text: RATE_TEXT }],
  shortcut: [{ response_type: 'ephemeral', text: RATE_TEXT }],
};

describe('the shared rate-limit step at each entry point (one token per user per minute)', () => {
  it.each(CASES)(
    '$entry: the first ask reaches the handler; the second gets exactly the rate-limit reply, the metric and the log line',
    async (c) => {
      const answerer = new StubAnswerer();
      h = await startHarness({
        answerer,
        rate: { user: { capacity: 1, perSeconds: 60 }, channel: { capacity: 100, perSeconds: 60 } },
      });
      const first = await c.send(h, 1);
      await h.fake.waitFor(() => c.answered(h!, [first]) === 1);
      await settle(h);
      expect(answeredLines(h).map((l) => [l.entry, l.channel, l.outcome])).toEqual([[c.entry, CHANNEL_A, 'answer']]);

      const second = await c.send(h, 2);
      await settle(h);
      expect(c.answered(h, [first, second])).toBe(1);
      expect(c.limitedReply(h, second)).toEqual(EXPECTED_REPLY[c.entry]);
      expect(answeredLines(h).map((l) => [l.entry, l.channel, l.outcome])).toEqual([
        [c.entry, CHANNEL_A, 'answer'],
        [c.entry, CHANNEL_A, 'rate-limited'],
      ]);
      const metrics = (await h.get('/metrics')).text;
      expect(metrics).toContain(`quota_doctor_rate_limited_total{entry="${c.entry}",scope="user"} 1`);
      expect(metrics.match(/^quota_doctor_rate_limited_total\{.*$/gm)).toEqual([
        `quota_doctor_rate_limited_total{entry="${c.entry}",scope="user"} 1`,
      ]);
    },
  );
});

describe('createSteps (unit)', () => {
  function setup(decisions: RateDecision[]) {
    const log: unknown[][] = [];
    const record = (...a: unknown[]): void => void log.push([a[1], a[0]]);
    const logger: Pick<Logger, 'info' | 'warn'> = { info: record, warn: record };
    const metrics = createMetrics({ defaultMetrics: false });
    const taken: [string, string][] = [];
    const limiter = {
      take: async (user: string, channel: string): Promise<RateDecision> => {
        taken.push([user, channel]);
        return decisions.shift() ?? { ok: true };
      },
    };
    let clock = 1000;
    const steps = createSteps({ limiter, metrics, logger, now: () => (clock += 5) });
    return { steps, log, metrics, taken };
  }

  it.each([
    {
      name: 'a token → next(), no reply, no log',
      decision: { ok: true } as RateDecision,
      next: 1,
      replies: [] as string[],
      logged: [] as unknown[],
    },
    {
      name: 'user limit → the reply, a rate-limited log line, no next()',
      decision: { ok: false, scope: 'user', retryAfterMs: 12_000 } as RateDecision,
      next: 0,
      replies: ["You're asking faster than I can check — try again in 12 s"],
      logged: [['answered', { entry: 'mention', channel: 'C1', outcome: 'rate-limited', ms: 5 }]],
    },
  ])('$name', async ({ decision, next, replies, logged }) => {
    const { steps, log, taken } = setup([decision]);
    const got: string[] = [];
    const context: Context = { isEnterpriseInstall: false };
    setTurn(
      context,
      new Turn('mention', undefined, 'C1', 1000, async (a: Answer) => got.push(a.replies[0]!.headline), 'q', '1.2'),
    );
    let calls = 0;
    await steps.rateLimitStep({ context, next: async () => void calls++ });
    expect(calls).toBe(next);
    expect(taken).toEqual([['unknown', 'C1']]);
    expect(got).toEqual(replies);
    expect(log).toEqual(logged);
  });

  it('turnOf on a context no parse step filled throws', () => {
    expect(() => turnOf({ isEnterpriseInstall: false })).toThrow('no Turn on the Bolt context');
  });

  it('post: a failing Slack call → false, counted as slack_api, logged with the Slack error code', async () => {
    const { steps, log, metrics } = setup([]);
    expect(await steps.post('shortcut', 'respond', async () => undefined)).toBe(true);
    const err = Object.assign(new Error('An API error occurred: not_in_channel'), {
      data: { error: 'not_in_channel' },
    });
    expect(await steps.post('shortcut', 'chat.postMessage', () => Promise.reject(err))).toBe(false);
    expect(log).toEqual([
      ['a Slack call failed', { entry: 'shortcut', call: 'chat.postMessage', error: 'not_in_channel' }],
    ]);
    expect((await metrics.errors.get()).values.map((v) => [v.labels, v.value])).toEqual([
      [{ entry: 'shortcut', reason: 'slack_api' }, 1],
    ]);
  });
});
