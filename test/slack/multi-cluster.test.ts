/**
 * Many clusters, one app (issue #16, Deliver 6): two kube contexts, each channel mapped to one by the
 * policy (`context:`), the real Bolt receiver and the real Answerer, the real client-node under two
 * LiveSources (watch mode, as `serve` runs) against two strict kube-apiserver stand-ins
 * (test/support/kube-apiserver.ts). With cluster B unreachable or its credentials expired, A's channel
 * gets its normal answers, /readyz stays 200 (readiness is the receiver's), /healthz stays 200 (nothing is
 * wedged), B's channel gets one line naming the cluster and why, and /metrics shows B's caches down.
 * With B read once and then gone longer than 60 s, B's replies say in one line how old the data is.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createAnswerer } from '../../src/answer/index.ts';
import { parsePolicy } from '../../src/answer/policy.ts';
import { createLiveSource, type LiveSource } from '../../src/cluster/live-source.ts';
import { reconcileQuotaStatus } from '../../src/engine/quota-ledger.ts';
import { eventually } from '../support/eventually.ts';
import { KubeApiServer } from '../support/kube-apiserver.ts';
import { messageEvent, startHarness, type Harness } from './harness.ts';

const DEMO = fileURLToPath(new URL('../../manifests/demo', import.meta.url));
const CH_A = 'C0PRODA';
const CH_B = 'C0PRODB';

/** Every resource a watching LiveSource keeps (api-resources.ts ALL_RESOURCES), in its order. */
const RESOURCES = [
  'namespaces',
  'nodes',
  'priorityclasses',
  'storageclasses',
  'runtimeclasses',
  'csinodes',
  'csidrivers',
  'deviceclasses',
  'resourceslices',
  'resourceclaims',
  'pods',
  'resourcequotas',
  'limitranges',
  'persistentvolumeclaims',
  'services',
  'events',
  'poddisruptionbudgets',
  'deployments',
  'replicasets',
  'statefulsets',
  'daemonsets',
  'jobs',
  'cronjobs',
];

/** `/quota team-a` over manifests/demo: the fallback text of the headroom reply. */
const TEAM_A_HEADROOM = '📊 team-a — 1 ResourceQuota, 1 LimitRange';
const PASTE =
  'Error creating: pods "worker-5d8c7b9f4-glpms" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10';

interface World {
  a: KubeApiServer;
  b: KubeApiServer;
  h: Harness;
  sources: Map<string, LiveSource>;
  /** Shifts the app's clock (the answer's `now`) forward. */
  skew: { ms: number };
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function world(): Promise<World> {
  const a = await KubeApiServer.start({ state: DEMO, bookmarkEveryMs: 500 });
  const b = await KubeApiServer.start({ state: DEMO, bookmarkEveryMs: 500 });
  cleanups.push(async () => {
    await a.close();
    await b.close();
  });
  for (const s of [a, b]) {
    s.addToken('bot', { name: 'bot' });
    s.bindCluster('bot', KubeApiServer.READ_ALL);
  }
  const dir = mkdtempSync(join(tmpdir(), 'qd-multi-'));
  const kubeconfig = join(dir, 'config');
  writeFileSync(
    kubeconfig,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      'current-context': 'prod-a',
      clusters: [a, b].map((s, i) => ({
        name: `c${i}`,
        cluster: { server: s.url, 'certificate-authority-data': Buffer.from(s.ca).toString('base64') },
      })),
      users: [{ name: 'bot', user: { token: 'bot' } }],
      contexts: [
        { name: 'prod-a', context: { cluster: 'c0', user: 'bot' } },
        { name: 'prod-b', context: { cluster: 'c1', user: 'bot' } },
      ],
    }),
  );
  const policy = parsePolicy(
    [CH_A, CH_B]
      .map(
        (id, i) =>
          `  - id: ${id}\n    namespaces: [team-a]\n    defaultNamespace: team-a\n    context: prod-${'ab'[i]}\n`,
      )
      .join('')
      .replace(/^/, 'channels:\n'),
    'multi.yaml',
  );
  const sources = new Map<string, LiveSource>();
  const skew = { ms: 0 };
  const h = await startHarness({
    answerer: createAnswerer(),
    policy,
    deadlineMs: 15_000,
    now: () => Date.now() + skew.ms,
    sourceFor: (context) => {
      const s = createLiveSource({
        kubeconfig,
        context,
        env: { HOME: dir },
        watch: true,
        requestTimeoutMs: 5000,
        syncTimeoutMs: 10_000,
        backoff: { initialMs: 50, maxMs: 400 },
        reconcile: (x) => reconcileQuotaStatus(x, Date.now()),
      });
      sources.set(context ?? '', s);
      return s;
    },
  });
  cleanups.push(() => h.stop());
  return { a, b, h, sources, skew };
}

/** `/quota team-a` in `channel`: the posted reply's fallback text and its context (gap) lines. */
async function quota(h: Harness, channel: string): Promise<{ text: string; gaps: string[] }> {
  const r = await h.command('team-a', { channel });
  expect(r.status).toBe(200);
  await h.fake.waitFor(() => h.fake.respondsTo(r.id).length === 1, 15_000);
  const body = h.fake.respondsTo(r.id)[0]!.body;
  const blocks = body.blocks as Array<{ type: string; elements?: Array<{ text: string }> }>;
  const gaps = blocks
    .filter((b) => b.type === 'context')
    .flatMap((b) => (b.elements ?? []).map((e) => e.text))
    .filter((t) => t.startsWith('⚠ '));
  return { text: String(body.text), gaps };
}

/** `name{context="…",resource="…"} value` of the cache series, by context. */
async function cacheMetrics(h: Harness): Promise<Map<string, Map<string, { up: number; sync: number }>>> {
  const m = await h.get('/metrics');
  expect(m.status).toBe(200);
  const out = new Map<string, Map<string, { up: number; sync: number }>>();
  for (const line of m.text.split('\n')) {
    const x =
      /^quota_doctor_cache_(watch_up|last_sync_timestamp_seconds)\{context="([^"]*)",resource="([^"]*)"\} (\S+)$/.exec(
        line,
      );
    if (!x) continue;
    const ctx = out.get(x[2]!) ?? new Map<string, { up: number; sync: number }>();
    out.set(x[2]!, ctx);
    const v = ctx.get(x[3]!) ?? { up: -1, sync: -1 };
    if (x[1] === 'watch_up') v.up = Number(x[4]);
    else v.sync = Number(x[4]);
    ctx.set(x[3]!, v);
  }
  return out;
}

const FAULTS: Array<{ name: string; breakB: (b: KubeApiServer) => Promise<void>; line: string }> = [
  {
    name: 'B unreachable (connection refused)',
    breakB: (b) => b.down(),
    line: "⚠ couldn't read any resource of cluster prod-b (Unreachable)",
  },
  {
    name: "B's credentials expired (401)",
    breakB: async (b) => b.expireToken('bot'),
    line: "⚠ couldn't read any resource of cluster prod-b (Unauthorized)",
  },
];

describe('cluster B down from the start: cluster A answers as ever, B says why in one line', () => {
  it.each(FAULTS)(
    '$name',
    async ({ breakB, line }) => {
      const w = await world();
      await breakB(w.b);
      const before = Date.now() / 1000;

      const a = await quota(w.h, CH_A);
      expect(a.text.split('\n')[0]).toBe(TEAM_A_HEADROOM);
      expect(a.gaps).toEqual([]);

      const b = await quota(w.h, CH_B);
      expect(b).toEqual({ text: '⚠️ The cluster did not answer in time.', gaps: [line] });

      // A pasted quota error in A's channel: the diagnosis names the quota, with no gap.
      await w.h.event(messageEvent(PASTE, { channel: CH_A, ts: '1700009000.000100' }));
      await w.h.fake.waitFor(() => w.h.fake.callsTo('chat.postMessage').length === 1, 15_000);
      const post = w.h.fake.callsTo('chat.postMessage')[0]!;
      const header = (post.params.blocks as Array<{ type: string; text: { text: string } }>)[0]!;
      expect(header.text.text).toBe(
        '🚫 Rejected at admission — ResourceQuota team-quota — pod worker-5d8c7b9f4-glpms (team-a)',
      );
      expect(JSON.stringify(post.params)).not.toContain('prod-b');

      expect(await w.h.get('/readyz')).toEqual({ status: 200, text: 'ready\n' });
      expect(await w.h.get('/healthz')).toEqual({ status: 200, text: 'ok\n' });

      const m = await cacheMetrics(w.h);
      expect([...m.keys()].sort()).toEqual(['prod-a', 'prod-b']);
      const ma = m.get('prod-a')!;
      const mb = m.get('prod-b')!;
      expect([...ma.keys()]).toEqual(RESOURCES);
      expect([...mb.keys()]).toEqual(RESOURCES);
      for (const r of RESOURCES) {
        expect({ r, up: ma.get(r)!.up }).toEqual({ r, up: 1 });
        expect(ma.get(r)!.sync).toBeGreaterThanOrEqual(before - 5);
        expect(ma.get(r)!.sync).toBeLessThanOrEqual(Date.now() / 1000);
        expect({ r, ...mb.get(r)! }).toEqual({ r, up: 0, sync: 0 });
      }
    },
    60_000,
  );
});

const LATER: Array<{ name: string; breakB: (b: KubeApiServer) => Promise<void>; why: string; reason: string }> = [
  { name: 'B gone (connection refused)', breakB: (b) => b.down(), why: 'Unreachable', reason: 'Unreachable' },
  {
    name: "B's token expired (watches cut, the new ones 401)",
    breakB: async (b) => {
      b.expireToken('bot');
      b.data.dropWatches();
    },
    why: '401',
    reason: 'Unauthorized',
  },
];

describe('cluster B read once, then gone', () => {
  it.each(LATER)(
    '$name — past 60 s: one line with the age and why, in place of the per-resource lines; A untouched',
    async ({ breakB, why, reason }) => {
      const w = await world();
      // Both caches warm.
      expect((await quota(w.h, CH_B)).gaps).toEqual([]);
      expect((await quota(w.h, CH_A)).gaps).toEqual([]);
      const syncedAt = Date.now();
      await breakB(w.b);
      const src = w.sources.get('prod-b')!;
      // Every reflector down, and its last failure the fault's own (a cut watch is Unreachable first).
      await eventually(
        () => src.status(),
        (st) => st.every((x) => x.phase !== 'watching' && x.failure?.reason === reason),
        10_000,
      );

      // Past the bound (the app's clock four minutes on): one line, the per-resource lines folded into it.
      w.skew.ms = 4 * 60_000 + 5_000;
      const b = await quota(w.h, CH_B);
      expect(b.text.split('\n')[0]).toBe(TEAM_A_HEADROOM);
      expect(b.gaps).toEqual([
        `⚠ cluster prod-b: namespaces, nodes, priorityclasses and 20 more last synced 4m ago — watch down: ${why}`,
      ]);
      expect(Date.now() - syncedAt).toBeLessThan(60_000);

      const a = await quota(w.h, CH_A);
      expect(a).toEqual({ text: a.text, gaps: [] });
      expect(a.text.split('\n')[0]).toBe(TEAM_A_HEADROOM);
      expect(await w.h.get('/readyz')).toEqual({ status: 200, text: 'ready\n' });
      expect(await w.h.get('/healthz')).toEqual({ status: 200, text: 'ok\n' });
      const m = await cacheMetrics(w.h);
      for (const r of RESOURCES) {
        expect({ r, up: m.get('prod-a')!.get(r)!.up }).toEqual({ r, up: 1 });
        expect({ r, up: m.get('prod-b')!.get(r)!.up }).toEqual({ r, up: 0 });
        // B's last sync stays where it was (stale, not 0): when the cache last heard from B.
        expect(m.get('prod-b')!.get(r)!.sync).toBeLessThanOrEqual(syncedAt / 1000 + 1);
        expect(m.get('prod-b')!.get(r)!.sync).toBeGreaterThan(syncedAt / 1000 - 30);
      }
    },
    60_000,
  );
});
