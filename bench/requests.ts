/**
 * API requests and exec credential plugin runs per CLI run (issue #16, Acceptance: "Requests per CLI run
 * reported for the demo and for 5,000 nodes / 150,000 pods, before and after; exec plugin runs per CLI
 * run: 1"). The real CLI (`main` of src/cli/program.ts, in-process) and the real client-node read the
 * strict stand-in (test/support/kube-apiserver.ts: TLS, bearer tokens, RBAC) holding (a) manifests/demo
 * or (b) a generated 5,000 nodes / 150,000 pods (bench/generate.ts), as a user whose kubeconfig gets its
 * token from an exec plugin that logs each run. For `check -f pod.yaml`, `quota NS` and `diagnose
 * paste.txt` of one namespace it counts every request the stand-in received (lists, list pages,
 * watches, /version …) and every plugin run.
 *
 *   node --import tsx bench/requests.ts [--quick] [--json]     (--quick: the demo only)
 *
 * It depends only on the CLI's `main(argv, io)` and the stand-in, so the same file measures an older
 * tree too ("before"): copy it with test/support/{kube,fake}-apiserver.ts into a worktree of that commit.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../src/cli/program.ts';
import type { KObject } from '../src/k8s/snapshot.ts';
import { capture } from '../test/support/capture.ts';
import { KubeApiServer, type KubeApiServerOptions } from '../test/support/kube-apiserver.ts';
import { generateCluster } from './generate.ts';

const DEMO = fileURLToPath(new URL('../manifests/demo', import.meta.url));

export interface RequestsRow {
  cluster: string;
  command: string;
  /** Every request the API server received during the run. */
  requests: number;
  /** Of which list requests (each page counts), watches, and GET /version. */
  lists: number;
  watches: number;
  version: number;
  /** How many times the exec credential plugin ran. */
  execRuns: number;
  exitCode: number;
}

export interface Target {
  cluster: string;
  server: KubeApiServerOptions;
  namespace: string;
  paste: string;
}

const POD = (ns: string) =>
  `apiVersion: v1\nkind: Pod\nmetadata: {name: probe, namespace: ${ns}}\nspec:\n  containers:\n  - name: c\n    image: nginx\n    resources: {requests: {cpu: 100m, memory: 64Mi}, limits: {cpu: 100m, memory: 64Mi}}\n`;

export function demoTarget(): Target {
  return {
    cluster: 'demo',
    server: { state: DEMO },
    namespace: 'team-a',
    paste:
      'Error creating: pods "worker-5d8c7b9f4-glpms" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10\n',
  };
}

export function largeTarget(): Target {
  const g = generateCluster({ nodes: 5000, pods: 150_000 });
  const objects: KObject[] = g.objects;
  const ns = g.pending?.namespace ?? g.bigNamespace;
  return {
    cluster: '5000 nodes / 150000 pods',
    server: { objects },
    namespace: ns,
    paste: g.pending
      ? `${g.pending.namespace}   3m   Warning   FailedScheduling   pod/${g.pending.name}   ${g.pending.message}\n`
      : `0/5000 nodes are available: 5000 Insufficient cpu.\n`,
  };
}

/** Runs the three commands against one stand-in; one row per command. */
export async function measureTarget(t: Target): Promise<RequestsRow[]> {
  const kube = await KubeApiServer.start(t.server);
  const dir = mkdtempSync(join(tmpdir(), 'qd-bench-requests-'));
  try {
    kube.addToken('sso-token', { name: 'dev@example.com' });
    kube.bindCluster('dev@example.com', KubeApiServer.READ_ALL);
    const log = join(dir, 'runs.log');
    const plugin = join(dir, 'get-token');
    writeFileSync(
      plugin,
      `#!/bin/sh\necho run >> "${log}"\necho '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"sso-token"}}'\n`,
    );
    chmodSync(plugin, 0o755);
    const kubeconfig = join(dir, 'config');
    // An absolute plugin path: older trees did not resolve a relative one against the kubeconfig.
    writeFileSync(
      kubeconfig,
      kube.kubeconfigYaml({ exec: { apiVersion: 'client.authentication.k8s.io/v1', command: plugin } }),
    );
    const manifest = join(dir, 'pod.yaml');
    writeFileSync(manifest, POD(t.namespace));
    const paste = join(dir, 'paste.txt');
    writeFileSync(paste, t.paste);
    const commands: Array<{ command: string; argv: string[] }> = [
      { command: `check -f pod.yaml (${t.namespace})`, argv: ['check', '-f', manifest, '-o', 'json'] },
      { command: `quota ${t.namespace}`, argv: ['quota', t.namespace, '-o', 'json'] },
      { command: `diagnose paste.txt -n ${t.namespace}`, argv: ['diagnose', paste, '-n', t.namespace] },
    ];
    const rows: RequestsRow[] = [];
    for (const c of commands) {
      writeFileSync(log, '');
      kube.resetCounts();
      const io = capture();
      const exitCode = await main([...c.argv, '--kubeconfig', kubeconfig], io);
      // Requests a run leaves behind (watches an older tree opened and never read) count too: wait
      // until none has come for 500 ms (at most 5 s).
      for (let seen = -1, waited = 0; seen !== kube.requests.length && waited < 5000; waited += 500) {
        seen = kube.requests.length;
        await new Promise((r) => setTimeout(r, 500));
      }
      const reqs = kube.requests;
      const watches = reqs.filter((r) => /[?&]watch=(true|1)/.test(r.query)).length;
      const version = reqs.filter((r) => r.path === '/version').length;
      const lists = reqs.filter((r) => /^\/apis?\//.test(r.path) && !/[?&]watch=(true|1)/.test(r.query)).length;
      rows.push({
        cluster: t.cluster,
        command: c.command,
        requests: reqs.length,
        lists,
        watches,
        version,
        execRuns: readFileSync(log, 'utf8').split('\n').filter(Boolean).length,
        exitCode,
      });
    }
    return rows;
  } finally {
    await kube.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runRequestsBench(opts: { quick?: boolean } = {}): Promise<RequestsRow[]> {
  const rows = await measureTarget(demoTarget());
  if (!opts.quick) rows.push(...(await measureTarget(largeTarget())));
  return rows;
}

export function requestsBenchTable(rows: readonly RequestsRow[]): string {
  const head = ['cluster', 'command', 'requests', 'lists', 'watches', '/version', 'exec runs', 'exit'];
  const body = rows.map((r) => [
    r.cluster,
    r.command,
    String(r.requests),
    String(r.lists),
    String(r.watches),
    String(r.version),
    String(r.execRuns),
    String(r.exitCode),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  return [line(head), ...body.map(line)].join('\n');
}

/** The table `npm run bench` prints (bench/run.ts). */
export async function requestsReport(quick: boolean): Promise<string> {
  return `\nrequests per CLI run (bench/requests.ts)\n${requestsBenchTable(await runRequestsBench({ quick }))}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const rows = await runRequestsBench({ quick: process.argv.includes('--quick') });
  if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify(rows, null, 1)}\n`);
  else process.stdout.write(`requests per CLI run\n${requestsBenchTable(rows)}\n`);
  process.exit(0);
}
