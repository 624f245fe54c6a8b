import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { DIAGNOSE_SHORTCUT, QUOTA_COMMAND, SLACK_SURFACE } from '../../src/slack/surface.ts';

interface Manifest {
  features: {
    slash_commands: { command: string; url: string }[];
    shortcuts: { name: string; type: string; callback_id: string }[];
  };
  oauth_config: { scopes: { bot: string[]; user?: string[] } };
  settings: {
    event_subscriptions: { request_url: string; bot_events: string[]; user_events?: string[] };
    interactivity: { is_enabled: boolean; request_url: string };
    socket_mode_enabled: boolean;
  };
}

const manifest = parse(readFileSync(new URL('../../manifests/slack-app.yaml', import.meta.url), 'utf8')) as Manifest;

/** Event → the scope Slack requires for it (docs.slack.dev/reference/events). */
const EVENT_SCOPE: Record<string, string> = {
  app_mention: 'app_mentions:read',
  'message.channels': 'channels:history',
  'message.groups': 'groups:history',
  'message.im': 'im:history',
  'message.mpim': 'mpim:history',
};
/** Web API method → scope. */
const METHOD_SCOPE: Record<string, string | null> = {
  'auth.test': null,
  'chat.postMessage': 'chat:write',
  'chat.postEphemeral': 'chat:write',
};

describe('manifests/slack-app.yaml matches what src/slack registers', () => {
  it('bot events are exactly SLACK_SURFACE.botEvents', () => {
    expect([...manifest.settings.event_subscriptions.bot_events].sort()).toEqual([...SLACK_SURFACE.botEvents].sort());
    expect(manifest.settings.event_subscriptions.user_events).toBeUndefined();
  });

  it('the one slash command is /quota', () => {
    expect(manifest.features.slash_commands.map((c) => c.command)).toEqual([QUOTA_COMMAND]);
  });

  it('the one shortcut is the message shortcut diagnose_message', () => {
    expect(manifest.features.shortcuts).toEqual([
      {
        name: DIAGNOSE_SHORTCUT.name,
        type: DIAGNOSE_SHORTCUT.type,
        callback_id: DIAGNOSE_SHORTCUT.callbackId,
        description: 'Explain the Kubernetes error in this message',
      },
    ]);
  });

  it('bot scopes are exactly SLACK_SURFACE.scopes, and exactly what the events, methods, command and shortcut need', () => {
    expect([...manifest.oauth_config.scopes.bot].sort()).toEqual([...SLACK_SURFACE.scopes].sort());
    expect(manifest.oauth_config.scopes.user).toBeUndefined();
    const needed = new Set<string>();
    for (const e of SLACK_SURFACE.botEvents) needed.add(EVENT_SCOPE[e]!);
    for (const m of SLACK_SURFACE.webApiMethods) {
      const s = METHOD_SCOPE[m];
      if (s) needed.add(s);
    }
    if (SLACK_SURFACE.commands.length > 0 || SLACK_SURFACE.shortcuts.length > 0) needed.add('commands');
    expect([...needed].sort()).toEqual([...SLACK_SURFACE.scopes].sort());
  });

  it('events, commands and interactivity all go to /slack/events (the HTTPReceiver endpoint)', () => {
    const urls = [
      manifest.settings.event_subscriptions.request_url,
      manifest.settings.interactivity.request_url,
      ...manifest.features.slash_commands.map((c) => c.url),
    ];
    for (const u of urls) expect(new URL(u).pathname).toBe('/slack/events');
    expect(manifest.settings.interactivity.is_enabled).toBe(true);
    expect(manifest.settings.socket_mode_enabled).toBe(false);
  });

  it('the app registers listeners for exactly these (read from the source of app.ts)', () => {
    const src = readFileSync(new URL('../../src/slack/app.ts', import.meta.url), 'utf8');
    expect(src.match(/app\.command\(/g)).toHaveLength(SLACK_SURFACE.commands.length);
    expect(src).toContain('app.command(QUOTA_COMMAND,');
    expect(src.match(/app\.shortcut\(/g)).toHaveLength(SLACK_SURFACE.shortcuts.length);
    expect(src.replace(/\s+/g, ' ')).toContain(
      "app.shortcut( { callback_id: DIAGNOSE_SHORTCUT.callbackId, type: 'message_action' }",
    );
    expect(src.match(/app\.event\('([a-z_]+)'/g)).toEqual(["app.event('app_mention'"]);
    expect(src.match(/app\.message\(/g)).toHaveLength(1);
    const webApi = [...src.matchAll(/client\.([a-zA-Z]+\.[a-zA-Z]+)\(/g)].map((m) => m[1]);
    expect([...new Set(webApi)].sort()).toEqual(['chat.postEphemeral', 'chat.postMessage']);
  });
});
