/**
 * Cluster faults never crash an answer or hang it: the real LiveSource (`openSource({kubeconfig})`, the
 * production defaults: 15 s per request, 800 ms → 30 s backoff) and the real Answerer against the
 * loopback FakeApiServer serving manifests/demo. API server down, a 30 s route, 403 on nodes, 500s,
 * dropped watches, 410 Gone, malformed objects: each time the answer comes (from the text when nothing
 * else), within the deadline, and says what it could not see; when the API comes back, so do the answers.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createAnswerer } from '../../src/answer/index.ts';
import { openSource, type ClusterSource } from '../../src/answer/sources.ts';
import type { Answer } from '../../src/answer/types.ts';
import type { KObject } from '../../src/k8s/snapshot.ts';
import { FakeApiServer } from '../support/fake-apiserver.ts';
import { LiveSource, type LiveSourceOptions } from '../../src/cluster/live-source.ts';
import { messageEvent, startHarness, CHANNEL_A } from '../slack/harness.ts';
import { PASTE } from './inputs.ts';

const DEMO = fileURLToPath(new URL('../../manifests/demo', import.meta.url));
const answerer = createAnswerer();
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function setup(): Promise<{ fake: FakeApiServer; source: ClusterSource }> {
  const fake = await FakeApiServer.start({ state: DEMO });
  const kubeconfig = fake.writeKubeconfig(join(mkdtempSync(join(tmpdir(), 'qd-faults-')), 'config'));
  const source = await openSource({ kubeconfig, watch: true }, {});
  cleanups.push(async () => {
    await source.close();
    await fake.close();
  });
  return { fake, source };
}

const gapsOf = (a: Answer | null) => (a?.replies ?? []).flatMap((r) => r.gaps);
const textOf = (a: Answer | null) => JSON.stringify(a?.replies ?? []);

/** Asks until `ok` holds (the reflectors retry on their own backoff); fails after `ms`. */
async function eventually(
  ask: () => Promise<Answer | null>,
  ok: (a: Answer | null) => boolean,
  ms: number,
): Promise<Answer | null> {
  const until = Date.now() + ms;
  for (;;) {
    const a = await ask();
    if (ok(a)) return a;
    if (Date.now() > until) throw new Error(`not within ${ms} ms; last gaps: ${JSON.stringify(gapsOf(a))}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const message = (source: ClusterSource, deadlineMs = 5000) =>
  answerer.message(PASTE, { source, defaultNamespace: 'team-a', signal: AbortSignal.timeout(deadlineMs) });

describe('cluster faults (real LiveSource from a kubeconfig, real Answerer)', () => {
  it('API server down: answers from the text, says the cluster could not be read; answers from the cluster once it is back', async () => {
    const { fake, source } = await setup();
    await fake.down();
    const t0 = Date.now();
    const a = await message(source);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(a!.replies[0]!.headline).toContain('team-quota');
    // Nothing of the cluster read: one line for the whole cluster (answer/staleness.ts), not one per resource.
    expect(gapsOf(a).filter((g) => g.startsWith("couldn't read"))).toEqual([
      expect.stringMatching(/^couldn't read any resource of cluster fake \(Unreachable: .*connect ECONNREFUSED /),
    ]);
    await fake.up();
    const back = await eventually(
      () => message(source),
      (x) => gapsOf(x).every((g) => !g.startsWith("couldn't read")),
      10_000,
    );
    // From the cluster: who holds the pods quota now (team-a's pods, read live).
    expect(textOf(back)).toContain('Holding pods');
  });

  it('a 30 s route (nodes): the answer comes by the deadline passed as an AbortSignal, naming what was not read', async () => {
    const { fake, source } = await setup();
    fake.delay('nodes', 30_000);
    const t0 = Date.now();
    const a = await message(source, 1000);
    const ms = Date.now() - t0;
    expect(ms).toBeLessThan(2500);
    expect(a!.replies[0]!.headline).toContain('team-quota');
    expect(gapsOf(a).some((g) => /^couldn't read nodes[a-z, ]*: no answer in time/.test(g))).toBe(true);
    fake.delay('nodes', 0);
  });

  it('a 30 s route behind the Slack app: "did not answer in time" by the Slack deadline, once, never silence', async () => {
    const { fake, source } = await setup();
    fake.delay('pods', 30_000);
    const h = await startHarness({ answerer, source, deadlineMs: 800 });
    cleanups.push(() => h.stop());
    const t0 = Date.now();
    await h.event(messageEvent(PASTE, { channel: CHANNEL_A, ts: '1700300000.000001' }));
    await h.fake.waitFor(() => h.fake.callsTo('chat.postMessage').length === 1, 5000);
    expect(Date.now() - t0).toBeLessThan(2500);
    await h.handle.idle();
    expect(h.fake.callsTo('chat.postMessage')).toHaveLength(1);
    expect(String(h.fake.callsTo('chat.postMessage')[0]!.params.text)).toContain('did not answer in time');
    fake.delay('pods', 0);
  });

  it('403 on nodes: answers (quota numbers from the live pods), and says it could not read nodes', async () => {
    const { fake, source } = await setup();
    fake.forbid('nodes');
    const a = await message(source);
    expect(textOf(a)).toContain('Holding pods');
    const g = gapsOf(a).find((x) => x.startsWith("couldn't read nodes"));
    expect(g).toMatch(
      /^couldn't read nodes: 403 Forbidden — nodes is forbidden: User "system:serviceaccount:quota-doctor:quota-doctor" cannot list resource "nodes"/,
    );
    // /quota answers too, with the same gap.
    const q = await answerer.quota('team-a', { source, allowedNamespaces: ['team-a'] });
    expect(q.replies[0]!.kind).toBe('headroom');
    expect(gapsOf(q).some((x) => x.startsWith("couldn't read nodes: 403 Forbidden"))).toBe(true);
  });

  it('500s on pods: answered, the gap stated; healed by the reflector once the route recovers', async () => {
    const { fake, source } = await setup();
    fake.fail('pods', 500);
    const a = await message(source);
    expect(a!.replies[0]!.headline).toContain('team-quota');
    expect(
      gapsOf(a).some((g) => /^couldn't read pods: server error \(InternalError\) — fake failure of pods/.test(g)),
    ).toBe(true);
    fake.fail('pods', 0);
    await eventually(
      () => message(source),
      (x) => textOf(x).includes('Holding pods') && !gapsOf(x).some((g) => g.includes('pods')),
      10_000,
    );
  });

  it('dropped watches and 410 Gone: answers keep coming from the cache, and changes made meanwhile arrive', async () => {
    const { fake, source } = await setup();
    await message(source); // warm: lists done, watches open
    await eventually(
      async () => null,
      () => fake.openWatches >= 16,
      5000,
    ).catch(() => undefined);
    expect(fake.dropWatches()).toBeGreaterThan(0);
    const during = await message(source);
    expect(textOf(during)).toContain('Holding pods');
    // A new pod while the watches were cut, then history compacted: watches resume → 410 → relist.
    fake.apply({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'late-arrival-x1', namespace: 'team-a', labels: { app: 'late' } },
      spec: { containers: [{ name: 'a', image: 'x', resources: { requests: { cpu: '100m' } } }] },
      status: { phase: 'Pending' },
    } as unknown as KObject);
    fake.expire();
    const after = await eventually(
      () => answerer.quota('team-a', { source }),
      (x) => JSON.stringify(x?.replies).includes('late-arrival-x1'),
      10_000,
    );
    expect(after!.replies[0]!.kind).toBe('headroom');
  });

  it('malformed objects from the API are skipped, and the answer says so', async () => {
    const { fake, source } = await setup();
    fake.apply({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'broken', namespace: 'team-a' },
      spec: { containers: 'not-a-list' },
    } as unknown as KObject);
    fake.apply({
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'broken-quota', namespace: 'team-a' },
      spec: { hard: { 'requests.cpu': '1.5.5' } },
    } as unknown as KObject);
    const a = await message(source);
    expect(a!.replies[0]!.headline).toContain('team-quota');
    expect(gapsOf(a).some((g) => /^pods: 1 object\(s\) skipped, their shape was not readable/.test(g))).toBe(true);
    expect(textOf(a)).not.toContain('"broken"');
    // A quantity no real API server would accept passes the projection; what reads it must not throw.
    const q = await answerer.quota('team-a', { source });
    expect(q.replies[0]!.headline).toBe("I couldn't compute the headroom of team-a");
  });
});

/**
 * A LiveSource with short, stated timings (openSource has the production ones), over manifests/demo;
 * the fake sends BOOKMARKs every 100 ms, as a real API server does every minute.
 */
async function setupShort(o: Partial<LiveSourceOptions>): Promise<{ fake: FakeApiServer; source: LiveSource }> {
  const fake = await FakeApiServer.start({ state: DEMO, bookmarkEveryMs: 100 });
  const source = new LiveSource({
    kubeConfig: fake.kubeConfig(),
    requestTimeoutMs: 2000,
    syncTimeoutMs: 5000,
    backoff: { initialMs: 20, maxMs: 200 },
    ...o,
  });
  cleanups.push(async () => {
    await source.close();
    await fake.close();
  });
  return { fake, source };
}

describe('live faults that used to wedge the cache (issue 13): the bot recovers, or says it is stale', () => {
  it('a silent watch whose relist fails too: the /quota answer says "pods: not being updated since …"; fresh again once the API answers', async () => {
    const { fake, source } = await setupShort({ staleAfterMs: 300 });
    fake.watchMode('pods', 'silent');
    const first = await answerer.quota('team-a', { source, allowedNamespaces: ['team-a'] });
    expect(gapsOf(first)).toEqual([]);
    fake.fail('pods', 503);
    const stale = await eventually(
      () => answerer.quota('team-a', { source, allowedNamespaces: ['team-a'] }),
      (a) => gapsOf(a).some((g) => g.startsWith('pods: not being updated since ')),
      4000,
    );
    expect(stale!.replies[0]!.kind).toBe('headroom');
    expect(gapsOf(stale).find((g) => g.startsWith('pods:'))).toMatch(
      /^pods: not being updated since \d{4}-\d\d-\d\dT\S+Z \(/,
    );
    fake.fail('pods', 0);
    fake.watchMode('pods', 'normal');
    await eventually(
      () => answerer.quota('team-a', { source, allowedNamespaces: ['team-a'] }),
      (a) => gapsOf(a).length === 0,
      4000,
    );
  });

  it('a reflector stuck past its deadline that the watchdog cannot restart: /healthz 503 (the platform restarts the pod), /readyz unchanged; 200 again once it recovers', async () => {
    // A request deadline that does not fire (what a GC did to the old one) is modelled by one far
    // beyond the watchdog's threshold.
    // Pods only: with a watchdog threshold this short, lists slowed down by a loaded test machine
    // would be restarted too.
    const { fake, source } = await setupShort({
      resources: ['pods'],
      requestTimeoutMs: 30_000,
      watchdog: { stuckAfterMs: 400, everyMs: 25, maxRestarts: 2 },
    });
    const h = await startHarness({ answerer, source });
    cleanups.push(() => h.stop());
    await source.load();
    expect(await h.get('/healthz')).toEqual({ status: 200, text: 'ok\n' });
    expect((await h.get('/readyz')).status).toBe(200);
    fake.hang('pods');
    fake.expire('pods');
    const t0 = Date.now();
    const sick = await eventually(
      async () => null,
      () => source.health().wedged,
      8000,
    ).then(() => h.get('/healthz'));
    const ms = Date.now() - t0;
    expect(sick).toEqual({
      status: 503,
      text: 'wedged: list pods: stuck past its deadline again after 2 watchdog restart(s)\n',
    });
    // Readiness keeps its meaning: the cache holds data (served with a staleness note).
    expect((await h.get('/readyz')).status).toBe(200);
    fake.unhang(undefined, { release: true });
    await eventually(
      async () => null,
      () => !source.health().wedged,
      8000,
    );
    expect(await h.get('/healthz')).toEqual({ status: 200, text: 'ok\n' });
    // Three stuck periods (two restarts, then wedged), with room for a loaded machine.
    expect(ms).toBeGreaterThanOrEqual(1200);
    expect(ms).toBeLessThan(6000);
  });
});
