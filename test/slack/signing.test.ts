import { afterEach, describe, expect, it } from 'vitest';
import { formBody, postSigned, slackSignature } from '../support/sign.ts';
import { SIGNING_SECRET, startHarness, StubAnswerer, type Harness } from './harness.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

const command = (h: Harness) =>
  formBody({
    command: '/quota',
    text: 'team-a',
    channel_id: 'C0TEAMA',
    user_id: 'U1',
    team_id: 'T0FAKE',
    response_url: h.fake.responseUrl('sig'),
    trigger_id: 't',
  });

describe('request signing (the real HTTPReceiver)', () => {
  it('a bad signature → 401 and nothing runs', async () => {
    const answerer = new StubAnswerer();
    h = await startHarness({ answerer });
    const r = await postSigned(`${h.base}/slack/events`, SIGNING_SECRET, command(h), {
      kind: 'form',
      signature: `v0=${'0'.repeat(64)}`,
    });
    expect(r.status).toBe(401);
    const wrongSecret = await postSigned(`${h.base}/slack/events`, 'not-the-secret', command(h), { kind: 'form' });
    expect(wrongSecret.status).toBe(401);
    await h.handle.idle();
    expect(answerer.calls).toHaveLength(0);
    expect(h.fake.responds).toHaveLength(0);
  });

  it('a stale request (timestamp 6 minutes old, correctly signed) → 401', async () => {
    const answerer = new StubAnswerer();
    h = await startHarness({ answerer });
    const ts = Math.floor(Date.now() / 1000) - 6 * 60;
    const body = command(h);
    const r = await postSigned(`${h.base}/slack/events`, SIGNING_SECRET, body, {
      kind: 'form',
      timestamp: ts,
      signature: slackSignature(SIGNING_SECRET, ts, body),
    });
    expect(r.status).toBe(401);
    expect(answerer.calls).toHaveLength(0);
  });

  it('a body changed after signing → 401', async () => {
    h = await startHarness();
    const ts = Math.floor(Date.now() / 1000);
    const body = command(h);
    const r = await postSigned(`${h.base}/slack/events`, SIGNING_SECRET, body.replace('team-a', 'team-b'), {
      kind: 'form',
      timestamp: ts,
      signature: slackSignature(SIGNING_SECRET, ts, body),
    });
    expect(r.status).toBe(401);
  });

  it('url_verification echoes the challenge', async () => {
    h = await startHarness();
    const r = await postSigned(
      `${h.base}/slack/events`,
      SIGNING_SECRET,
      JSON.stringify({ type: 'url_verification', challenge: 'abc123', token: 'x' }),
      { kind: 'json' },
    );
    expect(r.status).toBe(200);
    expect(JSON.parse(r.text)).toEqual({ challenge: 'abc123' });
  });

  it('the form content-type trap: `;charset=UTF-8` makes Bolt answer 400 (why sign.ts sends string bodies)', async () => {
    h = await startHarness();
    const r = await postSigned(`${h.base}/slack/events`, SIGNING_SECRET, command(h), {
      kind: 'form',
      contentType: 'application/x-www-form-urlencoded;charset=UTF-8',
    });
    expect(r.status).toBe(400);
  });
});
