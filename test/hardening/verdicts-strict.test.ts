/**
 * Verdicts only from what was read (issue #16, Acceptance), on the strict stand-in of kube-apiserver
 * (test/support/kube-apiserver.ts: TLS with its own CA, bearer tokens that expire, RBAC per user with
 * namespaced RoleBindings, APF's 429 with Retry-After, 5xx) with the real client-node: each failure mode
 * × each command (`check` of a pod the `pods` quota refuses and of one it admits, `simulate`, `diagnose`,
 * `quota`, `whatif`, Slack `/quota` and a pasted error, both through the real Answerer as the Slack app
 * calls it). A wrong verdict is an exit code (or reply) that decides differently from the full read, or
 * a claim (a pass, "not found", a number placement decides) the full read does not make; a cell that
 * cannot decide exits 3 (or replies "I can't …") naming what it could not read. The count is printed.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cell, fillMatrix, matrixCommands, wrongVerdicts } from '../support/verdict-matrix.ts';
import { KubeApiServer, otherCa, type Rule } from '../support/kube-apiserver.ts';

/** One request's deadline in these runs (the CLI's QUOTA_DOCTOR_REQUEST_TIMEOUT_MS): retries stay within 2×. */
const TIMEOUT_MS = 1500;

const RESOURCES = [
  'nodes',
  'namespaces',
  'priorityclasses',
  'storageclasses',
  'pods',
  'resourcequotas',
  'limitranges',
  'persistentvolumeclaims',
  'services',
  'events',
  'deployments',
  'replicasets',
  'statefulsets',
  'daemonsets',
  'jobs',
  'cronjobs',
];
const READ = (resources: string[]): Rule[] => [{ verbs: ['get', 'list', 'watch'], resources }];

type Mode = 'none' | 'expired token' | 'wrong CA' | 'refused' | '403 nodes' | 'tenant' | '429 pods' | '5xx' | 'timeout';
const MODES: Mode[] = [
  'none',
  'expired token',
  'wrong CA',
  'refused',
  '403 nodes',
  'tenant',
  '429 pods',
  '5xx',
  'timeout',
];

/** The server and the kubeconfig of one failure mode (a fresh server each: throttles and grants do not carry over). */
async function serverFor(mode: Mode, dir: string): Promise<{ kube: KubeApiServer; kubeconfig: string }> {
  const kube = await KubeApiServer.start({ state: 'manifests/demo' });
  const user = mode === 'tenant' ? 'alice' : 'dev@example.com';
  kube.addToken('t', { name: user }, mode === 'expired token' ? { expiresAt: Date.now() - 60_000 } : {});
  if (mode === 'tenant') {
    // The README's CI recipe run with a tenant's own kubeconfig: RoleBindings in its namespaces only.
    kube.bindNamespace('team-a', user, KubeApiServer.READ_ALL);
    kube.bindNamespace('team-b', user, KubeApiServer.READ_ALL);
  } else if (mode === '403 nodes') kube.bindCluster(user, READ(RESOURCES.filter((r) => r !== 'nodes')));
  else kube.bindCluster(user, KubeApiServer.READ_ALL);
  if (mode === '429 pods') kube.throttle({ resource: 'pods', times: 100_000, retryAfterSeconds: 1 });
  if (mode === '5xx') {
    kube.failNext('nodes', 503, 100_000);
    kube.failNext('resourcequotas', 500, 100_000);
  }
  if (mode === 'timeout') kube.data.delay('nodes', 20_000);
  const kubeconfig = join(mkdtempSync(join(dir, 'kc-')), 'config');
  writeFileSync(kubeconfig, kube.kubeconfigYaml({ token: 't' }, mode === 'wrong CA' ? { ca: otherCa() } : {}));
  if (mode === 'refused') await kube.down();
  return { kube, kubeconfig };
}

const { dir, commands: COMMANDS } = matrixCommands(TIMEOUT_MS);
let cells = new Map<string, Cell>();
const saved = process.env.QUOTA_DOCTOR_REQUEST_TIMEOUT_MS;

beforeAll(async () => {
  process.env.QUOTA_DOCTOR_REQUEST_TIMEOUT_MS = String(TIMEOUT_MS);
  cells = await fillMatrix(MODES, COMMANDS, async (mode) => {
    const { kube, kubeconfig } = await serverFor(mode, dir);
    return { kubeconfig, close: () => kube.close() };
  });
}, 900_000);
afterAll(() => {
  if (saved === undefined) delete process.env.QUOTA_DOCTOR_REQUEST_TIMEOUT_MS;
  else process.env.QUOTA_DOCTOR_REQUEST_TIMEOUT_MS = saved;
});

/** Exit (or reply) codes per mode and command: decided as the full read, or 3. */
const EXPECTED: Record<Mode, number[]> = {
  //                check✗ check✓ simulate diagnose quota whatif /quota paste
  none: [1, 0, 0, 0, 0, 0, 0, 0],
  'expired token': [3, 3, 3, 3, 3, 3, 3, 0],
  'wrong CA': [3, 3, 3, 3, 3, 3, 3, 0],
  refused: [3, 3, 3, 3, 3, 3, 3, 0],
  // The quota refusal stands without nodes; what placement decides is 3.
  '403 nodes': [1, 3, 3, 0, 0, 3, 0, 0],
  tenant: [1, 3, 3, 0, 0, 3, 0, 0],
  // Quota admission reads the ResourceQuota's status.used, not the pods (k8s.io/apiserver
  // pkg/admission/plugin/resourcequota/controller.go checkRequest): the refusal stands; diagnose needs
  // the namespace's pods (the subject, the holders) and says it could not decide.
  '429 pods': [1, 3, 3, 3, 0, 3, 0, 0],
  '5xx': [3, 3, 3, 3, 3, 3, 3, 0],
  timeout: [1, 3, 3, 0, 0, 3, 0, 0],
};

describe('strict API server: failure mode × command, 0 wrong verdicts', () => {
  it('counts the wrong verdicts of the matrix: 0', () => {
    const { cells: n, wrong } = wrongVerdicts(cells, MODES, COMMANDS);
    console.log(
      `verdicts (strict API server): ${n} cells, ${wrong.length} wrong verdicts${wrong.length ? `: ${wrong.join('; ')}` : ''}`,
    );
    expect(n).toBe(64);
    expect(wrong).toEqual([]);
  });

  it.each(MODES)('%s: the codes of every command', (mode) => {
    expect(COMMANDS.map((c) => cells.get(`${mode}|${c.name}`)!.code)).toEqual(EXPECTED[mode]);
  });

  it.each(MODES.filter((m) => m !== 'none'))('%s: an undecided cell says what it could not read', (mode) => {
    for (const c of COMMANDS) {
      const got = cells.get(`${mode}|${c.name}`)!;
      if (got.code === 3) expect(got.out, `${mode} × ${c.name}`).toMatch(/couldn't read/);
    }
  });

  it('a tenant: a pod the pods quota refuses exits 1 naming the quota', () => {
    const r = cells.get('tenant|check (quota refuses)')!;
    expect(r.code).toBe(1);
    expect(r.out).toContain('exceeded quota: team-quota');
  });

  it('a tenant: a pod the quota admits exits 3, saying once, in one line, that nodes could not be read', () => {
    const r = cells.get('tenant|check (quota admits)')!;
    expect(r.code).toBe(3);
    expect(r.out.split('\n').filter((l) => l.includes("couldn't read"))).toEqual([
      `⚠ couldn't read nodes and pods: 403 Forbidden — nodes is forbidden: User "alice" cannot list resource "nodes" in API group "" at the cluster scope`,
    ]);
  });

  it("a tenant's quota team-a: the bars as the full read, one line for what was not read", () => {
    const bars = (s: string) => s.split('\n').filter((l) => /free/.test(l) && !/couldn't/.test(l));
    const r = cells.get('tenant|quota')!.out;
    expect(bars(r)).toEqual(bars(cells.get('none|quota')!.out));
    expect(r.split('\n').filter((l) => l.includes("couldn't read"))).toHaveLength(1);
  });
});
