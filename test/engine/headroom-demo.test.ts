/**
 * Headroom as people read it (issue 17), on manifests/demo: every quota named with what its scopes
 * count, the quota that stops the next pod, holders of the tightest resource (only the pods that quota
 * counts), Pending pods that hold quota, free capacity per node for what the namespace uses (free GPUs
 * per GPU node), FailedCreate workloads; the Slack reply within Slack's limits, the full table with
 * `quota NS --nodes`. Numbers from manifests/demo/README.md and its files.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { quotaAnswer } from '../../src/answer/index.ts';
import { headroomReply, nodesReply, scopeWords } from '../../src/answer/replies/headroom.ts';
import { FileSource, readStateFiles } from '../../src/cluster/file-source.ts';
import { quotaOutputSchema } from '../../src/contract/schemas.ts';
import { computeHeadroom, headroomJson, whatIfNewNode } from '../../src/engine/headroom.ts';
import { quotaCounts, quotaHolders } from '../../src/engine/fixes.ts';
import { renderBlocks } from '../../src/render/blocks.ts';
import { createAnswerer } from '../../src/answer/index.ts';
import { assertWithinSlackLimits } from '../support/slack-limits.ts';

const DEMO = fileURLToPath(new URL('../../manifests/demo', import.meta.url));
const NOW = Date.parse('2026-03-10T09:40:00Z');
const demo = readStateFiles(DEMO, { now: NOW }).snapshot;
const headroom = (ns: string) => computeHeadroom(demo, ns, { now: NOW });

describe('quotas: named, with what their scopes count, the tightest resource and who holds it', () => {
  it.each<
    [string, { name: string; scopes: string[]; tightest: string | null; holders: string[]; pending: string[] }[]]
  >([
    [
      'team-a',
      [
        {
          name: 'team-quota',
          scopes: [],
          tightest: 'pods',
          holders: ['deploy/web 4', 'deploy/api 3 (1 Pending)', 'deploy/worker 2', 'statefulset/redis 1'],
          pending: ['api-6b9f4c7d8-gnt9f'],
        },
      ],
    ],
    [
      'team-b',
      [
        // besteffort counts only the two toolbox pods (no requests, no limits); compute the other four
        { name: 'besteffort', scopes: ['BestEffort'], tightest: 'pods', holders: ['deploy/toolbox 2'], pending: [] },
        {
          name: 'compute',
          scopes: ['NotBestEffort'],
          tightest: 'pods',
          holders: ['deploy/frontend 3', 'deploy/cache 1'],
          pending: [],
        },
      ],
    ],
    [
      'ml',
      [
        {
          name: 'gpu-quota',
          scopes: [],
          tightest: 'requests.nvidia.com/gpu',
          holders: [
            'job/finetune-7b 4 (1 Pending)',
            'deploy/inference 2',
            'job/embed-docs 1',
            'pod/notebook-priya 1 (1 Pending)',
          ],
          pending: ['finetune-7b-jmngj', 'notebook-priya'],
        },
      ],
    ],
    [
      'batch',
      [
        // PriorityClass-scoped: reindex-backfill (no class, Pending, 1500 CPU) is not counted, so not listed
        {
          name: 'batch-low',
          scopes: ['PriorityClass In batch-low'],
          tightest: 'requests.cpu',
          holders: ['job/nightly-etl-29551740 20'],
          pending: [],
        },
      ],
    ],
  ])('%s', (ns, want) => {
    expect(
      headroom(ns).quotas.map((q) => ({
        name: q.name,
        scopes: q.scopes,
        tightest: q.tightest,
        holders: q.holders.map((h) => `${h.ref} ${h.total}${h.pending ? ` (${h.pending} Pending)` : ''}`),
        pending: q.pending.pods,
      })),
    ).toEqual(want);
  });

  it('ml: the two Pending pods hold 5 of the 8 GPUs (4 + 1), 18 CPU and 72Gi of the quota', () => {
    expect(headroom('ml').quotas[0]!.pending.resources).toEqual({
      pods: '2',
      'requests.cpu': '18',
      'requests.memory': '72Gi',
      'requests.nvidia.com/gpu': '5',
    });
  });

  it('quotaHolders with the quota: only the pods its scopes count (batch-low leaves out reindex-backfill)', () => {
    const q = demo.get('ResourceQuota', 'batch', 'batch-low')!;
    expect(quotaHolders(demo, 'batch', 'requests.cpu', NOW).map((h) => h.ref)).toEqual([
      'pod/reindex-backfill',
      'job/nightly-etl-29551740',
    ]);
    expect(
      quotaHolders(demo, 'batch', 'requests.cpu', NOW, quotaCounts(demo, 'batch', q.metadata.name!)).map((h) => h.ref),
    ).toEqual(['job/nightly-etl-29551740']);
  });

  it.each<[string[], string]>([
    [[], 'counts every pod'],
    [['BestEffort'], 'counts only pods with no requests or limits (BestEffort)'],
    [['NotBestEffort'], 'counts only pods with requests or limits (NotBestEffort)'],
    [['PriorityClass In batch-low'], 'counts only pods of PriorityClass batch-low'],
    [['PriorityClass NotIn high,low'], 'counts only pods not of PriorityClass high or low'],
    [
      ['Terminating', 'PriorityClass Exists'],
      'counts only pods with activeDeadlineSeconds (Terminating) and only pods with a PriorityClass',
    ],
  ])('scopeWords(%j) = %j', (scopes, want) => {
    expect(scopeWords(scopes)).toBe(want);
  });
});

describe('the next pod: which quota stops it', () => {
  it.each<[string, { fits: number; limitedBy: string | null; quota?: string }]>([
    ['team-a', { fits: 0, limitedBy: 'pods', quota: 'team-quota' }],
    // a pod with no resources is BestEffort: counted by besteffort (2/2), not by compute
    ['team-b', { fits: 0, limitedBy: 'pods', quota: 'besteffort' }],
    ['ml', { fits: 0, limitedBy: 'must-specify' }],
    ['batch', { fits: 629, limitedBy: 'nodes' }],
  ])('%s', (ns, want) => {
    const dp = headroom(ns).defaultPod;
    expect({ fits: dp.fits, limitedBy: dp.limitedBy, ...(dp.quota ? { quota: dp.quota } : {}) }).toEqual(want);
  });
});

describe('nodes: allocatable / requested / free for the resources the namespace uses', () => {
  it.each<[string, string[]]>([
    ['team-a', ['cpu', 'memory']],
    ['team-b', ['cpu', 'memory']],
    ['ml', ['cpu', 'memory', 'nvidia.com/gpu']],
    ['batch', ['cpu', 'memory']],
  ])('%s uses %j', (ns, want) => {
    expect(headroom(ns).nodeResources).toEqual(want);
  });

  it('ml: free GPUs per node, with taints and status', () => {
    const nodes = headroom('ml').nodes;
    expect(nodes.map((n) => n.name)).toEqual([
      'control-plane-1',
      'general-a-1',
      'general-a-2',
      'general-b-1',
      'general-b-2',
      'general-b-3',
      'general-c-1',
      'general-c-2',
      'gpu-a-1',
      'gpu-b-1',
    ]);
    expect(nodes.find((n) => n.name === 'gpu-a-1')).toEqual({
      name: 'gpu-a-1',
      status: [],
      taints: ['nvidia.com/gpu=present:NoSchedule'],
      pods: { allocatable: 110, count: 3 },
      resources: {
        cpu: { allocatable: '47810m', requested: '8', free: '39810m' },
        memory: { allocatable: '186699Mi', requested: '32Gi', free: '153931Mi' },
        'nvidia.com/gpu': { allocatable: '4', requested: '2', free: '2' },
      },
    });
    expect(nodes.find((n) => n.name === 'gpu-b-1')!.resources['nvidia.com/gpu']).toEqual({
      allocatable: '4',
      requested: '1',
      free: '3',
    });
    expect(nodes.find((n) => n.name === 'general-c-2')).toMatchObject({
      status: ['cordoned'],
      taints: ['node.kubernetes.io/unschedulable:NoSchedule'],
    });
  });
});

describe('workloads failing to create pods (FailedCreate events)', () => {
  it.each<
    [string, { ref: string; object: string; cause: string; count: number; first: string | null; last: string | null }[]]
  >([
    [
      'team-a',
      [
        {
          ref: 'deploy/worker',
          object: 'rs/worker-5d8c7b9f4',
          cause: 'quota team-quota (pods)',
          count: 11,
          first: '2026-03-10T09:05:31Z',
          last: '2026-03-10T09:36:02Z',
        },
        {
          ref: 'deploy/exporter',
          object: 'rs/exporter-8f6d5c4b9',
          cause: 'LimitRange',
          count: 14,
          first: '2026-03-10T09:20:11Z',
          last: '2026-03-10T09:35:51Z',
        },
      ],
    ],
    [
      'team-b',
      [
        {
          ref: 'deploy/report-gen',
          object: 'rs/report-gen-6d8f7b9c4',
          cause: 'quota compute (must specify limits or requests)',
          count: 18,
          first: '2026-03-10T08:30:00Z',
          last: '2026-03-10T09:33:20Z',
        },
      ],
    ],
    ['ml', []],
    [
      'batch',
      [
        {
          // two events (1 + 64), the combined one's message kept without its "(combined from similar events)"
          ref: 'job/nightly-etl-29551740',
          object: 'job/nightly-etl-29551740',
          cause: 'quota batch-low (requests.cpu)',
          count: 65,
          first: '2026-03-10T01:00:01Z',
          last: '2026-03-10T09:30:14Z',
        },
      ],
    ],
  ])('%s', (ns, want) => {
    expect(headroom(ns).failedCreate.map(({ message: _, ...f }) => f)).toEqual(want);
  });
});

describe('the reply people read', () => {
  it.each<[string, string[]]>([
    [
      'team-a',
      [
        'Quota team-quota counts every pod; pods is full — held by deploy/web 4 · deploy/api 3 (1 Pending) · deploy/worker 2 · statefulset/redis 1.',
        "⚠ A Pending pod holds 1 of team-quota's 10 pods used: api-6b9f4c7d8-gnt9f (Pending pods count without running).",
        'A pod with no resources gets 100m cpu / 128Mi memory → limits 500m cpu / 512Mi memory (LimitRange defaults): 0 more fit, stopped by team-quota pods (10 / 10 used).',
        'api (3 × 1/1Gi): +0, then pods · exporter (1 × 100m/256Mi): refused (limitrange) · web (4 × 100m/128Mi): +0, then pods · worker (3 × 250m/512Mi): +0, then pods · redis (1 × 200m/256Mi): +0, then pods · db-migrate-v42 (1 × 100m/128Mi): +0, then pods',
        'Free cpu / memory on untainted nodes: general-a-1 770m / 9713Mi · general-b-1 770m / 9201Mi · general-c-1 670m / 9527Mi · general-b-2 420m / 9655Mi · general-b-3 410m / 18421Mi · and 1 more.',
        'Not taking pods: general-c-2 cordoned.',
        '⚠ 1 Pending pod: api-6b9f4c7d8-gnt9f',
        '⚠ Failing to create pods: deploy/worker — quota team-quota (pods), 11 times since 09:05 · deploy/exporter — LimitRange, 14 times since 09:20.',
      ],
    ],
    [
      'team-b',
      [
        'Quota besteffort counts only pods with no requests or limits (BestEffort); pods is full — held by deploy/toolbox 2.',
        'Quota compute counts only pods with requests or limits (NotBestEffort); pods 4 / 15 — held by deploy/frontend 3 · deploy/cache 1.',
        // storage-limits is a PersistentVolumeClaim LimitRange: no defaults for pods
        'A pod with no resources gets no requests → limits none: 0 more fit, stopped by besteffort pods (2 / 2 used).',
        'cache (1 × 250m/1Gi): +6, then compute requests.memory · frontend (3 × 200m/256Mi): +11, then compute pods · report-gen (2 × 200m/256Mi): refused (must-specify) · toolbox (2 × no requests): +0, then besteffort pods',
        'Free cpu / memory on untainted nodes: general-a-1 770m / 9713Mi · general-b-1 770m / 9201Mi · general-c-1 670m / 9527Mi · general-b-2 420m / 9655Mi · general-b-3 410m / 18421Mi · and 1 more.',
        'Not taking pods: general-c-2 cordoned.',
        '⚠ Failing to create pods: deploy/report-gen — quota compute (must specify limits or requests), 18 times since 08:30.',
      ],
    ],
    [
      'ml',
      [
        'Quota gpu-quota counts every pod; requests.nvidia.com/gpu is full — held by job/finetune-7b 4 (1 Pending) · deploy/inference 2 · job/embed-docs 1 · pod/notebook-priya 1 (1 Pending).',
        "⚠ 2 Pending pods hold 5 of gpu-quota's 8 requests.nvidia.com/gpu used: finetune-7b-jmngj, notebook-priya (Pending pods count without running).",
        'A pod with no resources is refused here: pods "quota-doctor-probe" is forbidden: failed quota: gpu-quota: must specify requests.cpu for: app; requests.memory for: app',
        'inference (1 × 8/32Gi/2): +0, then requests.nvidia.com/gpu · embed-docs (1 × 4/16Gi/1): +0, then requests.nvidia.com/gpu · finetune-7b (1 × 16/64Gi/4): +0, then requests.nvidia.com/gpu',
        'Free nvidia.com/gpu per node: gpu-b-1 3 of 4 (nvidia.com/gpu=present:NoSchedule) · gpu-a-1 2 of 4 (nvidia.com/gpu=present:NoSchedule) — the most on one node is 3, 5 in all.',
        'Free cpu / memory on untainted nodes: general-a-1 770m / 9713Mi · general-b-1 770m / 9201Mi · general-c-1 670m / 9527Mi · general-b-2 420m / 9655Mi · general-b-3 410m / 18421Mi · and 1 more.',
        'Not taking pods: general-c-2 cordoned.',
        '⚠ 2 Pending pods: finetune-7b-jmngj, notebook-priya',
      ],
    ],
    [
      'batch',
      [
        'Quota batch-low counts only pods of PriorityClass batch-low; requests.cpu 20 / 22 — held by job/nightly-etl-29551740 20.',
        'A pod with no resources gets no requests → limits none: 629 more fit, stopped by node capacity.',
        'nightly-etl-29551740 (10 × 2500m/4Gi): +0, then requests.cpu',
        'Free cpu / memory on untainted nodes: general-a-1 770m / 9713Mi · general-b-1 770m / 9201Mi · general-c-1 670m / 9527Mi · general-b-2 420m / 9655Mi · general-b-3 410m / 18421Mi · and 1 more.',
        'Not taking pods: general-c-2 cordoned.',
        '⚠ 1 Pending pod: reindex-backfill',
        '⚠ Failing to create pods: job/nightly-etl-29551740 — quota batch-low (requests.cpu), 65 times since 01:00.',
      ],
    ],
  ])('%s', (ns, lines) => {
    expect(headroomReply(headroom(ns)).lines).toEqual(lines);
  });

  it.each(['team-a', 'team-b', 'ml', 'batch'])('%s: the Slack reply is within Slack limits', (ns) => {
    assertWithinSlackLimits(renderBlocks(quotaAnswer(demo, ns, NOW)));
  });

  it('--nodes: one row per node, three columns per resource the namespace uses, taints last', () => {
    const r = nodesReply(headroom('ml'));
    expect(r.table!.columns).toEqual([
      'node',
      'status',
      'pods',
      'cpu alloc',
      'cpu req',
      'cpu free',
      'memory alloc',
      'memory req',
      'memory free',
      'nvidia.com/gpu alloc',
      'nvidia.com/gpu req',
      'nvidia.com/gpu free',
      'taints',
    ]);
    expect(r.table!.rows).toHaveLength(10);
    expect(r.table!.rows.find((row) => row[0] === 'gpu-b-1')).toEqual([
      'gpu-b-1',
      'Ready',
      '3/110',
      '47810m',
      '4',
      '43810m',
      '186699Mi',
      '16Gi',
      '170315Mi',
      '4',
      '1',
      '3',
      'nvidia.com/gpu=present:NoSchedule',
    ]);
    expect(r.table!.rows.find((row) => row[0] === 'general-c-2')!.slice(0, 3)).toEqual([
      'general-c-2',
      'cordoned',
      '1/110',
    ]);
    // the reply of quota --nodes is the headroom, then the table; /quota in Slack has the headroom only
    expect(quotaAnswer(demo, 'ml', NOW, { nodes: true }).replies.map((x) => x.headline)).toEqual([
      'ml — 1 ResourceQuota, 0 LimitRanges',
      'Nodes — cpu, memory, nvidia.com/gpu (what ml uses): allocatable / requested / free',
    ]);
    expect(quotaAnswer(demo, 'ml', NOW).replies).toHaveLength(1);
  });

  it.each(['team-a', 'team-b', 'ml', 'batch'])('%s: quota --json matches the contract schema', (ns) => {
    // `quota --json` on a complete read: the headroom and `incomplete: []` (docs/contract.md, exit 3).
    expect(quotaOutputSchema.safeParse({ ...headroomJson(headroom(ns)), incomplete: [] }).success).toBe(true);
  });

  it('/quota through the Answerer is the same reply', async () => {
    const r = await createAnswerer().quota('ml', { source: new FileSource(DEMO), now: NOW });
    expect(r.replies[0]!.lines).toEqual(headroomReply(headroom('ml')).lines);
  });
});

describe('whatIfNewNode: one more node like each pool', () => {
  it('ml: finetune fits a new GPU node; the notebook (no GPU toleration) fits none; reindex fits no shape', () => {
    const a = whatIfNewNode(demo, ['batch', 'ml']);
    expect(a.shapes.map((s) => `${s.pool} like ${s.like}`)).toEqual(['general like general-b-3', 'gpu like gpu-a-1']);
    expect(a.pods.map((p) => ({ name: p.name, fitsOn: p.fitsOn, beyond: p.beyondEveryNode }))).toEqual([
      {
        name: 'reindex-backfill',
        fitsOn: [],
        beyond: [{ resource: 'cpu', requested: '1500', largest: '47810m', node: 'gpu-a-1' }],
      },
      { name: 'finetune-7b-jmngj', fitsOn: ['gpu'], beyond: [] },
      { name: 'notebook-priya', fitsOn: [], beyond: [] },
    ]);
  });
});
