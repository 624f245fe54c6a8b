/**
 * The zod schemas of the JSON contract (src/contract/schemas.ts) against what the real CLI prints on the
 * demo cluster: every `--json` output below must validate, strictly (an added or renamed field fails here
 * until the schema — and so the MCP tools' schemas — say it), and must not be empty where the story has content.
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  checkOutputSchema,
  diagnoseOutputSchema,
  quotaOutputSchema,
  simulateOutputSchema,
  whatifOutputSchema,
} from '../../src/contract/schemas.ts';
import { DEMO, MANIFESTS, run } from '../cli/harness.ts';

const PASTES = {
  'team-a pods quota':
    'Error creating: pods "worker-5d8c7b9f4-glpms" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10',
  'team-a ratio':
    'Error creating: pods "exporter-8f6d5c4b9-79btt" is forbidden: cpu max limit to request ratio per Container is 10, but provided ratio is 20.000000',
  'team-b must specify':
    'Error creating: pods "report-gen-6d8f7b9c4-87lqz" is forbidden: failed quota: compute: must specify limits.cpu for: app; limits.memory for: app',
  OOMKilled: 'Last State: Terminated  Reason: OOMKilled  Exit Code: 137',
  unschedulable:
    '0/10 nodes are available: 1 node(s) were unschedulable, 3 node(s) had untolerated taint(s), 6 Insufficient cpu. no new claims to deallocate, preemption: 0/10 nodes are available: 4 Preemption is not helpful for scheduling, 6 No preemption victims found for incoming pod.',
  'batch quota':
    'Error creating: pods "nightly-etl-29551740-kgtlw" is forbidden: exceeded quota: batch-low, requested: requests.cpu=2500m, used: requests.cpu=20, limited: requests.cpu=22',
  'a pasted manifest':
    'apiVersion: v1\nkind: Pod\nmetadata:\n  name: big\n  namespace: team-a\nspec:\n  containers:\n  - name: app\n    image: nginx\n    resources:\n      requests:\n        cpu: "3"\n',
  nothing: 'hello there',
} as const;

async function jsonOf(argv: string[], stdin = ''): Promise<unknown> {
  const r = await run(argv, stdin);
  expect([r.stderr, r.code === 0 || r.code === 1]).toEqual(['', true]);
  return JSON.parse(r.stdout) as unknown;
}

function valid<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const r = schema.safeParse(value);
  expect(r.success ? [] : r.error.issues).toEqual([]);
  return r.data as z.infer<S>;
}

describe('diagnose --json validates against diagnoseOutputSchema', () => {
  it.each(Object.entries(PASTES))('%s', async (_, text) => {
    const out = valid(diagnoseOutputSchema, await jsonOf(['diagnose', '--state', DEMO, '--json'], text));
    expect(out.findings.length + out.manifests.length > 0).toBe(text !== PASTES.nothing);
  });

  it('without a cluster (text only), too', async () => {
    const out = valid(
      diagnoseOutputSchema,
      await jsonOf(['diagnose', '--state', `${MANIFESTS}/cli/small.yaml`, '--json'], PASTES['team-a pods quota']),
    );
    expect(out.findings.map((f) => f.kind)).toEqual(['quota-exceeded']);
  });
});

describe('simulate / check --json validate against simulateOutputSchema', () => {
  it.each(['web.yaml', 'web-4-replicas.yaml', 'web-no-namespace.yaml', 'web.json', 'small.yaml', 'cpu-10000.yaml'])(
    '%s',
    async (file) => {
      for (const command of ['simulate', 'check']) {
        const out = valid(
          simulateOutputSchema,
          await jsonOf([command, '-f', `${MANIFESTS}/cli/${file}`, '--state', DEMO, '--json']),
        );
        expect(out.results.length).toBeGreaterThan(0);
      }
    },
  );

  it('checkOutputSchema is simulate --json plus a verdict', () => {
    expect(checkOutputSchema.safeParse({ results: [], warnings: [], incomplete: [], verdict: 'pass' }).success).toBe(
      true,
    );
    expect(checkOutputSchema.safeParse({ results: [], warnings: [], incomplete: [] }).success).toBe(false);
  });
});

describe('quota --json validates against quotaOutputSchema', () => {
  it.each([
    ['team-a', 1],
    ['team-b', 2],
    ['ml', 1],
    ['batch', 1],
    ['kube-system', 0],
  ])('%s (%i quotas)', async (ns, quotas) => {
    const out = valid(quotaOutputSchema, await jsonOf(['quota', ns, '--state', DEMO, '--json']));
    expect([out.namespace, out.quotas.length]).toEqual([ns, quotas]);
  });
});

describe('whatif --json validates against whatifOutputSchema', () => {
  it.each([
    ['what if web scales to 8 in team-a?', 'whatif'],
    ['what if general-a-1 goes down?', 'whatif'],
    ['raise pods of team-quota to 14 in team-a', 'whatif'],
    ['roll out web in team-a', 'whatif'],
    ['what if the limitrange defaults max cpu is 4 in team-a?', 'whatif'],
    ['quota team-b', 'headroom'],
    ['why is api pending in team-a?', 'diagnosis'],
    ['hello', 'help'],
  ])('%s', async (question, kind) => {
    const out = valid(whatifOutputSchema, await jsonOf(['whatif', question, '--state', DEMO, '--json']));
    expect(out.replies[0]?.kind).toBe(kind);
  });
});

describe('the schemas are strict where quota-doctor builds the object', () => {
  it.each([
    [
      'an unknown field of a finding',
      diagnoseOutputSchema,
      { findings: [{ layer: 'quota', kind: 'k', facts: {}, explanation: '', fixes: [], extra: 1 }], manifests: [] },
    ],
    [
      'a layer outside the contract',
      diagnoseOutputSchema,
      { findings: [{ layer: 'webhook', kind: 'k', facts: {}, explanation: '', fixes: [] }], manifests: [] },
    ],
    [
      'a fix without verified',
      whatifOutputSchema,
      {
        replies: [
          { kind: 'whatif', icon: '', headline: '', lines: [], fixes: [{ who: 'platform', summary: '' }], gaps: [] },
        ],
      },
    ],
    [
      'a quantity as a number',
      quotaOutputSchema,
      {
        namespace: 'a',
        quotas: [{ name: 'q', scopes: [], resources: { pods: { hard: 1, used: '0', free: '1' } } }],
        limitRanges: [],
        defaultPod: { fits: 1, limitedBy: null },
        largestSchedulablePod: null,
        workloads: [],
        pendingPods: [],
      },
    ],
  ] as const)('refuses %s', (_, schema, value) => {
    expect(schema.safeParse(value).success).toBe(false);
  });

  it('a Kubernetes object keeps its own fields (loose)', () => {
    const result = {
      kind: 'Pod',
      namespace: 'a',
      name: 'p',
      admission: { allowed: true, layer: null, message: null },
      object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', uid: 'x' }, spec: { containers: [] } },
      quotaUsage: {},
      scheduling: null,
    };
    const out = valid(simulateOutputSchema, { results: [result], warnings: [], incomplete: [] });
    expect(out.results[0]?.object).toEqual(result.object);
  });
});
