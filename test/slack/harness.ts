/**
 * The real Bolt app (HTTPReceiver on a loopback port) wired to the fake Slack, a stub Answerer that
 * records what it was asked, and captured logs. Each helper sends a correctly signed request.
 */
import { Writable } from 'node:stream';
import type { Answerer, AskContext } from '../../src/answer/answerer.ts';
import { type AccessPolicy, parsePolicy } from '../../src/answer/policy.ts';
import { emptyReply, type Answer } from '../../src/answer/types.ts';
import type { ClusterSource, SourceResult } from '../../src/cluster/source.ts';
import { Snapshot } from '../../src/k8s/snapshot.ts';
import { Secret, type HttpConfig, type RateSpec } from '../../src/config.ts';
import { createSlackApp, type SlackAppHandle } from '../../src/slack/app.ts';
import type { SharedDedupe } from '../../src/slack/dedupe.ts';
import type { LeaseApi } from '../../src/slack/lease-dedupe.ts';
import type { AlertsOptions } from '../../src/slack/alerts/index.ts';
import { createLogger } from '../../src/slack/logger.ts';
import { startFakeSlack, type FakeSlack } from '../support/fake-slack.ts';
import { formBody, postSigned, type PostResult } from '../support/sign.ts';
import { assertWithinSlackLimits } from '../support/slack-limits.ts';

export const BOT_TOKEN = 'xoxb-1234567890-0987654321-SeCrEtBoTtOkEnVaLuE';
export const SIGNING_SECRET = '8f742231b10e8888abcd99yyyzzz85a5';
/** The legacy verification token Slack still puts in every body. */
export const VERIFICATION_TOKEN = 'legacyVerificationTok3n';

export const CHANNEL_A = 'C0TEAMA';
export const CHANNEL_B = 'C0TEAMB';
export const CHANNEL_PLATFORM = 'C0PLATFORM';
export const CHANNEL_NO_DEFAULT = 'C0NODEFAULT';

export const POLICY_YAML = `
channels:
  - id: ${CHANNEL_A}
    name: "#team-a"
    namespaces: [team-a]
    defaultNamespace: team-a
  - id: ${CHANNEL_B}
    name: "#team-b"
    namespaces: [team-b]
    defaultNamespace: team-b
  - id: ${CHANNEL_PLATFORM}
    namespaces: ["*"]
  - id: ${CHANNEL_NO_DEFAULT}
    namespaces: [team-a, team-c]
`;

export function testPolicy(): AccessPolicy {
  return parsePolicy(POLICY_YAML, 'test-policy.yaml');
}

/** A source that answers at once with an empty snapshot, or hangs (until aborted) when `hangMs` is set. */
export class StubSource implements ClusterSource {
  readonly kind = 'file';
  closed = 0;
  constructor(
    public isReady = true,
    public hangMs = 0,
  ) {}
  describe(): string {
    return 'stub';
  }
  async load(opts: { signal?: AbortSignal } = {}): Promise<SourceResult> {
    if (this.hangMs > 0) {
      await new Promise<void>((resolve, reject) => {
        const t = setTimeout(resolve, this.hangMs);
        opts.signal?.addEventListener('abort', () => {
          clearTimeout(t);
          reject(new Error('aborted'));
        });
      });
    }
    return { snapshot: new Snapshot(), errors: [], warnings: [] };
  }
  async ready(): Promise<boolean> {
    return this.isReady;
  }
  async close(): Promise<void> {
    this.closed++;
  }
}

export interface StubCall {
  method: 'message' | 'question' | 'quota';
  arg: string | undefined;
  ctx: AskContext;
}

/** Names another team's object, so a leak check can look for it. */
export const SECRET_POD = 'payroll-secret-7c5d';

function namespaceIn(text: string, ctx: AskContext): string {
  return (
    /-n\s+([a-z0-9-]+)/.exec(text)?.[1] ??
    /namespace[: ]+"?([a-z0-9-]+)/.exec(text)?.[1] ??
    ctx.defaultNamespace ??
    'default'
  );
}

export function diagnosisAnswer(namespace: string): Answer {
  const r = emptyReply('diagnosis', '🚫', `Rejected at admission — ResourceQuota budget (${namespace})`);
  r.path = [
    { layer: 'LimitRange', state: 'pass' },
    { layer: 'ResourceQuota', state: 'fail' },
    { layer: 'Scheduler', state: 'unknown' },
  ];
  r.table = {
    columns: ['resource', 'requested', 'used', 'hard', 'free'],
    rows: [['requests.cpu', '2', '9', '10', '1']],
  };
  r.lines.push(`Holding it: ${SECRET_POD} in ${namespace}`);
  r.fixes.push({
    who: 'platform',
    summary: 'raise budget requests.cpu to 11',
    change: `kubectl -n ${namespace} patch resourcequota budget --type merge -p '{"spec":{"hard":{"requests.cpu":"11"}}}'`,
    verified: true,
    outcome: 'admitted',
  });
  r.raw = `pods "${SECRET_POD}" is forbidden: exceeded quota: budget`;
  return { replies: [r], namespaces: [namespace] };
}

export function headroomAnswer(namespace: string): Answer {
  const r = emptyReply('headroom', '📊', `${namespace} — 1 ResourceQuota`);
  r.bars = [{ label: 'requests.cpu', used: '8', hard: '10', free: '2', fraction: 0.8 }];
  r.lines.push(`Largest pod that schedules now: 3500m / 12Gi (${SECRET_POD} holds 2)`);
  return { replies: [r], namespaces: [namespace] };
}

/**
 * A stub Answerer: every method reads the source first (so a hanging source hangs it), waits `delayMs`,
 * then answers. `message` recognises "exceeded quota" only (null otherwise, like a real channel chatter).
 */
export class StubAnswerer implements Answerer {
  readonly calls: StubCall[] = [];
  delayMs = 0;
  throwWith?: Error;

  private async prelude(method: StubCall['method'], arg: string | undefined, ctx: AskContext): Promise<void> {
    this.calls.push({ method, arg, ctx });
    await ctx.source.load({ ...(ctx.signal ? { signal: ctx.signal } : {}) });
    if (this.delayMs > 0) await new Promise((r) => setTimeout(r, this.delayMs));
    if (this.throwWith) throw this.throwWith;
  }

  async message(text: string, ctx: AskContext): Promise<Answer | null> {
    await this.prelude('message', text, ctx);
    if (!/exceeded quota/.test(text)) return null;
    return diagnosisAnswer(namespaceIn(text, ctx));
  }

  async question(text: string, ctx: AskContext): Promise<Answer> {
    await this.prelude('question', text, ctx);
    if (/exceeded quota|scale|what if/.test(text)) return diagnosisAnswer(namespaceIn(text, ctx));
    const r = emptyReply('help', '❓', 'I explain pasted Kubernetes errors and answer /quota NAMESPACE');
    return { replies: [r], namespaces: [] };
  }

  async quota(namespace: string | undefined, ctx: AskContext): Promise<Answer> {
    await this.prelude('quota', namespace, ctx);
    return headroomAnswer(namespace ?? 'default');
  }

  count(method: StubCall['method']): number {
    return this.calls.filter((c) => c.method === method).length;
  }
}

export interface HarnessOptions {
  answerer?: Answerer;
  policy?: AccessPolicy;
  source?: ClusterSource;
  /** One source per kube context (several clusters); default: `source` for every context. */
  sourceFor?: (context?: string) => ClusterSource | Promise<ClusterSource>;
  deadlineMs?: number;
  rate?: { user: RateSpec; channel: RateSpec };
  logLevel?: 'debug' | 'info' | 'trace';
  fakeDelayMs?: number;
  now?: () => number;
  requestTimeoutMs?: number;
  /** Share one fake Slack between harnesses (two replicas); the harness then leaves it open on stop(). */
  fake?: FakeSlack;
  sharedDedupe?: SharedDedupe | null;
  /** config.dedupe (QUOTA_DOCTOR_DEDUPE_NAMESPACE): with no `sharedDedupe`, the app finds the Leases itself. */
  dedupeNamespace?: string;
  leaseApi?: () => LeaseApi;
  /** Proactive mode options (createSlackApp `alerts`). */
  alerts?: AlertsOptions | false;
}

export interface Harness {
  fake: FakeSlack;
  handle: SlackAppHandle;
  answerer: Answerer;
  source: ClusterSource;
  base: string;
  logs: string[];
  /** Every ack body from a command/shortcut, for the limit checks. */
  acks: unknown[];
  command(
    text: string,
    opts?: { channel?: string; user?: string; id?: string },
  ): Promise<PostResult & { id: string; ack?: unknown }>;
  event(event: Record<string, unknown>, opts?: { eventId?: string; retryNum?: number }): Promise<PostResult>;
  shortcut(
    message: { text: string; ts: string; thread_ts?: string },
    opts?: { channel?: string; user?: string; id?: string },
  ): Promise<PostResult & { id: string }>;
  get(path: string): Promise<{ status: number; text: string }>;
  stop(): Promise<void>;
}

let seq = 0;

export async function startHarness(opts: HarnessOptions = {}): Promise<Harness> {
  const ownFake = opts.fake === undefined;
  const fake = opts.fake ?? (await startFakeSlack({ ...(opts.fakeDelayMs ? { delayMs: opts.fakeDelayMs } : {}) }));
  const logs: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer | string, _enc, cb) {
      logs.push(chunk.toString());
      cb();
    },
  });
  const config: HttpConfig = {
    mode: 'http',
    botToken: new Secret(BOT_TOKEN),
    signingSecret: new Secret(SIGNING_SECRET),
    port: 0,
    slackApiUrl: fake.apiUrl,
    deadlineMs: opts.deadlineMs ?? 5000,
    rateLimits: opts.rate ?? { user: { capacity: 1000, perSeconds: 1 }, channel: { capacity: 1000, perSeconds: 1 } },
    logLevel: opts.logLevel ?? 'info',
    ...(opts.dedupeNamespace
      ? { dedupe: { namespace: opts.dedupeNamespace, leasePrefix: 'quota-doctor-dedupe-' } }
      : {}),
  };
  const logger = createLogger({
    level: config.logLevel,
    secrets: [BOT_TOKEN, SIGNING_SECRET, VERIFICATION_TOKEN],
    destination,
  });
  const answerer = opts.answerer ?? new StubAnswerer();
  const source = opts.source ?? new StubSource();
  const handle = createSlackApp({
    config,
    answerer,
    sourceFor: opts.sourceFor ?? (() => source),
    policy: opts.policy ?? testPolicy(),
    logger,
    clientOptions: { retryConfig: { retries: 0 } },
    defaultMetrics: false,
    ...(opts.now ? { now: opts.now } : {}),
    ...(opts.requestTimeoutMs !== undefined ? { requestTimeoutMs: opts.requestTimeoutMs } : {}),
    ...(opts.sharedDedupe !== undefined ? { sharedDedupe: opts.sharedDedupe } : {}),
    ...(opts.leaseApi ? { leaseApi: opts.leaseApi } : {}),
    ...(opts.alerts !== undefined ? { alerts: opts.alerts } : {}),
  });
  const { port } = await handle.start(0, '127.0.0.1');
  const base = `http://127.0.0.1:${port}`;
  const events = `${base}/slack/events`;
  const acks: unknown[] = [];
  const ackOf = (text: string): unknown => {
    if (text === '') return undefined;
    const v: unknown = JSON.parse(text);
    acks.push(v);
    return v;
  };

  return {
    fake,
    handle,
    answerer,
    source,
    base,
    logs,
    acks,
    async command(text, o = {}) {
      const id = o.id ?? `cmd-${++seq}`;
      const body = formBody({
        token: VERIFICATION_TOKEN,
        team_id: 'T0FAKE',
        team_domain: 'fake',
        channel_id: o.channel ?? CHANNEL_A,
        channel_name: 'team-a',
        user_id: o.user ?? 'U0ALICE',
        user_name: 'alice',
        command: '/quota',
        text,
        api_app_id: 'A0QD',
        response_url: fake.responseUrl(id),
        trigger_id: `trig-${id}`,
      });
      const r = await postSigned(events, SIGNING_SECRET, body, { kind: 'form' });
      return { ...r, id, ack: r.status === 200 ? ackOf(r.text) : undefined };
    },
    async event(event, o = {}) {
      const body = JSON.stringify({
        token: VERIFICATION_TOKEN,
        team_id: 'T0FAKE',
        api_app_id: 'A0QD',
        event,
        type: 'event_callback',
        event_id: o.eventId ?? `Ev${++seq}`,
        event_time: Math.floor(Date.now() / 1000),
        authorizations: [{ team_id: 'T0FAKE', user_id: fake.botUserId, is_bot: true }],
      });
      return postSigned(events, SIGNING_SECRET, body, {
        kind: 'json',
        ...(o.retryNum !== undefined ? { retryNum: o.retryNum, retryReason: 'http_timeout' } : {}),
      });
    },
    async shortcut(message, o = {}) {
      const id = o.id ?? `sc-${++seq}`;
      const payload = {
        type: 'message_action',
        token: VERIFICATION_TOKEN,
        action_ts: '1700000001.000001',
        team: { id: 'T0FAKE', domain: 'fake' },
        user: { id: o.user ?? 'U0ALICE', name: 'alice', team_id: 'T0FAKE' },
        channel: { id: o.channel ?? CHANNEL_A, name: 'team-a' },
        callback_id: 'diagnose_message',
        trigger_id: `trig-${id}`,
        message_ts: message.ts,
        message: { type: 'message', user: 'U0BOB', ...message },
        response_url: fake.responseUrl(id),
      };
      const r = await postSigned(events, SIGNING_SECRET, formBody({ payload: JSON.stringify(payload) }), {
        kind: 'form',
      });
      if (r.text) ackOf(r.text);
      return { ...r, id };
    },
    async get(path) {
      const res = await fetch(`${base}${path}`);
      return { status: res.status, text: await res.text() };
    },
    async stop() {
      await handle.idle();
      await handle.stop();
      if (ownFake) await fake.close();
      for (const a of acks) if (typeof a === 'object' && a !== null && 'text' in a) assertWithinSlackLimits(a);
      if (fake.violations.length > 0) throw new Error(`payloads over Slack limits:\n${fake.violations.join('\n')}`);
    },
  };
}

/** A channel message event as Slack sends it. */
export function messageEvent(
  text: string,
  o: { channel?: string; ts?: string; thread_ts?: string; user?: string; subtype?: string; bot_id?: string } = {},
): Record<string, unknown> {
  return {
    type: 'message',
    channel: o.channel ?? CHANNEL_A,
    channel_type: 'channel',
    user: o.user ?? 'U0BOB',
    text,
    ts: o.ts ?? `1700000100.${String(++seq).padStart(6, '0')}`,
    ...(o.thread_ts ? { thread_ts: o.thread_ts } : {}),
    ...(o.subtype ? { subtype: o.subtype } : {}),
    ...(o.bot_id ? { bot_id: o.bot_id } : {}),
  };
}

export const PASTED_ERROR =
  'Error from server (Forbidden): error when creating "web.yaml": pods "web-7c5d-abcde" is forbidden: exceeded quota: budget, requested: requests.cpu=2, used: requests.cpu=9, limited: requests.cpu=10';
