/**
 * `diagnose`, `quota` and `whatif` on the demo cluster (docs/contract.md), in-process. Numbers are worked out
 * by hand from manifests/demo (see the comments).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEMO, json, run } from './harness.ts';

const WORKER_PASTE =
  'Error creating: pods "worker-5d8c7b9f4-glpms" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10';

interface Finding {
  layer: string;
  kind: string;
  object: { resource: string; name: string };
  namespace?: string;
  facts: unknown;
  explanation: string;
  fixes: { who: string; summary: string; change: string; verified: boolean }[];
}

const WORKER_FINDING = {
  layer: 'quota',
  kind: 'quota-exceeded',
  object: { resource: 'pods', name: 'worker-5d8c7b9f4-glpms' },
  facts: {
    quota: 'team-quota',
    resources: { pods: { requested: '1', used: '10', limited: '10' } },
    exceeding: ['pods'],
  },
};

describe('diagnose --json', () => {
  beforeEach(() => {
    // Without --state, diagnose would try the live cluster: make sure there is none to find.
    vi.stubEnv('KUBECONFIG', '/nonexistent/quota-doctor-test-kubeconfig');
    vi.stubEnv('QUOTA_DOCTOR_STATE', '');
  });
  afterEach(() => void vi.unstubAllEnvs());

  it('an exceeded-quota event from stdin, no cluster: the finding from the text alone, nothing verified', async () => {
    const r = await run(['diagnose', '--json', '-n', 'team-a'], `${WORKER_PASTE}\n`);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = json<{ findings: Finding[]; manifests: unknown[] }>(r);
    expect(Object.keys(out).sort()).toEqual(['findings', 'incomplete', 'manifests']);
    expect(out.manifests).toEqual([]);
    expect(out.findings).toHaveLength(1);
    const f = out.findings[0]!;
    expect(f).toMatchObject({ ...WORKER_FINDING, namespace: 'team-a' });
    expect(f.explanation).toEqual(expect.any(String));
    for (const fix of f.fixes) expect(fix.verified).not.toBe(true);
  });

  it('the same text read from a file argument', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const file = join(mkdtempSync(join(tmpdir(), 'qd-cli-')), 'paste.txt');
    writeFileSync(file, WORKER_PASTE);
    const r = await run(['diagnose', file, '--json', '-n', 'team-a']);
    expect(r.code).toBe(0);
    expect(json<{ findings: Finding[] }>(r).findings[0]).toMatchObject(WORKER_FINDING);
  });

  it('with --state manifests/demo: the namespace from the cluster, every fix verified by re-simulation', async () => {
    const r = await run(['diagnose', '--json', '--state', DEMO], WORKER_PASTE);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const { findings } = json<{ findings: Finding[] }>(r);
    expect(findings).toHaveLength(1);
    // worker-5d8c7b9f4 is the team-a ReplicaSet of deploy/worker (30-team-a.yaml).
    expect(findings[0]).toMatchObject({ ...WORKER_FINDING, namespace: 'team-a' });
    const fixes = findings[0]!.fixes;
    expect(fixes.length).toBeGreaterThan(0);
    for (const fix of fixes) {
      expect(fix).toMatchObject({
        who: expect.any(String),
        summary: expect.any(String),
        change: expect.any(String),
        verified: true,
      });
    }
    // team-quota is at pods 10/10: one more pod needs the quota raised to 11, or one pod fewer.
    expect(fixes.map((x) => x.change)).toContain(
      `kubectl -n team-a patch resourcequota/team-quota --type merge -p '{"spec":{"hard":{"pods":"11"}}}'`,
    );
  });

  it('text with nothing in it: no findings, exit 0', async () => {
    const r = await run(['diagnose', '--json'], 'hello, is the cluster up?\n');
    expect(r.code).toBe(0);
    expect(json(r)).toEqual({ findings: [], manifests: [], incomplete: [] });
  });
});

describe('quota team-a --state manifests/demo --json', () => {
  it('has the CONTRACT keys with the numbers of 30-team-a.yaml and 10-nodes.yaml', async () => {
    const r = await run(['quota', 'team-a', '--state', DEMO, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = json<Record<string, unknown>>(r);
    expect(Object.keys(out)).toEqual(
      expect.arrayContaining(['namespace', 'quotas', 'limitRanges', 'defaultPod', 'largestSchedulablePod']),
    );
    expect(out.namespace).toBe('team-a');
    // Non-terminal team-a pods: web ×4 (100m/128Mi req, 500m/512Mi lim, from the LimitRange), api ×3 (1/1Gi,
    // 2/2Gi; one Pending, still counted), worker ×2 (250m/512Mi, 1/1Gi), redis-0 (200m/256Mi, 500m/512Mi).
    // requests.cpu 400m+3000m+500m+200m = 4100m; limits.cpu 2000m+6000m+2000m+500m = 10500m;
    // requests.memory 512Mi+3072Mi+1024Mi+256Mi = 4864Mi; limits.memory 2048Mi+6144Mi+2048Mi+512Mi = 10752Mi.
    expect(out.quotas).toEqual([
      {
        name: 'team-quota',
        scopes: [],
        resources: {
          'limits.cpu': { hard: '16', used: '10500m', free: '5500m' },
          'limits.memory': { hard: '32Gi', used: '10752Mi', free: '22016Mi' },
          pods: { hard: '10', used: '10', free: '0' },
          'requests.cpu': { hard: '8', used: '4100m', free: '3900m' },
          'requests.memory': { hard: '16Gi', used: '4864Mi', free: '11520Mi' },
        },
        // pods 10/10 is the fullest; the Pending api pod holds 1 pod, 1 CPU / 1Gi requested, 2 / 2Gi limits.
        tightest: 'pods',
        holders: [
          { ref: 'deploy/web', pods: 4, pending: 0, total: '4' },
          { ref: 'deploy/api', pods: 3, pending: 1, total: '3' },
          { ref: 'deploy/worker', pods: 2, pending: 0, total: '2' },
          { ref: 'statefulset/redis', pods: 1, pending: 0, total: '1' },
        ],
        pending: {
          pods: ['api-6b9f4c7d8-gnt9f'],
          resources: {
            'limits.cpu': '2',
            'limits.memory': '2Gi',
            pods: '1',
            'requests.cpu': '1',
            'requests.memory': '1Gi',
          },
        },
      },
    ]);
    expect(out.limitRanges).toEqual([
      {
        name: 'defaults',
        type: 'Container',
        default: { cpu: '500m', memory: '512Mi' },
        defaultRequest: { cpu: '100m', memory: '128Mi' },
        min: {},
        max: { cpu: '2', memory: '4Gi' },
        maxLimitRequestRatio: { cpu: '10' },
      },
    ]);
    // pods 10/10: not one more default pod fits.
    expect(out.defaultPod).toEqual({ fits: 0, limitedBy: 'pods', quota: 'team-quota' });
    // Free on schedulable, untainted nodes (allocatable − requests of bound non-terminal pods):
    // general-a-1 770m / 9713Mi (15129656Ki ≈ 14775Mi allocatable − 5062Mi requested), general-b-1 770m / 9201Mi, c-1 670m, b-2 420m,
    // b-3 410m, a-2 320m; general-c-2 is cordoned, gpu-* and control-plane-1 tainted. The largest pod: 770m
    // on general-a-1 (the one with more memory of the two 770m nodes).
    expect(out.largestSchedulablePod).toEqual({ cpu: '770m', memory: '9713Mi', node: 'general-a-1' });
  });
});

describe('whatif', () => {
  it('"what if web scales to 8" -n team-a: the four new pods hit team-quota, pods must go to 14', async () => {
    const r = await run(['whatif', 'what if web scales to 8', '-n', 'team-a', '--state', DEMO]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('web 4 → 8');
    expect(r.stdout).toMatch(
      /pods "web-7c5d8f9b6-[a-z0-9]{5}" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10/,
    );
    expect(r.stdout).toContain('raise team-quota pods to 14');
    expect(r.stdout).toContain('Command: kubectl -n team-a scale deploy/web --replicas=8');
  });

  it('"what\'s wrong in team-a?" --json: every open incident, structured (the demo\'s events: counts and first times)', async () => {
    const r = await run(['whatif', "what's wrong in team-a?", '--state', DEMO, '--json']);
    expect(r.code).toBe(0);
    const out = json<{ incidents: Record<string, unknown>[] }>(r);
    expect(
      out.incidents.map(({ kind, namespace, object, layer, since, count, progress }) => ({
        kind,
        namespace,
        object,
        layer,
        since,
        count,
        progress,
      })),
    ).toEqual([
      {
        kind: 'pending',
        namespace: 'team-a',
        object: { kind: 'Deployment', name: 'api' },
        layer: 'scheduler',
        since: '2026-03-10T07:58:05.000Z',
        count: 21,
        progress: undefined,
      },
      {
        kind: 'refused',
        namespace: 'team-a',
        object: { kind: 'Deployment', name: 'exporter' },
        layer: 'limitrange',
        since: '2026-03-10T09:20:11.000Z',
        count: 14,
        progress: { have: 0, want: 1 },
      },
      {
        kind: 'refused',
        namespace: 'team-a',
        object: { kind: 'Deployment', name: 'worker' },
        layer: 'quota',
        since: '2026-03-10T09:05:31.000Z',
        count: 11,
        progress: { have: 2, want: 3 },
      },
    ]);
  });
});
