/**
 * The Slack app: the real Bolt App on an HTTPReceiver (`POST /slack/events`) or a SocketModeReceiver,
 * thin in the bolt-js way — it routes, acks, asks `answer/` and posts what `render/blocks.ts` makes.
 *
 * Entry points (SLACK_SURFACE): channel messages (pasted errors, answered in thread only when the
 * Answerer recognises something), @mentions (questions, always answered in thread), `/quota [ns]`
 * (acked at once, answered through `response_url`), and the "Diagnose with quota-doctor" message
 * shortcut. Every one of them goes through `Asker`: channel policy, deadline, and a refusal when the
 * answer names a namespace the channel may not see.
 *
 * Each listener is a chain of Bolt listener middleware sharing the steps of ./steps.ts:
 *   parse (the entry's own: validate the payload, put a `Turn` on `context` — who, where, when, what
 *   was asked, and how a rate-limit reply reaches the asker: ephemeral post, the ack, or respond)
 *   → `rateLimitStep` (a token, or the rate-limit reply + metric + `answered … rate-limited` log)
 *   → the handler (ask, `post`, `logDone`).
 * The channel-message listener has no rate-limit middleware: chatter costs no token, so its handler
 * calls `admit` only once the answer is not silent. `/quota` acks in its parse step whatever needs no
 * cluster (usage, refusals); the shortcut acks first, then parses.
 *
 * Exactly one reply per message: bot messages, edits and other subtypes are ignored; a message that
 * @-mentions the bot is left to the app_mention listener (Slack fires both); a redelivered event
 * (same `event_id`, `x-slack-retry-num` ≥ 1) is dropped by a bounded LRU of event ids, and when it
 * lands on another replica by the Lease claim of ./lease-dedupe.ts.
 */
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, ServerOptions, ServerResponse } from 'node:http';
import {
  App,
  HTTPReceiver,
  SocketModeReceiver,
  type AppOptions,
  type CustomRoute,
  type MessageShortcut,
  type Middleware,
  type Receiver,
  type RespondFn,
  type SlackCommandMiddlewareArgs,
  type SlackEventMiddlewareArgs,
  type SlackShortcutMiddlewareArgs,
} from '@slack/bolt';
import type { Registry } from 'prom-client';
import { z } from 'zod';
import type { Answerer } from '../answer/answerer.ts';
import type { AccessPolicy } from '../answer/policy.ts';
import type { Answer } from '../answer/types.ts';
import { noFindingAnswer } from '../answer/replies/no-finding.ts';
import { usageAnswer as quotaUsageAnswer } from '../answer/replies/usage.ts';
import type { SlackConfig } from '../config.ts';
import { renderBlocks, type BlocksPayload } from '../render/blocks.ts';
import { Asker, SourceCache, type SourceFor } from './ask.ts';
import { RecentIds, sharedDedupeFor, type SharedDedupe } from './dedupe.ts';
import { EVENT_CLAIM_BUDGET_MS, type LeaseApi } from './lease-dedupe.ts';
import { boltLevelOf, toBoltLogger, type Logger } from './logger.ts';
import { createMetrics, hasCacheHealth, type SlackMetrics } from './metrics.ts';
import { setupAlerts, type AlertsOptions } from './alerts/index.ts';
import { RateLimiter } from './rate-limit.ts';
import { createSteps, setTurn, slackError, Turn, turnOf } from './steps.ts';
import { guardRequests } from './request-guard.ts';
import { DIAGNOSE_SHORTCUT, QUOTA_COMMAND } from './surface.ts';

export type ClientOptions = NonNullable<AppOptions['clientOptions']>;

export interface SlackAppOptions {
  /** From `loadConfig()` when its mode is `http` or `socket`. */
  config: SlackConfig;
  answerer: Answerer;
  /** The cluster source of a kube context (undefined = the default); called once per context. */
  sourceFor: SourceFor;
  policy: AccessPolicy;
  logger: Logger;
  /** Merged over `{ slackApiUrl: config.slackApiUrl }` (tests: `retryConfig: { retries: 0 }`). */
  clientOptions?: ClientOptions;
  /** How `/quota` answers are posted (default `in_channel`; see QUOTA_RESPONSE_TYPE). */
  quotaResponseType?: 'in_channel' | 'ephemeral';
  /** Prometheus registry (default: a new one; `metrics.registry` on the handle). */
  registry?: Registry;
  /** Default true: also export process metrics (cpu, memory, event loop). */
  defaultMetrics?: boolean;
  /** Size of the event-id LRU (default 10,000). */
  dedupeSize?: number;
  /**
   * Cross-replica duplicate filter (./lease-dedupe.ts), asked after the in-process LRU. Default: Leases
   * in `config.dedupe.namespace` when that is set (in the cluster), else none. `null`: none.
   */
  sharedDedupe?: SharedDedupe | null;
  /** The Lease client for `config.dedupe` (src/main.ts hands in src/cluster/lease-api.ts). */
  leaseApi?: () => LeaseApi;
  /** Clock (tests). */
  now?: () => number;
  /** HTTP mode: a request (headers and body) not fully received within this is cut (default REQUEST_TIMEOUT_MS). */
  requestTimeoutMs?: number;
  /** Proactive mode (./alerts/): store, leader, interval. `false`: off even when the policy has `alerts:`. */
  alerts?: AlertsOptions | false;
}

export interface SlackAppHandle {
  app: App;
  metrics: SlackMetrics;
  /**
   * Checks the bot token (auth.test), then listens. HTTP mode: on `port` (default config.port; 0 picks a
   * free one) and `host`; resolves to the port bound. Socket Mode: connects, and serves /healthz,
   * /readyz and /metrics on config.port.
   */
  start(port?: number, host?: string): Promise<{ port: number }>;
  /** Stops receiving, waits (≤ 5 s) for answers in flight, closes the cluster sources. */
  stop(): Promise<void>;
  /** Resolves when no answer is in flight (tests, graceful shutdown). */
  idle(): Promise<void>;
}

/**
 * `/quota` answers go `in_channel`: headroom is what the team looks at together during an incident, and
 * the channel policy has already decided the channel may see this namespace. Refusals, usage, rate
 * limits, timeouts and errors go `ephemeral`: only the asker needs them.
 */
export const QUOTA_RESPONSE_TYPE = 'in_channel';

/** Message subtypes that carry a person's text; everything else (bot_message, message_changed, joins …) is ignored. */
const ANSWERED_SUBTYPES = new Set<string | undefined>([undefined, 'thread_broadcast', 'file_share']);

const NAMESPACE = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

const messageEvent = z.object({
  type: z.literal('message'),
  subtype: z.string().optional(),
  bot_id: z.string().optional(),
  text: z.string().optional(),
  ts: z.string(),
  thread_ts: z.string().optional(),
  channel: z.string(),
  user: z.string().optional(),
});

const mentionEvent = z.object({
  type: z.literal('app_mention'),
  bot_id: z.string().optional(),
  text: z.string().default(''),
  ts: z.string(),
  thread_ts: z.string().optional(),
  channel: z.string(),
  user: z.string().optional(),
});

const messageShortcut = z.object({
  type: z.literal('message_action'),
  callback_id: z.string(),
  channel: z.object({ id: z.string() }),
  user: z.object({ id: z.string() }),
  message: z.object({ ts: z.string(), thread_ts: z.string().optional(), text: z.string().optional() }),
});

const usageAnswer = (hasDefault: boolean): Answer => quotaUsageAnswer(QUOTA_COMMAND, hasDefault);

/**
 * Slack sends small bodies at once: a request still arriving after 10 s is a slow-body attack (Node's
 * default `requestTimeout` is 300 s, checked every 30 s). Headers get the same bound; idle keep-alive
 * sockets are Node's default 5 s.
 */
export const REQUEST_TIMEOUT_MS = 10_000;

function serverTimeouts(ms: number): ServerOptions {
  return {
    requestTimeout: ms,
    headersTimeout: ms,
    connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(ms / 4))),
  };
}

/** Bolt's receiver with ./request-guard.ts in front of `POST /slack/events` (bodies that are not objects, future timestamps). */
function guarded(receiver: HTTPReceiver, signingSecret: string, logger: Logger): HTTPReceiver {
  receiver.requestListener = guardRequests(receiver.requestListener, {
    signingSecret,
    onRefused: (status, reason) => logger.warn({ status, reason }, 'refused a request to /slack/events'),
  });
  return receiver;
}

export function createSlackApp(opts: SlackAppOptions): SlackAppHandle {
  const { config, answerer, policy, logger } = opts;
  const now = opts.now ?? Date.now;
  const sources = new SourceCache(opts.sourceFor);
  // Cache health per context, read from the live sources on each scrape ('' = the current context).
  const cacheHealth = () =>
    Promise.all(
      policy.contexts().map((c) =>
        sources.get(c).then(
          (s) => ({ context: c ?? '', caches: hasCacheHealth(s) ? s.cacheHealth() : [] }),
          () => ({ context: c ?? '', caches: [] }),
        ),
      ),
    );
  const metrics = createMetrics({
    ...(opts.registry ? { registry: opts.registry } : {}),
    defaultMetrics: opts.defaultMetrics ?? true,
    cacheHealth,
  });
  const asker = new Asker({ policy, sources, deadlineMs: config.deadlineMs, metrics, logger, now });
  const limiter = new RateLimiter(config.rateLimits);
  const recent = new RecentIds(opts.dedupeSize ?? 10_000);
  const shared =
    opts.sharedDedupe !== undefined ? opts.sharedDedupe : sharedDedupeFor(config.dedupe, opts.leaseApi, logger);
  /** Seen here before, or (asked only when not) claimed by another replica: drop. */
  const duplicate = async (id: string, budgetMs?: number): Promise<boolean> =>
    recent.seen(id) || (shared ? (await shared.claim(id, budgetMs)) === 'duplicate' : false);
  const quotaResponseType = opts.quotaResponseType ?? QUOTA_RESPONSE_TYPE;
  const boltLogger = toBoltLogger(logger);
  let started = false;

  // ---- answers in flight (idle / graceful stop) ----
  const inFlight = new Set<Promise<unknown>>();
  const track = async <T>(p: Promise<T>): Promise<T> => {
    inFlight.add(p);
    try {
      return await p;
    } finally {
      inFlight.delete(p);
    }
  };
  const idle = async () => {
    while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
  };

  // ---- HTTP extras on the same port: /healthz, /readyz, /metrics ----
  // Readiness is the receiver's: a cluster that is down or slow must not take the pod out of its
  // Service, which would silence every channel, those of healthy clusters too. Each cluster's health
  // is in /metrics (quota_doctor_cache_*{context,resource}) and in the replies' gaps.
  const readiness = async (): Promise<boolean> => started;
  const send = (res: ServerResponse, status: number, body: string, type = 'text/plain; charset=utf-8') => {
    res.writeHead(status, { 'content-type': type });
    res.end(body);
  };
  const customRoutes: CustomRoute[] = [
    {
      path: '/healthz',
      method: 'GET',
      // Liveness fails only when a cluster cache is wedged (a reflector stuck past its deadline the
      // watchdog could not restart: cluster/live-source.ts `health()`), so the platform restarts us.
      handler: (_req: IncomingMessage, res: ServerResponse) => {
        const wedged = Promise.all(
          policy.contexts().map((c) =>
            sources.get(c).then(
              (s) => {
                const h = s.health?.();
                return h?.wedged ? [h.reasons.join('; ') || 'cluster cache wedged'] : [];
              },
              () => [],
            ),
          ),
        );
        void wedged
          .then((r) => r.flat())
          .then(
            (w) => send(res, w.length ? 503 : 200, w.length ? `wedged: ${w.join('; ')}\n` : 'ok\n'),
            () => send(res, 200, 'ok\n'),
          );
      },
    },
    {
      path: '/readyz',
      method: 'GET',
      handler: (_req: IncomingMessage, res: ServerResponse) => {
        void readiness().then((ok) => send(res, ok ? 200 : 503, ok ? 'ready\n' : 'not ready\n'));
      },
    },
    {
      path: '/metrics',
      method: 'GET',
      handler: (_req: IncomingMessage, res: ServerResponse) => {
        metrics.registry.metrics().then(
          (text) => send(res, 200, text, metrics.registry.contentType),
          (e: unknown) => {
            logger.error({ err: e }, 'metrics failed');
            send(res, 500, 'metrics failed\n');
          },
        );
      },
    },
  ];

  // ---- the receiver: HTTP (signing secret) or Socket Mode (app token) ----
  const receiver: Receiver =
    config.mode === 'socket'
      ? new SocketModeReceiver({
          appToken: config.appToken.reveal(),
          logger: boltLogger,
          customRoutes,
          installerOptions: { port: config.port },
        })
      : guarded(
          new HTTPReceiver({
            signingSecret: config.signingSecret.reveal(),
            logger: boltLogger,
            customRoutes,
            // Ack first, answer after (the default): Slack retries anything not acked within 3 s.
            processBeforeResponse: false,
            port: config.port,
          }),
          config.signingSecret.reveal(),
          logger,
        );

  const clientOptions: ClientOptions = {
    timeout: 15_000,
    ...(config.slackApiUrl ? { slackApiUrl: config.slackApiUrl } : {}),
    ...opts.clientOptions,
  };
  const app = new App({
    token: config.botToken.reveal(),
    receiver,
    logger: boltLogger,
    logLevel: boltLevelOf(logger),
    clientOptions,
    convoStore: false,
    ignoreSelf: true,
    // auth.test runs in start(), not in the constructor: building the app touches no network.
    deferInitialization: true,
  });

  app.error(async (error) => {
    metrics.errors.inc({ entry: 'bolt', reason: 'exception' });
    logger.error({ err: error, code: (error as { code?: unknown }).code }, 'bolt error');
  });

  // ---- global middleware: count, and drop redelivered events ----
  // Tracked as a whole: the Lease claim runs after the ack, and idle() must wait for it and what follows.
  app.use((args) => track(dedupeStep(args)));
  function droppedEvent(name: string, eventId: string, context: { retryNum?: number; retryReason?: string }): void {
    metrics.duplicates.inc({ type: name });
    logger.info(
      { eventId, retryNum: context.retryNum, retryReason: context.retryReason },
      'dropped a redelivered event',
    );
  }
  async function dedupeStep(args: Parameters<Parameters<typeof app.use>[0]>[0]): Promise<void> {
    const { body, context, next } = args;
    const b: Record<string, unknown> =
      typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    if (b.type === 'event_callback') {
      const ev = (b.event ?? {}) as Record<string, unknown>;
      const name = typeof ev.type === 'string' ? ev.type : 'unknown';
      metrics.events.inc({ type: 'event', name });
      const eventId = typeof b.event_id === 'string' ? b.event_id : undefined;
      // A channel message is mostly chatter that gets no reply: it is claimed across replicas (a Lease
      // write) only once it has a reply to post (the message listener), here only in this process.
      const deferred = name === 'message' && Boolean(shared);
      if (deferred && eventId !== undefined) context.claimBeforeReply = eventId;
      // Events are acked before middleware runs: the claim may take its time.
      if (
        eventId !== undefined &&
        (deferred ? recent.seen(eventId) : await duplicate(eventId, EVENT_CLAIM_BUDGET_MS))
      ) {
        droppedEvent(name, eventId, context);
        return;
      }
      if (context.retryNum !== undefined && context.retryNum > 0) {
        // First sight of a retry: the original never reached this process (or it restarted); answer once.
        logger.info({ eventId, retryNum: context.retryNum }, 'answering a retried event seen for the first time');
      }
    } else if (typeof b.command === 'string' || b.type === 'message_action' || b.type === 'shortcut') {
      if (typeof b.command === 'string') metrics.events.inc({ type: 'command', name: b.command });
      else
        metrics.events.inc({ type: 'shortcut', name: typeof b.callback_id === 'string' ? b.callback_id : 'unknown' });
      // Commands and shortcuts carry no event_id, but each has its own trigger_id: a captured, correctly
      // signed body replayed inside the 5-minute window would otherwise be answered again.
      const triggerId = typeof b.trigger_id === 'string' ? b.trigger_id : undefined;
      if (triggerId !== undefined && (await duplicate(`trigger:${triggerId}`))) {
        metrics.duplicates.inc({ type: typeof b.command === 'string' ? 'command' : 'shortcut' });
        logger.info(
          { entry: typeof b.command === 'string' ? 'command' : 'shortcut' },
          'dropped a replayed command or shortcut (trigger_id seen before)',
        );
        const ack = (args as { ack?: () => Promise<void> }).ack;
        if (ack) await ack();
        return;
      }
    } else {
      metrics.events.inc({ type: typeof b.type === 'string' ? b.type : 'unknown', name: '' });
    }
    await next();
  }

  const render = (answer: Answer): BlocksPayload => renderBlocks(answer);
  const { logDone, post, admit, rateLimitStep } = createSteps({ limiter, metrics, logger, now });

  // ---- (a) channel messages: pasted errors and manifests ----
  // No rate-limit middleware here: chatter costs no token, so `admit` runs once the answer is not silent.
  const parseMessage: Middleware<SlackEventMiddlewareArgs<'message'>> = async ({ message, context, client, next }) => {
    const m = messageEvent.safeParse(message);
    if (!m.success) return;
    const ev = m.data;
    if (!ANSWERED_SUBTYPES.has(ev.subtype) || ev.bot_id !== undefined) return;
    const text = ev.text ?? '';
    if (text.trim() === '') return;
    // Slack fires app_mention and message for one @-mention; the mention listener answers it.
    if (typeof context.botUserId === 'string' && text.includes(`<@${context.botUserId}>`)) return;
    const threadTs = ev.thread_ts ?? ev.ts;
    const user = ev.user;
    const reply = async (answer: Answer) => {
      if (!user) return;
      await post('message', 'chat.postEphemeral', () =>
        client.chat.postEphemeral({ channel: ev.channel, user, thread_ts: threadTs, ...render(answer) }),
      );
    };
    setTurn(context, new Turn('message', user, ev.channel, now(), reply, text, threadTs));
    await next();
  };
  app.message(parseMessage, async ({ context, client }) => {
    const turn = turnOf(context);
    await track(
      (async () => {
        const outcome = await asker.ask('message', turn.channel, (ctx) => answerer.message(turn.request, ctx));
        if (outcome.kind === 'silent') return;
        const claim = context.claimBeforeReply;
        if (typeof claim === 'string' && shared && (await shared.claim(claim, EVENT_CLAIM_BUDGET_MS)) === 'duplicate') {
          droppedEvent('message', claim, context);
          return;
        }
        if (!(await admit(turn))) return;
        const { channel, threadTs } = turn;
        await post('message', 'chat.postMessage', () =>
          client.chat.postMessage({ channel, thread_ts: threadTs, ...render(outcome.answer) }),
        );
        logDone('message', turn.channel, outcome.kind, turn.t0);
      })(),
    );
  });

  // ---- (b) @mentions: questions, always answered in thread ----
  const parseMention: Middleware<SlackEventMiddlewareArgs<'app_mention'>> = async ({
    event,
    context,
    client,
    next,
  }) => {
    const m = mentionEvent.safeParse(event);
    if (!m.success || m.data.bot_id !== undefined) return;
    const ev = m.data;
    const threadTs = ev.thread_ts ?? ev.ts;
    const user = ev.user;
    const bot = typeof context.botUserId === 'string' ? context.botUserId : undefined;
    const question = (bot ? ev.text.split(`<@${bot}>`).join(' ') : ev.text).replace(/\s+/g, ' ').trim();
    const reply = async (answer: Answer) => {
      if (!user) return;
      await post('mention', 'chat.postEphemeral', () =>
        client.chat.postEphemeral({ channel: ev.channel, user, thread_ts: threadTs, ...render(answer) }),
      );
    };
    setTurn(context, new Turn('mention', user, ev.channel, now(), reply, question, threadTs));
    await next();
  };
  app.event('app_mention', parseMention, rateLimitStep, async ({ context, client }) => {
    const turn = turnOf(context);
    await track(
      (async () => {
        const outcome = await asker.ask('mention', turn.channel, async (ctx) => answerer.question(turn.request, ctx));
        if (outcome.kind === 'silent') return;
        const { channel, threadTs } = turn;
        await post('mention', 'chat.postMessage', () =>
          client.chat.postMessage({ channel, thread_ts: threadTs, ...render(outcome.answer) }),
        );
        logDone('mention', turn.channel, outcome.kind, turn.t0);
      })(),
    );
  });

  // ---- (c) /quota [namespace] ----
  const ephemeral = (answer: Answer) => ({ response_type: 'ephemeral' as const, ...render(answer) });
  // Everything decided without the cluster goes into the ack itself: no second message needed.
  const parseQuota: Middleware<SlackCommandMiddlewareArgs> = async ({ command, ack, context, next }) => {
    const t0 = now();
    const channel = command.channel_id;
    const access = asker.access(channel);
    const visibility = asker.visibility(channel);
    if (visibility.seesNothing) {
      await ack(ephemeral(asker.refuse('command')));
      logDone('command', channel, 'refusal', t0);
      return;
    }
    const args = command.text
      .trim()
      .split(/\s+/)
      .filter((a) => a !== '');
    if (args.length > 1 || (args[0] !== undefined && !NAMESPACE.test(args[0]))) {
      await ack(ephemeral(usageAnswer(access.defaultNamespace !== undefined)));
      return;
    }
    const namespace = args[0] ?? access.defaultNamespace;
    if (namespace === undefined) {
      await ack(ephemeral(usageAnswer(false)));
      return;
    }
    if (!visibility.allows(namespace)) {
      await ack(ephemeral(asker.refuse('command')));
      logDone('command', channel, 'refusal', t0);
      return;
    }
    setTurn(context, new Turn('command', command.user_id, channel, t0, (answer) => ack(ephemeral(answer)), namespace));
    await next();
  };
  app.command(QUOTA_COMMAND, parseQuota, rateLimitStep, async ({ ack, context, respond }) => {
    const turn = turnOf(context);
    const namespace = turn.request;
    await ack({ response_type: 'ephemeral', text: `Checking ${namespace}…` });
    await track(
      (async () => {
        const outcome = await asker.ask('command', turn.channel, (ctx) => answerer.quota(namespace, ctx));
        const answer = outcome.kind === 'silent' ? noFindingAnswer() : outcome.answer;
        const responseType = outcome.kind === 'answer' ? quotaResponseType : 'ephemeral';
        await post('command', 'respond', () => respond({ response_type: responseType, ...render(answer) }));
        logDone('command', turn.channel, outcome.kind, turn.t0);
      })(),
    );
  });

  // ---- (d) message shortcut "Diagnose with quota-doctor" ----
  const respondEphemeral = (respond: RespondFn) => (answer: Answer) =>
    post('shortcut', 'respond', () => respond(ephemeral(answer)));
  const parseShortcut: Middleware<SlackShortcutMiddlewareArgs<MessageShortcut>> = async ({
    shortcut,
    ack,
    context,
    respond,
    next,
  }) => {
    await ack();
    const t0 = now();
    const s = messageShortcut.safeParse(shortcut);
    if (!s.success) {
      logger.warn({ entry: 'shortcut' }, 'an unexpected shortcut payload');
      return;
    }
    const { text, thread_ts, ts } = s.data.message;
    setTurn(
      context,
      new Turn(
        'shortcut',
        s.data.user.id,
        s.data.channel.id,
        t0,
        respondEphemeral(respond),
        text ?? '',
        thread_ts ?? ts,
      ),
    );
    await next();
  };
  app.shortcut(
    { callback_id: DIAGNOSE_SHORTCUT.callbackId, type: 'message_action' },
    parseShortcut,
    rateLimitStep,
    async ({ context, client, respond }) => {
      const turn = turnOf(context);
      const { channel, request: text, threadTs } = turn;
      const reply = respondEphemeral(respond);
      await track(
        (async () => {
          const outcome = await asker.ask('shortcut', channel, (ctx) => answerer.message(text, ctx));
          if (outcome.kind === 'answer') {
            const answer = render(outcome.answer);
            const posted = await post('shortcut', 'chat.postMessage', () =>
              client.chat.postMessage({ channel, thread_ts: threadTs, ...answer }),
            );
            // Not in the channel (or no longer allowed to post): the clicker still gets the answer.
            if (!posted) await reply(outcome.answer);
          } else {
            await reply(outcome.kind === 'silent' ? noFindingAnswer() : outcome.answer);
          }
          logDone('shortcut', channel, outcome.kind, turn.t0);
        })(),
      );
    },
  );

  const alerts =
    opts.alerts === false
      ? undefined
      : setupAlerts(
          {
            app,
            policy,
            source: (context) => sources.get(context),
            answerer,
            logger,
            registry: metrics.registry,
            deadlineMs: config.deadlineMs,
            now,
            headroom: async (channel, namespace) => {
              const outcome = await asker.ask('command', channel, (ctx) => answerer.quota(namespace, ctx));
              return outcome.kind === 'silent' ? noFindingAnswer() : outcome.answer;
            },
            track,
          },
          {
            ...(config.dedupe ? { namespace: config.dedupe.namespace } : {}),
            ...(opts.alerts ?? {}),
          },
        );

  return {
    app,
    metrics,
    async start(port?: number, host?: string) {
      try {
        await app.init();
      } catch (e) {
        throw new Error(`Slack did not accept the bot token (auth.test: ${slackError(e)})`);
      }
      if (config.mode === 'socket') {
        await app.start();
        started = true;
        alerts?.start();
        logger.info({ mode: 'socket', port: config.port }, 'quota-doctor is connected to Slack (Socket Mode)');
        return { port: config.port };
      }
      const listen = host !== undefined ? { port: port ?? config.port, host } : { port: port ?? config.port };
      const server = await app.start(listen, serverTimeouts(opts.requestTimeoutMs ?? REQUEST_TIMEOUT_MS));
      const addr = server.address() as AddressInfo | null;
      started = true;
      alerts?.start();
      const bound = addr?.port ?? port ?? config.port;
      logger.info({ mode: 'http', port: bound }, 'quota-doctor is listening for Slack on /slack/events');
      return { port: bound };
    },
    async stop() {
      started = false;
      await alerts?.stop();
      try {
        await app.stop();
      } catch (e) {
        logger.warn({ error: e instanceof Error ? e.message : String(e) }, 'stopping the receiver failed');
      }
      await Promise.race([idle(), new Promise((r) => setTimeout(r, 5000).unref())]);
      await sources.closeAll();
    },
    idle,
  };
}
