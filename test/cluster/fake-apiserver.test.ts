/**
 * The fake API server speaks the wire format the real client-node expects: lists, paging, field
 * selectors, Status bodies, watch streams. Checked through client-node itself where it matters.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiException, CoreV1Api, topNodes } from '@kubernetes/client-node';
import { FakeApiServer } from '../support/fake-apiserver.ts';
import type { KObject } from '../../src/k8s/snapshot.ts';

let fake: FakeApiServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function pod(name: string, ns: string, node: string, phase: string, cpu = '100m'): KObject {
  return {
    kind: 'Pod',
    metadata: { name, namespace: ns },
    spec: {
      nodeName: node,
      containers: [{ name: 'c', resources: { requests: { cpu, memory: '64Mi' }, limits: { cpu, memory: '64Mi' } } }],
    },
    status: { phase },
  };
}

const OBJECTS: KObject[] = [
  {
    kind: 'Node',
    metadata: { name: 'n1' },
    status: { allocatable: { cpu: '4', memory: '8Gi' }, capacity: { cpu: '4', memory: '8Gi' } },
  },
  {
    kind: 'Node',
    metadata: { name: 'n2' },
    status: { allocatable: { cpu: '2', memory: '4Gi' }, capacity: { cpu: '2', memory: '4Gi' } },
  },
  pod('a', 'ns1', 'n1', 'Running', '1'),
  pod('b', 'ns1', 'n1', 'Succeeded', '1'),
  pod('c', 'ns2', 'n2', 'Running', '500m'),
  pod('d', 'ns2', 'n1', 'Running', '250m'),
  {
    kind: 'Event',
    metadata: { name: 'e1', namespace: 'ns1' },
    involvedObject: { kind: 'Pod', name: 'a' },
    reason: 'FailedScheduling',
    type: 'Warning',
  },
  {
    kind: 'Event',
    metadata: { name: 'e2', namespace: 'ns1' },
    involvedObject: { kind: 'ReplicaSet', name: 'rs' },
    reason: 'FailedCreate',
    type: 'Warning',
  },
  {
    kind: 'Event',
    metadata: { name: 'e3', namespace: 'ns1' },
    involvedObject: { kind: 'Pod', name: 'a' },
    reason: 'Pulled',
    type: 'Normal',
  },
];

async function start(): Promise<{ f: FakeApiServer; core: CoreV1Api }> {
  fake = await FakeApiServer.start({ objects: OBJECTS });
  return { f: fake, core: fake.kubeConfig().makeApiClient(CoreV1Api) };
}

const names = (l: { items: Array<{ metadata?: { name?: string } }> }) => l.items.map((i) => i.metadata?.name);

describe('fake-apiserver', () => {
  it('lists all namespaces or one, with field selectors on pods and events', async () => {
    const { core } = await start();
    expect(names(await core.listPodForAllNamespaces())).toEqual(['a', 'b', 'c', 'd']);
    expect(names(await core.listNamespacedPod({ namespace: 'ns2' }))).toEqual(['c', 'd']);
    expect(names(await core.listPodForAllNamespaces({ fieldSelector: 'spec.nodeName=n1' }))).toEqual(['a', 'b', 'd']);
    expect(
      names(await core.listPodForAllNamespaces({ fieldSelector: 'status.phase!=Succeeded,status.phase!=Failed' })),
    ).toEqual(['a', 'c', 'd']);
    expect(
      names(
        await core.listNamespacedEvent({
          namespace: 'ns1',
          fieldSelector: 'reason=FailedScheduling,involvedObject.kind=Pod',
        }),
      ),
    ).toEqual(['e1']);
    expect(names(await core.listEventForAllNamespaces({ fieldSelector: 'involvedObject.kind==ReplicaSet' }))).toEqual([
      'e2',
    ]);
  });

  it('pages with limit and continue (the token is in metadata._continue for client-node)', async () => {
    const { core } = await start();
    const p1 = await core.listPodForAllNamespaces({ limit: 3 });
    expect(names(p1)).toEqual(['a', 'b', 'c']);
    expect(p1.metadata?._continue).toBeTruthy();
    const p2 = await core.listPodForAllNamespaces({ limit: 3, _continue: p1.metadata?._continue });
    expect(names(p2)).toEqual(['d']);
    expect(p2.metadata?._continue).toBeUndefined();
    expect(p2.metadata?.resourceVersion).toBe(p1.metadata?.resourceVersion);
  });

  it('answers 403 and unsupported selectors with a Status body (ApiException), as the API server does', async () => {
    const { f, core } = await start();
    f.forbid('nodes');
    const err = await core.listNode().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiException);
    const e = err as ApiException<string>;
    expect(e.code).toBe(403);
    expect(JSON.parse(e.body)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'nodes is forbidden: User "system:serviceaccount:quota-doctor:quota-doctor" cannot list resource "nodes" in API group "" at the cluster scope',
      reason: 'Forbidden',
      details: { group: '', kind: 'nodes' },
      code: 403,
    });
    const bad = (await core
      .listPodForAllNamespaces({ fieldSelector: 'spec.containers=x' })
      .catch((x: unknown) => x)) as ApiException<string>;
    expect(bad.code).toBe(400);
    expect(JSON.parse(bad.body).message).toBe('field label not supported: spec.containers');
  });

  it('serves /version and /healthz and counts requests per path', async () => {
    const { f } = await start();
    expect(await (await fetch(`${f.url}/version`)).json()).toMatchObject({ major: '1', minor: '35' });
    expect(await (await fetch(`${f.url}/healthz`)).text()).toBe('ok');
    expect(f.counts.get('/version')).toBe(1);
    expect(f.requestCount('/healthz')).toBe(1);
  });

  it('streams watch events as NDJSON; leaving a field selector is DELETED; an expired version is an ERROR 410', async () => {
    const { f } = await start();
    const rv = f.resourceVersion;
    const ctl = new AbortController();
    const res = await fetch(
      `${f.url}/api/v1/pods?watch=true&resourceVersion=${rv}&fieldSelector=status.phase!%3DSucceeded`,
      { signal: ctl.signal },
    );
    const reader = res.body!.getReader();
    f.apply(pod('e', 'ns1', 'n2', 'Running'));
    f.apply(pod('e', 'ns1', 'n2', 'Succeeded'));
    f.remove('Pod', 'ns2', 'c');
    let text = '';
    while (text.split('\n').length < 4) text += new TextDecoder().decode((await reader.read()).value);
    ctl.abort();
    const events = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; object: { kind: string; metadata: { name: string } } });
    expect(events.map((e) => `${e.type} ${e.object.kind} ${e.object.metadata.name}`)).toEqual([
      'ADDED Pod e',
      'DELETED Pod e',
      'DELETED Pod c',
    ]);

    f.expire('pods');
    const gone = await (await fetch(`${f.url}/api/v1/pods?watch=true&resourceVersion=${rv}`)).text();
    expect(JSON.parse(gone.trim())).toMatchObject({
      type: 'ERROR',
      object: { kind: 'Status', code: 410, reason: 'Expired' },
    });
  });

  it("runs client-node's topNodes (one list per node, by spec.nodeName)", async () => {
    const { f, core } = await start();
    const top = await topNodes(core);
    expect(top.map((t) => [t.Node.metadata?.name, Number(t.CPU.RequestTotal)])).toEqual([
      ['n1', 1.25],
      ['n2', 0.5],
    ]);
    expect(f.requests.filter((r) => r.path === '/api/v1/pods').length).toBe(2);
  });

  it('extra routes (option and addRoutes) answer before the built-in ones, in order; unhandled ones fall through', async () => {
    const seen: string[] = [];
    fake = await FakeApiServer.start({
      objects: OBJECTS,
      extraRoutes: (_req, res, url) => {
        seen.push(`opt ${url.pathname}`);
        if (url.pathname !== '/apis/coordination.k8s.io/v1/namespaces/ns1/leases') return false;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"kind":"LeaseList","items":[]}');
        return true;
      },
    });
    fake.addRoutes(async (_req, res, url) => {
      seen.push(`added ${url.pathname}`);
      if (url.pathname !== '/x') return false;
      res.writeHead(204);
      res.end();
      return true;
    });
    const leases = await fetch(`${fake.url}/apis/coordination.k8s.io/v1/namespaces/ns1/leases`);
    expect([leases.status, await leases.text()]).toEqual([200, '{"kind":"LeaseList","items":[]}']);
    expect((await fetch(`${fake.url}/x`)).status).toBe(204);
    const pods = (await (await fetch(`${fake.url}/api/v1/namespaces/ns1/pods`)).json()) as { items: unknown[] };
    expect(pods.items).toHaveLength(2);
    expect(seen).toEqual([
      'opt /apis/coordination.k8s.io/v1/namespaces/ns1/leases',
      'opt /x',
      'added /x',
      'opt /api/v1/namespaces/ns1/pods',
      'added /api/v1/namespaces/ns1/pods',
    ]);
    expect(fake.requestCount('/x')).toBe(1);
  });

  it('fault modes: hang holds the request unanswered, a silent watch sends headers then nothing, a one-line watch one line then the end', async () => {
    const { f } = await start();
    f.hang('nodes');
    const ctl = new AbortController();
    const hung = fetch(`${f.url}/api/v1/nodes`, { signal: ctl.signal }).then(
      () => 'answered',
      () => 'aborted',
    );
    await new Promise((r) => setTimeout(r, 150));
    expect(f.hungRequests).toBe(1);
    ctl.abort();
    expect(await hung).toBe('aborted');
    await new Promise((r) => setTimeout(r, 50));
    expect(f.hungRequests).toBe(0);
    f.unhang('nodes');
    expect((await fetch(`${f.url}/api/v1/nodes`)).status).toBe(200);

    f.watchMode('pods', 'silent');
    const silent = await fetch(`${f.url}/api/v1/pods?watch=true&allowWatchBookmarks=true&timeoutSeconds=1`);
    expect(silent.status).toBe(200);
    f.apply(pod('e', 'ns1', 'n1', 'Running'));
    f.bookmark();
    expect(await silent.text()).toBe('');

    f.watchMode('pods', 'one-line');
    const rv = f.resourceVersion;
    const one = await (await fetch(`${f.url}/api/v1/pods?watch=true&resourceVersion=${rv}`)).text();
    expect(JSON.parse(one.trim())).toMatchObject({
      type: 'BOOKMARK',
      object: { kind: 'Pod', metadata: { resourceVersion: rv } },
    });
    const replay = await (await fetch(`${f.url}/api/v1/pods?watch=true`)).text();
    expect(replay.trim().split('\n')).toHaveLength(1);
    f.watchMode('pods', 'normal');
    const all = await (await fetch(`${f.url}/api/v1/pods?watch=true&timeoutSeconds=1`)).text();
    expect(all.trim().split('\n')).toHaveLength(5);
  });
});
