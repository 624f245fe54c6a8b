/**
 * The client side against a stand-in as strict as kube-apiserver (test/support/kube-apiserver.ts:
 * TLS with its CA, tokens and client certificates, RBAC per user, APF 429s), with the real
 * @kubernetes/client-node 1.4 under our LiveSource, in one-shot mode as the CLI runs it.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
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
          'daemonsets',
          'deployments',
          'events',
          'jobs',
          'limitranges',
          'namespaces',
          'nodes',
          'persistentvolumeclaims',
          'pods',
          'priorityclasses',
          'replicasets',
          'resourcequotas',
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
