/**
 * Prometheus metrics for GET /metrics, on a registry of their own (several apps in one process, as in
 * tests, never collide on the global one).
 *
 * The standard Node process metrics keep their stock names (`process_cpu_seconds_total`,
 * `nodejs_eventloop_lag_seconds`, …) so the usual dashboards find them; ours carry `quota_doctor_`.
 * The cluster caches' health is read from the sources at scrape time (`collect()`), never pushed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export interface SlackMetrics {
  registry: Registry;
  events: Counter<'type' | 'name'>;
  duplicates: Counter<'type'>;
  answers: Counter<'entry' | 'kind'>;
  refusals: Counter<'entry'>;
  rateLimited: Counter<'entry' | 'scope'>;
  errors: Counter<'entry' | 'reason'>;
  latency: Histogram<'entry' | 'outcome'>;
  buildInfo: Gauge<'version' | 'node_version' | 'commit'>;
  cacheLastSync: Gauge<'context' | 'resource'>;
  cacheWatchUp: Gauge<'context' | 'resource'>;
}

/** One reflector's health, as a live source reports it (src/cluster/live-source.ts `cacheHealth()`). */
export interface CacheHealth {
  resource: string;
  namespace?: string;
  watchUp: boolean;
  /** Epoch ms the server was last heard for this resource; absent = never. */
  lastSyncAt?: number;
}

/** A source that knows its caches' health (live sources; a file source has none). */
export interface CacheHealthSource {
  cacheHealth(): CacheHealth[];
}

export function hasCacheHealth(s: object): s is CacheHealthSource {
  return typeof (s as Partial<CacheHealthSource>).cacheHealth === 'function';
}

/** The health of one kube context's caches ('' = the kubeconfig's current context). */
export interface ContextCacheHealth {
  context: string;
  caches: CacheHealth[];
}

export interface CacheSeries {
  context: string;
  resource: string;
  watchUp: 0 | 1;
  /** Seconds since the epoch; 0 = never synced. */
  lastSyncSeconds: number;
}

/**
 * One series per (context, resource). A resource watched namespace by namespace (a namespaced
 * policy) reports its worst namespace: up only when every watch is, and the oldest last sync.
 */
export function cacheSeries(all: readonly ContextCacheHealth[]): CacheSeries[] {
  const out = new Map<string, CacheSeries>();
  for (const { context, caches } of all) {
    for (const c of caches) {
      const key = `${context}\u0000${c.resource}`;
      const sync = c.lastSyncAt === undefined ? 0 : c.lastSyncAt / 1000;
      const prev = out.get(key);
      if (!prev) out.set(key, { context, resource: c.resource, watchUp: c.watchUp ? 1 : 0, lastSyncSeconds: sync });
      else {
        prev.watchUp = prev.watchUp && c.watchUp ? 1 : 0;
        prev.lastSyncSeconds = Math.min(prev.lastSyncSeconds, sync);
      }
    }
  }
  return [...out.values()];
}

export interface BuildInfo {
  version: string;
  commit?: string;
}

/** The package's version (the nearest package.json above this file) and QUOTA_DOCTOR_COMMIT when set (the image build). */
export function readBuildInfo(env: NodeJS.ProcessEnv = process.env): BuildInfo {
  let version = 'unknown';
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const p = join(dir, 'package.json');
    if (existsSync(p)) {
      const pkg: unknown = JSON.parse(readFileSync(p, 'utf8'));
      if (typeof pkg === 'object' && pkg !== null && 'version' in pkg && typeof pkg.version === 'string')
        version = pkg.version;
      break;
    }
    dir = dirname(dir);
  }
  const commit = env.QUOTA_DOCTOR_COMMIT?.trim();
  return { version, ...(commit ? { commit } : {}) };
}

export interface MetricsOptions {
  registry?: Registry;
  /** Also export the standard Node process metrics (unprefixed). */
  defaultMetrics?: boolean;
  /** Default: readBuildInfo(). */
  build?: BuildInfo;
  /** The caches' health, asked on every scrape (the app reads its sources). */
  cacheHealth?: () => Promise<ContextCacheHealth[]>;
}

export function createMetrics(opts: MetricsOptions = {}): SlackMetrics {
  const registry = opts.registry ?? new Registry();
  if (opts.defaultMetrics ?? false) collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const health = opts.cacheHealth;
  const series = async (): Promise<CacheSeries[]> => (health ? cacheSeries(await health()) : []);
  const build = opts.build ?? readBuildInfo();
  const buildInfo = new Gauge({
    name: 'quota_doctor_build_info',
    help: 'Always 1; the labels say which build runs',
    labelNames: ['version', 'node_version', 'commit'],
    registers,
  });
  buildInfo.set(
    { version: build.version, node_version: process.version, ...(build.commit ? { commit: build.commit } : {}) },
    1,
  );
  return {
    registry,
    events: new Counter({
      name: 'quota_doctor_slack_events_total',
      help: 'Slack requests received, by type (event, command, shortcut) and name',
      labelNames: ['type', 'name'],
      registers,
    }),
    duplicates: new Counter({
      name: 'quota_doctor_slack_duplicates_total',
      help: 'Slack redeliveries (same event_id) dropped',
      labelNames: ['type'],
      registers,
    }),
    answers: new Counter({
      name: 'quota_doctor_answers_total',
      help: 'Replies sent, by entry point and kind of the first reply',
      labelNames: ['entry', 'kind'],
      registers,
    }),
    refusals: new Counter({
      name: 'quota_doctor_refusals_total',
      help: 'Answers refused by the channel access policy',
      labelNames: ['entry'],
      registers,
    }),
    rateLimited: new Counter({
      name: 'quota_doctor_rate_limited_total',
      help: 'Requests turned away by a rate limit',
      labelNames: ['entry', 'scope'],
      registers,
    }),
    errors: new Counter({
      name: 'quota_doctor_errors_total',
      help: 'Errors: timeout (deadline), exception (answerer), slack_api (posting)',
      labelNames: ['entry', 'reason'],
      registers,
    }),
    latency: new Histogram({
      name: 'quota_doctor_answer_duration_seconds',
      help: 'Time from request to answer ready (before posting)',
      labelNames: ['entry', 'outcome'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30],
      registers,
    }),
    buildInfo,
    cacheLastSync: new Gauge({
      name: 'quota_doctor_cache_last_sync_timestamp_seconds',
      help: 'When the cluster cache last heard from the API server for a resource (list, event or bookmark); 0 = never',
      labelNames: ['context', 'resource'],
      registers,
      async collect() {
        const all = await series();
        this.reset();
        for (const s of all) this.set({ context: s.context, resource: s.resource }, s.lastSyncSeconds);
      },
    }),
    cacheWatchUp: new Gauge({
      name: 'quota_doctor_cache_watch_up',
      help: '1 while the cluster cache has a watch open for a resource and no failure stands, else 0',
      labelNames: ['context', 'resource'],
      registers,
      async collect() {
        const all = await series();
        this.reset();
        for (const s of all) this.set({ context: s.context, resource: s.resource }, s.watchUp);
      },
    }),
  };
}
