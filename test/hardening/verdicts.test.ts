/**
 * Verdicts only from what was read (issue #16, Acceptance): each failure mode of the API server × each
 * command, with the real client-node on the loopback fake API server (test/support/fake-apiserver.ts).
 * A wrong verdict is a pass, a fail, a "not found" or a number that the full read does not give: every
 * cell answers as the full read does, or says it could not decide (exit 3 / an "I can't answer" reply),
 * naming what it could not read. The tenant rows are the issue's: a pod the `pods` quota refuses exits 1
 * naming the quota; a pod the quota admits exits 3 saying nodes could not be read.
 */
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cell, fillMatrix, matrixCommands, wrongVerdicts } from '../support/verdict-matrix.ts';
import { FakeApiServer } from '../support/fake-apiserver.ts';

const CLUSTER_SCOPED = ['nodes', 'namespaces', 'priorityclasses', 'storageclasses'];
const NAMESPACED = [
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
const ALL = [...CLUSTER_SCOPED, ...NAMESPACED];

type Mode = 'none' | '401' | 'refused' | '403 nodes' | 'tenant' | '429 pods' | '5xx';
const MODES: Mode[] = ['none', '401', 'refused', '403 nodes', 'tenant', '429 pods', '5xx'];

function inject(fake: FakeApiServer, mode: Mode): void {
  if (mode === '401') for (const r of ALL) fake.fail(r, 401);
  if (mode === '403 nodes') fake.forbid('nodes');
  if (mode === 'tenant') {
    for (const r of CLUSTER_SCOPED) fake.forbid(r);
    for (const r of NAMESPACED) fake.forbid(r, 'cluster');
  }
  if (mode === '429 pods') fake.fail('pods', 429);
  if (mode === '5xx') {
    fake.fail('nodes', 503);
    fake.fail('resourcequotas', 500);
  }
}

/** One request's deadline (the CLI's QUOTA_DOCTOR_REQUEST_TIMEOUT_MS): 429/5xx retries stay within 2×. */
const TIMEOUT_MS = 1500;
const { dir, commands: COMMANDS } = matrixCommands(TIMEOUT_MS);
let cells = new Map<string, Cell>();
const saved = process.env.QUOTA_DOCTOR_REQUEST_TIMEOUT_MS;
afterAll(() => {
  if (saved === undefined) delete process.env.QUOTA_DOCTOR_REQUEST_TIMEOUT_MS;
  else process.env.QUOTA_DOCTOR_REQUEST_TIMEOUT_MS = saved;
});

beforeAll(async () => {
  process.env.QUOTA_DOCTOR_REQUEST_TIMEOUT_MS = String(TIMEOUT_MS);
  cells = await fillMatrix(MODES, COMMANDS, async (mode) => {
    const fake = await FakeApiServer.start({ state: 'manifests/demo' });
    const kubeconfig = fake.writeKubeconfig(join(mkdtempSync(join(dir, 'kc-')), 'config'));
    if (mode === 'refused') {
      await fake.close();
      return { kubeconfig, close: async () => {} };
    }
    inject(fake, mode);
    return { kubeconfig, close: () => fake.close() };
  });
}, 600_000);

/** Exit (or reply) codes per mode and command: decided as the full read, or 3. */
const EXPECTED: Record<Mode, number[]> = {
  //          check✗ check✓ simulate diagnose quota whatif /quota paste
  none: [1, 0, 0, 0, 0, 0, 0, 0],
  '401': [3, 3, 3, 3, 3, 3, 3, 0],
  refused: [3, 3, 3, 3, 3, 3, 3, 0],
  // diagnose of a quota refusal: it stands on the namespace's reads (issue #16: a verdict that does not
  // need the missing data stands), only its fixes (verified through the scheduler) are not offered.
  '403 nodes': [1, 3, 3, 0, 0, 3, 0, 0],
  tenant: [1, 3, 3, 0, 0, 3, 0, 0],
  '429 pods': [1, 3, 3, 3, 0, 3, 0, 0],
  '5xx': [3, 3, 3, 3, 3, 3, 3, 0],
};

describe('failure mode × command: 0 wrong verdicts', () => {
  it('counts the wrong verdicts of the matrix: 0', () => {
    const { cells: n, wrong } = wrongVerdicts(cells, MODES, COMMANDS);
    expect(n).toBe(48);
    expect(wrong).toEqual([]);
  });

  it.each(MODES)('%s: the codes of every command', (mode) => {
    expect(COMMANDS.map((c) => cells.get(`${mode}|${c.name}`)!.code)).toEqual(EXPECTED[mode]);
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
      `⚠ couldn't read nodes and pods: 403 Forbidden — nodes is forbidden: User "system:serviceaccount:quota-doctor:quota-doctor" cannot list resource "nodes" in API group "" at the cluster scope`,
    ]);
  });

  it('a tenant: quota team-a is complete from namespaced reads (the bars as the full read), placement unknown', () => {
    const full = cells.get('none|quota')!.out;
    const r = cells.get('tenant|quota')!.out;
    const bars = (s: string) => s.split('\n').filter((l) => /free/.test(l) && !/couldn't/.test(l));
    expect(bars(r)).toEqual(bars(full));
    expect(r).toContain('are unknown: placement was not read');
  });
});
