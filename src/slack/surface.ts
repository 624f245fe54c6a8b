/**
 * What the Slack app registers — the one list both the code (app.ts) and the manifest
 * (manifests/slack-app.yaml, checked by test/slack/manifest.test.ts) follow, so the scopes the app asks
 * for are exactly the ones its listeners and Web API calls need.
 */

/** `/quota NAMESPACE`: headroom of a namespace. */
export const QUOTA_COMMAND = '/quota';

/** The message shortcut "Diagnose with quota-doctor". */
export const DIAGNOSE_SHORTCUT = {
  callbackId: 'diagnose_message',
  name: 'Diagnose with quota-doctor',
  type: 'message',
} as const;

export const SLACK_SURFACE = {
  /** Events API subscriptions (manifest `settings.event_subscriptions.bot_events`). */
  botEvents: ['app_mention', 'message.channels', 'message.groups'],
  commands: [QUOTA_COMMAND],
  shortcuts: [DIAGNOSE_SHORTCUT],
  /**
   * Bot scopes, each for a reason:
   * app_mentions:read ← app_mention; channels:history ← message.channels; groups:history ←
   * message.groups (private channels the bot was invited to); chat:write ← chat.postMessage and
   * chat.postEphemeral; commands ← /quota and the message shortcut.
   */
  scopes: ['app_mentions:read', 'channels:history', 'chat:write', 'commands', 'groups:history'],
  /** Web API methods the app calls (the fake Slack in tests implements exactly these). */
  webApiMethods: ['auth.test', 'chat.postMessage', 'chat.postEphemeral'],
} as const;
