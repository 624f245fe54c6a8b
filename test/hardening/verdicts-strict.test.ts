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
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main, type Io } from '../../src/cli/program.ts';
import { createAnswerer } from '../../src/answer/index.ts';
import { renderAnswer } from '../../src/render/text.ts';
import { createLiveSource } from '../../src/cluster/live-source.ts';
import { KubeApiServer, otherCa, type Rule } from '../support/kube-apiserver.ts';

/** One request's deadline in these runs (the CLI's QUOTA_DOCTOR_REQUEST_TIMEOUT_MS): retries stay within 2×. */
const TIMEOUT_MS = 1500;

const PASTE =
  'Error creating: pods "worker-5d8c7b9f4-glpms" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10';
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

async function run(argv: string[], stdin = ''): Promise<Cell> {
  let out = '';
  const io: Io = {
    stdout: (s) => void (out += s),
    stderr: (s) => void (out += s),
    readStdin: async () => stdin,
    isTTY: false,
  };
  return { code: await main(argv, io), out };
}

const dir = mkdtempSync(join(tmpdir(), 'qd-verdicts-strict-'));
const REFUSED_POD = join(dir, 'refused.yaml');
const ADMITTED_POD = join(dir, 'admitted.yaml');
writeFileSync(
  REFUSED_POD,
  'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: team-a}\nspec: {containers: [{name: c, image: x}]}\n',
);
writeFileSync(
  ADMITTED_POD,
  'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: team-b}\nspec: {containers: [{name: c, image: x, resources: {requests: {cpu: 100m, memory: 64Mi}, limits: {cpu: 100m, memory: 64Mi}}}]}\n',
);

type Cell = { code: number; out: string };
type Command = { name: string; run: (kubeconfig: string) => Promise<Cell> };

const answerer = createAnswerer();
/** The Slack app's calls (src/slack: `/quota` → answerer.quota, a channel message → answerer.message), code 3 for "I can't". */
const slack = (what: 'quota' | 'paste') => async (kubeconfig: string) => {
  const source = createLiveSource({ kubeconfig, env: {}, requestTimeoutMs: TIMEOUT_MS, watch: false });
  try {
    const ctx = { source, audience: 'channel' as const, allowedNamespaces: ['team-a'], defaultNamespace: 'team-a' };
    const a = what === 'quota' ? await answerer.quota('team-a', ctx) : await answerer.message(PASTE, ctx);
    const out = a ? renderAnswer(a) : '';
    return { code: a?.replies.some((r) => r.kind === 'error') ? 3 : 0, out };
  } finally {
    await source.close();
  }
};

const COMMANDS: Command[] = [
  { name: 'check (quota refuses)', run: (k) => run(['check', '-f', REFUSED_POD, '--kubeconfig', k]) },
  { name: 'check (quota admits)', run: (k) => run(['check', '-f', ADMITTED_POD, '--kubeconfig', k]) },
  { name: 'simulate', run: (k) => run(['simulate', '-f', ADMITTED_POD, '--kubeconfig', k]) },
  { name: 'diagnose', run: (k) => run(['diagnose', '-', '-n', 'team-a', '--kubeconfig', k], PASTE) },
  { name: 'quota', run: (k) => run(['quota', 'team-a', '--kubeconfig', k]) },
  { name: 'whatif', run: (k) => run(['whatif', 'what if web scales to 8 in team-a', '--kubeconfig', k]) },
  { name: 'slack /quota', run: slack('quota') },
  { name: 'slack paste', run: slack('paste') },
];

/** Claims that stand on data: made from data that was not read, each is a wrong verdict. */
const CLAIMS = [
  /no nodes available|0\/0 nodes/,
  /not found|I can't find/,
  /is not in team-a now/,
  /Largest pod that schedules now/,
  /more fit, stopped by node capacity/,
  /Free cpu \/ memory on untainted nodes|No untainted, schedulable node/,
  /no pod it counts holds any|held by /,
  /check passed/,
  /✓ verified/,
];

const cells = new Map<string, Cell>();
const saved = process.env.QUOTA_DOCTOR_REQUEST_TIMEOUT_MS;

beforeAll(async () => {
  process.env.QUOTA_DOCTOR_REQUEST_TIMEOUT_MS = String(TIMEOUT_MS);
  for (const mode of MODES) {
    const { kube, kubeconfig } = await serverFor(mode, dir);
    try {
      for (const c of COMMANDS) cells.set(`${mode}|${c.name}`, await c.run(kubeconfig));
    } finally {
      await kube.close();
    }
  }
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
    const bad: string[] = [];
    let n = 0;
    for (const mode of MODES) {
      if (mode === 'none') continue;
      for (const c of COMMANDS) {
        n++;
        const truth = cells.get(`none|${c.name}`)!;
        const got = cells.get(`${mode}|${c.name}`)!;
        const decidedWrong = got.code !== 3 && got.code !== truth.code;
        const claim = CLAIMS.find((re) => re.test(got.out) && !re.test(truth.out));
        if (decidedWrong || claim)
          bad.push(`${mode} × ${c.name}: exit ${got.code} (truth ${truth.code})${claim ? ` claims ${claim}` : ''}`);
      }
    }
    console.log(
      `verdicts (strict API server): ${n} cells, ${bad.length} wrong verdicts${bad.length ? `: ${bad.join('; ')}` : ''}`,
    );
    expect(bad).toEqual([]);
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
