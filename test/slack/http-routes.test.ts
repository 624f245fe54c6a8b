import { afterEach, describe, expect, it } from 'vitest';
import { PASTED_ERROR, messageEvent, startHarness, StubSource, type Harness } from './harness.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

describe('HTTP extras on the same port', () => {
  it('GET /healthz → 200', async () => {
    h = await startHarness();
    expect(await h.get('/healthz')).toEqual({ status: 200, text: 'ok\n' });
  });

  it('GET /readyz → 200 once the receiver is up, whatever a cluster source says (one cluster down must not silence every channel)', async () => {
    const source = new StubSource(false);
    h = await startHarness({ source });
    expect(await h.get('/readyz')).toEqual({ status: 200, text: 'ready\n' });
    source.isReady = true;
    expect(await h.get('/readyz')).toEqual({ status: 200, text: 'ready\n' });
  });

  it('GET /readyz → 200 at once even when a source hangs: the probe never asks the cluster', async () => {
    const source = new StubSource(true);
    source.ready = () => new Promise<boolean>(() => undefined);
    h = await startHarness({ source });
    const t0 = Date.now();
    expect((await h.get('/readyz')).status).toBe(200);
    expect(Date.now() - t0).toBeLessThan(1000);
  });

  it('GET /metrics → Prometheus text with events, answers by kind, refusals, rate-limited, errors and latency', async () => {
    h = await startHarness();
    await h.event(messageEvent(PASTED_ERROR));
    await h.event(messageEvent(`${PASTED_ERROR} -n team-b`));
    const c = await h.command('team-a');
    await h.fake.waitFor(
      () => h!.fake.callsTo('chat.postMessage').length === 2 && h!.fake.respondsTo(c.id).length === 1,
    );
    await h.handle.idle();
    const m = await h.get('/metrics');
    expect(m.status).toBe(200);
    const lines = m.text.split('\n');
    expect(lines).toContain('quota_doctor_slack_events_total{type="event",name="message"} 2');
    expect(lines).toContain('quota_doctor_slack_events_total{type="command",name="/quota"} 1');
    expect(lines).toContain('quota_doctor_answers_total{entry="message",kind="diagnosis"} 1');
    expect(lines).toContain('quota_doctor_answers_total{entry="command",kind="headroom"} 1');
    expect(lines).toContain('quota_doctor_refusals_total{entry="message"} 1');
    expect(m.text).toContain('# TYPE quota_doctor_rate_limited_total counter');
    expect(m.text).toContain('# TYPE quota_doctor_errors_total counter');
    expect(lines).toContain('quota_doctor_answer_duration_seconds_count{entry="message",outcome="answer"} 1');
    expect(lines).toContain('quota_doctor_answer_duration_seconds_count{entry="command",outcome="answer"} 1');
  });

  it('an unknown path → 404', async () => {
    h = await startHarness();
    expect((await h.get('/nope')).status).toBe(404);
  });
});
