/**
 * Proactive mode (issue #19): on each tick the leader reads the cluster cache, finds incidents
 * (./incidents.ts), and posts each one once to every channel whose policy entry has `alerts:` and may see
 * its namespace — the same reply a paste of its message would get (layer, numbers, verified fixes), with
 * Re-check / Nodes / Mute buttons. A change goes into the post's thread; so does the line that says it
 * cleared. Nothing is posted for a namespace no alerting channel owns.
 *
 * Noise: one post per (channel, incident key), kept in the cluster (./store.ts) so a restart or another
 * replica does not post again; per-channel posts per hour; quiet hours; mutes. Honesty: a namespace whose
 * data could not be read gets neither new posts nor resolutions (an unread namespace is not a resolved one).
 */
import type { KnownBlock } from '@slack/types';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { Answerer, AskContext } from '../../answer/answerer.ts';
import type { AccessPolicy, AlertChannel } from '../../answer/policy.ts';
import type { Answer } from '../../answer/types.ts';
import type { ClusterSource } from '../../answer/sources.ts';
import type { Snapshot } from '../../k8s/snapshot.ts';
import { renderBlocks } from '../../render/blocks.ts';
import { detectIncidents, type Incident, resolutionLine } from '../../answer/incidents.ts';
import { bounded, type IncidentStore, type PostedIncident, type StoreState } from './store.ts';

export interface SlackPayload {
  text: string;
  blocks: KnownBlock[];
}

/** What is asked of Slack (src/slack/app.ts hands in the Bolt client). */
export interface AlertPoster {
  /** Resolves to the message ts, or undefined when Slack refused it. */
  post(channel: string, payload: SlackPayload, threadTs?: string): Promise<string | undefined>;
  update(channel: string, ts: string, payload: SlackPayload): Promise<boolean>;
}

export interface Leadership {
  tick(): Promise<boolean>;
  release(): Promise<void>;
}

export interface ProactiveCounters {
  posted(channel: string): void;
  updated(channel: string): void;
  resolved(channel: string): void;
  suppressed(reason: 'duplicate' | 'rate_limited' | 'quiet_hours' | 'muted' | 'unread'): void;
  open(n: number): void;
}

export interface NotifierDeps {
  policy: AccessPolicy;
  /** The cluster source of a kube context (undefined = the default one). */
  source: (context: string | undefined) => Promise<ClusterSource>;
  answerer: Answerer;
  poster: AlertPoster;
  store: IncidentStore;
  /** Null: a single replica, always the one that posts. */
  leader: Leadership | null;
  counters?: ProactiveCounters;
  log?: (level: 'info' | 'warn', msg: string, fields?: Record<string, unknown>) => void;
  now?: () => number;
  /** Bound of one answer (the Slack deadline). */
  deadlineMs?: number;
}

export interface TickReport {
  leading: boolean;
  /** Why nothing was done, when nothing was. */
  skipped?: string;
  posted: number;
  updated: number;
  resolved: number;
  suppressed: number;
  open: number;
}

export const ACTION_RECHECK = 'qd_recheck';
export const ACTION_NODES = 'qd_nodes';
export const ACTION_MUTE = 'qd_mute';
export const MUTE_MS = 24 * 3_600_000;

/** Slack's limit on a button value. */
const VALUE_MAX = 2000;

function minutesUtc(ms: number): number {
  const d = new Date(ms);
  return d.getUTCHours() * 60 + d.getUTCMinutes();
}

/** Whether `now` is inside [start, end) minutes after midnight UTC (start > end wraps midnight). */
export function inQuietHours(quiet: [number, number] | undefined, now: number): boolean {
  if (!quiet) return false;
  const [start, end] = quiet;
  const m = minutesUtc(now);
  return start <= end ? m >= start && m < end : m >= start || m < end;
}

function sinceWords(i: Incident): string {
  const parts: string[] = [];
  if (i.since) parts.push(`since ${i.since.slice(0, 16).replace('T', ' ')} UTC`);
  if (i.count > 1) parts.push(`${i.count} times`);
  return parts.join(', ');
}

/** The buttons of a post; each value is the incident key (the namespace is its first part). */
export function alertButtons(i: Incident): KnownBlock {
  const value = i.key.slice(0, VALUE_MAX);
  return {
    type: 'actions',
    block_id: 'qd_alert_actions',
    elements: [
      { type: 'button', action_id: ACTION_RECHECK, text: { type: 'plain_text', text: 'Re-check' }, value },
      { type: 'button', action_id: ACTION_NODES, text: { type: 'plain_text', text: 'Nodes' }, value },
      { type: 'button', action_id: ACTION_MUTE, text: { type: 'plain_text', text: 'Mute 24 h' }, value },
    ],
  };
}

/** The post: a headline naming the incident, then the reply a paste would get, then the buttons. */
export function alertPayload(
  i: Incident,
  answer: Answer | null,
  opts: { buttons?: boolean; note?: string; changed?: boolean } = {},
): SlackPayload {
  const rendered = answer ? renderBlocks(answer) : undefined;
  const when = sinceWords(i);
  const mark = opts.changed ? ':arrows_counterclockwise: *Changed:* ' : ':rotating_light: ';
  const head = `${mark}*${i.title}*${when ? ` — ${when}` : ''}${opts.note ? `\n${opts.note}` : ''}`;
  const blocks: KnownBlock[] = [{ type: 'section', text: { type: 'mrkdwn', text: head.slice(0, 2900) } }];
  if (rendered) blocks.push(...(rendered.blocks as KnownBlock[]).slice(0, 46));
  else blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: i.message.slice(0, 1500) }] });
  if (opts.buttons !== false) blocks.push(alertButtons(i));
  const text = `${i.title}${rendered ? ` — ${rendered.text}` : ''}`.slice(0, 2000);
  return { text, blocks };
}

interface ContextView {
  context: string | undefined;
  channels: AlertChannel[];
  snapshot?: Snapshot;
  /** The source the snapshot came from (the answers read it too). */
  source?: ClusterSource;
  /** Namespaces whose data was not completely read ('*' = all). */
  unread: Set<string>;
}

type SourceErrors = Awaited<ReturnType<ClusterSource['load']>>['errors'];

function unreadNamespaces(errors: SourceErrors): Set<string> {
  const out = new Set<string>();
  for (const e of errors) out.add(e.namespace ?? '*');
  return out;
}

function entryKey(channel: string, key: string): string {
  return `${channel}\u0000${key}`;
}

export class Notifier {
  private readonly now: () => number;
  private readonly limiters = new Map<number, RateLimiterMemory>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<TickReport> | undefined;
  private stopped = false;
  private warnedStore = false;

  constructor(private readonly deps: NotifierDeps) {
    this.now = deps.now ?? Date.now;
  }

  private limiter(perHour: number): RateLimiterMemory {
    let l = this.limiters.get(perHour);
    if (!l) {
      l = new RateLimiterMemory({ points: perHour, duration: 3600, keyPrefix: `alerts-${perHour}` });
      this.limiters.set(perHour, l);
    }
    return l;
  }

  private async allowPost(channel: AlertChannel): Promise<boolean> {
    try {
      await this.limiter(channel.settings.postsPerHour).consume(channel.id, 1);
      return true;
    } catch {
      return false;
    }
  }

  private async answerFor(i: Incident, channel: AlertChannel, source: ClusterSource): Promise<Answer | null> {
    const controller = new AbortController();
    const ctx: AskContext = {
      source,
      ...(channel.visibility.list() ? { allowedNamespaces: channel.visibility.list() } : {}),
      defaultNamespace: i.namespace,
      now: this.now(),
      audience: 'channel',
      signal: controller.signal,
    };
    const deadline = this.deps.deadlineMs ?? 20_000;
    let timer: NodeJS.Timeout | undefined;
    const work =
      i.kind === 'quota' ? this.deps.answerer.quota(i.namespace, ctx) : this.deps.answerer.message(i.paste, ctx);
    work.catch(() => undefined);
    try {
      return await Promise.race([
        work,
        new Promise<null>((resolve) => {
          timer = setTimeout(() => {
            controller.abort(new Error('deadline'));
            resolve(null);
          }, deadline);
        }),
      ]);
    } catch {
      return null;
    } finally {
      clearTimeout(timer);
    }
  }

  private async views(): Promise<ContextView[]> {
    const byContext = new Map<string, ContextView>();
    for (const c of this.deps.policy.alertChannels()) {
      const k = c.context ?? '';
      let v = byContext.get(k);
      if (!v) {
        v = { context: c.context, channels: [], unread: new Set() };
        byContext.set(k, v);
      }
      v.channels.push(c);
    }
    for (const v of byContext.values()) {
      try {
        const source = await this.deps.source(v.context);
        const lists = v.channels.map((c) => c.visibility.list());
        const namespaces = lists.some((l) => l === undefined)
          ? undefined
          : [...new Set(lists.flat() as string[])].sort();
        const result = await source.load(namespaces ? { namespaces } : {});
        v.snapshot = result.snapshot;
        v.source = source;
        v.unread = unreadNamespaces(result.errors);
      } catch (e) {
        v.unread = new Set(['*']);
        this.deps.log?.('warn', 'alerts: the cluster could not be read', { context: v.context ?? '', err: String(e) });
      }
    }
    return [...byContext.values()];
  }

  /** One round: lead, read, detect, post / update / resolve, save. */
  tick(): Promise<TickReport> {
    if (this.running) return this.running;
    this.running = this.round().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async round(): Promise<TickReport> {
    const report: TickReport = { leading: false, posted: 0, updated: 0, resolved: 0, suppressed: 0, open: 0 };
    const channels = this.deps.policy.alertChannels();
    if (channels.length === 0) return { ...report, skipped: 'no channel takes alerts' };
    const leading = this.deps.leader ? await this.deps.leader.tick() : true;
    report.leading = leading;
    if (!leading) return { ...report, skipped: 'not the leader' };
    const stored = await this.deps.store.load();
    if (!stored) {
      if (!this.warnedStore)
        this.deps.log?.(
          'warn',
          `alerts: ${this.deps.store.describe()} could not be read; posting nothing until it can`,
        );
      this.warnedStore = true;
      return { ...report, skipped: 'store unreadable' };
    }
    this.warnedStore = false;
    const state: StoreState = stored;
    const posted = new Map<string, PostedIncident>(state.posted.map((p) => [entryKey(p.channel, p.key), p]));
    let changed = false;
    const now = this.now();
    const counters = this.deps.counters;
    const suppress = (reason: Parameters<ProactiveCounters['suppressed']>[0]) => {
      report.suppressed++;
      counters?.suppressed(reason);
    };

    for (const view of await this.views()) {
      const snapshot = view.snapshot;
      const allUnread = view.unread.has('*');
      const owned = new Set<string>();
      let everything = false;
      for (const c of view.channels) {
        const l = c.visibility.list();
        if (l === undefined) everything = true;
        else for (const ns of l) owned.add(ns);
      }
      const minPending = Math.min(...view.channels.map((c) => c.settings.pendingAfterMs));
      const thresholds = view.channels
        .map((c) => c.settings.quotaThreshold)
        .filter((t): t is number => t !== undefined);
      const incidents =
        snapshot && !allUnread
          ? detectIncidents(snapshot, {
              now,
              pendingAfterMs: minPending,
              namespaces: everything ? 'all' : owned,
              ...(thresholds.length ? { quotaThreshold: () => Math.min(...thresholds) } : {}),
            })
          : [];
      report.open += incidents.length;
      const source = snapshot ? view.source : undefined;

      for (const c of view.channels) {
        const quiet = inQuietHours(c.settings.quietHours, now);
        const mine = incidents.filter(
          (i) =>
            c.visibility.allows(i.namespace) &&
            (i.kind !== 'pending' ||
              (i.pendingSince !== undefined && now - i.pendingSince >= c.settings.pendingAfterMs)) &&
            (i.kind !== 'quota' ||
              (c.settings.quotaThreshold !== undefined && (i.percent ?? 0) >= c.settings.quotaThreshold)),
        );
        const current = new Set(mine.map((i) => i.key));
        for (const i of mine) {
          // Numbers from a namespace not read completely are not numbers: no post, no thread reply.
          if (view.unread.has(i.namespace)) {
            suppress('unread');
            continue;
          }
          const k = entryKey(c.id, i.key);
          const prev = posted.get(k);
          if (state.mutes.some((m) => m.channel === c.id && m.key === i.key && m.until > now)) {
            suppress('muted');
            continue;
          }
          if (prev && prev.fingerprint === i.fingerprint) {
            suppress('duplicate');
            continue;
          }
          if (quiet) {
            suppress('quiet_hours');
            continue;
          }
          if (!(await this.allowPost(c))) {
            suppress('rate_limited');
            continue;
          }
          const answer = source ? await this.answerFor(i, c, source) : null;
          if (prev) {
            // The same incident with other numbers: the thread says what changed.
            const ts = await this.deps.poster.post(
              c.id,
              alertPayload(i, answer, { buttons: false, changed: true }),
              prev.ts,
            );
            if (ts) {
              posted.set(k, { ...prev, fingerprint: i.fingerprint, title: i.title });
              changed = true;
              report.updated++;
              counters?.updated(c.id);
            }
            continue;
          }
          const ts = await this.deps.poster.post(c.id, alertPayload(i, answer));
          if (!ts) continue;
          posted.set(k, {
            channel: c.id,
            key: i.key,
            ts,
            fingerprint: i.fingerprint,
            postedAt: now,
            title: i.title,
            namespace: i.namespace,
          });
          changed = true;
          report.posted++;
          counters?.posted(c.id);
        }
        // Posted before, not open now: resolved — only where the namespace was read.
        for (const [k, p] of posted) {
          if (p.channel !== c.id || current.has(p.key)) continue;
          if (!snapshot || allUnread || view.unread.has(p.namespace)) {
            suppress('unread');
            continue;
          }
          if (!c.visibility.allows(p.namespace)) {
            // The policy changed: the channel may no longer see it; forget it without a word.
            posted.delete(k);
            changed = true;
            continue;
          }
          if (quiet) continue;
          const line = resolutionLine(
            {
              key: p.key,
              kind: p.key.includes('/scheduler/') ? 'pending' : p.key.includes('/threshold:') ? 'quota' : 'refused',
              namespace: p.namespace,
              object: objectOfKey(p.key),
              layer: '',
              title: p.title,
              message: '',
              paste: '',
              fingerprint: '',
              count: 0,
            },
            snapshot,
          );
          const ts = await this.deps.poster.post(
            c.id,
            { text: line, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: line } }] },
            p.ts,
          );
          if (!ts) continue;
          posted.delete(k);
          changed = true;
          report.resolved++;
          counters?.resolved(c.id);
        }
      }
    }
    counters?.open(report.open);
    if (changed) {
      const ok = await this.deps.store.save(bounded({ posted: [...posted.values()], mutes: state.mutes }, now));
      if (!ok) this.deps.log?.('warn', `alerts: could not save ${this.deps.store.describe()}`);
    }
    return report;
  }

  /** Mutes an incident in a channel for 24 h (the Mute button). */
  async mute(channel: string, key: string): Promise<boolean> {
    const state = await this.deps.store.load();
    if (!state) return false;
    const until = this.now() + MUTE_MS;
    const mutes = state.mutes.filter((m) => !(m.channel === channel && m.key === key));
    mutes.push({ channel, key, until });
    return this.deps.store.save(bounded({ posted: state.posted, mutes }, this.now()));
  }

  /**
   * The Re-check button: the incident against fresh state. Resolves to the payload that replaces the post
   * (the reply now, or the resolution line when it has cleared); undefined when the cluster cannot be read.
   */
  async recheck(
    channel: AlertChannel | { id: string; visibility: AlertChannel['visibility']; context?: string },
    key: string,
  ): Promise<SlackPayload | undefined> {
    const namespace = key.split('/')[0] ?? '';
    if (!channel.visibility.allows(namespace)) return undefined;
    const source = await this.deps.source(channel.context);
    const result = await source.load({ namespaces: [namespace] });
    if (result.errors.length) return undefined;
    const incidents = detectIncidents(result.snapshot, {
      now: this.now(),
      pendingAfterMs: 0,
      namespaces: new Set([namespace]),
      quotaThreshold: () => 1,
    });
    const i = incidents.find((x) => x.key === key);
    const checked = `Re-checked ${new Date(this.now()).toISOString().slice(11, 16)} UTC`;
    if (!i) {
      const line = `${resolutionLine({ key, kind: key.includes('/scheduler/') ? 'pending' : 'refused', namespace, object: objectOfKey(key), layer: '', title: '', message: '', paste: '', fingerprint: '', count: 0 }, result.snapshot)} (${checked})`;
      return { text: line, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: line } }] };
    }
    const full: AlertChannel = {
      id: channel.id,
      visibility: channel.visibility,
      ...(channel.context !== undefined ? { context: channel.context } : {}),
      settings: { pendingAfterMs: 0, postsPerHour: 1 },
    };
    return alertPayload(i, await this.answerFor(i, full, source), { note: checked });
  }

  start(intervalMs: number): void {
    if (this.timer || this.stopped) return;
    const run = () => {
      void this.tick().then(
        (r) => {
          if (r.posted || r.updated || r.resolved)
            this.deps.log?.('info', 'alerts round', {
              posted: r.posted,
              updated: r.updated,
              resolved: r.resolved,
              open: r.open,
            });
        },
        (e: unknown) => this.deps.log?.('warn', 'alerts round failed', { err: String(e) }),
      );
    };
    this.timer = setInterval(run, intervalMs);
    this.timer.unref();
    run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
    await this.deps.leader?.release();
  }
}

/** The object of a key `ns/Kind/name/layer/reason`. */
export function objectOfKey(key: string): { kind: string; name: string } {
  const [, kind = '', name = ''] = key.split('/');
  return { kind, name };
}
