/**
 * The environment of `npm start` / `quota-doctor serve` (docs/contract.md, "The Slack app"), validated with
 * zod. Tokens and the signing secret are wrapped in `Secret` (the k8sgpt `Sensitive` model): printing,
 * logging or JSON-encoding a config shows `[redacted]`, never the value; only `.reveal()` hands it out.
 *
 * Mode: Socket Mode when SLACK_APP_TOKEN is set, HTTP when SLACK_SIGNING_SECRET is set, the local
 * console when there is no SLACK_BOT_TOKEN at all.
 */
import { inspect } from 'node:util';
import { z } from 'zod';

const REDACTED = '[redacted]';

/** A value that must never reach a log line or a chat. */
export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  /** The value itself: only for handing to the Slack client. */
  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return REDACTED;
  }

  toJSON(): string {
    return REDACTED;
  }

  [inspect.custom](): string {
    return `Secret(${REDACTED})`;
  }
}

/** A token bucket: `capacity` requests at once, refilled evenly over `perSeconds`. */
export interface RateSpec {
  capacity: number;
  perSeconds: number;
}

export type LogLevelName = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

interface BaseConfig {
  /** HTTP port: Slack requests (HTTP mode) and /healthz, /readyz, /metrics (both modes). */
  port: number;
  /** QUOTA_DOCTOR_STATE: a `--state` path instead of the live cluster. */
  statePath?: string;
  /** QUOTA_DOCTOR_CONFIG: the access policy file (channels → namespaces). */
  policyPath?: string;
  /** SLACK_API_URL, always ending in `/` (web-api joins method names onto it). */
  slackApiUrl?: string;
  /** How long one answer may take before the reply says the cluster did not answer in time. */
  deadlineMs: number;
  rateLimits: { user: RateSpec; channel: RateSpec };
  logLevel: LogLevelName;
  /**
   * QUOTA_DOCTOR_DEDUPE_NAMESPACE (the Deployment sets it to its own namespace) and
   * QUOTA_DOCTOR_DEDUPE_LEASE_PREFIX: redelivered Slack events are filtered across replicas through the
   * Leases `${leasePrefix}0…7` there (src/slack/lease-dedupe.ts). Unset: in-process only.
   */
  dedupe?: { namespace: string; leasePrefix: string };
}

export interface ConsoleConfig extends BaseConfig {
  mode: 'console';
}

export interface HttpConfig extends BaseConfig {
  mode: 'http';
  botToken: Secret;
  signingSecret: Secret;
}

export interface SocketConfig extends BaseConfig {
  mode: 'socket';
  botToken: Secret;
  appToken: Secret;
  signingSecret?: Secret;
}

export type Config = ConsoleConfig | HttpConfig | SocketConfig;
export type SlackConfig = HttpConfig | SocketConfig;

/** Bad configuration: one line, naming variables, never their values. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

const optionalText = z
  .string()
  .transform((s) => s.trim())
  .optional()
  .transform((s) => (s === undefined || s === '' ? undefined : s));

const rateSpec = (fallback: string) =>
  z
    .string()
    .optional()
    .transform((s) => (s === undefined || s.trim() === '' ? fallback : s.trim()))
    .pipe(z.string().regex(/^\d+\/\d+$/, { error: 'must look like CAPACITY/SECONDS, e.g. 10/60' }))
    .transform((s): RateSpec => {
      const [capacity, perSeconds] = s.split('/').map(Number) as [number, number];
      return { capacity, perSeconds };
    })
    .refine((r) => r.capacity >= 1 && r.perSeconds >= 1, { error: 'capacity and seconds must both be at least 1' });

const intInRange = (fallback: number, min: number, max: number) =>
  z
    .string()
    .optional()
    .transform((s) => (s === undefined || s.trim() === '' ? String(fallback) : s.trim()))
    .pipe(z.string().regex(/^\d+$/, { error: 'must be a whole number' }))
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(min, { error: `must be at least ${min}` })
        .max(max, { error: `must be at most ${max}` }),
    );

const envSchema = z.object({
  SLACK_BOT_TOKEN: optionalText.pipe(
    z.string().startsWith('xox', { error: 'does not look like a Slack token (xoxb-…)' }).optional(),
  ),
  SLACK_SIGNING_SECRET: optionalText,
  SLACK_APP_TOKEN: optionalText.pipe(
    z.string().startsWith('xapp-', { error: 'does not look like an app-level token (xapp-…)' }).optional(),
  ),
  SLACK_API_URL: optionalText.pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional()),
  PORT: intInRange(3000, 0, 65535),
  QUOTA_DOCTOR_STATE: optionalText,
  QUOTA_DOCTOR_CONFIG: optionalText,
  QUOTA_DOCTOR_DEADLINE_MS: intInRange(20_000, 100, 600_000),
  QUOTA_DOCTOR_RATE_USER: rateSpec('10/60'),
  QUOTA_DOCTOR_RATE_CHANNEL: rateSpec('30/60'),
  QUOTA_DOCTOR_DEDUPE_NAMESPACE: optionalText.pipe(
    z
      .string()
      .regex(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/, { error: 'must be a namespace name' })
      .optional(),
  ),
  QUOTA_DOCTOR_DEDUPE_LEASE_PREFIX: optionalText.pipe(
    z
      .string()
      .regex(/^[a-z0-9]([-a-z0-9.]{0,240}[-a-z0-9])?$/, { error: 'must start a Lease name' })
      .optional(),
  ),
  LOG_LEVEL: optionalText.pipe(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional()),
});

/** The variables `loadConfig` reads (documentation and tests). */
export const CONFIG_VARIABLES = Object.keys(envSchema.shape) as (keyof typeof envSchema.shape)[];

/**
 * Reads and validates the environment. Throws `ConfigError` with one line naming the bad variables
 * (never echoing a value: zod 4 issues carry no input unless asked to).
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const picked: Record<string, string | undefined> = {};
  for (const k of CONFIG_VARIABLES) picked[k] = env[k];
  const parsed = envSchema.safeParse(picked);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'environment'} ${i.message}`);
    throw new ConfigError(`bad configuration: ${problems.join('; ')}`);
  }
  const e = parsed.data;
  const base: BaseConfig = {
    port: e.PORT,
    statePath: e.QUOTA_DOCTOR_STATE,
    policyPath: e.QUOTA_DOCTOR_CONFIG,
    slackApiUrl:
      e.SLACK_API_URL === undefined
        ? undefined
        : e.SLACK_API_URL.endsWith('/')
          ? e.SLACK_API_URL
          : `${e.SLACK_API_URL}/`,
    deadlineMs: e.QUOTA_DOCTOR_DEADLINE_MS,
    rateLimits: { user: e.QUOTA_DOCTOR_RATE_USER, channel: e.QUOTA_DOCTOR_RATE_CHANNEL },
    logLevel: e.LOG_LEVEL ?? 'info',
    ...(e.QUOTA_DOCTOR_DEDUPE_NAMESPACE !== undefined
      ? {
          dedupe: {
            namespace: e.QUOTA_DOCTOR_DEDUPE_NAMESPACE,
            leasePrefix: e.QUOTA_DOCTOR_DEDUPE_LEASE_PREFIX ?? 'quota-doctor-dedupe-',
          },
        }
      : {}),
  };
  if (e.SLACK_BOT_TOKEN === undefined) {
    if (e.SLACK_APP_TOKEN !== undefined || e.SLACK_SIGNING_SECRET !== undefined) {
      throw new ConfigError(
        'bad configuration: SLACK_APP_TOKEN or SLACK_SIGNING_SECRET is set but SLACK_BOT_TOKEN is not',
      );
    }
    return { ...base, mode: 'console' };
  }
  const botToken = new Secret(e.SLACK_BOT_TOKEN);
  if (e.SLACK_APP_TOKEN !== undefined) {
    return {
      ...base,
      mode: 'socket',
      botToken,
      appToken: new Secret(e.SLACK_APP_TOKEN),
      ...(e.SLACK_SIGNING_SECRET !== undefined ? { signingSecret: new Secret(e.SLACK_SIGNING_SECRET) } : {}),
    };
  }
  if (e.SLACK_SIGNING_SECRET !== undefined) {
    return { ...base, mode: 'http', botToken, signingSecret: new Secret(e.SLACK_SIGNING_SECRET) };
  }
  throw new ConfigError(
    'bad configuration: SLACK_BOT_TOKEN is set but neither SLACK_APP_TOKEN (Socket Mode) nor SLACK_SIGNING_SECRET (HTTP) is',
  );
}

/** Every secret value in a config: what the log scrubber must never let through. */
export function secretValues(config: Config): string[] {
  const out: string[] = [];
  if (config.mode === 'console') return out;
  out.push(config.botToken.reveal());
  if (config.signingSecret) out.push(config.signingSecret.reveal());
  if (config.mode === 'socket') out.push(config.appToken.reveal());
  return out;
}

/** A one-line description safe to log at startup. */
export function describeConfig(config: Config): string {
  const parts = [`mode=${config.mode}`, `port=${config.port}`, `deadline=${config.deadlineMs}ms`];
  parts.push(`source=${config.statePath ? `state ${config.statePath}` : 'live cluster'}`);
  parts.push(`policy=${config.policyPath ?? 'none (every namespace visible)'}`);
  if (config.slackApiUrl) parts.push(`slack-api=${config.slackApiUrl}`);
  if (config.dedupe) parts.push(`dedupe=leases ${config.dedupe.namespace}/${config.dedupe.leasePrefix}0-7`);
  parts.push(
    `rate user=${config.rateLimits.user.capacity}/${config.rateLimits.user.perSeconds}s channel=${config.rateLimits.channel.capacity}/${config.rateLimits.channel.perSeconds}s`,
  );
  return parts.join(' ');
}
