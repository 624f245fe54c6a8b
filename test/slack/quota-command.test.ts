import { afterEach, describe, expect, it } from 'vitest';
import {
  CHANNEL_A,
  CHANNEL_B,
  CHANNEL_NO_DEFAULT,
  CHANNEL_PLATFORM,
  SECRET_POD,
  startHarness,
  StubAnswerer,
  StubSource,
  type Harness,
} from './harness.ts';

const ACK_BUDGET_MS = 3000;

let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

function texts(x: unknown): string {
  return JSON.stringify(x);
}

describe('/quota', () => {
  it('signed `/quota team-a` → acked at once with a short ephemeral line, then the answer via response_url', async () => {
    const answerer = new StubAnswerer();
    answerer.delayMs = 300;
    h = await startHarness({ answerer });
    const r = await h.command('team-a');
    expect(r.status).toBe(200);
    expect(r.ms).toBeLessThan(ACK_BUDGET_MS);
    expect(r.ms).toBeLessThan(answerer.delayMs); // the ack did not wait for the answer
    expect(r.ack).toEqual({ response_type: 'ephemeral', text: 'Checking team-a…' });
    await h.fake.waitFor(() => h!.fake.respondsTo(r.id).length === 1, 5000, 'the respond post');
    const [post] = h.fake.respondsTo(r.id);
    expect(post!.body.response_type).toBe('in_channel');
    expect(post!.body.text).toBe(
      '📊 team-a — 1 ResourceQuota\nLargest pod that schedules now: 3500m / 12Gi (payroll-secret-7c5d holds 2)',
    );
    expect((post!.body.blocks as unknown[])[0]).toEqual({
      type: 'header',
      text: { type: 'plain_text', text: '📊 team-a — 1 ResourceQuota', emoji: true },
    });
    expect(answerer.calls).toHaveLength(1);
    expect(answerer.calls[0]!.method).toBe('quota');
    expect(answerer.calls[0]!.arg).toBe('team-a');
    expect(answerer.calls[0]!.ctx.allowedNamespaces).toEqual(['team-a']);
    expect(answerer.calls[0]!.ctx.defaultNamespace).toBe('team-a');
    expect(answerer.calls[0]!.ctx.signal).toBeInstanceOf(AbortSignal);
    // answered once: no chat.postMessage, one respond
    expect(h.fake.callsTo('chat.postMessage')).toHaveLength(0);
    await h.handle.idle();
    expect(h.fake.respondsTo(r.id)).toHaveLength(1);
  });

  it('without an argument uses the channel default namespace', async () => {
    const answerer = new StubAnswerer();
    h = await startHarness({ answerer });
    const r = await h.command('', { channel: CHANNEL_A });
    expect(r.ack).toEqual({ response_type: 'ephemeral', text: 'Checking team-a…' });
    await h.fake.waitFor(() => h!.fake.respondsTo(r.id).length === 1);
    expect(answerer.calls[0]!.arg).toBe('team-a');
  });

  it.each([
    ['', CHANNEL_NO_DEFAULT, '❓ Usage: /quota NAMESPACE'],
    ['two words', CHANNEL_A, '❓ Usage: /quota NAMESPACE'],
    ['Not_A_Namespace', CHANNEL_A, '❓ Usage: /quota NAMESPACE'],
  ])('%j in %s → a short usage line in the ack, the cluster untouched', async (text, channel, headline) => {
    const answerer = new StubAnswerer();
    h = await startHarness({ answerer });
    const r = await h.command(text, { channel });
    expect(r.status).toBe(200);
    const ack = r.ack as { response_type: string; text: string };
    expect(ack.response_type).toBe('ephemeral');
    expect(ack.text.split('\n')[0]).toBe(headline);
    expect(answerer.calls).toHaveLength(0);
  });

  it('a namespace the channel may not see → a polite ephemeral refusal that names nothing; the Answerer is never asked', async () => {
    const answerer = new StubAnswerer();
    h = await startHarness({ answerer });
    const r = await h.command('team-b', { channel: CHANNEL_A });
    expect(r.status).toBe(200);
    const ack = r.ack as { response_type: string; text: string };
    expect(ack.response_type).toBe('ephemeral');
    expect(ack.text).toBe(
      "🔒 Sorry — this channel isn't set up to see that\nAsk in the channel of the team that owns it, or ask the platform team to add it to this channel in the quota-doctor policy.",
    );
    expect(texts(r.ack)).not.toContain('team-b');
    expect(answerer.calls).toHaveLength(0);
    await h.handle.idle();
    expect(h.fake.responds).toHaveLength(0);
    expect(await h.handle.metrics.registry.getSingleMetricAsString('quota_doctor_refusals_total')).toContain(
      'quota_doctor_refusals_total{entry="command"} 1',
    );
  });

  it('an answer naming a namespace outside the policy is refused after the fact (the Answerer widened the scope)', async () => {
    const answerer = new StubAnswerer();
    answerer.quota = async (_ns, ctx) => {
      answerer.calls.push({ method: 'quota', arg: _ns, ctx });
      const a = (await import('./harness.ts')).headroomAnswer('team-b');
      return { ...a, namespaces: ['team-a', 'team-b'] };
    };
    h = await startHarness({ answerer });
    const r = await h.command('team-a', { channel: CHANNEL_A });
    await h.fake.waitFor(() => h!.fake.respondsTo(r.id).length === 1);
    const post = h.fake.respondsTo(r.id)[0]!.body;
    expect(post.response_type).toBe('ephemeral');
    expect(String(post.text)).toMatch(/^🔒 Sorry/);
    expect(h.fake.allPostedText()).not.toContain('team-b');
    expect(h.fake.allPostedText()).not.toContain(SECRET_POD);
  });

  it('the platform channel (namespaces: ["*"]) may ask about any namespace', async () => {
    const answerer = new StubAnswerer();
    h = await startHarness({ answerer });
    const r = await h.command('team-b', { channel: CHANNEL_PLATFORM });
    await h.fake.waitFor(() => h!.fake.respondsTo(r.id).length === 1);
    expect(String(h.fake.respondsTo(r.id)[0]!.body.text)).toMatch(/^📊 team-b/);
    expect(answerer.calls[0]!.ctx.allowedNamespaces).toBeUndefined();
  });

  it('a cluster source hanging 30 s: still acked within 3 s, and later "the cluster did not answer in time"', async () => {
    const answerer = new StubAnswerer();
    const source = new StubSource(true, 30_000);
    h = await startHarness({ answerer, source, deadlineMs: 400 });
    const t0 = Date.now();
    const r = await h.command('team-a');
    expect(r.status).toBe(200);
    expect(r.ms).toBeLessThan(ACK_BUDGET_MS);
    await h.fake.waitFor(() => h!.fake.respondsTo(r.id).length === 1, 5000, 'the timeout reply');
    const elapsed = Date.now() - t0;
    expect(elapsed).toBeGreaterThanOrEqual(400);
    expect(elapsed).toBeLessThan(3000);
    const post = h.fake.respondsTo(r.id)[0]!.body;
    expect(post.response_type).toBe('ephemeral');
    expect(String(post.text)).toBe(
      "⚠️ The cluster did not answer in time\nI gave up after 400 ms without an answer from the cluster, so I can't say yet. Try again in a minute; if it keeps happening, the platform team should check the cluster API.",
    );
    // the hanging read was cancelled through the AskContext signal
    expect(answerer.calls[0]!.ctx.signal?.aborted).toBe(true);
    expect(await h.handle.metrics.registry.getSingleMetricAsString('quota_doctor_errors_total')).toContain(
      'quota_doctor_errors_total{entry="command",reason="timeout"} 1',
    );
  });

  it('an Answerer that throws → a short error reply that says nothing about the error', async () => {
    const answerer = new StubAnswerer();
    answerer.throwWith = new Error('pods "payroll-secret-7c5d" in team-b exploded');
    h = await startHarness({ answerer });
    const r = await h.command('team-a');
    await h.fake.waitFor(() => h!.fake.respondsTo(r.id).length === 1);
    const post = h.fake.respondsTo(r.id)[0]!.body;
    expect(String(post.text)).toMatch(/^⚠️ Something went wrong while answering/);
    expect(h.fake.allPostedText()).not.toContain('payroll');
  });

  it('200 concurrent slash commands against a slow Answerer: all acked within 3 s, each answered exactly once', async () => {
    const answerer = new StubAnswerer();
    answerer.delayMs = 1500;
    h = await startHarness({ answerer });
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => h!.command('team-a', { id: `c${i}`, user: `U${i}` })),
    );
    const maxAck = Math.max(...results.map((r) => r.ms));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(maxAck).toBeLessThan(ACK_BUDGET_MS);
    await h.fake.waitFor(() => h!.fake.responds.length >= 200, 10_000, '200 answers');
    await h.handle.idle();
    const perId = new Map<string, number>();
    for (const p of h.fake.responds) perId.set(p.id, (perId.get(p.id) ?? 0) + 1);
    expect(perId.size).toBe(200);
    expect([...perId.values()].every((n) => n === 1)).toBe(true);
    expect(answerer.count('quota')).toBe(200);
    console.log(
      `200 concurrent /quota: max ack ${maxAck.toFixed(0)} ms, duplicates ${h.fake.responds.length - perId.size}`,
    );
  });

  it('rate limits per user, with a polite ephemeral ack', async () => {
    const answerer = new StubAnswerer();
    h = await startHarness({
      answerer,
      rate: { user: { capacity: 2, perSeconds: 60 }, channel: { capacity: 100, perSeconds: 60 } },
    });
    await h.command('team-a', { user: 'U0CAROL' });
    await h.command('team-a', { user: 'U0CAROL' });
    const third = await h.command('team-a', { user: 'U0CAROL' });
    const ack = third.ack as { response_type: string; text: string };
    expect(ack.response_type).toBe('ephemeral');
    expect(ack.text).toBe("⏳ You're asking faster than I can check — try again in 30 s");
    const other = await h.command('team-a', { user: 'U0DAVE' });
    expect(other.ack).toEqual({ response_type: 'ephemeral', text: 'Checking team-a…' });
    await h.handle.idle();
    expect(answerer.count('quota')).toBe(3);
  });

  it('rate limits per channel', async () => {
    const answerer = new StubAnswerer();
    h = await startHarness({
      answerer,
      rate: { user: { capacity: 100, perSeconds: 60 }, channel: { capacity: 1, perSeconds: 10 } },
    });
    await h.command('team-b', { channel: CHANNEL_B, user: 'U1' });
    const r = await h.command('team-b', { channel: CHANNEL_B, user: 'U2' });
    expect((r.ack as { text: string }).text).toBe(
      '⏳ This channel is asking faster than I can check — try again in 10 s',
    );
    expect(await h.handle.metrics.registry.getSingleMetricAsString('quota_doctor_rate_limited_total')).toContain(
      'quota_doctor_rate_limited_total{entry="command",scope="channel"} 1',
    );
  });
});
