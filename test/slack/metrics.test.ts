/**
 * GET /metrics: the stock Node process metrics under their stock names, ours under `quota_doctor_`,
 * build_info, and the per-resource cache health read from a real LiveSource (real client-node against
 * the loopback fake API server) on each scrape.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Registry } from 'prom-client';
import { LiveSource } from '../../src/cluster/live-source.ts';
import { cacheSeries, createMetrics, readBuildInfo, type ContextCacheHealth } from '../../src/slack/metrics.ts';
import { FakeApiServer } from '../support/fake-apiserver.ts';
import { startHarness, type Harness } from './harness.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const PKG_VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** `name{labels} value` lines of the text exposition, comments dropped. */
const samples = (text: string) => text.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
const metricNames = async (r: Registry) => (await r.getMetricsAsJSON()).map((m) => m.name);

describe('metric names', () => {
  it('default metrics keep their stock names; every other metric starts with quota_doctor_', async () => {
    const m = createMetrics({ defaultMetrics: true, build: { version: '9.9.9' } });
    const names = await metricNames(m.registry);
    for (const stock of [
      'process_cpu_seconds_total',
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'process_start_time_seconds',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
      'nodejs_gc_duration_seconds',
      'nodejs_version_info',
    ])
      expect(names).toContain(stock);
    const ours = names.filter((n) => !n.startsWith('process_') && !n.startsWith('nodejs_'));
    expect(ours.sort()).toEqual([
      'quota_doctor_answer_duration_seconds',
      'quota_doctor_answers_total',
      'quota_doctor_build_info',
      'quota_doctor_cache_last_sync_timestamp_seconds',
      'quota_doctor_cache_watch_up',
      'quota_doctor_errors_total',
      'quota_doctor_rate_limited_total',
      'quota_doctor_refusals_total',
      'quota_doctor_slack_duplicates_total',
      'quota_doctor_slack_events_total',
    ]);
    expect(names.filter((n) => n.startsWith('quota_doctor_process') || n.startsWith('quota_doctor_nodejs'))).toEqual(
      [],
    );
  });

  it('no default metrics unless asked', async () => {
    const names = await metricNames(createMetrics({ build: { version: '1' } }).registry);
    expect(names.filter((n) => !n.startsWith('quota_doctor_'))).toEqual([]);
  });
});

describe('quota_doctor_build_info', () => {
  it.each([
    [
      { version: '1.2.3', commit: '0a1b2c3' },
      `quota_doctor_build_info{version="1.2.3",node_version="${process.version}",commit="0a1b2c3"} 1`,
    ],
    [{ version: '1.2.3' }, `quota_doctor_build_info{version="1.2.3",node_version="${process.version}"} 1`],
  ])('%j → %s', async (build, line) => {
    const m = createMetrics({ build });
    expect(samples(await m.registry.getSingleMetricAsString('quota_doctor_build_info'))).toEqual([line]);
  });

  it.each([
    [{}, { version: PKG_VERSION }],
    [{ QUOTA_DOCTOR_COMMIT: ' deadbeef\n' }, { version: PKG_VERSION, commit: 'deadbeef' }],
    [{ QUOTA_DOCTOR_COMMIT: '' }, { version: PKG_VERSION }],
  ])('readBuildInfo(%j) = %j (the version is package.json’s)', (env, info) => {
    expect(readBuildInfo(env)).toEqual(info);
  });
});

describe('cache health series', () => {
  it.each<[string, ContextCacheHealth[], ReturnType<typeof cacheSeries>]>([
    ['none', [], []],
    [
      'one per resource, ms → s, never synced → 0',
      [
        {
          context: '',
          caches: [
            { resource: 'pods', watchUp: true, lastSyncAt: 1_800_000_000_500 },
            { resource: 'nodes', watchUp: false },
          ],
        },
      ],
      [
        { context: '', resource: 'pods', watchUp: 1, lastSyncSeconds: 1_800_000_000.5 },
        { context: '', resource: 'nodes', watchUp: 0, lastSyncSeconds: 0 },
      ],
    ],
    [
      'per-namespace watches: up only if all are, the oldest sync',
      [
        {
          context: 'prod',
          caches: [
            { resource: 'pods', namespace: 'a', watchUp: true, lastSyncAt: 2_000_000 },
            { resource: 'pods', namespace: 'b', watchUp: false, lastSyncAt: 1_000_000 },
            { resource: 'pods', namespace: 'c', watchUp: true, lastSyncAt: 3_000_000 },
          ],
        },
      ],
      [{ context: 'prod', resource: 'pods', watchUp: 0, lastSyncSeconds: 1000 }],
    ],
    [
      'contexts stay apart',
      [
        { context: 'a', caches: [{ resource: 'pods', watchUp: true, lastSyncAt: 5000 }] },
        { context: 'b', caches: [{ resource: 'pods', watchUp: false, lastSyncAt: 7000 }] },
      ],
      [
        { context: 'a', resource: 'pods', watchUp: 1, lastSyncSeconds: 5 },
        { context: 'b', resource: 'pods', watchUp: 0, lastSyncSeconds: 7 },
      ],
    ],
  ])('%s', (_name, input, out) => {
    expect(cacheSeries(input)).toEqual(out);
  });

  it('is read on every scrape: series follow the sources, gone ones disappear', async () => {
    let now: ContextCacheHealth[] = [
      {
        context: 'x',
        caches: [
          { resource: 'pods', watchUp: true, lastSyncAt: 10_000 },
          { resource: 'nodes', watchUp: true, lastSyncAt: 20_000 },
        ],
      },
    ];
    const m = createMetrics({ build: { version: '1' }, cacheHealth: async () => now });
    const scrape = async () => samples(await m.registry.metrics()).filter((l) => l.startsWith('quota_doctor_cache_'));
    expect(await scrape()).toEqual([
      'quota_doctor_cache_last_sync_timestamp_seconds{context="x",resource="pods"} 10',
      'quota_doctor_cache_last_sync_timestamp_seconds{context="x",resource="nodes"} 20',
      'quota_doctor_cache_watch_up{context="x",resource="pods"} 1',
      'quota_doctor_cache_watch_up{context="x",resource="nodes"} 1',
    ]);
    now = [{ context: 'x', caches: [{ resource: 'pods', watchUp: false, lastSyncAt: 10_000 }] }];
    expect(await scrape()).toEqual([
      'quota_doctor_cache_last_sync_timestamp_seconds{context="x",resource="pods"} 10',
      'quota_doctor_cache_watch_up{context="x",resource="pods"} 0',
    ]);
  });
});

describe('GET /metrics with a live source', () => {
  it('per-resource watch_up and last_sync of the real reflectors; the API server going down drops watch_up to 0', async () => {
    const fake = await FakeApiServer.start({ objects: [] });
    const src = new LiveSource({
      kubeConfig: fake.kubeConfig(),
      requestTimeoutMs: 2000,
      syncTimeoutMs: 2000,
      staleAfterMs: 5000,
      watchTimeoutSeconds: 30,
      backoff: { initialMs: 50, maxMs: 200 },
      resources: ['pods', 'nodes', 'resourcequotas'],
    });
    let h: Harness | undefined;
    cleanups.push(async () => {
      await h?.stop();
      await src.close();
      await fake.close();
    });
    h = await startHarness({ source: src });
    const before = Date.now() / 1000;
    expect((await src.load()).errors).toEqual([]);
    const cache = async () =>
      samples((await h!.get('/metrics')).text).filter((l) => l.startsWith('quota_doctor_cache_'));
    const until = async (ok: (lines: string[]) => boolean): Promise<string[]> => {
      for (let i = 0; ; i++) {
        const lines = await cache();
        if (ok(lines)) return lines;
        if (i > 100) throw new Error(`not reached: ${lines.join('\n')}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const up = await until(
      (l) => l.filter((x) => x.startsWith('quota_doctor_cache_watch_up') && x.endsWith(' 1')).length === 3,
    );
    expect(up.filter((l) => l.startsWith('quota_doctor_cache_watch_up')).sort()).toEqual([
      'quota_doctor_cache_watch_up{context="",resource="nodes"} 1',
      'quota_doctor_cache_watch_up{context="",resource="pods"} 1',
      'quota_doctor_cache_watch_up{context="",resource="resourcequotas"} 1',
    ]);
    const syncs = up.filter((l) => l.startsWith('quota_doctor_cache_last_sync_timestamp_seconds'));
    expect(syncs).toHaveLength(3);
    for (const l of syncs) {
      const v = Number(l.split(' ')[1]);
      expect(v).toBeGreaterThanOrEqual(Math.floor(before) - 5);
      expect(v).toBeLessThanOrEqual(Date.now() / 1000);
    }
    await fake.down();
    const down = await until(
      (l) => l.filter((x) => x.startsWith('quota_doctor_cache_watch_up') && x.endsWith(' 0')).length === 3,
    );
    expect(down.filter((l) => l.startsWith('quota_doctor_cache_watch_up')).sort()).toEqual([
      'quota_doctor_cache_watch_up{context="",resource="nodes"} 0',
      'quota_doctor_cache_watch_up{context="",resource="pods"} 0',
      'quota_doctor_cache_watch_up{context="",resource="resourcequotas"} 0',
    ]);
  });
});
