import { describe, expect, it } from 'vitest';
import { SocketModeReceiver } from '@slack/bolt';
import { AccessPolicy } from '../../src/answer/policy.ts';
import { Secret } from '../../src/config.ts';
import { createSlackApp } from '../../src/slack/app.ts';
import { createLogger } from '../../src/slack/logger.ts';
import { startFakeSlack } from '../support/fake-slack.ts';
import { BOT_TOKEN, SIGNING_SECRET, startHarness, StubAnswerer, StubSource } from './harness.ts';

const rateLimits = { user: { capacity: 10, perSeconds: 60 }, channel: { capacity: 30, perSeconds: 60 } };

describe('lifecycle', () => {
  it('building the app touches no network; start() checks the token with auth.test', async () => {
    const fake = await startFakeSlack();
    try {
      const handle = createSlackApp({
        config: {
          mode: 'http',
          botToken: new Secret(BOT_TOKEN),
          signingSecret: new Secret(SIGNING_SECRET),
          port: 0,
          slackApiUrl: fake.apiUrl,
          deadlineMs: 1000,
          rateLimits,
          logLevel: 'info',
        },
        answerer: new StubAnswerer(),
        sourceFor: () => new StubSource(),
        policy: AccessPolicy.open(),
        logger: createLogger({ level: 'silent' }),
        clientOptions: { retryConfig: { retries: 0 } },
        defaultMetrics: false,
      });
      expect(fake.calls).toHaveLength(0);
      await handle.start(0, '127.0.0.1');
      expect(fake.calls.map((c) => c.method)).toEqual(['auth.test']);
      await handle.stop();
    } finally {
      await fake.close();
    }
  });

  it('a rejected bot token fails start() with a clear line, without the token', async () => {
    const fake = await startFakeSlack();
    fake.failures.set('auth.test', 'invalid_auth');
    try {
      const handle = createSlackApp({
        config: {
          mode: 'http',
          botToken: new Secret(BOT_TOKEN),
          signingSecret: new Secret(SIGNING_SECRET),
          port: 0,
          slackApiUrl: fake.apiUrl,
          deadlineMs: 1000,
          rateLimits,
          logLevel: 'info',
        },
        answerer: new StubAnswerer(),
        sourceFor: () => new StubSource(),
        policy: AccessPolicy.open(),
        logger: createLogger({ level: 'silent' }),
        clientOptions: { retryConfig: { retries: 0 } },
        defaultMetrics: false,
      });
      const err = await handle.start(0, '127.0.0.1').then(
        () => null,
        (e: unknown) => e as Error,
      );
      expect(err?.message).toBe('Slack did not accept the bot token (auth.test: invalid_auth)');
      expect(err?.message).not.toContain(BOT_TOKEN);
    } finally {
      await fake.close();
    }
  });

  it('Socket Mode builds a SocketModeReceiver (construction only: connecting needs Slack itself)', () => {
    const handle = createSlackApp({
      config: {
        mode: 'socket',
        botToken: new Secret(BOT_TOKEN),
        appToken: new Secret('xapp-1-A0-1-abc'),
        port: 0,
        deadlineMs: 1000,
        rateLimits,
        logLevel: 'info',
      },
      answerer: new StubAnswerer(),
      sourceFor: () => new StubSource(),
      policy: AccessPolicy.open(),
      logger: createLogger({ level: 'silent' }),
      defaultMetrics: false,
    });
    expect((handle.app as unknown as { receiver: unknown }).receiver).toBeInstanceOf(SocketModeReceiver);
  });

  it('stop() waits for answers in flight and closes the cluster source once', async () => {
    const answerer = new StubAnswerer();
    answerer.delayMs = 300;
    const source = new StubSource();
    const h = await startHarness({ answerer, source });
    const r = await h.command('team-a');
    await h.handle.stop();
    // the answer in flight was still delivered
    expect(h.fake.respondsTo(r.id)).toHaveLength(1);
    expect(source.closed).toBe(1);
    await h.fake.close();
  });
});
