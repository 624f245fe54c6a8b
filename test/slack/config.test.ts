import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError, describeConfig, loadConfig, Secret, secretValues } from '../../src/config.ts';

const BOT = 'xoxb-111-222-abcdefABCDEF';
const SIGNING = 'signing-secret-value-123';
const APP = 'xapp-1-A0-123-abcdef';

describe('loadConfig', () => {
  it('no SLACK_BOT_TOKEN → console mode with defaults', () => {
    const c = loadConfig({});
    expect(c).toEqual({
      mode: 'console',
      port: 3000,
      statePath: undefined,
      policyPath: undefined,
      slackApiUrl: undefined,
      deadlineMs: 20_000,
      rateLimits: { user: { capacity: 10, perSeconds: 60 }, channel: { capacity: 30, perSeconds: 60 } },
      logLevel: 'info',
    });
  });

  it('bot token + signing secret → http', () => {
    const c = loadConfig({
      SLACK_BOT_TOKEN: BOT,
      SLACK_SIGNING_SECRET: SIGNING,
      PORT: '8080',
      SLACK_API_URL: 'http://127.0.0.1:9999/api',
      QUOTA_DOCTOR_STATE: 'manifests/demo',
      QUOTA_DOCTOR_CONFIG: 'policy.yaml',
    });
    expect(c.mode).toBe('http');
    if (c.mode !== 'http') throw new Error('unreachable');
    expect(c.botToken.reveal()).toBe(BOT);
    expect(c.signingSecret.reveal()).toBe(SIGNING);
    expect(c.port).toBe(8080);
    expect(c.slackApiUrl).toBe('http://127.0.0.1:9999/api/'); // trailing slash added: web-api joins method names onto it
    expect(c.statePath).toBe('manifests/demo');
    expect(c.policyPath).toBe('policy.yaml');
  });

  it('an app token → socket mode (even with a signing secret too)', () => {
    const c = loadConfig({ SLACK_BOT_TOKEN: BOT, SLACK_APP_TOKEN: APP, SLACK_SIGNING_SECRET: SIGNING });
    expect(c.mode).toBe('socket');
    expect(secretValues(c).sort()).toEqual([APP, BOT, SIGNING].sort());
  });

  it('tunables: deadline, rate limits, log level', () => {
    const c = loadConfig({
      QUOTA_DOCTOR_DEADLINE_MS: '5000',
      QUOTA_DOCTOR_RATE_USER: '3/30',
      QUOTA_DOCTOR_RATE_CHANNEL: '20/60',
      LOG_LEVEL: 'debug',
    });
    expect(c.deadlineMs).toBe(5000);
    expect(c.rateLimits).toEqual({ user: { capacity: 3, perSeconds: 30 }, channel: { capacity: 20, perSeconds: 60 } });
    expect(c.logLevel).toBe('debug');
  });

  it.each([
    [
      { SLACK_BOT_TOKEN: BOT },
      'bad configuration: SLACK_BOT_TOKEN is set but neither SLACK_APP_TOKEN (Socket Mode) nor SLACK_SIGNING_SECRET (HTTP) is',
    ],
    [
      { SLACK_SIGNING_SECRET: SIGNING },
      'bad configuration: SLACK_APP_TOKEN or SLACK_SIGNING_SECRET is set but SLACK_BOT_TOKEN is not',
    ],
    [
      { SLACK_BOT_TOKEN: 'not-a-token-secretvalue', SLACK_SIGNING_SECRET: SIGNING },
      'bad configuration: SLACK_BOT_TOKEN does not look like a Slack token (xoxb-…)',
    ],
    [
      { SLACK_BOT_TOKEN: BOT, SLACK_APP_TOKEN: 'xoxb-wrong-kind-secretvalue' },
      'bad configuration: SLACK_APP_TOKEN does not look like an app-level token (xapp-…)',
    ],
    [{ PORT: 'eighty' }, 'bad configuration: PORT must be a whole number'],
    [{ PORT: '70000' }, 'bad configuration: PORT must be at most 65535'],
    [{ SLACK_API_URL: 'ftp://x' }, 'bad configuration: SLACK_API_URL must be an http(s) URL'],
    [
      { QUOTA_DOCTOR_RATE_USER: 'lots' },
      'bad configuration: QUOTA_DOCTOR_RATE_USER must look like CAPACITY/SECONDS, e.g. 10/60',
    ],
    [
      { QUOTA_DOCTOR_RATE_USER: '0/60' },
      'bad configuration: QUOTA_DOCTOR_RATE_USER capacity and seconds must both be at least 1',
    ],
    [{ LOG_LEVEL: 'loud' }, 'bad configuration: LOG_LEVEL'],
  ])('%j → ConfigError', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    try {
      loadConfig(env);
    } catch (e) {
      expect((e as Error).message.startsWith(message)).toBe(true);
      // never the value of a token
      expect((e as Error).message).not.toContain('secretvalue');
      expect((e as Error).message).not.toContain(SIGNING);
    }
  });

  it('a Secret never prints, serializes or inspects as its value', () => {
    const c = loadConfig({ SLACK_BOT_TOKEN: BOT, SLACK_SIGNING_SECRET: SIGNING });
    const shown = [
      JSON.stringify(c),
      inspect(c, { depth: 5 }),
      String(new Secret(BOT)),
      `${new Secret(BOT)}`,
      describeConfig(c),
    ].join('\n');
    expect(shown).not.toContain(BOT);
    expect(shown).not.toContain(SIGNING);
    expect(JSON.stringify(c)).toContain('"botToken":"[redacted]"');
    expect(describeConfig(c)).toBe(
      'mode=http port=3000 deadline=20000ms source=live cluster policy=none (every namespace visible) rate user=10/60s channel=30/60s',
    );
  });
});

describe('cross-replica dedupe settings', () => {
  it.each([
    { env: {}, want: undefined, shown: undefined },
    {
      env: { QUOTA_DOCTOR_DEDUPE_NAMESPACE: 'quota-doctor' },
      want: { namespace: 'quota-doctor', leasePrefix: 'quota-doctor-dedupe-' },
      shown: 'dedupe=leases quota-doctor/quota-doctor-dedupe-0-7',
    },
    {
      env: { QUOTA_DOCTOR_DEDUPE_NAMESPACE: 'bots', QUOTA_DOCTOR_DEDUPE_LEASE_PREFIX: 'qd-' },
      want: { namespace: 'bots', leasePrefix: 'qd-' },
      shown: 'dedupe=leases bots/qd-0-7',
    },
  ])('$env', ({ env, want, shown }) => {
    const c = loadConfig({ SLACK_BOT_TOKEN: BOT, SLACK_SIGNING_SECRET: SIGNING, ...env });
    expect(c.dedupe).toEqual(want);
    const d = describeConfig(c);
    if (shown) expect(d).toContain(shown);
    else expect(d).not.toContain('dedupe=');
  });

  it.each(['Not_A_Namespace', '-x', 'a'.repeat(64)])('QUOTA_DOCTOR_DEDUPE_NAMESPACE=%s is refused, by name', (ns) => {
    expect(() =>
      loadConfig({ SLACK_BOT_TOKEN: BOT, SLACK_SIGNING_SECRET: SIGNING, QUOTA_DOCTOR_DEDUPE_NAMESPACE: ns }),
    ).toThrow(/QUOTA_DOCTOR_DEDUPE_NAMESPACE must be a namespace name/);
  });
});
