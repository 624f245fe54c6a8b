/**
 * Proactive mode, wired into the Bolt app: the notifier (./notifier.ts) with its store and leader, the
 * buttons of an alert post (through the same signed interactivity endpoint as the shortcut), and the
 * metrics. Only channels whose policy entry has `alerts:` get posts; with none, nothing here runs.
 *
 * In the cluster (QUOTA_DOCTOR_DEDUPE_NAMESPACE set: the bot's own namespace) the open incidents live in
 * the ConfigMap `quota-doctor-incidents` and the Lease `quota-doctor-leader` picks the one replica that
 * posts; both objects ship with the manifests (RBAC: get/update on those names only). Outside a cluster:
 * one replica, incidents in memory.
 */
import type { App } from '@slack/bolt';
import { Counter, Gauge, type Registry } from 'prom-client';
import { z } from 'zod';
import type { Answerer } from '../../answer/answerer.ts';
import type { AccessPolicy } from '../../answer/policy.ts';
import type { Answer } from '../../answer/types.ts';
import type { ClusterSource } from '../../answer/sources.ts';
import { renderBlocks } from '../../render/blocks.ts';
import type { Logger } from '../logger.ts';
import { LeaseLeader, type LeaderLeaseApi } from './leader.ts';
import {
  ACTION_MUTE,
  ACTION_NODES,
  ACTION_RECHECK,
  type AlertPoster,
  type Leadership,
  Notifier,
  type ProactiveCounters,
} from './notifier.ts';
import { ConfigMapStore, type ConfigMapApi, type IncidentStore, MemoryStore } from './store.ts';

export const INCIDENTS_CONFIGMAP = 'quota-doctor-incidents';
export const LEADER_LEASE = 'quota-doctor-leader';
export const DEFAULT_ALERT_INTERVAL_MS = 5000;

export interface AlertsOptions {
  /** Default: the ConfigMap in `namespace` when `apis` are given, else memory. */
  store?: IncidentStore;
  /** Default: the Lease in `namespace` when `apis` are given, else none (one replica). `null`: none. */
  leader?: Leadership | null;
  intervalMs?: number;
  /** The bot's own namespace (QUOTA_DOCTOR_DEDUPE_NAMESPACE). */
  namespace?: string;
  apis?: () => { leases: LeaderLeaseApi; configMaps: ConfigMapApi };
  /** This replica's name (HOSTNAME). */
  identity?: string;
}

export interface AlertsDeps {
  app: App;
  policy: AccessPolicy;
  source: (context: string | undefined) => Promise<ClusterSource>;
  answerer: Answerer;
  logger: Logger;
  registry: Registry;
  deadlineMs: number;
  now: () => number;
  /** `/quota`-like headroom for the Nodes button, through the asker (policy first, deadline). */
  headroom: (channel: string, namespace: string) => Promise<Answer>;
  /** Runs work the graceful stop must wait for. */
  track: <T>(p: Promise<T>) => Promise<T>;
}

export interface AlertsHandle {
  notifier: Notifier;
  start(): void;
  stop(): Promise<void>;
}

function counters(registry: Registry): ProactiveCounters {
  const registers = [registry];
  const posted = new Counter({
    name: 'quota_doctor_incidents_posted_total',
    help: 'Incident posts made, by channel',
    labelNames: ['channel'],
    registers,
  });
  const updated = new Counter({
    name: 'quota_doctor_incidents_updated_total',
    help: 'Thread replies saying an incident changed, by channel',
    labelNames: ['channel'],
    registers,
  });
  const resolved = new Counter({
    name: 'quota_doctor_incidents_resolved_total',
    help: 'Incidents that cleared (a resolution line was posted), by channel',
    labelNames: ['channel'],
    registers,
  });
  const suppressed = new Counter({
    name: 'quota_doctor_incidents_suppressed_total',
    help: 'Incident posts not made: duplicate, rate_limited, quiet_hours, muted, unread',
    labelNames: ['reason'],
    registers,
  });
  const open = new Gauge({ name: 'quota_doctor_incidents_open', help: 'Open incidents at the last round', registers });
  return {
    posted: (channel) => posted.inc({ channel }),
    updated: (channel) => updated.inc({ channel }),
    resolved: (channel) => resolved.inc({ channel }),
    suppressed: (reason) => suppressed.inc({ reason }),
    open: (n) => open.set(n),
  };
}

const blockAction = z.object({
  type: z.literal('block_actions'),
  user: z.object({ id: z.string() }),
  channel: z.object({ id: z.string() }),
  message: z.object({ ts: z.string(), thread_ts: z.string().optional() }),
  actions: z.array(z.object({ action_id: z.string(), value: z.string().max(2000).optional() })).min(1),
});

/** Sets proactive mode up on the app; undefined when no channel takes alerts. */
export function setupAlerts(deps: AlertsDeps, opts: AlertsOptions = {}): AlertsHandle | undefined {
  const { app, policy, logger } = deps;
  if (policy.alertChannels().length === 0) return undefined;
  const apis = opts.apis?.();
  const store =
    opts.store ??
    (apis && opts.namespace
      ? new ConfigMapStore(apis.configMaps, opts.namespace, INCIDENTS_CONFIGMAP, deps.now)
      : new MemoryStore());
  const identity = opts.identity ?? `quota-doctor-${process.pid}`;
  const leader =
    opts.leader !== undefined
      ? opts.leader
      : apis && opts.namespace
        ? new LeaseLeader({
            api: apis.leases,
            namespace: opts.namespace,
            name: LEADER_LEASE,
            identity,
            now: deps.now,
            onChange: (leading, detail) => logger.info({ leading, detail }, 'alerts leader election'),
          })
        : null;
  const poster: AlertPoster = {
    post: async (channel, payload, threadTs) => {
      try {
        const r = await app.client.chat.postMessage({
          channel,
          ...(threadTs ? { thread_ts: threadTs } : {}),
          text: payload.text,
          blocks: payload.blocks,
        });
        return typeof r.ts === 'string' ? r.ts : undefined;
      } catch (e) {
        logger.warn({ channel, error: e instanceof Error ? e.message : String(e) }, 'alerts: chat.postMessage failed');
        return undefined;
      }
    },
    update: async (channel, ts, payload) => {
      try {
        await app.client.chat.update({ channel, ts, text: payload.text, blocks: payload.blocks });
        return true;
      } catch (e) {
        logger.warn({ channel, error: e instanceof Error ? e.message : String(e) }, 'alerts: chat.update failed');
        return false;
      }
    },
  };
  const notifier = new Notifier({
    policy,
    source: deps.source,
    answerer: deps.answerer,
    poster,
    store,
    leader,
    counters: counters(deps.registry),
    log: (level, msg, fields) => logger[level](fields ?? {}, msg),
    now: deps.now,
    deadlineMs: deps.deadlineMs,
  });

  // ---- the buttons: the channel policy first, as everywhere ----
  const action = async (
    args: {
      ack: () => Promise<void>;
      body: unknown;
      respond: (m: { text: string; response_type: 'ephemeral'; replace_original: false }) => Promise<unknown>;
    },
    run: (a: { channel: string; user: string; ts: string; key: string; namespace: string }) => Promise<void>,
  ) => {
    await args.ack();
    const parsed = blockAction.safeParse(args.body);
    if (!parsed.success) return;
    const b = parsed.data;
    const key = b.actions[0]!.value ?? '';
    const namespace = key.split('/')[0] ?? '';
    if (!namespace || !policy.visibilityFor(b.channel.id).allows(namespace)) {
      await args
        .respond({
          text: "Sorry — this channel isn't set up to see that.",
          response_type: 'ephemeral',
          replace_original: false,
        })
        .catch(() => undefined);
      return;
    }
    await deps.track(run({ channel: b.channel.id, user: b.user.id, ts: b.message.ts, key, namespace }));
  };

  app.action(ACTION_RECHECK, async ({ ack, body, respond }) =>
    action({ ack, body, respond }, async ({ channel, ts, key }) => {
      const access = policy.policyFor(channel);
      const payload = await notifier
        .recheck(
          {
            id: channel,
            visibility: policy.visibilityFor(channel),
            ...(access.context !== undefined ? { context: access.context } : {}),
          },
          key,
        )
        .catch(() => undefined);
      if (!payload) {
        await respond({
          text: "Couldn't re-check: the cluster could not be read completely just now. Try again in a minute.",
          response_type: 'ephemeral',
          replace_original: false,
        }).catch(() => undefined);
        return;
      }
      await poster.update(channel, ts, payload);
    }),
  );
  app.action(ACTION_NODES, async ({ ack, body, respond }) =>
    action({ ack, body, respond }, async ({ channel, ts, namespace }) => {
      const answer = await deps.headroom(channel, namespace);
      await poster.post(channel, renderBlocks(answer) as Parameters<AlertPoster['post']>[1], ts);
    }),
  );
  app.action(ACTION_MUTE, async ({ ack, body, respond }) =>
    action({ ack, body, respond }, async ({ channel, key }) => {
      const ok = await notifier.mute(channel, key);
      await respond({
        text: ok
          ? `Muted in this channel for 24 h: ${key.split('/').slice(0, 3).join('/')}`
          : "Couldn't mute: the incident store could not be written. Try again in a minute.",
        response_type: 'ephemeral',
        replace_original: false,
      }).catch(() => undefined);
    }),
  );

  return {
    notifier,
    start: () => {
      logger.info(
        { channels: policy.alertChannels().length, store: store.describe(), leader: leader ? LEADER_LEASE : 'none' },
        'alerts on',
      );
      notifier.start(opts.intervalMs ?? DEFAULT_ALERT_INTERVAL_MS);
    },
    stop: () => notifier.stop(),
  };
}
