/**
 * One CLI run against the strict stand-in (test/support/kube-apiserver.ts) over manifests/demo, as a
 * user with an exec credential plugin runs it: the plugin runs once, each resource is listed once
 * (23 lists + /version = 24 requests), no watch is opened, and a manifest without a namespace goes to
 * the kubeconfig context's namespace (docs/contract.md: the object's, else -n, else the context's,
 * else default). Before this change the same run made 33 requests (16 lists, 16 watches, /version
 * not read) and ran the plugin 16 times.
 */
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/program.ts';
import { capture } from '../support/capture.ts';
import { KubeApiServer } from '../support/kube-apiserver.ts';

const DEMO = fileURLToPath(new URL('../../manifests/demo', import.meta.url));
let kube: KubeApiServer;
let dir: string;
let log: string;
let kubeconfig: string;
let manifest: string;

beforeAll(async () => {
  kube = await KubeApiServer.start({ state: DEMO });
  kube.addToken('sso-token', { name: 'dev@example.com' });
  kube.bindCluster('dev@example.com', KubeApiServer.READ_ALL);
  dir = mkdtempSync(join(tmpdir(), 'qd-cli-runs-'));
  log = join(dir, 'runs.log');
  const plugin = join(dir, 'get-token');
  writeFileSync(
    plugin,
    `#!/bin/sh\necho run >> "${log}"\necho '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"sso-token"}}'\n`,
  );
  chmodSync(plugin, 0o755);
  kubeconfig = join(dir, 'config');
  writeFileSync(
    kubeconfig,
    kube.kubeconfigYaml(
      { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: './get-token' } },
      { namespace: 'team-a' },
    ),
  );
  manifest = join(dir, 'pod.yaml');
  writeFileSync(
    manifest,
    'apiVersion: v1\nkind: Pod\nmetadata: {name: probe}\nspec:\n  containers:\n  - name: c\n    image: nginx\n    resources: {requests: {cpu: 100m, memory: 64Mi}, limits: {cpu: 100m, memory: 64Mi}}\n',
  );
}, 60_000);
afterAll(async () => {
  await kube?.close();
});

describe('requests and plugin runs per CLI run (demo state)', () => {
  const cases: Array<{ name: string; argv: () => string[]; code: number; requests: number }> = [
    {
      name: 'check -f pod.yaml (placement: cluster-wide lists)',
      argv: () => ['check', '-f', manifest, '-o', 'json'],
      code: 1,
      requests: 24,
    },
    { name: 'simulate -f pod.yaml', argv: () => ['simulate', '-f', manifest, '-o', 'json'], code: 0, requests: 24 },
    { name: 'quota team-a', argv: () => ['quota', 'team-a', '-o', 'json'], code: 0, requests: 24 },
  ];
  it.each(cases)('$name: exec plugin runs 1, $requests requests, no watch', async (c) => {
    writeFileSync(log, '');
    kube.resetCounts();
    const io = capture();
    const code = await main([...c.argv(), '--kubeconfig', kubeconfig], io);
    expect(io.err.join('')).toBe('');
    expect(code).toBe(c.code);
    expect(readFileSync(log, 'utf8')).toBe('run\n');
    expect(kube.requestCount()).toBe(c.requests);
    expect(kube.requestCount('/version')).toBe(1);
    expect(kube.requests.filter((r) => /[?&]watch=/.test(r.query))).toEqual([]);
    expect([...kube.byUser.keys()]).toEqual(['dev@example.com']);
  });

  it('a manifest without a namespace goes to the context namespace; -n overrides it', async () => {
    const nsOf = async (extra: string[]) => {
      const io = capture();
      await main(['simulate', '-f', manifest, '-o', 'json', '--kubeconfig', kubeconfig, ...extra], io);
      return (JSON.parse(io.out.join('')) as { results: Array<{ namespace: string }> }).results.map((r) => r.namespace);
    };
    expect(await nsOf([])).toEqual(['team-a']);
    expect(await nsOf(['-n', 'team-b'])).toEqual(['team-b']);
  });
});
