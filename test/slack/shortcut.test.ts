import { afterEach, describe, expect, it } from 'vitest';
import {
  CHANNEL_A,
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

describe('message shortcut "Diagnose with quota-doctor"', () => {
  it('acks at once, then answers the message text in its thread', async () => {
    const answerer = new StubAnswerer();
    answerer.delayMs = 300;
    h = await startHarness({ answerer });
    const r = await h.shortcut({ text: PASTED_ERROR, ts: '1700002000.000100' });
    expect(r.status).toBe(200);
    expect(r.ms).toBeLessThan(answerer.delayMs);
    await h.fake.waitFor(() => h!.fake.callsTo('chat.postMessage').length === 1);
    await h.handle.idle();
    const post = h.fake.callsTo('chat.postMessage')[0]!;
    expect(post.params.channel).toBe(CHANNEL_A);
    expect(post.params.thread_ts).toBe('1700002000.000100');
    expect(String(post.params.text)).toMatch(/^🚫 Rejected at admission/);
    expect(answerer.calls.map((c) => [c.method, c.arg])).toEqual([['message', PASTED_ERROR]]);
    expect(h.fake.responds).toHaveLength(0);
  });

  it('a message already in a thread → answered in that thread', async () => {
    h = await startHarness();
    await h.shortcut({ text: PASTED_ERROR, ts: '1700002100.000200', thread_ts: '1700002100.000001' });
    await h.fake.waitFor(() => h!.fake.callsTo('chat.postMessage').length === 1);
    expect(h.fake.callsTo('chat.postMessage')[0]!.params.thread_ts).toBe('1700002100.000001');
  });

  it('a forbidden namespace → an ephemeral refusal to the clicker only, leaking nothing', async () => {
    h = await startHarness();
    const r = await h.shortcut({ text: `${PASTED_ERROR} -n team-b`, ts: '1700002200.000100' });
    await h.fake.waitFor(() => h!.fake.respondsTo(r.id).length === 1);
    await h.handle.idle();
    expect(h.fake.callsTo('chat.postMessage')).toHaveLength(0);
    const post = h.fake.respondsTo(r.id)[0]!.body;
    expect(post.response_type).toBe('ephemeral');
    expect(String(post.text)).toMatch(/^🔒 Sorry — this channel isn't set up to see that/);
    expect(h.fake.allPostedText()).not.toContain('team-b');
    expect(h.fake.allPostedText()).not.toContain(SECRET_POD);
  });

  it('nothing recognised → an ephemeral note, not a channel post', async () => {
    h = await startHarness();
    const r = await h.shortcut({ text: 'the build is green', ts: '1700002300.000100' });
    await h.fake.waitFor(() => h!.fake.respondsTo(r.id).length === 1);
    expect(h.fake.callsTo('chat.postMessage')).toHaveLength(0);
    expect(String(h.fake.respondsTo(r.id)[0]!.body.text)).toMatch(/^ℹ️ I didn't find a Kubernetes error/);
  });

  it('the bot is not in the channel (not_in_channel) → the clicker still gets the answer, ephemeral', async () => {
    h = await startHarness();
    h.fake.failures.set('chat.postMessage', 'not_in_channel');
    const r = await h.shortcut({ text: PASTED_ERROR, ts: '1700002400.000100' });
    await h.fake.waitFor(() => h!.fake.respondsTo(r.id).length === 1);
    const post = h.fake.respondsTo(r.id)[0]!.body;
    expect(post.response_type).toBe('ephemeral');
    expect(String(post.text)).toMatch(/^🚫 Rejected at admission/);
    expect(await h.handle.metrics.registry.getSingleMetricAsString('quota_doctor_errors_total')).toContain(
      'quota_doctor_errors_total{entry="shortcut",reason="slack_api"} 1',
    );
  });

  it('a hanging cluster → an ephemeral "did not answer in time"', async () => {
    h = await startHarness({ source: new StubSource(true, 30_000), deadlineMs: 300 });
    const r = await h.shortcut({ text: PASTED_ERROR, ts: '1700002500.000100' });
    expect(r.ms).toBeLessThan(3000);
    await h.fake.waitFor(() => h!.fake.respondsTo(r.id).length === 1, 3000);
    expect(String(h.fake.respondsTo(r.id)[0]!.body.text)).toMatch(/^⚠️ The cluster did not answer in time/);
  });
});
