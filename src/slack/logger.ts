/**
 * Logging with pino, so that no token or signing secret is ever written: known secret values and
 * anything shaped like a Slack token are replaced in every string (Bolt logs whole request bodies at
 * debug level, and those carry the legacy verification `token`), and secret-named fields are redacted.
 * Lines are JSON with string levels and ISO-8601 UTC times.
 */
import { format } from 'node:util';
import { LogLevel, type Logger as BoltLogger } from '@slack/bolt';
import { pino, stdTimeFunctions, type DestinationStream, type Level, type Logger } from 'pino';

export type { Logger } from 'pino';

const CENSOR = '[redacted]';

/** Field paths pino removes wherever they appear in a logged object. */
const REDACT_PATHS = [
  'token',
  '*.token',
  'botToken',
  '*.botToken',
  'appToken',
  '*.appToken',
  'signingSecret',
  '*.signingSecret',
  'authorization',
  'headers.authorization',
  '*.headers.authorization',
  'headers["x-slack-signature"]',
  '*.headers["x-slack-signature"]',
];

/** Slack token shapes (xoxb-, xoxp-, xoxa-, xoxr-, xoxs-, xoxe-, xapp-) and `token` fields in bodies. */
const TOKEN_SHAPES: [RegExp, string][] = [
  [/\bxox[abeoprs](?:\.[A-Za-z0-9]+)?-[A-Za-z0-9-]+/g, CENSOR],
  [/\bxapp-[A-Za-z0-9-]+/g, CENSOR],
  [/("token"\s*:\s*")[^"]*(")/g, `$1${CENSOR}$2`],
  [/(\btoken=)[^&\s"]*/g, `$1${CENSOR}`],
  [/(v0=)[0-9a-f]{64}/g, `$1${CENSOR}`],
];

export type Scrubber = (s: string) => string;

export function createScrubber(secrets: readonly string[]): Scrubber {
  // Longest first, so a secret containing another is replaced whole.
  const values = [...new Set(secrets.filter((s) => s.length >= 6))].sort((a, b) => b.length - a.length);
  return (s: string) => {
    let out = s;
    for (const v of values) if (out.includes(v)) out = out.split(v).join(CENSOR);
    for (const [re, rep] of TOKEN_SHAPES) out = out.replace(re, rep);
    return out;
  };
}

function scrubValue(v: unknown, scrub: Scrubber, depth: number): unknown {
  if (typeof v === 'string') return scrub(v);
  if (depth > 6 || v === null || typeof v !== 'object') return v;
  if (v instanceof Error) {
    return { type: v.name, message: scrub(v.message), ...(v.stack ? { stack: scrub(v.stack) } : {}) };
  }
  if (Array.isArray(v)) return v.slice(0, 100).map((x) => scrubValue(x, scrub, depth + 1));
  // Values that serialize themselves (Secret, Date, URL …) are kept as they print.
  if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = scrubValue(x, scrub, depth + 1);
  return out;
}

export interface LoggerOptions {
  level?: Level | 'silent';
  /** Values that must never appear in a log line (tokens, signing secret). */
  secrets?: readonly string[];
  /** Where lines go (default stdout); tests pass a collecting stream. */
  destination?: DestinationStream;
}

export function createLogger(opts: LoggerOptions = {}): Logger {
  const scrub = createScrubber(opts.secrets ?? []);
  return pino(
    {
      name: 'quota-doctor',
      level: opts.level ?? 'info',
      redact: { paths: REDACT_PATHS, censor: CENSOR },
      // `"level":"info"` and `"time":"2026-…Z"`: what log stacks (Loki, Elastic, Cloud Logging) read as is.
      formatters: { level: (label) => ({ level: label }) },
      timestamp: stdTimeFunctions.isoTime,
      hooks: {
        logMethod(args, method) {
          const clean = args.map((a) => scrubValue(a, scrub, 0)) as Parameters<typeof method>;
          method.apply(this, clean);
        },
      },
    },
    opts.destination,
  );
}

const TO_PINO: Record<LogLevel, Level> = {
  [LogLevel.DEBUG]: 'debug',
  [LogLevel.INFO]: 'info',
  [LogLevel.WARN]: 'warn',
  [LogLevel.ERROR]: 'error',
};

const FROM_PINO: Record<string, LogLevel> = {
  trace: LogLevel.DEBUG,
  debug: LogLevel.DEBUG,
  info: LogLevel.INFO,
  warn: LogLevel.WARN,
  error: LogLevel.ERROR,
};

/** The Bolt level matching a pino logger's (Bolt's App otherwise forces INFO onto the logger it is given). */
export function boltLevelOf(logger: Logger): LogLevel {
  return FROM_PINO[logger.level] ?? LogLevel.ERROR;
}

/**
 * Bolt's Logger interface on top of a pino child. Bolt formats its own messages (often whole JSON
 * bodies), so the arguments are formatted into one string and then go through the same scrubbing hook.
 */
export function toBoltLogger(logger: Logger): BoltLogger {
  let child = logger.child({ component: 'bolt' });
  const line = (msg: unknown[]) => format(...msg);
  return {
    debug: (...msg: unknown[]) => child.debug(line(msg)),
    info: (...msg: unknown[]) => child.info(line(msg)),
    warn: (...msg: unknown[]) => child.warn(line(msg)),
    error: (...msg: unknown[]) => child.error(line(msg)),
    setLevel(l: LogLevel) {
      child.level = TO_PINO[l];
    },
    getLevel: () => FROM_PINO[child.level] ?? LogLevel.ERROR,
    setName(name: string) {
      child = logger.child({ component: name });
    },
  };
}
