/** The Slack app (the only importer of @slack/bolt, docs/architecture.md). */
export {
  createSlackApp,
  QUOTA_RESPONSE_TYPE,
  type SlackAppHandle,
  type SlackAppOptions,
  type ClientOptions,
} from './app.ts';
export { createLogger, createScrubber, toBoltLogger, type Logger, type LoggerOptions } from './logger.ts';
export { createMetrics, type SlackMetrics } from './metrics.ts';
export { SLACK_SURFACE, QUOTA_COMMAND, DIAGNOSE_SHORTCUT } from './surface.ts';
export type { SourceFor } from './ask.ts';
