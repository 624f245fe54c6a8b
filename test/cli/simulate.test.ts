/**
 * `quota-doctor simulate -f MANIFEST [--state PATH] [-n NS] --json` (docs/contract.md), in-process.
 */
import { describe, expect, it } from 'vitest';
import { MANIFESTS, STATES, json, run } from './harness.ts';

interface SimJson {
  results: {
    kind: string;
    namespace: string;
    name: string;
    admission: { allowed: boolean; layer: string | null; message: string | null };
    object: { metadata: { name: string; namespace?: string } };
    quotaUsage: Record<string, Record<string, string>>;
    scheduling: { scheduled: boolean; node: string | null; message: string | null } | null;
  }[];
  warnings: string[];
  incomplete: { resource: string; namespace: string | null; reason: string }[];
}

const M = `${MANIFESTS}/cli`;
const S = STATES;

async function simulate(manifest: string, state: string, ...more: string[]): Promise<SimJson> {
  const r = await run(['simulate', '-f', manifest, '--state', state, '--json', ...more]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return json<SimJson>(r);
}

const ADMITTED = { allowed: true, layer: null, message: null };
const ON_N1 = { scheduled: true, node: 'n1', message: null };

describe('simulate --json: the shape', () => {
  it('has exactly results[], warnings[] and incomplete[]; each result exactly the CONTRACT keys', async () => {
    const out = await simulate(`${M}/web-4-replicas.yaml`, `${S}/pods-3.yaml`);
    expect(Object.keys(out).sort()).toEqual(['incomplete', 'results', 'warnings']);
    expect(out.incomplete).toEqual([]);
    expect(Array.isArray(out.warnings)).toBe(true);
    for (const r of out.results) {
      expect(Object.keys(r).sort()).toEqual([
        'admission',
        'kind',
        'name',
        'namespace',
        'object',
        'quotaUsage',
        'scheduling',
        'verdict',
      ]);
      expect(Object.keys(r.admission).sort()).toEqual(['allowed', 'layer', 'message']);
      if (r.scheduling !== null) expect(Object.keys(r.scheduling).sort()).toEqual(['message', 'node', 'scheduled']);
      expect(r.object.metadata.name).toBe(r.name);
    }
  });
});

describe('simulate --json: the docs scenarios', () => {
  it('Deployment of 4 replicas under pods: "3": the workload, 3 pods placed, the 4th refused by quota', async () => {
    const { results } = await simulate(`${M}/web-4-replicas.yaml`, `${S}/pods-3.yaml`);
    expect(results.map((r) => r.kind)).toEqual(['Deployment', 'Pod', 'Pod', 'Pod', 'Pod']);
    expect(results[0]).toMatchObject({
      kind: 'Deployment',
      namespace: 'team-a',
      name: 'web',
      admission: ADMITTED,
      scheduling: null,
    });

    const pods = results.slice(1);
    for (const p of pods) expect(p.name).toMatch(/^web-[a-z0-9]+-[a-z0-9]{5}$/);
    expect(new Set(pods.map((p) => p.name)).size).toBe(4);
    for (const p of pods.slice(0, 3)) {
      expect(p).toMatchObject({
        namespace: 'team-a',
        admission: ADMITTED,
        quotaUsage: { 'pods-3': { pods: '1' } },
        scheduling: ON_N1,
      });
    }
    const fourth = pods[3]!;
    expect(fourth.admission.allowed).toBe(false);
    expect(fourth.admission.layer).toBe('quota');
    const m =
      /^pods "([^"]+)" is forbidden: exceeded quota: pods-3, requested: pods=1, used: pods=3, limited: pods=3$/.exec(
        fourth.admission.message ?? '',
      );
    expect(m, fourth.admission.message ?? 'null').not.toBeNull();
    expect(m![1]).toBe(fourth.name);
    expect(fourth.scheduling).toBeNull();
  });

  it('cpu: 10000 under a quota that allows it on a 1-node cluster: admitted, unschedulable', async () => {
    const { results } = await simulate(`${M}/cpu-10000.yaml`, `${S}/big-cpu-list.yaml`);
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({
      kind: 'Pod',
      namespace: 'team-a',
      name: 'huge',
      admission: ADMITTED,
      // 10000 CPUs in the canonical form Kubernetes prints.
      quotaUsage: { big: { 'requests.cpu': '10k' } },
      scheduling: {
        scheduled: false,
        node: null,
        message:
          '0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
      },
    });
  });

  it('LimitRange max: refused at the limitrange layer', async () => {
    const { results } = await simulate(`${M}/too-large.yaml`, `${S}/limitrange`);
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({
      kind: 'Pod',
      namespace: 'team-a',
      name: 'too-large',
      admission: {
        allowed: false,
        layer: 'limitrange',
        message: 'pods "too-large" is forbidden: maximum cpu usage per Container is 1, but limit is 2',
      },
      scheduling: null,
    });
  });
});

describe('simulate --json: --state in every form kubectl writes', () => {
  const BUDGET = 'pods "web" is forbidden: exceeded quota: budget, requested: pods=1, used: pods=2, limited: pods=2';
  it.each([
    {
      form: 'a folder, one object a file (nested folder too)',
      state: 'budget-folder',
      manifest: 'web.yaml',
      computed: true,
    },
    { form: 'a kind: List', state: 'budget-list.yaml', manifest: 'web.yaml', computed: true },
    {
      form: 'a folder with multi-doc YAML and a PodList',
      state: 'budget-podlist',
      manifest: 'web.yaml',
      computed: true,
    },
    {
      form: 'JSON (kubectl get -o json), status.used given',
      state: 'budget.json',
      manifest: 'web.yaml',
      computed: false,
    },
    { form: 'JSON state, a JSON manifest', state: 'budget.json', manifest: 'web.json', computed: false },
  ])('$form: $state', async ({ state, manifest, computed }) => {
    const out = await simulate(`${M}/${manifest}`, `${S}/${state}`);
    expect(out.results).toHaveLength(1);
    expect(out.results[0]).toMatchObject({
      kind: 'Pod',
      namespace: 'team-a',
      name: 'web',
      admission: { allowed: false, layer: 'quota', message: BUDGET },
      scheduling: null,
    });
    if (computed) expect(out.warnings).toEqual([expect.stringMatching(/budget.*status\.used computed/)]);
    else expect(out.warnings).toEqual([]);
  });

  // CONTRACT: "Others [kinds] are skipped with a warning". A folder of `kubectl get <kind> -o yaml` files
  // holds empty Lists (no PVCs in the namespace) and kinds we do not read (ConfigMapList): neither is
  // unreadable input.
  it('a kubectl dump folder with an empty List and a ConfigMapList: answered, the ConfigMap skipped with a warning', async () => {
    const r = await run(['simulate', '-f', `${M}/web.yaml`, '--state', `${S}/kubectl-dump`, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = json<SimJson>(r);
    expect(out.results[0]!.admission.message).toBe(BUDGET);
    expect(out.warnings).toEqual([expect.stringMatching(/ConfigMap team-a\/settings/)]);
  });

  it('status.used is taken as given when present', async () => {
    const { results } = await simulate(`${M}/web.yaml`, `${S}/used-given.yaml`);
    expect(results[0]!.admission).toEqual({
      allowed: false,
      layer: 'quota',
      message: 'pods "web" is forbidden: exceeded quota: budget, requested: pods=1, used: pods=3, limited: pods=3',
    });
  });

  it('a manifest without a namespace takes -n', async () => {
    const { results } = await simulate(`${M}/web-no-namespace.yaml`, `${S}/budget.json`, '-n', 'team-a');
    expect(results[0]).toMatchObject({
      namespace: 'team-a',
      name: 'web',
      admission: { layer: 'quota', message: BUDGET },
    });
  });

  it('the manifest from stdin (-f -)', async () => {
    const { readFileSync } = await import('node:fs');
    const r = await run(
      ['simulate', '-f', '-', '--state', `${S}/budget.json`, '--json'],
      readFileSync(`${M}/web.yaml`, 'utf8'),
    );
    expect(r.code).toBe(0);
    expect(json<SimJson>(r).results[0]!.admission.message).toBe(BUDGET);
  });
});

describe('simulate --json: quotaUsage', () => {
  it('per matching quota, only the resources that quota tracks; a non-matching scope is absent', async () => {
    const { results } = await simulate(`${M}/small.yaml`, `${S}/two-quotas.yaml`);
    expect(results).toHaveLength(1);
    expect(results[0]!.admission).toEqual(ADMITTED);
    expect(results[0]!.scheduling).toEqual(ON_N1);
    expect(results[0]!.quotaUsage).toEqual({
      budget: { pods: '1', 'requests.cpu': '100m' },
      mem: { 'requests.memory': '64Mi', 'limits.memory': '128Mi' },
    });
  });
});
