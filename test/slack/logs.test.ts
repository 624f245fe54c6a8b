import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createLogger, createScrubber } from '../../src/slack/logger.ts';
import {
  BOT_TOKEN,
  CHANNEL_A,
  messageEvent,
  PASTED_ERROR,
  SIGNING_SECRET,
  startHarness,
  StubAnswerer,
  VERIFICATION_TOKEN,
} from './harness.ts';

describe('logs never carry a token or the signing secret', () => {
  it('a busy session at debug level (web-api logs request bodies) → no token, secret or signature in any line', async () => {
    const answerer = new StubAnswerer();
    const h = await startHarness({ answerer, logLevel: 'debug' });
    try {
      const c = await h.command('team-a');
      await h.command('team-b');
      await h.event(messageEvent(PASTED_ERROR));
      await h.event({
        type: 'app_mention',
        channel: CHANNEL_A,
        user: 'U0BOB',
        text: '<@UBOT> help',
        ts: '1700003000.000100',
      });
      await h.shortcut({ text: PASTED_ERROR, ts: '1700003001.000100' });
      h.fake.failures.set('chat.postMessage', 'invalid_auth');
      await h.event(messageEvent(PASTED_ERROR));
      await h.fake.waitFor(
        () => h.fake.respondsTo(c.id).length === 1 && h.fake.callsTo('chat.postMessage').length >= 4,
      );
      await h.handle.idle();
    } finally {
      await h.stop();
    }
    const all = h.logs.join('');
    // The logs did see the traffic, and a secret did reach the logger: web-api logs the auth.test body,
    // which carries the bot token, at debug level. It arrives scrubbed.
    expect(all).toContain('"component":"bolt"');
    expect(all).toContain('http request body: {\\"token\\":\\"[redacted]\\"}');
    expect(all).toContain('http request body: {\\"team_id\\":\\"T0FAKE\\",\\"channel\\":\\"C0TEAMA\\"');
    expect(all).toContain('a Slack call failed');
    for (const secret of [BOT_TOKEN, SIGNING_SECRET, VERIFICATION_TOKEN, 'SeCrEtBoTtOkEnVaLuE'])
      expect(all).not.toContain(secret);
    expect(all).not.toMatch(/xox[bpa]-\d/);
    expect(all).not.toMatch(/v0=[0-9a-f]{64}/);
  });

  it('a config object logged whole shows [redacted], and pino redacts secret-named fields', () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _e, cb) {
        lines.push(chunk.toString());
        cb();
      },
    });
    const config = loadConfig({ SLACK_BOT_TOKEN: BOT_TOKEN, SLACK_SIGNING_SECRET: SIGNING_SECRET });
    const logger = createLogger({ destination, level: 'debug' });
    logger.info({ config }, 'starting');
    logger.info({ token: 'plain-token-value', headers: { authorization: 'Bearer abc' } }, 'x');
    logger.error(new Error(`auth failed for ${BOT_TOKEN}`));
    logger.info(`string with ${BOT_TOKEN} inside`);
    const all = lines.join('');
    expect(all).not.toContain(BOT_TOKEN);
    expect(all).not.toContain(SIGNING_SECRET);
    expect(all).not.toContain('plain-token-value');
    expect(all).not.toContain('Bearer abc');
    expect(all).toContain('"botToken":"[redacted]"');
    expect(all).toContain('auth failed for [redacted]');
  });

  it.each([
    ['debug', 'debug'],
    ['info', 'info'],
    ['warn', 'warn'],
    ['error', 'error'],
  ] as const)('a %s line is JSON with "level":"%s" and an ISO-8601 UTC "time"', (method, level) => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _e, cb) {
        lines.push(chunk.toString());
        cb();
      },
    });
    const before = Date.now();
    createLogger({ destination, level: 'debug' })[method]({ n: 1 }, `hello ${BOT_TOKEN}`);
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(line.level).toBe(level);
    expect(line.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(String(line.time))).toBeGreaterThanOrEqual(before - 1);
    expect(Date.parse(String(line.time))).toBeLessThanOrEqual(Date.now());
    expect(line).toMatchObject({ name: 'quota-doctor', n: 1, msg: 'hello [redacted]' });
  });

  it.each([
    ['xoxb-1-2-abc', '[redacted]'],
    ['xoxp-99-abc-DEF', '[redacted]'],
    ['xapp-1-A0-123-abcdef', '[redacted]'],
    ['{"token":"anything","x":1}', '{"token":"[redacted]","x":1}'],
    ['token=zzz&team_id=T1', 'token=[redacted]&team_id=T1'],
    [`v0=${'a'.repeat(64)}`, 'v0=[redacted]'],
    ['nothing secret here', 'nothing secret here'],
    ['my-secret-value and more', '[redacted] and more'],
  ])('scrub(%j) = %j', (input, out) => {
    expect(createScrubber(['my-secret-value'])(input)).toBe(out);
  });
});
