/**
 * One question to the Answerer, the way every Slack entry point asks it: with the channel's access
 * policy (namespaces, default namespace, kube context) resolved first — a channel that sees nothing (an
 * unlisted channel, a DM) gets the refusal before the text is looked at or the cluster read, and a channel
 * message there stays unanswered — under a deadline (a hanging cluster gets "did not answer in time", never
 * silence), and with the policy checked again on what the answer names before anything is rendered.
 * Outcomes are values; only bugs throw.
 */
import type { AskContext } from '../answer/answerer.ts';
import { refusalAnswer, type AccessPolicy, type ChannelAccess, type Visibility } from '../answer/policy.ts';
import type { Answer } from '../answer/types.ts';
import { timeoutAnswer } from '../answer/replies/cluster-unanswered.ts';
import { errorAnswer } from '../answer/replies/error.ts';
import type { ClusterSource } from '../answer/sources.ts';
import type { Logger } from './logger.ts';
// Worded in answer/replies/ with every other reply; still importable from here.
export { timeoutAnswer, errorAnswer };
export { rateLimitedAnswer } from '../answer/replies/rate-limited.ts';
import type { SlackMetrics } from './metrics.ts';

export type Entry = 'message' | 'mention' | 'command' | 'shortcut';

export type Outcome =
  | { kind: 'silent' }
  | { kind: 'answer'; answer: Answer }
  | { kind: 'refusal'; answer: Answer }
  | { kind: 'timeout'; answer: Answer }
  | { kind: 'error'; answer: Answer };

export type SourceFor = (context?: string) => ClusterSource | Promise<ClusterSource>;

/** Keeps one source per kube context (sources hold caches and watches); failures are not kept. */
export class SourceCache {
  private readonly open = new Map<string, Promise<ClusterSource>>();

  constructor(private readonly sourceFor: SourceFor) {}

  get(context: string | undefined): Promise<ClusterSource> {
    const key = context ?? '';
    let p = this.open.get(key);
    if (!p) {
      p = Promise.resolve().then(() => this.sourceFor(context));
      this.open.set(key, p);
      p.catch(() => this.open.delete(key));
    }
    return p;
  }

  async closeAll(): Promise<void> {
    const all = [...this.open.values()];
    this.open.clear();
    await Promise.allSettled(all.map(async (p) => (await p).close()));
  }
}

export interface AskerDeps {
  policy: AccessPolicy;
  sources: SourceCache;
  deadlineMs: number;
  metrics: SlackMetrics;
  logger: Logger;
  now: () => number;
}

export class Asker {
  constructor(private readonly deps: AskerDeps) {}

  access(channelId: string): ChannelAccess {
    return this.deps.policy.policyFor(channelId);
  }

  /** What the channel may see: the one access decision (`allows(ns)`, `seesNothing`). */
  visibility(channelId: string): Visibility {
    return this.deps.policy.visibilityFor(channelId);
  }

  /** Counts a refusal decided before asking (e.g. `/quota other-team`). */
  refuse(entry: Entry): Answer {
    this.deps.metrics.refusals.inc({ entry });
    return refusalAnswer();
  }

  async ask(entry: Entry, channelId: string, run: (ctx: AskContext) => Promise<Answer | null>): Promise<Outcome> {
    const { metrics, logger, deadlineMs } = this.deps;
    const access = this.access(channelId);
    const visibility = this.visibility(channelId);
    if (visibility.seesNothing) {
      // Nothing parsed, nothing read. Chatter in such a channel is not answered at all (whether it is a
      // paste could only be told by parsing it); a DM (every message there is to the bot) and an explicit
      // ask (mention, /quota, shortcut) get the one refusal.
      if (entry === 'message' && !channelId.startsWith('D')) return { kind: 'silent' };
      logger.info({ entry, channel: channelId }, 'the channel sees no namespace: refused before asking');
      return { kind: 'refusal', answer: this.refuse(entry) };
    }
    const started = this.deps.now();
    const controller = new AbortController();
    const work = (async () => {
      const source = await this.deps.sources.get(access.context);
      const ctx: AskContext = {
        source,
        ...(access.allowedNamespaces ? { allowedNamespaces: access.allowedNamespaces } : {}),
        ...(access.defaultNamespace !== undefined ? { defaultNamespace: access.defaultNamespace } : {}),
        now: this.deps.now(),
        signal: controller.signal,
        audience: 'channel',
      };
      return run(ctx);
    })();
    // The loser of the race must not become an unhandled rejection.
    work.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), deadlineMs);
    });
    const done = (outcome: Outcome['kind']) =>
      metrics.latency.observe({ entry, outcome }, (this.deps.now() - started) / 1000);
    try {
      const result = await Promise.race([work, deadline]);
      if (result === 'timeout') {
        controller.abort(new Error(`deadline of ${deadlineMs} ms passed`));
        metrics.errors.inc({ entry, reason: 'timeout' });
        logger.warn({ entry, channel: channelId, deadlineMs }, 'the cluster did not answer in time');
        done('timeout');
        return { kind: 'timeout', answer: timeoutAnswer(deadlineMs) };
      }
      if (result === null) {
        done('silent');
        return { kind: 'silent' };
      }
      const forbidden = visibility.forbidden(result.namespaces);
      if (forbidden.length > 0) {
        // Logged for the operator (the namespaces are in the asker's own text); never shown in Slack.
        logger.info(
          { entry, channel: channelId, forbiddenCount: forbidden.length },
          'answer refused by the access policy',
        );
        done('refusal');
        return { kind: 'refusal', answer: this.refuse(entry) };
      }
      metrics.answers.inc({ entry, kind: result.replies[0]?.kind ?? 'none' });
      done('answer');
      return { kind: 'answer', answer: result };
    } catch (e) {
      metrics.errors.inc({ entry, reason: 'exception' });
      logger.error({ entry, channel: channelId, err: e }, 'the answerer failed');
      done('error');
      return { kind: 'error', answer: errorAnswer() };
    } finally {
      clearTimeout(timer);
    }
  }
}
