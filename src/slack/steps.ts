/**
 * The steps every Slack entry point shares, in the bolt-js way: a first listener middleware of each entry
 * parses its payload into a `Turn` (who asked, where, when, and how a rate-limit reply reaches them) and
 * puts it on `context`; `rateLimitStep` is listener middleware that lets a turn through or answers it
 * with the rate-limit reply; `post` and `logDone` are the posting and the closing log line of every reply.
 *
 * The channel-message listener cannot run the rate limit as middleware: chatter costs no token, so it
 * takes one (`steps.admit`) only after the answer turned out not to be silent.
 */
import type { Context } from '@slack/bolt';
import type { Answer } from '../answer/types.ts';
import { rateLimitedAnswer } from '../answer/replies/rate-limited.ts';
import type { Entry, Outcome } from './ask.ts';
import type { Logger } from './logger.ts';
import type { SlackMetrics } from './metrics.ts';
import type { RateLimiter } from './rate-limit.ts';

/** One request on its way through the steps (set on `context` by the entry's first middleware). */
export class Turn {
  constructor(
    readonly entry: Entry,
    /** The Slack user id asking; undefined when the payload had none (counted as `unknown`). */
    readonly user: string | undefined,
    readonly channel: string,
    /** When the entry started (the `ms` of the closing log line). */
    readonly t0: number,
    /** How the rate-limit reply reaches the asker: an ephemeral post, the ack itself, or respond. */
    readonly rateLimitReply: (answer: Answer) => Promise<unknown>,
    /** What was asked: the message text, the question of a mention, the namespace of `/quota`. */
    readonly request: string,
    /** The thread an answer goes to (none for `/quota`, answered through `response_url`). */
    readonly threadTs?: string,
  ) {}
}

const TURN = 'quotaDoctorTurn';

export function setTurn(context: Context, turn: Turn): void {
  context[TURN] = turn;
}

/** The turn the entry's first middleware set; a listener wired without one is a programming error. */
export function turnOf(context: Context): Turn {
  const t: unknown = context[TURN];
  if (!(t instanceof Turn)) throw new Error('no Turn on the Bolt context: the entry parse step must run first');
  return t;
}

export interface StepDeps {
  limiter: Pick<RateLimiter, 'take'>;
  metrics: Pick<SlackMetrics, 'rateLimited' | 'errors'>;
  logger: Pick<Logger, 'info' | 'warn'>;
  now: () => number;
}

export interface Steps {
  /** The closing log line of every entry: `answered` with the outcome and the time taken. */
  logDone(entry: Entry, channel: string, outcome: Outcome['kind'] | 'rate-limited', t0: number): void;
  /** Slack calls: failures are logged and counted, never thrown into Bolt (the user already got the ack). */
  post(entry: Entry, what: string, call: () => Promise<unknown>): Promise<boolean>;
  /** Takes a token for the turn; when limited: counts, replies through `turn.rateLimitReply`, logs, and answers false. */
  admit(turn: Turn): Promise<boolean>;
  /** Listener middleware around `admit`: `next()` only when a token was taken. */
  rateLimitStep(args: { context: Context; next: () => Promise<void> }): Promise<void>;
}

export function slackError(e: unknown): string {
  if (typeof e === 'object' && e !== null && 'data' in e) {
    const data: unknown = e.data;
    if (typeof data === 'object' && data !== null && 'error' in data) return String(data.error);
  }
  return e instanceof Error ? e.message : String(e);
}

export function createSteps(deps: StepDeps): Steps {
  const { limiter, metrics, logger, now } = deps;
  const logDone: Steps['logDone'] = (entry, channel, outcome, t0) =>
    logger.info({ entry, channel, outcome, ms: now() - t0 }, 'answered');
  const post: Steps['post'] = async (entry, what, call) => {
    try {
      await call();
      return true;
    } catch (e) {
      metrics.errors.inc({ entry, reason: 'slack_api' });
      logger.warn({ entry, call: what, error: slackError(e) }, 'a Slack call failed');
      return false;
    }
  };
  const admit = async (turn: Turn): Promise<boolean> => {
    const rate = await limiter.take(turn.user ?? 'unknown', turn.channel);
    if (rate.ok) return true;
    metrics.rateLimited.inc({ entry: turn.entry, scope: rate.scope });
    await turn.rateLimitReply(rateLimitedAnswer(rate.scope, rate.retryAfterMs));
    logDone(turn.entry, turn.channel, 'rate-limited', turn.t0);
    return false;
  };
  return {
    logDone,
    post,
    admit,
    async rateLimitStep({ context, next }) {
      if (await admit(turnOf(context))) await next();
    },
  };
}
