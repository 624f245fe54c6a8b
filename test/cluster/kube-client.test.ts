/**
 * The client side against a stand-in as strict as kube-apiserver (test/support/kube-apiserver.ts:
 * TLS with its CA, tokens and client certificates, RBAC per user, APF 429s), with the real
 * @kubernetes/client-node 1.4 under our LiveSource, in one-shot mode as the CLI runs it.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLiveSource, type LiveSource } from '../../src/cluster/live-source.ts';
import { EdgeKubeConfig, proxyFromEnv } from '../../src/cluster/kubeconfig.ts';
import type { LoadOptions, SourceResult } from '../../src/cluster/source.ts';
import { KubeApiServer, otherCa } from '../support/kube-apiserver.ts';

const DEMO = fileURLToPath(new URL('../../manifests/demo', import.meta.url));
const dirOf = () => mkdtempSync(join(tmpdir(), 'qd-kc-'));

let kube: KubeApiServer;
beforeAll(async () => {
  kube = await KubeApiServer.start({ state: DEMO });
  kube.addToken('reader', { name: 'reader' });
  kube.bindCluster('reader', KubeApiServer.READ_ALL);
  kube.addToken('alice', { name: 'alice' });
  kube.bindNamespace('team-a', 'alice', KubeApiServer.READ_ALL);
  kube.addToken('nobody', { name: 'nobody' });
  kube.addToken('old', { name: 'reader' }, { expiresAt: Date.now() - 1000 });
  kube.bindCluster('ops', KubeApiServer.READ_ALL);
}, 60_000);
afterAll(async () => {
  await kube?.close();
});

function write(dir: string, name: string, text: string): string {
  const f = join(dir, name);
  writeFileSync(f, text);
  return f;
}

async function loadWith(
  kubeconfig: string,
  opts: LoadOptions = {},
  env: NodeJS.ProcessEnv = {},
): Promise<{ r: SourceResult; src: LiveSource }> {
  const src = createLiveSource({
    kubeconfig,
    env: { HOME: dirOf(), ...env },
    watch: false,
    requestTimeoutMs: 3000,
    syncTimeoutMs: 10_000,
    backoff: { initialMs: 20, maxMs: 200 },
  });
  try {
    return { r: await src.load(opts), src };
  } finally {
    await src.close();
  }
}

const causes = (r: SourceResult) =>
  r.errors.map((e) => `${e.resource}${e.namespace ? `@${e.namespace}` : ''}:${e.cause}`);

describe('each failure mode → one error value per resource, with its cause and the server words', () => {
  const cases: Array<{
    name: string;
    user: () => Record<string, unknown>;
    kc?: () => { ca?: string; server?: string };
    before?: () => void | Promise<void>;
    expectCause: string;
    message: RegExp;
  }> = [
    {
      name: '401: expired token',
      user: () => ({ token: 'old' }),
      expectCause: 'Unauthorized',
      message: /^Unauthorized$/,
    },
    {
      name: '401: unknown token',
      user: () => ({ token: 'forged' }),
      expectCause: 'Unauthorized',
      message: /^Unauthorized$/,
    },
    {
      name: '403: a user without a binding',
      user: () => ({ token: 'nobody' }),
      expectCause: 'Forbidden',
      message:
        /^\S+ is forbidden: User "nobody" cannot list resource "\S+" in API group "[a-z0-9.]*" at the cluster scope$/,
    },
    {
      name: '403: no credential at all is system:anonymous',
      user: () => ({}),
      expectCause: 'Forbidden',
      message: /is forbidden: User "system:anonymous" cannot list resource/,
    },
    {
      name: 'TLS: a kubeconfig with another CA',
      user: () => ({ token: 'reader' }),
      kc: () => ({ ca: otherCa() }),
      expectCause: 'TLS',
      message: /certificate/,
    },
    {
      name: 'refused: nothing listens',
      user: () => ({ token: 'reader' }),
      kc: () => ({ server: 'https://127.0.0.1:9' }),
      expectCause: 'Unreachable',
      message: /ECONNREFUSED/,
    },
    {
      name: '429 on every attempt past the retry budget',
      user: () => ({ token: 'reader' }),
      before: () => kube.throttle({ user: 'reader', times: 10_000, retryAfterSeconds: 1 }),
      expectCause: 'TooManyRequests',
      message: /^Too many requests, please try again later\.$/,
    },
    {
      name: 'credential plugin fails',
      user: () => ({
        exec: {
          apiVersion: 'client.authentication.k8s.io/v1',
          command: 'sh',
          args: ['-c', 'echo token expired, run aws sso login >&2; exit 1'],
        },
      }),
      expectCause: 'Credentials',
      message: /^exec plugin sh: exit 1: token expired, run aws sso login$/,
    },
  ];
  it.each(cases)(
    '$name',
    async (c) => {
      await c.before?.();
      try {
        const f = write(dirOf(), 'config', kube.kubeconfigYaml(c.user(), c.kc?.() ?? {}));
        const { r } = await loadWith(f);
        // Every resource once, none read.
        expect(r.errors.map((e) => e.resource).sort()).toEqual([
          'cronjobs',
          'csidrivers',
          'csinodes',
          'daemonsets',
          'deployments',
          'deviceclasses',
          'events',
          'jobs',
          'limitranges',
          'namespaces',
          'nodes',
          'persistentvolumeclaims',
          'poddisruptionbudgets',
          'pods',
          'priorityclasses',
          'replicasets',
          'resourceclaims',
          'resourcequotas',
          'resourceslices',
          'runtimeclasses',
          'services',
          'statefulsets',
          'storageclasses',
        ]);
        expect(new Set(r.errors.map((e) => e.cause))).toEqual(new Set([c.expectCause]));
        for (const e of r.errors) expect(e.message).toMatch(c.message);
        expect(r.snapshot.count('Pod')).toBe(0);
      } finally {
        kube.clearThrottles();
      }
    },
    60_000,
  );
});

const readerKc = (opts: { namespace?: string } = {}) =>
  write(dirOf(), 'config', kube.kubeconfigYaml({ token: 'reader' }, opts));

describe('429 and 5xx are retried inside the deadline (client-go rest/with_retry.go checkWait)', () => {
  const cases: Array<{ name: string; arrange: () => void; errors: string[]; podRequests: number }> = [
    {
      name: '429 ×2 with Retry-After: 1 on pods → read on the third attempt',
      arrange: () => kube.throttle({ resource: 'pods', times: 2, retryAfterSeconds: 1 }),
      errors: [],
      podRequests: 3,
    },
    {
      name: '503 ×2 on pods → read on the third attempt (backoff)',
      arrange: () => kube.failNext('pods', 503, 2),
      errors: [],
      podRequests: 3,
    },
    {
      name: '500 on every attempt → ServerError after MAX_ATTEMPTS (10)',
      arrange: () => kube.failNext('pods', 500, 1000),
      errors: ['pods:ServerError'],
      podRequests: 10,
    },
  ];
  it.each(cases)(
    '$name',
    async (c) => {
      kube.resetCounts();
      c.arrange();
      try {
        const { r } = await loadWith(readerKc());
        expect(causes(r)).toEqual(c.errors);
        expect(kube.requestCount('/api/v1/pods')).toBe(c.podRequests);
        if (c.errors.length === 0) expect(r.snapshot.count('Pod')).toBeGreaterThan(0);
      } finally {
        kube.clearThrottles();
      }
    },
    60_000,
  );
});

describe('what is read, and what is not an error', () => {
  it('a hung route → Timeout for that resource only; the rest read', async () => {
    kube.data.hang('nodes');
    try {
      const src = createLiveSource({
        kubeconfig: readerKc(),
        env: { HOME: dirOf() },
        watch: false,
        requestTimeoutMs: 2000,
      });
      const r = await src.load();
      await src.close();
      expect(causes(r)).toEqual(['nodes:Timeout']);
      expect(r.errors[0]!.message).toBe('nodes: no answer within 2000 ms');
      expect(r.snapshot.count('Pod')).toBeGreaterThan(0);
    } finally {
      kube.data.unhang('nodes', { release: true });
    }
  }, 30_000);

  it('an API group the server does not serve (404) is absent, not an error', async () => {
    kube.unserve('scheduling.k8s.io');
    try {
      const { r } = await loadWith(readerKc());
      expect(r.errors).toEqual([]);
      expect(r.snapshot.count('PriorityClass')).toBe(0);
      expect(r.snapshot.count('Pod')).toBeGreaterThan(0);
    } finally {
      kube.serve('scheduling.k8s.io');
    }
  });

  it('a continue token that expired between pages → one full list (tools/pager/pager.go FullListIfExpired)', async () => {
    const { r: whole } = await loadWith(readerKc());
    kube.resetCounts();
    let expired = false;
    kube.onRequest = (path, q) => {
      if (path === '/api/v1/pods' && q.get('continue') && !expired) {
        expired = true;
        // A write moves the store past the token's version; then compaction takes that version away.
        kube.data.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bump' } });
        kube.data.remove('Namespace', undefined, 'bump');
        kube.data.expire('pods');
      }
    };
    try {
      const src = createLiveSource({ kubeconfig: readerKc(), env: { HOME: dirOf() }, watch: false, pageSize: 2 });
      const r = await src.load();
      await src.close();
      expect(r.errors).toEqual([]);
      expect(r.snapshot.count('Pod')).toBe(whole.snapshot.count('Pod'));
      const pods = kube.requests.filter((x) => x.path === '/api/v1/pods');
      expect(pods.map((x) => x.status)).toEqual([200, 410, 200]);
      expect(new URLSearchParams(pods[2]!.query).get('limit')).toBeNull();
    } finally {
      kube.onRequest = undefined;
    }
  });

  it('/version → serverVersion (`24+` → 1.24), read once per source', async () => {
    const before = kube.version;
    kube.version = { major: '1', minor: '24+', gitVersion: 'v1.24.17-eks-abc' };
    kube.resetCounts();
    try {
      const src = createLiveSource({ kubeconfig: readerKc(), env: { HOME: dirOf() }, watch: false });
      const a = await src.load();
      const b = await src.load();
      await src.close();
      expect([a.serverVersion, b.serverVersion]).toEqual(['1.24', '1.24']);
      expect(kube.requestCount('/version')).toBe(1);
    } finally {
      kube.version = before;
    }
  });

  it('the context namespace is exposed as contextNamespace', async () => {
    const { r } = await loadWith(readerKc({ namespace: 'team-b' }), { namespaces: ['team-b'], placement: false });
    expect(r.contextNamespace).toBe('team-b');
    const { r: none } = await loadWith(readerKc(), { namespaces: ['team-b'], placement: false });
    expect(none.contextNamespace).toBeUndefined();
  });
});

describe('a tenant with a RoleBinding in team-a only', () => {
  const kc = () => write(dirOf(), 'config', kube.kubeconfigYaml({ token: 'alice' }));
  it('placement: false → complete from namespaced reads in team-a; nothing cluster-wide is asked', async () => {
    kube.resetCounts();
    const { r } = await loadWith(kc(), { namespaces: ['team-a'], placement: false });
    expect(r.errors).toEqual([]);
    expect(r.snapshot.list('ResourceQuota', 'team-a').length).toBeGreaterThan(0);
    const paths = kube.requests.map((x) => x.path).filter((p) => p !== '/version');
    expect(paths.length).toBe(14);
    expect(paths.every((p) => p.includes('/namespaces/team-a/'))).toBe(true);
  });

  it('placement: true → one Forbidden per cluster-wide need (nodes, pods of other namespaces, …), the server words kept', async () => {
    const { r } = await loadWith(kc(), { namespaces: ['team-a'] });
    expect(causes(r).sort()).toEqual([
      'csidrivers:Forbidden',
      'csinodes:Forbidden',
      'deviceclasses:Forbidden',
      'namespaces:Forbidden',
      'nodes:Forbidden',
      'pods:Forbidden',
      'priorityclasses:Forbidden',
      'resourceslices:Forbidden',
      'runtimeclasses:Forbidden',
      'storageclasses:Forbidden',
    ]);
    expect(r.errors.find((e) => e.resource === 'nodes')!.message).toBe(
      'nodes is forbidden: User "alice" cannot list resource "nodes" in API group "" at the cluster scope',
    );
    expect(r.snapshot.list('ResourceQuota', 'team-a').length).toBeGreaterThan(0);
  });
});

describe('kubeconfig as kubectl reads it (client-go tools/clientcmd/loader.go)', () => {
  const doc = (o: { current?: string; server?: string; token?: string; user?: Record<string, unknown> }) =>
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      ...(o.current ? { 'current-context': o.current } : {}),
      clusters: [
        {
          name: 'kube',
          cluster: {
            server: o.server ?? kube.url,
            'certificate-authority-data': Buffer.from(kube.ca).toString('base64'),
          },
        },
      ],
      users: [{ name: 'user', user: o.user ?? { token: o.token ?? 'reader' } }],
      contexts: [
        { name: 'a', context: { cluster: 'kube', user: 'user' } },
        { name: 'b', context: { cluster: 'kube', user: 'user', namespace: 'team-b' } },
      ],
    });
  const cases: Array<{ name: string; files: (dir: string) => string[]; user: string; ns?: string }> = [
    {
      name: 'current-context set only in the second file is used; first definitions win, no "Duplicate cluster"',
      files: (d) => [
        write(d, 'one', doc({})),
        write(d, 'two', doc({ current: 'b', server: 'https://127.0.0.1:9', token: 'nobody' })),
      ],
      user: 'reader',
      ns: 'team-b',
    },
    {
      name: 'the first file to set current-context wins',
      files: (d) => [write(d, 'one', doc({ current: 'a' })), write(d, 'two', doc({ current: 'b' }))],
      user: 'reader',
    },
    {
      name: 'a missing file in the list is skipped',
      files: (d) => [join(d, 'missing'), write(d, 'one', doc({ current: 'a' }))],
      user: 'reader',
    },
    {
      name: 'tokenFile relative to its kubeconfig',
      files: (d) => {
        mkdirSync(join(d, 'sub'));
        write(join(d, 'sub'), 'tok', 'reader\n');
        return [write(join(d, 'sub'), 'config', doc({ current: 'a', user: { tokenFile: 'tok' } }))];
      },
      user: 'reader',
    },
    {
      name: 'client certificate and key relative to its kubeconfig (CN=carol, O=ops)',
      files: (d) => {
        const pem = kube.clientCert({ name: 'carol', groups: ['ops'] });
        write(d, 'c.crt', pem.cert);
        write(d, 'c.key', pem.key);
        return [
          write(d, 'config', doc({ current: 'a', user: { 'client-certificate': 'c.crt', 'client-key': 'c.key' } })),
        ];
      },
      user: 'carol',
    },
  ];
  it.each(cases)('$name', async (c) => {
    const d = dirOf();
    const files = c.files(d);
    kube.resetCounts();
    const src = createLiveSource({
      env: { HOME: dirOf(), KUBECONFIG: files.join(':') },
      watch: false,
      requestTimeoutMs: 3000,
    });
    const r = await src.load();
    await src.close();
    expect(r.errors).toEqual([]);
    expect([...kube.byUser.keys()]).toEqual([c.user]);
    expect(r.contextNamespace).toBe(c.ns);
  });
});

describe('an exec credential plugin runs once per run; connections are reused', () => {
  it('a relative exec command, no expirationTimestamp: 1 run for the whole load; 24 requests (23 lists + /version), no watch', async () => {
    const d = dirOf();
    const log = join(d, 'runs.log');
    mkdirSync(join(d, 'bin'));
    const script = write(
      join(d, 'bin'),
      'get-token',
      `#!/bin/sh\necho run >> "${log}"\necho '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"reader"}}'\n`,
    );
    chmodSync(script, 0o755);
    const kc = write(
      d,
      'config',
      kube.kubeconfigYaml({ exec: { apiVersion: 'client.authentication.k8s.io/v1', command: './bin/get-token' } }),
    );
    kube.resetCounts();
    const runs0 = EdgeKubeConfig.execRuns;
    const { r } = await loadWith(kc);
    expect(r.errors).toEqual([]);
    expect(readFileSync(log, 'utf8')).toBe('run\n');
    expect(EdgeKubeConfig.execRuns - runs0).toBe(1);
    expect(kube.requestCount()).toBe(24);
    expect(kube.requests.filter((x) => x.query.includes('watch=')).length).toBe(0);
    expect([...kube.byUser.entries()]).toEqual([['reader', 24]]);
  });

  it('keep-alive: paged lists reuse the connections of the first requests (before: one TLS connection per request)', async () => {
    kube.resetCounts();
    const src = createLiveSource({ kubeconfig: readerKc(), env: { HOME: dirOf() }, watch: false, pageSize: 3 });
    const r = await src.load();
    await src.close();
    expect(r.errors).toEqual([]);
    expect(kube.requestCount()).toBeGreaterThan(40);
    expect(kube.connections).toBeLessThanOrEqual(24);
  });

  it('an expired credential is fetched again; a valid one is kept', async () => {
    const d = dirOf();
    const log = join(d, 'runs.log');
    const exp = new Date(Date.now() + 3600_000).toISOString();
    const script = write(
      d,
      'tok.sh',
      `#!/bin/sh\necho run >> "${log}"\necho '{"kind":"ExecCredential","status":{"token":"reader","expirationTimestamp":"${exp}"}}'\n`,
    );
    chmodSync(script, 0o755);
    const kc = write(d, 'config', kube.kubeconfigYaml({ exec: { command: script } }));
    const src = createLiveSource({ kubeconfig: kc, env: { HOME: dirOf() }, watch: false });
    await src.load();
    await src.serverVersion();
    await src.close();
    expect(readFileSync(log, 'utf8')).toBe('run\n');
  });
});

describe('HTTPS_PROXY / NO_PROXY (golang.org/x/net/http/httpproxy useProxy)', () => {
  const P = 'http://proxy.corp:3128';
  const cases: Array<[string, NodeJS.ProcessEnv, string | undefined]> = [
    ['https://k.example.com:6443', { HTTPS_PROXY: P }, P],
    ['https://k.example.com:6443', { https_proxy: 'proxy.corp:3128' }, P],
    ['https://k.example.com:6443', { HTTP_PROXY: P }, undefined],
    ['https://k.example.com:6443', { HTTPS_PROXY: P, NO_PROXY: 'example.com' }, undefined],
    ['https://k.example.com:6443', { HTTPS_PROXY: P, NO_PROXY: '.example.com' }, undefined],
    ['https://k.example.com:6443', { HTTPS_PROXY: P, NO_PROXY: 'other.com,*' }, undefined],
    ['https://k.example.com:6443', { HTTPS_PROXY: P, NO_PROXY: 'k.example.com:443' }, P],
    ['https://k.example.com:6443', { HTTPS_PROXY: P, NO_PROXY: 'k.example.com:6443' }, undefined],
    ['https://10.1.2.3:6443', { HTTPS_PROXY: P, NO_PROXY: '10.0.0.0/8' }, undefined],
    ['https://10.1.2.3:6443', { HTTPS_PROXY: P, NO_PROXY: '192.168.0.0/16' }, P],
    ['https://127.0.0.1:6443', { HTTPS_PROXY: P }, undefined],
    ['https://localhost:6443', { HTTPS_PROXY: P }, undefined],
    ['https://notexample.com', { HTTPS_PROXY: P, NO_PROXY: 'example.com' }, P],
  ];
  it.each(cases)('%s with %o → %s', (server, env, want) => {
    expect(proxyFromEnv(server, env)).toBe(want);
  });

  let proxy: Server;
  let tunnels = 0;
  const open = new Set<Socket>();
  beforeAll(async () => {
    proxy = createServer();
    proxy.on('connect', (req, client: Socket) => {
      tunnels++;
      open.add(client);
      client.on('close', () => open.delete(client));
      const port = Number(new URL(`http://${req.url}`).port);
      const up = connect(port, '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        up.pipe(client);
        client.pipe(up);
      });
      up.on('error', () => client.destroy());
      client.on('error', () => up.destroy());
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
  });
  afterAll(
    () =>
      new Promise<void>((r) => {
        for (const c of open) c.destroy();
        proxy.close(() => r());
      }),
  );

  it('HTTPS_PROXY is used for a server that is not loopback (CONNECT through a loopback proxy)', async () => {
    const a = proxy.address();
    const port = typeof a === 'object' && a ? a.port : 0;
    const server = kube.url.replace('127.0.0.1', 'kube.example.test');
    const yaml = JSON.parse(kube.kubeconfigYaml({ token: 'reader' }, { server })) as {
      clusters: Array<{ cluster: Record<string, unknown> }>;
    };
    yaml.clusters[0]!.cluster['tls-server-name'] = 'localhost';
    const kc = write(dirOf(), 'config', JSON.stringify(yaml));
    tunnels = 0;
    const { r } = await loadWith(kc, {}, { HTTPS_PROXY: `http://127.0.0.1:${port}` });
    expect(r.errors).toEqual([]);
    expect(tunnels).toBeGreaterThan(0);
  });
});
