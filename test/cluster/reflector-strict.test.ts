/**
 * The reflector (src/cluster/reflector.ts) in watch mode, as the bot runs it, against the strict stand-in
 * (test/support/kube-apiserver.ts: TLS, a bearer token, RBAC) with the real client-node, checked request
 * by request against client-go's Reflector (k8s.io/client-go/tools/cache/reflector.go):
 *
 * - `list()`: a 410 "Expired" continue token mid-paging restarts the list without `continue` — the pager
 *   falls back to one full list (tools/pager/pager.go `List`, FullListIfExpired), and an Expired error
 *   of that list makes the reflector list again from resourceVersion "" (`isExpiredError` →
 *   `setIsLastSyncResourceVersionUnavailable(true)`);
 * - `watch()`: a watch the server ends at `timeoutSeconds` is resumed from the last resourceVersion
 *   seen, not relisted (`watchHandler` returns nil; `ListAndWatch` loops to a new watch from
 *   `LastSyncResourceVersion()`);
 * - BOOKMARK events move that resourceVersion (`watchHandler`: `case watch.Bookmark` →
 *   `setLastSyncResourceVersion`), so the resumed watch starts at the bookmark's version;
 * - 410 on a watch (as the HTTP status or as an ERROR event in a 200 watch) relists from scratch
 *   (`isExpiredError(err)` → the next `ListAndWatch` lists with resourceVersion "").
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLiveSource, type LiveSource, type LiveSourceOptions } from '../../src/cluster/live-source.ts';
import type { KObject } from '../../src/k8s/snapshot.ts';
import { eventually } from '../support/eventually.ts';
import { KubeApiServer } from '../support/kube-apiserver.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const pod = (name: string): KObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'ns1' },
  spec: { containers: [{ name: 'c', image: 'x' }] },
  status: { phase: 'Running' },
});
const ns = (name: string): KObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

async function setup(
  objects: KObject[],
  opts: Partial<LiveSourceOptions> = {},
): Promise<{ kube: KubeApiServer; src: LiveSource }> {
  const kube = await KubeApiServer.start({ objects });
  kube.addToken('bot', { name: 'bot' });
  kube.bindCluster('bot', KubeApiServer.READ_ALL);
  const dir = mkdtempSync(join(tmpdir(), 'qd-refl-'));
  const kubeconfig = join(dir, 'config');
  writeFileSync(kubeconfig, kube.kubeconfigYaml({ token: 'bot' }));
  const src = createLiveSource({
    kubeconfig,
    env: { HOME: dir },
    watch: true,
    resources: ['pods'],
    podFieldSelector: '',
    requestTimeoutMs: 2000,
    syncTimeoutMs: 4000,
    staleAfterMs: 20_000,
    watchTimeoutSeconds: 30,
    healthyWatchMs: 0,
    backoff: { initialMs: 10, maxMs: 50 },
    ...opts,
  });
  cleanups.push(async () => {
    await src.close();
    await kube.close();
  });
  return { kube, src };
}

/** The pods requests the stand-in answered, as `list limit=… continue=… → status` / `watch rv=… → status`. */
function podRequests(kube: KubeApiServer): string[] {
  return kube.requests
    .filter((r) => r.path === '/api/v1/pods')
    .map((r) => {
      const q = new URLSearchParams(r.query);
      if (q.get('watch') === 'true')
        return `watch rv=${q.get('resourceVersion')} bookmarks=${q.get('allowWatchBookmarks')} timeout=${q.get('timeoutSeconds')}`;
      return `list limit=${q.get('limit') ?? '-'} continue=${q.has('continue') ? 'yes' : '-'} rv=${q.get('resourceVersion') ?? '-'} → ${r.status}`;
    });
}

const names = async (src: LiveSource) =>
  [...(await src.load()).snapshot.iterate('Pod')].map((p) => p.metadata.name).sort();

describe('client-go reflector semantics against the strict stand-in (tools/cache/reflector.go)', () => {
  it('an expired continue token mid-paging: the list restarts without continue (pager FullListIfExpired), then one watch from its version', async () => {
    const { kube, src } = await setup(['a', 'b', 'c', 'd', 'e'].map(pod), { pageSize: 2 });
    let expired = false;
    kube.onRequest = (path, q) => {
      if (path === '/api/v1/pods' && q.get('continue') && !expired) {
        expired = true;
        // A write moves the store past the token's version; compaction then takes that version away.
        kube.data.apply(ns('bump'));
        kube.data.expire('pods');
      }
    };
    expect(await names(src)).toEqual(['a', 'b', 'c', 'd', 'e']);
    const rv = kube.data.resourceVersion;
    await eventually(
      () => podRequests(kube),
      (r) => r.length === 4,
    );
    expect(podRequests(kube)).toEqual([
      'list limit=2 continue=- rv=- → 200',
      'list limit=2 continue=yes rv=- → 410',
      'list limit=- continue=- rv=- → 200',
      `watch rv=${rv} bookmarks=true timeout=30`,
    ]);
    expect(src.status()[0]!.counts).toMatchObject({ lists: 1, pages: 2, watches: 1, relistsOnGone: 0 });
  });

  it('a full list that is Expired too: the reflector lists again from scratch (isExpiredError → resourceVersion "")', async () => {
    const { kube, src } = await setup(['a', 'b', 'c'].map(pod), { pageSize: 2 });
    let expired = false;
    kube.onRequest = (path, q) => {
      if (path === '/api/v1/pods' && q.get('continue') && !expired) {
        expired = true;
        kube.data.apply(ns('bump'));
        kube.data.expire('pods');
        // And the pager's full list meets a 410 too (as a list at a compacted resourceVersion would).
        kube.failNext('pods', 410, 1);
      }
    };
    expect(await names(src)).toEqual(['a', 'b', 'c']);
    const rv = kube.data.resourceVersion;
    await eventually(
      () => podRequests(kube),
      (r) => r.length === 6,
    );
    expect(podRequests(kube)).toEqual([
      'list limit=2 continue=- rv=- → 200',
      'list limit=2 continue=yes rv=- → 410',
      'list limit=- continue=- rv=- → 410',
      'list limit=2 continue=- rv=- → 200',
      'list limit=2 continue=yes rv=- → 200',
      `watch rv=${rv} bookmarks=true timeout=30`,
    ]);
    expect(src.status()[0]!.counts).toMatchObject({ lists: 2, pages: 3, watches: 1, relistsOnGone: 1 });
  });

  it.each([
    { name: 'the server ends the watch at timeoutSeconds', end: async (_k: KubeApiServer) => undefined, timeout: 1 },
    {
      name: 'the connection is cut mid-watch',
      end: async (k: KubeApiServer) => void k.data.dropWatches('pods'),
      timeout: 30,
    },
  ])('$name: a new watch from the last resourceVersion seen, no relist', async ({ end, timeout }) => {
    const { kube, src } = await setup([pod('a')], { watchTimeoutSeconds: timeout });
    expect(await names(src)).toEqual(['a']);
    await eventually(
      () => src.status()[0]!.phase,
      (p) => p === 'watching',
    );
    const listRv = kube.data.resourceVersion;
    const added = kube.data.apply(pod('b'));
    await eventually(
      () => names(src),
      (n) => n.includes('b'),
    );
    await end(kube);
    await eventually(
      () => podRequests(kube),
      (r) => r.length >= 3,
      5000,
    );
    expect(podRequests(kube).slice(0, 3)).toEqual([
      'list limit=500 continue=- rv=- → 200',
      `watch rv=${listRv} bookmarks=true timeout=${timeout}`,
      `watch rv=${added} bookmarks=true timeout=${timeout}`,
    ]);
    expect(src.status()[0]!.counts).toMatchObject({ lists: 1, relistsOnGone: 0, staleRelists: 0 });
  });

  it('a BOOKMARK moves the resourceVersion: the resumed watch starts at the bookmark', async () => {
    const { kube, src } = await setup([pod('a')]);
    expect(await names(src)).toEqual(['a']);
    await eventually(
      () => src.status()[0]!.phase,
      (p) => p === 'watching',
    );
    const listRv = kube.data.resourceVersion;
    // Other kinds move the store's version; the pods watch hears of it only by a BOOKMARK.
    kube.data.apply(ns('n1'));
    kube.data.apply(ns('n2'));
    const marked = kube.data.resourceVersion;
    expect(Number(marked)).toBe(Number(listRv) + 2);
    const events = src.status()[0]!.counts.events;
    kube.data.bookmark();
    await eventually(
      () => src.status()[0]!.counts.events,
      (e) => e === events + 1,
    );
    kube.data.dropWatches('pods');
    await eventually(
      () => podRequests(kube),
      (r) => r.length >= 3,
    );
    expect(podRequests(kube).slice(0, 3)).toEqual([
      'list limit=500 continue=- rv=- → 200',
      `watch rv=${listRv} bookmarks=true timeout=30`,
      `watch rv=${marked} bookmarks=true timeout=30`,
    ]);
    expect(src.status()[0]!.counts).toMatchObject({ lists: 1, relistsOnGone: 0 });
  });

  it.each([
    {
      name: 'as an ERROR event on the open watch (compaction)',
      gone: async (k: KubeApiServer) => k.data.expire('pods'),
    },
    {
      name: 'when resuming from a compacted version',
      gone: async (k: KubeApiServer) => {
        k.data.expire('pods');
      },
      cutFirst: true,
    },
  ])('410 on the watch $name: a relist from scratch, objects deleted meanwhile dropped', async ({ gone, cutFirst }) => {
    const { kube, src } = await setup([pod('a'), pod('b')]);
    expect(await names(src)).toEqual(['a', 'b']);
    await eventually(
      () => src.status()[0]!.phase,
      (p) => p === 'watching',
    );
    const listRv = kube.data.resourceVersion;
    if (cutFirst) {
      // The server goes away and comes back compacted: the watch resumes from a version it no longer has.
      await kube.down();
      kube.data.remove('Pod', 'ns1', 'b');
      await gone(kube);
      await kube.up();
    } else {
      kube.data.remove('Pod', 'ns1', 'b');
      await gone(kube);
    }
    await eventually(
      () => src.status()[0]!.counts.relistsOnGone,
      (n) => n === 1,
      5000,
    );
    await eventually(
      () => names(src),
      (n) => n.join() === 'a',
    );
    const reqs = podRequests(kube);
    expect(reqs[0]).toBe('list limit=500 continue=- rv=- → 200');
    expect(reqs[1]).toBe(`watch rv=${listRv} bookmarks=true timeout=30`);
    const relist = reqs.indexOf('list limit=500 continue=- rv=- → 200', 1);
    expect(relist).toBeGreaterThan(1);
    // Between the first watch and the relist, only watches (re)tried from the old version.
    expect(reqs.slice(1, relist).every((r) => r === `watch rv=${listRv} bookmarks=true timeout=30`)).toBe(true);
    expect(src.status()[0]!.counts.lists).toBe(2);
  });
});
