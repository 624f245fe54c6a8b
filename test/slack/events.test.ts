import { afterEach, describe, expect, it } from 'vitest';
import {
  CHANNEL_A,
  CHANNEL_B,
  messageEvent,
  PASTED_ERROR,
  SECRET_POD,
  startHarness,
  StubAnswerer,
  StubSource,
  type Harness,
} from './harness.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

/** Lets anything still queued in the app run (a missing reply must have had its chance to appear). */
async function settle(x: Harness): Promise<void> {
  await new Promise((r) => setTimeout(r, 150));
  await x.handle.idle();
}

describe('channel messages', () => {
  it('a pasted error → exactly one reply, in the thread of the message', async () => {
    const answerer = new StubAnswerer();
    h = await startHarness({ answerer });
    const ev = messageEvent(PASTED_ERROR, { ts: '1700000200.000100' });
    const r = await h.event(ev, { eventId: 'Ev0PASTE' });
    expect(r.status).toBe(200);
    expect(r.ms).toBeLessThan(3000);
    await h.fake.waitFor(() => h!.fake.callsTo('chat.postMessage').length === 1);
    await settle(h);
    const posts = h.fake.callsTo('chat.postMessage');
    expect(posts).toHaveLength(1);
    expect(posts[0]!.params.channel).toBe(CHANNEL_A);
    expect(posts[0]!.params.thread_ts).toBe('1700000200.000100');
    expect(String(posts[0]!.params.text)).toMatch(/^🚫 Rejected at admission — ResourceQuota budget \(team-a\)/);
    expect(posts[0]!.token).toBe('xoxb-1234567890-0987654321-SeCrEtBoTtOkEnVaLuE');
    expect(answerer.calls.map((c) => [c.method, c.ctx.defaultNamespace, c.ctx.allowedNamespaces])).toEqual([
      ['message', 'team-a', ['team-a']],
    ]);
  });

  it('Slack retries the same event (same event_id, x-slack-retry-num 1 and 2) → still one reply, the Answerer asked once', async () => {
    const answerer = new StubAnswerer();
    answerer.delayMs = 200; // the retries arrive while the first is still being answered
    h = await startHarness({ answerer });
    const ev = messageEvent(PASTED_ERROR, { ts: '1700000300.000100' });
    await h.event(ev, { eventId: 'Ev0RETRY' });
    const retry1 = await h.event(ev, { eventId: 'Ev0RETRY', retryNum: 1 });
    expect(retry1.status).toBe(200);
    await h.fake.waitFor(() => h!.fake.callsTo('chat.postMessage').length === 1);
    const retry2 = await h.event(ev, { eventId: 'Ev0RETRY', retryNum: 2 });
    expect(retry2.status).toBe(200);
    await settle(h);
    expect(h.fake.callsTo('chat.postMessage')).toHaveLength(1);
    expect(answerer.count('message')).toBe(1);
    expect(await h.handle.metrics.registry.getSingleMetricAsString('quota_doctor_slack_duplicates_total')).toContain(
      'quota_doctor_slack_duplicates_total{type="message"} 2',
    );
  });

  it('a retry seen for the first time (the original never arrived) is answered once', async () => {
    h = await startHarness();
    await h.event(messageEvent(PASTED_ERROR), { eventId: 'Ev0LOST', retryNum: 1 });
    await h.fake.waitFor(() => h!.fake.callsTo('chat.postMessage').length === 1);
    await settle(h);
    expect(h.fake.callsTo('chat.postMessage')).toHaveLength(1);
  });

  it('a message inside a thread is answered in that thread', async () => {
    h = await startHarness();
    await h.event(messageEvent(PASTED_ERROR, { ts: '1700000400.000200', thread_ts: '1700000400.000001' }));
    await h.fake.waitFor(() => h!.fake.callsTo('chat.postMessage').length === 1);
    expect(h.fake.callsTo('chat.postMessage')[0]!.params.thread_ts).toBe('1700000400.000001');
  });

  it('chatter the Answerer does not recognise → no reply at all', async () => {
    const answerer = new StubAnswerer();
    h = await startHarness({ answerer });
    await h.event(messageEvent('lunch anyone?'));
    await settle(h);
    expect(answerer.count('message')).toBe(1);
    expect(h.fake.callsTo('chat.postMessage')).toHaveLength(0);
    expect(h.fake.callsTo('chat.postEphemeral')).toHaveLength(0);
  });

  it.each([
    ['another bot (subtype bot_message)', { subtype: 'bot_message', bot_id: 'B0OTHER' }],
    ['a bot user posting without subtype (bot_id)', { bot_id: 'B0OTHER' }],
    ['an edit (message_changed)', { subtype: 'message_changed' }],
    ['a deletion (message_deleted)', { subtype: 'message_deleted' }],
    ['a channel join', { subtype: 'channel_join' }],
    ['our own bot', { bot_id: 'BBOT', user: 'UBOT' }],
  ])('ignores %s', async (_what, extra) => {
    const answerer = new StubAnswerer();
    h = await startHarness({ answerer });
    await h.event(messageEvent(PASTED_ERROR, extra));
    await settle(h);
    expect(answerer.calls).toHaveLength(0);
    expect(h.fake.callsTo('chat.postMessage')).toHaveLength(0);
  });

  it('a namespace the channel may not see → a polite refusal in thread that leaks nothing', async () => {
    const answerer = new StubAnswerer();
    h = await startHarness({ answerer });
    await h.event(messageEvent(`${PASTED_ERROR} -n team-b`, { channel: CHANNEL_A, ts: '1700000500.000100' }));
    await h.fake.waitFor(() => h!.fake.callsTo('chat.postMessage').length === 1);
    await settle(h);
    const post = h.fake.callsTo('chat.postMessage')[0]!;
    expect(post.params.thread_ts).toBe('1700000500.000100');
    expect(post.params.text).toBe(
      "🔒 Sorry — this channel isn't set up to see that\nAsk in the channel of the team that owns it, or ask the platform team to add it to this channel in the quota-doctor policy.",
    );
    const posted = h.fake.allPostedText();
    expect(posted).not.toContain('team-b');
    expect(posted).not.toContain(SECRET_POD);
    expect(posted).not.toContain('budget');
  });

  it('a channel that is not in the policy sees nothing (fails closed): its chatter is not read; a DM gets the refusal', async () => {
    const answerer = new StubAnswerer();
    h = await startHarness({ answerer });
    await h.event(messageEvent(PASTED_ERROR, { channel: 'C0UNLISTED' }));
    await h.event(messageEvent(PASTED_ERROR, { channel: 'D0SOMEONE' }));
    await h.fake.waitFor(() => h!.fake.callsTo('chat.postMessage').length === 1);
    await h.handle.idle();
    // Decided before the Answerer is asked: nothing parsed, the cluster not read.
    expect(answerer.calls).toHaveLength(0);
    const posts = h.fake.callsTo('chat.postMessage');
    expect(posts.map((p) => p.params.channel)).toEqual(['D0SOMEONE']);
    expect(String(posts[0]!.params.text)).toMatch(/^🔒 Sorry/);
    expect(h.fake.allPostedText()).not.toContain(SECRET_POD);
  });

  it('a hanging cluster → "the cluster did not answer in time" in thread, not silence', async () => {
    h = await startHarness({ source: new StubSource(true, 30_000), deadlineMs: 300 });
    await h.event(messageEvent(PASTED_ERROR, { ts: '1700000600.000100' }));
    await h.fake.waitFor(() => h!.fake.callsTo('chat.postMessage').length === 1, 3000);
    const post = h.fake.callsTo('chat.postMessage')[0]!;
    expect(post.params.thread_ts).toBe('1700000600.000100');
    expect(String(post.params.text)).toMatch(/^⚠️ The cluster did not answer in time/);
  });

  it('rate-limited replies go to the poster only (ephemeral), chatter costs no token', async () => {
    const answerer = new StubAnswerer();
    h = await startHarness({
      answerer,
      rate: { user: { capacity: 1, perSeconds: 60 }, channel: { capacity: 100, perSeconds: 60 } },
    });
    await h.event(messageEvent('just chatting', { user: 'U0ERIN' }));
    await h.event(messageEvent(PASTED_ERROR, { user: 'U0ERIN' }));
    await h.fake.waitFor(() => h!.fake.callsTo('chat.postMessage').length === 1);
    await h.event(messageEvent(PASTED_ERROR, { user: 'U0ERIN' }));
    await h.fake.waitFor(() => h!.fake.callsTo('chat.postEphemeral').length === 1);
    await settle(h);
    expect(h.fake.callsTo('chat.postMessage')).toHaveLength(1);
    const eph = h.fake.callsTo('chat.postEphemeral')[0]!;
    expect(eph.params.user).toBe('U0ERIN');
    expect(String(eph.params.text)).toBe("⏳ You're asking faster than I can check — try again in 60 s");
  });
});

describe('@mentions', () => {
  it('app_mention + message double-fire for one @-mention → one reply, from the mention listener', async () => {
    const answerer = new StubAnswerer();
    h = await startHarness({ answerer });
    const text = `<@${'UBOT'}> what if web scales to 8 in team-a?`;
    const ts = '1700000700.000100';
    await Promise.all([
      h.event({ type: 'app_mention', channel: CHANNEL_A, user: 'U0BOB', text, ts }, { eventId: 'Ev0MENTION' }),
      h.event(messageEvent(text, { ts }), { eventId: 'Ev0MSG' }),
    ]);
    await h.fake.waitFor(() => h!.fake.callsTo('chat.postMessage').length === 1);
    await settle(h);
    expect(h.fake.callsTo('chat.postMessage')).toHaveLength(1);
    expect(h.fake.callsTo('chat.postMessage')[0]!.params.thread_ts).toBe(ts);
    expect(answerer.calls.map((c) => [c.method, c.arg])).toEqual([['question', 'what if web scales to 8 in team-a?']]);
  });

  it('a bare mention gets help, in thread', async () => {
    h = await startHarness();
    await h.event({
      type: 'app_mention',
      channel: CHANNEL_A,
      user: 'U0BOB',
      text: '<@UBOT>',
      ts: '1700000800.000100',
      thread_ts: '1700000800.000001',
    });
    await h.fake.waitFor(() => h!.fake.callsTo('chat.postMessage').length === 1);
    const post = h.fake.callsTo('chat.postMessage')[0]!;
    expect(post.params.thread_ts).toBe('1700000800.000001');
    expect(String(post.params.text)).toMatch(/^❓ /);
  });

  it('a mention about a namespace the channel may not see → refusal that leaks nothing', async () => {
    h = await startHarness();
    await h.event({
      type: 'app_mention',
      channel: CHANNEL_B,
      user: 'U0BOB',
      text: `<@UBOT> ${PASTED_ERROR} -n team-a`,
      ts: '1700000900.000100',
    });
    await h.fake.waitFor(() => h!.fake.callsTo('chat.postMessage').length === 1);
    await settle(h);
    const post = h.fake.callsTo('chat.postMessage')[0]!;
    expect(String(post.params.text)).toMatch(/^🔒 Sorry — this channel isn't set up to see that/);
    expect(h.fake.allPostedText()).not.toContain('team-a');
    expect(h.fake.allPostedText()).not.toContain(SECRET_POD);
  });

  it('a mention from another bot is ignored', async () => {
    const answerer = new StubAnswerer();
    h = await startHarness({ answerer });
    await h.event({
      type: 'app_mention',
      channel: CHANNEL_A,
      user: 'U0OTHERBOT',
      bot_id: 'B0OTHER',
      text: '<@UBOT> hi',
      ts: '1700001000.000100',
    });
    await settle(h);
    expect(answerer.calls).toHaveLength(0);
  });
});
