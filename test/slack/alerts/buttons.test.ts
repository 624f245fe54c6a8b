/**
 * The buttons of an alert post, through the signed interactivity endpoint with the real Bolt receiver:
 * Re-check replaces the post, Nodes answers headroom in the thread, Mute stores a mute; each checks the
 * channel policy first (a channel that may not see the namespace gets the refusal and nothing else), and
 * the incident metrics count what happened.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createAnswerer } from '../../../src/answer/index.ts';
import { parsePolicy } from '../../../src/answer/policy.ts';
import { FileSource } from '../../../src/cluster/file-source.ts';
import { MemoryStore } from '../../../src/slack/alerts/store.ts';
import { type Harness, SIGNING_SECRET, startHarness, VERIFICATION_TOKEN } from '../harness.ts';
import { formBody, postSigned } from '../../support/sign.ts';

const POLICY = `
channels:
  - id: C0TEAMA
    namespaces: [team-a]
    alerts: { pendingAfter: 1s }
  - id: C0TEAMB
    namespaces: [team-b]
`;
const WORKER = 'team-a/Deployment/worker/quota/exceeded:team-quota:pods';

let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

async function start(store = new MemoryStore()) {
  h = await startHarness({
    source: new FileSource('manifests/demo'),
    answerer: createAnswerer(),
    policy: parsePolicy(POLICY),
    deadlineMs: 8000,
    alerts: { store, leader: null, intervalMs: 60_000 },
  });
  return { h, store };
}

async function click(hh: Harness, actionId: string, value: string, channel: string, ts = '1700000000.000003') {
  const payload = {
    type: 'block_actions',
    token: VERIFICATION_TOKEN,
    team: { id: 'T0FAKE', domain: 'fake' },
    user: { id: 'U0ALICE', name: 'alice', team_id: 'T0FAKE' },
    api_app_id: 'A0QD',
    container: { type: 'message', message_ts: ts, channel_id: channel },
    trigger_id: 'trig-1',
    channel: { id: channel, name: 'x' },
    message: { type: 'message', ts, text: 'alert' },
    response_url: hh.fake.responseUrl(`btn-${actionId}-${channel}`),
    actions: [{ type: 'button', action_id: actionId, block_id: 'qd_alert_actions', value, action_ts: '1700000001.1' }],
  };
  const r = await postSigned(
    `${hh.base}/slack/events`,
    SIGNING_SECRET,
    formBody({ payload: JSON.stringify(payload) }),
    {
      kind: 'form',
    },
  );
  expect(r.status).toBe(200);
  await hh.handle.idle();
}

describe('alert buttons', () => {
  it('the first round posts team-a incidents; Re-check replaces the post with the answer now', async () => {
    const { h } = await start();
    await h.fake.waitFor(() => h.fake.callsTo('chat.postMessage').length >= 3, 10_000, 'the posts');
    await click(h, 'qd_recheck', WORKER, 'C0TEAMA');
    await h.fake.waitFor(() => h.fake.callsTo('chat.update').length === 1, 5000, 'chat.update');
    const u = h.fake.callsTo('chat.update')[0]!.params;
    expect([u.channel, u.ts]).toEqual(['C0TEAMA', '1700000000.000003']);
    expect(String(u.text).split(' — ')[0]).toBe("team-a: worker can't create pods (ResourceQuota): 2/3 pods");
    const metrics = await h.get('/metrics');
    expect(metrics.text).toContain('quota_doctor_incidents_posted_total{channel="C0TEAMA"} 3');
    expect(metrics.text).toMatch(/^quota_doctor_incidents_open 3$/m);
  }, 30_000);

  it('Nodes posts the headroom of the namespace in the thread', async () => {
    const { h } = await start();
    await click(h, 'qd_nodes', WORKER, 'C0TEAMA', '1700000000.000009');
    await h.fake.waitFor(
      () => h.fake.callsTo('chat.postMessage').some((c) => c.params.thread_ts === '1700000000.000009'),
      10_000,
      'the headroom reply',
    );
    const reply = h.fake.callsTo('chat.postMessage').find((c) => c.params.thread_ts === '1700000000.000009')!;
    expect(String(reply.params.text)).toContain('team-a');
  }, 30_000);

  it('Mute stores a 24 h mute for that incident in that channel', async () => {
    const { h, store } = await start();
    await click(h, 'qd_mute', WORKER, 'C0TEAMA');
    await h.fake.waitFor(() => h.fake.responds.length >= 1, 5000, 'the ephemeral confirmation');
    expect(h.fake.responds.map((r) => r.body.text)).toContain(
      'Muted in this channel for 24 h: team-a/Deployment/worker',
    );
    expect((await store.load())!.mutes.map((m) => [m.channel, m.key])).toEqual([['C0TEAMA', WORKER]]);
  }, 30_000);

  it.each(['qd_recheck', 'qd_nodes', 'qd_mute'])(
    '%s from a channel that may not see team-a: the refusal, nothing else',
    async (actionId) => {
      const { h, store } = await start();
      await click(h, actionId, WORKER, 'C0TEAMB');
      await h.fake.waitFor(() => h.fake.responds.length >= 1, 5000, 'the refusal');
      expect(h.fake.responds.map((r) => r.body.text)).toEqual(["Sorry — this channel isn't set up to see that."]);
      expect(h.fake.callsTo('chat.update')).toEqual([]);
      expect(h.fake.callsTo('chat.postMessage').filter((c) => c.params.channel === 'C0TEAMB')).toEqual([]);
      expect((await store.load())!.mutes).toEqual([]);
    },
    30_000,
  );
});
