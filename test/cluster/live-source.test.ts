/**
 * LiveSource with the real @kubernetes/client-node against the loopback fake API server: same content
 * as FileSource, paging, warm = no request, watch updates, 410 → relist, dropped watch, 403, timeouts,
 * server down and back, per-namespace fallback. Timeouts and backoffs are small so each test is quick.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeApiServer, type FakeApiServerOptions } from '../support/fake-apiserver.ts';
import { LiveSource, createLiveSource, type LiveSourceOptions } from '../../src/cluster/live-source.ts';
import { FileSource } from '../../src/cluster/file-source.ts';
import { projectObject } from '../../src/cluster/projection.ts';
import { ALL_RESOURCES, RESOURCES } from '../../src/cluster/api-resources.ts';
import type { KObject, Snapshot } from '../../src/k8s/snapshot.ts';
import { warningText, type SourceResult } from '../../src/cluster/source.ts';
import { reconcileQuotaStatus } from '../../src/engine/quota-ledger.ts';

const STATES = join(import.meta.dirname, '..', 'fixtures', 'states');
const KINDS = ALL_RESOURCES.map((r) => RESOURCES[r].kind);

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function setup(
  server: FakeApiServerOptions,
  source: Partial<LiveSourceOptions> = {},
): Promise<{ fake: FakeApiServer; src: LiveSource }> {
  const fake = await FakeApiServer.start(server);
  const src = new LiveSource({
    kubeConfig: fake.kubeConfig(),
    // Generous: 16 lists at once on a cold, loaded machine; tests of the deadline set their own.
    requestTimeoutMs: 2000,
    syncTimeoutMs: 2000,
    staleAfterMs: 5000,
    watchTimeoutSeconds: 30,
    backoff: { initialMs: 10, maxMs: 50 },
    ...source,
  });
  cleanups.push(async () => {
    await src.close();
    await fake.close();
  });
  return { fake, src };
}

/** Polls `load()` until `ok` holds (the watch is asynchronous); fails after `ms`. */
async function eventually(src: LiveSource, ok: (r: SourceResult) => boolean, ms = 3000): Promise<SourceResult> {
  const until = Date.now() + ms;
  for (;;) {
    const r = await src.load();
    if (ok(r)) return r;
    if (Date.now() > until)
      throw new Error(
        `condition not met within ${ms} ms; errors: ${JSON.stringify(r.errors)}; warnings: ${JSON.stringify(r.warnings)}`,
      );
    await new Promise((res) => setTimeout(res, 20));
  }
}

/** What both sources must agree on: the projection, minus server-assigned version and uid. */
function comparable(s: Snapshot, kind: string, project: boolean): unknown[] {
  return s
    .list(kind)
    .map((o) => (project ? projectObject(kind, o) : o))
    .map((o) => {
      const { resourceVersion: _rv, uid: _uid, ...metadata } = (o as KObject).metadata;
      return { ...(o as KObject), metadata };
    })
    .sort((a, b) =>
      `${a.metadata.namespace}/${a.metadata.name}`.localeCompare(`${b.metadata.namespace}/${b.metadata.name}`),
    );
}

function pod(name: string, ns: string, extra: { node?: string; cpu?: string; phase?: string } = {}): KObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: ns, labels: { app: name } },
    spec: {
      ...(extra.node ? { nodeName: extra.node } : {}),
      containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: extra.cpu ?? '100m' } } }],
    },
    status: { phase: extra.phase ?? 'Running' },
  };
}

describe('LiveSource: same snapshot as FileSource over the same objects', () => {
  it.each(['team-a', 'mixed'])('state %s', async (state) => {
    const path = join(STATES, state);
    const { src } = await setup({ state: path }, { pageSize: 2, podFieldSelector: '', eventFieldSelector: '' });
    const live = await src.load();
    const file = await new FileSource(path).load();
    expect(live.errors).toEqual([]);
    for (const kind of KINDS) {
      expect({ kind, objects: comparable(live.snapshot, kind, false) }).toEqual({
        kind,
        objects: comparable(file.snapshot, kind, true),
      });
    }
    expect(live.snapshot.namespaces()).toEqual(file.snapshot.namespaces());
  });

  it('keeps compact projections, never whole objects', async () => {
    const { src } = await setup({ state: join(STATES, 'team-a') });
    const { snapshot } = await src.load();
    const web = snapshot.get('Pod', 'team-a', 'web-1');
    const text = JSON.stringify(web);
    for (const gone of ['hunter2', 'managedFields', 'last-applied', 'livenessProbe', 'nginx', 'configMap', 'podIP'])
      expect(text).not.toContain(gone);
    expect(web?.spec).toMatchObject({
      nodeName: 'node-1',
      volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'web-data' } }],
    });
    const node = JSON.stringify(snapshot.get('Node', undefined, 'node-1'));
    for (const gone of ['images', 'nodeInfo', 'lastHeartbeatTime', 'KubeletReady']) expect(node).not.toContain(gone);
  });

  it('by default leaves out terminal pods and Normal events (field selectors)', async () => {
    const { src, fake } = await setup({ state: join(STATES, 'mixed') });
    const { snapshot, errors } = await src.load();
    expect(errors).toEqual([]);
    expect(snapshot.get('Pod', 'batch', 'old-run')).toBeUndefined();
    expect(snapshot.get('Pod', 'ml', 'train-0')).toBeDefined();
    expect(snapshot.list('Event').map((e) => e.metadata.name)).toEqual(['trainer-ui-abc.2']);
    const podLists = fake.requests.filter((r) => r.path === '/api/v1/pods' && !r.watch);
    expect(new URLSearchParams(podLists[0]!.query).get('fieldSelector')).toBe(
      'status.phase!=Succeeded,status.phase!=Failed',
    );
  });
});

describe('LiveSource: requests', () => {
  it("a load with the caller's deadline signal: every resource waited on, no MaxListenersExceededWarning", async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => void warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const { src } = await setup({ objects: [pod('p0', 'ns1', { node: 'n1' })] });
      const ctl = new AbortController();
      const r = await src.load({ signal: ctl.signal });
      expect(r.errors).toEqual([]);
      expect(ALL_RESOURCES.length).toBeGreaterThan(10);
      // Warnings are emitted on the next tick.
      await new Promise((res) => setImmediate(res));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).toEqual([]);
  });

  it('cold start: one paged list per resource plus one watch each; warm load() makes no request', async () => {
    const pods = Array.from({ length: 7 }, (_, i) => pod(`p${i}`, 'ns1', { node: 'n1' }));
    const { fake, src } = await setup({ objects: pods }, { pageSize: 3 });
    await src.load();
    // Watches open right after each list; wait for all of them.
    await eventually(src, () => fake.requests.filter((r) => r.watch).length === ALL_RESOURCES.length);
    const podLists = fake.requests.filter((r) => r.path === '/api/v1/pods' && !r.watch);
    expect(podLists.map((r) => new URLSearchParams(r.query).has('continue'))).toEqual([false, true, true]);
    expect(podLists.every((r) => new URLSearchParams(r.query).get('limit') === '3')).toBe(true);
    for (const r of ALL_RESOURCES) {
      const path = `${RESOURCES[r].group ? `/apis/${RESOURCES[r].group}` : '/api'}/v1/${r}`;
      expect({ r, lists: fake.requests.filter((q) => q.path === path && !q.watch).length }).toEqual({
        r,
        lists: r === 'pods' ? 3 : 1,
      });
      expect({ r, watches: fake.requests.filter((q) => q.path === path && q.watch).length }).toEqual({ r, watches: 1 });
    }
    const watch = fake.requests.find((r) => r.path === '/api/v1/pods' && r.watch)!;
    const wq = new URLSearchParams(watch.query);
    expect(wq.get('allowWatchBookmarks')).toBe('true');
    expect(wq.get('resourceVersion')).toBe(fake.resourceVersion);

    fake.resetRequests();
    for (let i = 0; i < 20; i++) {
      const r = await src.load();
      expect(r.snapshot.count('Pod')).toBe(7);
    }
    expect(fake.requestCount()).toBe(0);
  });

  it('rebuilds the cache every compactEvery generations without losing or resurrecting objects', async () => {
    const { fake, src } = await setup(
      { objects: [pod('a', 'ns1')] },
      {
        compactEvery: 2,
        prime: (s) =>
          void s.derive('noop', () => ({
            fork() {
              return this;
            },
          })),
      },
    );
    for (let i = 0; i < 6; i++) {
      fake.apply(pod(`p${i}`, 'ns1'));
      if (i % 2) fake.remove('Pod', 'ns1', `p${i - 1}`);
      await eventually(src, (x) => x.snapshot.get('Pod', 'ns1', `p${i}`) !== undefined);
      await new Promise((r) => setImmediate(r));
    }
    const r = await eventually(src, (x) => x.snapshot.count('Pod') === 4);
    expect(r.snapshot.list('Pod').map((p) => p.metadata.name)).toEqual(['a', 'p1', 'p3', 'p5']);
  });

  it('hands out a snapshot that later watch events do not change, and that writes do not leak from', async () => {
    const { fake, src } = await setup({ objects: [pod('a', 'ns1')] });
    const first = (await src.load()).snapshot;
    first.put(pod('mine', 'ns1'));
    fake.apply(pod('b', 'ns1'));
    const later = await eventually(src, (r) => r.snapshot.get('Pod', 'ns1', 'b') !== undefined);
    expect(first.get('Pod', 'ns1', 'b')).toBeUndefined();
    expect(later.snapshot.get('Pod', 'ns1', 'mine')).toBeUndefined();
  });
});

describe('LiveSource: a superseded generation is told so', () => {
  it('supersede is called once on each handed-out generation a newer one replaces, never on the newest', async () => {
    const superseded: number[] = [];
    const { fake, src } = await setup(
      { objects: [pod('a', 'ns1')] },
      { supersede: (s) => void superseded.push(s.count('Pod')) },
    );
    await src.load();
    await src.load();
    expect(superseded).toEqual([]);
    fake.apply(pod('b', 'ns1'));
    await eventually(src, (x) => x.snapshot.get('Pod', 'ns1', 'b') !== undefined);
    // the generation of 1 pod is superseded by the one of 2
    expect(superseded).toEqual([1]);
    fake.apply(pod('c', 'ns1'));
    await eventually(src, (x) => x.snapshot.get('Pod', 'ns1', 'c') !== undefined);
    expect(superseded).toEqual([1, 2]);
  });
});

describe('LiveSource: what questions build is kept', () => {
  it('the next cache generation inherits an index a question built, kept current by its onChange', async () => {
    const { fake, src } = await setup({ objects: [pod('a', 'ns1'), pod('b', 'ns1')] });
    let builds = 0;
    /** Counts the pods it is told about; a fork shares nothing mutable. */
    class PodCount {
      constructor(public n: number) {}
      fork(): PodCount {
        return new PodCount(this.n);
      }
      onChange(kind: string, prev: KObject | undefined, next: KObject | undefined): void {
        if (kind === 'Pod') this.n += (next ? 1 : 0) - (prev ? 1 : 0);
      }
    }
    const count = (s: Snapshot) =>
      s.derive('test.pod-count', (x) => {
        builds++;
        return new PodCount(x.count('Pod'));
      }).n;
    expect(count((await src.load()).snapshot)).toBe(2);
    expect(count((await src.load()).snapshot)).toBe(2);
    fake.apply(pod('c', 'ns1'));
    const r = await eventually(src, (x) => x.snapshot.get('Pod', 'ns1', 'c') !== undefined);
    expect(count(r.snapshot)).toBe(3);
    fake.remove('Pod', 'ns1', 'a');
    const r2 = await eventually(src, (x) => x.snapshot.get('Pod', 'ns1', 'a') === undefined);
    expect(count(r2.snapshot)).toBe(2);
    expect(builds).toBe(1);
  });

  it('pods of one ReplicaSet share their equal parts (labels, owner, containers, tolerations, status)', async () => {
    const owned = (name: string, node: string): KObject => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        namespace: 'ns1',
        labels: { app: 'web', 'pod-template-hash': 'h1' },
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-h1', uid: 'u1', controller: true }],
      },
      spec: {
        nodeName: node,
        containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '100m' } } }],
        tolerations: [{ key: 'k', operator: 'Exists' }],
      },
      status: { phase: 'Running', qosClass: 'Burstable' },
    });
    const { src } = await setup({ objects: [owned('web-h1-aaaaa', 'n1'), owned('web-h1-bbbbb', 'n2')] });
    const { snapshot } = await src.load();
    const [a, b] = ['web-h1-aaaaa', 'web-h1-bbbbb'].map(
      (n) => snapshot.get('Pod', 'ns1', n) as KObject & { spec: Record<string, unknown>; status: unknown },
    );
    expect(a!.metadata.labels).toBe(b!.metadata.labels);
    expect(a!.metadata.ownerReferences).toBe(b!.metadata.ownerReferences);
    expect(a!.spec.containers).toBe(b!.spec.containers);
    expect(a!.spec.tolerations).toBe(b!.spec.tolerations);
    expect(a!.status).toBe(b!.status);
    expect(a!.metadata.namespace).toBe('ns1');
    expect(a!.spec.nodeName).toBe('n1');
    expect(b!.spec.nodeName).toBe('n2');
    expect(comparable(snapshot, 'Pod', false)).toEqual(comparable(snapshot, 'Pod', true));
  });
});

describe('LiveSource: watches', () => {
  it('applies ADDED, MODIFIED and DELETED; a pod turning Succeeded leaves the cache', async () => {
    const { fake, src } = await setup({
      objects: [
        pod('a', 'ns1', { node: 'n1' }),
        pod('b', 'ns1'),
        { kind: 'Node', metadata: { name: 'n1' }, status: { allocatable: { cpu: '4' } } },
      ],
    });
    await src.load();
    fake.apply(pod('c', 'ns1'));
    fake.apply({ kind: 'Node', metadata: { name: 'n1' }, status: { allocatable: { cpu: '8' } } });
    fake.remove('Pod', 'ns1', 'b');
    fake.apply(pod('a', 'ns1', { node: 'n1', phase: 'Succeeded' }));
    const r = await eventually(
      src,
      (x) =>
        x.snapshot.get('Pod', 'ns1', 'c') !== undefined &&
        x.snapshot.get('Pod', 'ns1', 'b') === undefined &&
        x.snapshot.get('Pod', 'ns1', 'a') === undefined,
    );
    expect(r.snapshot.get('Node', undefined, 'n1')?.status).toEqual({ allocatable: { cpu: '8' } });
  });

  it('410 Gone on the watch → relists, and objects deleted meanwhile are dropped', async () => {
    const { fake, src } = await setup({ objects: [pod('a', 'ns1'), pod('b', 'ns1')] });
    await src.load();
    await eventually(src, () => fake.requests.some((r) => r.path === '/api/v1/pods' && r.watch));
    await fake.down();
    fake.remove('Pod', 'ns1', 'a');
    fake.apply(pod('c', 'ns1'));
    fake.expire('pods');
    await fake.up();
    const r = await eventually(
      src,
      (x) =>
        x.snapshot.get('Pod', 'ns1', 'a') === undefined &&
        x.snapshot.get('Pod', 'ns1', 'c') !== undefined &&
        x.warnings.length === 0,
    );
    expect(r.snapshot.list('Pod').map((p) => p.metadata.name)).toEqual(['b', 'c']);
    expect(src.status().find((s) => s.resource === 'pods')?.counts.relistsOnGone).toBeGreaterThanOrEqual(1);
    expect(fake.requests.filter((q) => q.path === '/api/v1/pods' && !q.watch).length).toBe(2);
  });

  it('410 as an ERROR event on an open watch → relists', async () => {
    const { fake, src } = await setup({ objects: [pod('a', 'ns1')] });
    await src.load();
    await eventually(src, () => fake.requests.some((r) => r.path === '/api/v1/pods' && r.watch));
    fake.expire('pods');
    fake.apply(pod('z', 'ns1'));
    await eventually(src, (x) => x.snapshot.get('Pod', 'ns1', 'z') !== undefined);
    expect(fake.requests.filter((q) => q.path === '/api/v1/pods' && !q.watch).length).toBe(2);
  });

  it('a dropped watch reconnects from the last version (no relist)', async () => {
    const { fake, src } = await setup({ objects: [pod('a', 'ns1')] });
    await src.load();
    await eventually(src, () => fake.requests.filter((r) => r.watch).length === ALL_RESOURCES.length);
    expect(fake.dropWatches('pods')).toBe(1);
    fake.apply(pod('late', 'ns1'));
    await eventually(src, (x) => x.snapshot.get('Pod', 'ns1', 'late') !== undefined);
    expect(fake.requests.filter((q) => q.path === '/api/v1/pods' && q.watch).length).toBe(2);
    expect(fake.requests.filter((q) => q.path === '/api/v1/pods' && !q.watch).length).toBe(1);
  });

  it('a silent watch (no event, no bookmark) is given up after staleAfterMs: relist, then a new watch', async () => {
    const { fake, src } = await setup({ objects: [pod('a', 'ns1')] }, { staleAfterMs: 150, resources: ['pods'] });
    await src.load();
    await eventually(src, () => fake.requests.filter((q) => q.path === '/api/v1/pods' && q.watch).length >= 3, 2000);
    const lists = fake.requests.filter((q) => q.path === '/api/v1/pods' && !q.watch).length;
    const watches = fake.requests.filter((q) => q.path === '/api/v1/pods' && q.watch).length;
    // Each silence: one relist, one new watch (the first list + watch came before any silence).
    expect(lists === watches || lists === watches + 1).toBe(true);
    expect(src.status()[0]!.counts.staleRelists).toBeGreaterThanOrEqual(2);
  });

  it('bookmarks keep a quiet watch alive and move its version', async () => {
    const { fake, src } = await setup(
      { objects: [pod('a', 'ns1')], bookmarkEveryMs: 40 },
      { staleAfterMs: 200, resources: ['pods'] },
    );
    await src.load();
    await new Promise((r) => setTimeout(r, 600));
    expect(fake.requests.filter((q) => q.path === '/api/v1/pods' && q.watch).length).toBe(1);
    expect(fake.requests.filter((q) => q.path === '/api/v1/pods' && !q.watch).length).toBe(1);
    expect((await src.load()).warnings).toEqual([]);
  });
});

describe('LiveSource: faults are values next to the data', () => {
  it('403 on nodes → a Forbidden error value, the rest answered; recovers when RBAC is fixed', async () => {
    const fake = await FakeApiServer.start({ state: join(STATES, 'team-a') });
    fake.forbid('nodes');
    const src = new LiveSource({
      kubeConfig: fake.kubeConfig(),
      requestTimeoutMs: 500,
      backoff: { initialMs: 10, maxMs: 40 },
    });
    cleanups.push(async () => {
      await src.close();
      await fake.close();
    });
    const r = await src.load();
    expect(r.errors).toEqual([
      {
        resource: 'nodes',
        reason: 'Forbidden',
        cause: 'Forbidden',
        message:
          'nodes is forbidden: User "system:serviceaccount:quota-doctor:quota-doctor" cannot list resource "nodes" in API group "" at the cluster scope',
      },
    ]);
    expect(r.snapshot.count('Node')).toBe(0);
    expect(r.snapshot.count('Pod')).toBe(3);
    expect(r.snapshot.get('ResourceQuota', 'team-a', 'compute')).toBeDefined();
    fake.allow('nodes');
    const healed = await eventually(src, (x) => x.errors.length === 0);
    expect(healed.snapshot.count('Node')).toBe(2);
  });

  it('a slow route → a Timeout error value within the deadline; later it answers', async () => {
    // 600 ms: enough for the other lists on a loaded machine, far below the route's 3 s.
    const { fake, src } = await setup({ state: join(STATES, 'team-a') }, { requestTimeoutMs: 600 });
    fake.delay('events', 3000);
    const t0 = Date.now();
    const r = await src.load();
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(r.errors).toEqual([
      { resource: 'events', reason: 'Timeout', cause: 'Timeout', message: 'events: no answer within 600 ms' },
    ]);
    expect(r.snapshot.count('Pod')).toBe(3);
    fake.delay('events', 0);
    const healed = await eventually(src, (x) => x.errors.length === 0);
    expect(healed.snapshot.count('Event')).toBe(1);
  });

  it('a 500 → an InternalError value', async () => {
    const { fake, src } = await setup({ state: join(STATES, 'team-a') });
    fake.fail('limitranges', 500);
    const r = await src.load();
    expect(r.errors).toEqual([
      {
        resource: 'limitranges',
        reason: 'InternalError',
        cause: 'ServerError',
        message: 'fake failure of limitranges',
      },
    ]);
    fake.fail('limitranges', 0);
    await eventually(src, (x) => x.errors.length === 0 && x.snapshot.count('LimitRange') === 1);
  });

  it('server down → answers from the cache with the gap stated; back → catches up by itself', async () => {
    const { fake, src } = await setup({ state: join(STATES, 'team-a') });
    await src.load();
    await eventually(src, () => fake.requests.filter((r) => r.watch).length === ALL_RESOURCES.length);
    await fake.down();
    const during = await eventually(src, (x) => x.warnings.some((w) => w.kind === 'stale' && w.resource === 'pods'));
    expect(during.errors).toEqual([]);
    expect(during.snapshot.count('Pod')).toBe(3);
    expect(during.warnings.filter((w) => w.kind === 'stale' && w.resource === 'pods').map(warningText)[0]).toMatch(
      /\(Unreachable: .*\); answering from the cache, reconnecting$/,
    );
    fake.apply(pod('while-down', 'team-a'));
    await fake.up();
    const after = await eventually(
      src,
      (x) => x.warnings.length === 0 && x.snapshot.get('Pod', 'team-a', 'while-down') !== undefined,
    );
    expect(after.errors).toEqual([]);
  });

  it('cold start with the server down → Unreachable errors, not a hang; recovers when it comes up', async () => {
    const fake = await FakeApiServer.start({ state: join(STATES, 'team-a') });
    await fake.down();
    const src = new LiveSource({
      kubeConfig: fake.kubeConfig(),
      requestTimeoutMs: 300,
      backoff: { initialMs: 10, maxMs: 40 },
    });
    cleanups.push(async () => {
      await src.close();
      await fake.close();
    });
    const r = await src.load();
    expect(r.errors.map((e) => e.resource).sort()).toEqual([...ALL_RESOURCES].sort());
    expect(new Set(r.errors.map((e) => e.reason))).toEqual(new Set(['Unreachable']));
    expect(await src.ready()).toBe(false);
    await fake.up();
    const healed = await eventually(src, (x) => x.errors.length === 0);
    expect(healed.snapshot.count('Pod')).toBe(3);
    expect(await src.ready()).toBe(true);
  });

  it('no cluster-wide pods grant → reads the asked namespace instead, and says what is missing', async () => {
    const { fake, src } = await setup({ objects: [pod('a', 'ns1'), pod('b', 'ns2')] });
    fake.forbid('pods', 'cluster');
    const r = await src.load({ namespaces: ['ns1'] });
    expect(r.snapshot.list('Pod').map((p) => p.metadata.name)).toEqual(['a']);
    expect(r.errors).toEqual([expect.objectContaining({ resource: 'pods', reason: 'Forbidden' })]);
    expect(fake.requests.some((q) => q.path === '/api/v1/namespaces/ns1/pods' && !q.watch)).toBe(true);
    fake.apply(pod('c', 'ns1'));
    await eventually(src, (x) => x.snapshot.get('Pod', 'ns1', 'c') !== undefined);
  });

  it('an object of unreadable shape is skipped and counted, not cached and not fatal', async () => {
    const { fake, src } = await setup({ objects: [pod('a', 'ns1')] });
    await src.load();
    fake.apply({ kind: 'Pod', metadata: { name: 'odd', namespace: 'ns1' }, spec: { containers: 'nope' } });
    fake.apply(pod('fine', 'ns1'));
    const r = await eventually(src, (x) => x.snapshot.get('Pod', 'ns1', 'fine') !== undefined);
    expect(r.snapshot.get('Pod', 'ns1', 'odd')).toBeUndefined();
    expect(r.warnings).toEqual([{ kind: 'skipped', resource: 'pods', count: 1 }]);
    expect(r.warnings.map(warningText)).toEqual(['pods: 1 object(s) skipped, their shape was not readable']);
  });

  it('a quota without status gets status.used from the injected reconcile, as FileSource does', async () => {
    const quota: KObject = {
      kind: 'ResourceQuota',
      metadata: { name: 'q', namespace: 'ns1' },
      spec: { hard: { pods: '5' } },
    };
    const { src } = await setup(
      { objects: [quota, pod('a', 'ns1'), pod('b', 'ns1')] },
      { reconcile: (s) => reconcileQuotaStatus(s, Date.now()) },
    );
    const r = await src.load();
    expect(r.snapshot.get('ResourceQuota', 'ns1', 'q')?.status).toEqual({ hard: { pods: '5' }, used: { pods: '2' } });
    expect(r.warnings).toEqual([{ kind: 'reconciled', namespace: 'ns1', quota: 'q' }]);
    expect(r.warnings.map(warningText)).toEqual([
      'ResourceQuota ns1/q: status.used computed from the objects in the state',
    ]);
  });

  it('close() stops every list and watch', async () => {
    const { fake, src } = await setup({ objects: [pod('a', 'ns1')] });
    await src.load();
    await eventually(src, () => fake.openWatches === ALL_RESOURCES.length);
    await src.close();
    await new Promise((r) => setTimeout(r, 50));
    expect(fake.openWatches).toBe(0);
    fake.resetRequests();
    await new Promise((r) => setTimeout(r, 150));
    expect(fake.requestCount()).toBe(0);
  });
});

describe('createLiveSource: kubeconfig', () => {
  const empty = () => mkdtempSync(join(tmpdir(), 'qd-kc-'));

  it('no kubeconfig anywhere → one clear line, not a localhost:8080 connection error', () => {
    const home = empty();
    let message = '';
    try {
      createLiveSource({ env: { HOME: home }, serviceAccountRoot: home });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toBe(
      'no Kubernetes cluster configured: no --kubeconfig, no KUBECONFIG, no ~/.kube/config, and not running in a cluster (pass --state PATH to read objects from files)',
    );
    expect(message).not.toContain('8080');
  });

  it.each([
    [{ kubeconfig: '/nonexistent/kubeconfig' }, 'kubeconfig /nonexistent/kubeconfig: no such file'],
    [{ env: { KUBECONFIG: '/nope/a:/nope/b' } }, 'KUBECONFIG=/nope/a:/nope/b: no such file'],
  ])('%j → %s', (opts, message) => {
    expect(() => createLiveSource({ env: { HOME: empty() }, ...opts })).toThrow(message);
  });

  it('--kubeconfig, KUBECONFIG and ~/.kube/config all reach the server; --context is checked', async () => {
    const fake = await FakeApiServer.start({ objects: [pod('a', 'ns1')] });
    cleanups.push(() => fake.close());
    const dir = empty();
    const file = fake.writeKubeconfig(join(dir, 'config'));
    const home = empty();
    const { mkdirSync, copyFileSync } = await import('node:fs');
    mkdirSync(join(home, '.kube'));
    copyFileSync(file, join(home, '.kube', 'config'));
    for (const opts of [{ kubeconfig: file }, { env: { KUBECONFIG: `/missing:${file}` } }, { env: { HOME: home } }]) {
      const src = createLiveSource({ env: { HOME: empty() }, requestTimeoutMs: 3000, ...opts });
      cleanups.push(() => src.close());
      expect(src.describe()).toBe(`live cluster ${fake.url} (context fake)`);
      const r = await src.load();
      expect(r.errors).toEqual([]);
      expect(r.snapshot.count('Pod')).toBe(1);
    }
    expect(() => createLiveSource({ kubeconfig: file, context: 'prod' })).toThrow(
      `context "prod" not found in ${file} (contexts: fake)`,
    );
  });

  it('in a cluster: the service account and KUBERNETES_SERVICE_HOST/PORT', async () => {
    const sa = empty();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(sa, 'token'), 't');
    writeFileSync(join(sa, 'ca.crt'), '');
    const src = createLiveSource({
      env: { HOME: empty(), KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443' },
      serviceAccountRoot: sa,
    });
    expect(src.describe()).toBe('live cluster https://10.96.0.1:443 (context inClusterContext)');
    await src.close();
  });

  it('plain http without insecure-skip-tls-verify → a clear error up front', async () => {
    const dir = empty();
    const { writeFileSync } = await import('node:fs');
    const file = join(dir, 'config');
    writeFileSync(
      file,
      'apiVersion: v1\nkind: Config\ncurrent-context: c\nclusters: [{name: k, cluster: {server: "http://127.0.0.1:8001"}}]\nusers: [{name: u, user: {}}]\ncontexts: [{name: c, context: {cluster: k, user: u}}]\n',
    );
    expect(() => createLiveSource({ kubeconfig: file })).toThrow(
      'cluster "k" (http://127.0.0.1:8001) is plain http; client-node only allows that with insecure-skip-tls-verify: true',
    );
  });
});
