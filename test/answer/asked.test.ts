/**
 * Every question form of issue 17 ("how much X is left", "can I add N W", "is NODE back", priority, "add a
 * node", typos) asked through the real Answerer against manifests/demo, with the exact reply expected.
 * Numbers worked out from the demo files (manifests/demo/README.md):
 * - gpu-quota requests.nvidia.com/gpu 8/8: inference 2 (bound, gpu-a-1) + embed-docs 1 (bound, gpu-b-1) +
 *   finetune-7b-jmngj 4 and notebook-priya 1 (Pending) → 5 held by Pending pods; gpu-a-1 4 − 2 = 2 free,
 *   gpu-b-1 4 − 1 = 3 free.
 * - team-b compute requests.cpu 4 − 850m = 3150m; the roomiest untainted node is general-a-1, 3920m − 3150m = 770m.
 * - team-a team-quota pods 10/10; requests.memory 16Gi − 4864Mi = 11520Mi, of it 1Gi the Pending api pod's.
 * - general-c-2: cordoned at 07:58 (its unschedulable taint's timeAdded), Ready, only kube-proxy on it.
 * - reindex-backfill requests 1500 CPU; the largest allocatable is gpu-a-1's 47810m.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { AskContext } from '../../src/answer/answerer.ts';
import { createAnswerer } from '../../src/answer/index.ts';
import { closestNames, editDistance } from '../../src/answer/handlers/suggest.ts';
import { consoleDefaultNamespace } from '../../src/cli/console.ts';
import { FileSource, readStateFiles } from '../../src/cluster/file-source.ts';

const DEMO = fileURLToPath(new URL('../../manifests/demo', import.meta.url));
const NOW = Date.parse('2026-03-10T09:40:00Z');
const source = new FileSource(DEMO);
const a = createAnswerer();

interface Expected {
  namespaces: string[];
  headline: string;
  lines: string[];
}

const UNTAINTED_CPU =
  'Free cpu per node (untainted, schedulable): general-a-1 770m of 3920m · general-b-1 770m of 3920m · general-c-1 670m of 3920m · general-b-2 420m of 3920m · general-b-3 410m of 7910m · and 1 more; 3360m in all.';
const POOLS =
  'Pools: general (like general-b-3: 7910m cpu / 30709Mi) · gpu (like gpu-a-1: 47810m cpu / 186699Mi / 4 nvidia.com/gpu). DaemonSet pods a new node would also run are not counted.';

const CASES: [string, Partial<AskContext>, Expected][] = [
  // ── how much X is left (in NS)
  [
    'how much GPU is left in ml?',
    {},
    {
      namespaces: ['ml'],
      headline: 'ml: how much nvidia.com/gpu is left',
      lines: [
        'A new pod that requests nvidia.com/gpu is refused by gpu-quota (requests.nvidia.com/gpu has 0 free), even though gpu-b-1 has 3 free.',
        'gpu-quota: requests.nvidia.com/gpu 8 / 8 used, 0 free — 5 of it held by Pending pods (finetune-7b-jmngj, notebook-priya).',
        'Free nvidia.com/gpu per node: gpu-b-1 3 of 4 (nvidia.com/gpu=present:NoSchedule) · gpu-a-1 2 of 4 (nvidia.com/gpu=present:NoSchedule); 5 in all.',
      ],
    },
  ],
  [
    // no namespace named, none assumed: the first visible namespace that uses GPUs
    'how many gpus are left?',
    {},
    {
      namespaces: ['ml'],
      headline: 'ml: how much nvidia.com/gpu is left',
      lines: [
        'A new pod that requests nvidia.com/gpu is refused by gpu-quota (requests.nvidia.com/gpu has 0 free), even though gpu-b-1 has 3 free.',
        'gpu-quota: requests.nvidia.com/gpu 8 / 8 used, 0 free — 5 of it held by Pending pods (finetune-7b-jmngj, notebook-priya).',
        'Free nvidia.com/gpu per node: gpu-b-1 3 of 4 (nvidia.com/gpu=present:NoSchedule) · gpu-a-1 2 of 4 (nvidia.com/gpu=present:NoSchedule); 5 in all.',
      ],
    },
  ],
  [
    'how many cpus are left in team-b',
    {},
    {
      namespaces: ['team-b'],
      headline: 'team-b: how much cpu is left',
      lines: [
        'One new pod can request up to 770m cpu: compute allows 3150m, the roomiest node, general-a-1, has 770m free.',
        'compute: requests.cpu 850m / 4 used, 3150m free.',
        'compute: limits.cpu 2 / 8 used, 6 free.',
        UNTAINTED_CPU,
      ],
    },
  ],
  [
    'how much memory is left',
    { defaultNamespace: 'team-a' },
    {
      namespaces: ['team-a'],
      headline: 'team-a: how much memory is left',
      lines: [
        'One new pod can request up to 11520Mi memory: team-quota allows 11520Mi, the roomiest node, general-b-3, has 18421Mi free.',
        'team-quota: requests.memory 4864Mi / 16Gi used, 11520Mi free — 1Gi of it held by Pending pods (api-6b9f4c7d8-gnt9f).',
        'team-quota: limits.memory 10752Mi / 32Gi used, 22016Mi free — 2Gi of it held by Pending pods (api-6b9f4c7d8-gnt9f).',
        'Free memory per node (untainted, schedulable): general-b-3 18421Mi of 30709Mi · general-a-1 9713Mi of 14775Mi · general-b-2 9655Mi of 14775Mi · general-a-2 9527Mi of 14775Mi · general-c-1 9527Mi of 14775Mi · and 1 more; 66044Mi in all.',
      ],
    },
  ],
  [
    'how many pods are left in team-a',
    {},
    {
      namespaces: ['team-a'],
      headline: 'team-a: how many pods are left',
      lines: [
        'A new pod is refused by team-quota (pods has 0 free).',
        'team-quota: pods 10 / 10 used, 0 free — 1 of it held by Pending pods (api-6b9f4c7d8-gnt9f).',
        // 6 untainted schedulable general nodes: 6 × 110 slots − 31 pods bound there
        'Free pod slots on untainted, schedulable nodes: 629 on 6 nodes.',
      ],
    },
  ],
  [
    'how much cpu is left in batch',
    {},
    {
      namespaces: ['batch'],
      headline: 'batch: how much cpu is left',
      lines: [
        // batch-low counts only its class's pods, yet it is the only quota that tracks cpu here
        'One new pod can request up to 770m cpu: batch-low allows 2, the roomiest node, general-a-1, has 770m free.',
        'batch-low: requests.cpu 20 / 22 used, 2 free.',
        UNTAINTED_CPU,
      ],
    },
  ],
  // ── can I add N (more) (replicas of) W: the scale what-if, "workers" read as worker
  [
    'can I add 3 more workers?',
    { defaultNamespace: 'team-a' },
    {
      namespaces: ['team-a'],
      headline: 'worker 2 → 5 replicas in team-a (250m cpu / 512Mi memory each, after LimitRange defaults)',
      lines: [
        '+3 pods: 0 admitted, 3 rejected',
        '   3 × pods "worker-5d8c7b9f4-ff77k" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10',
        'To get all 5: raise team-quota pods to 13  ✓ verified: all 3 admitted and scheduled',
        `   kubectl -n team-a patch resourcequota/team-quota --type merge -p '{"spec":{"hard":{"pods":"13"}}}'`,
        'Command: kubectl -n team-a scale deploy/worker --replicas=5',
      ],
    },
  ],
  // ── how many more (replicas of) W fit: the headroom count, verified by converging the scale to it
  [
    // team-quota pods 10/10.
    'how many more api pods fit?',
    {},
    {
      namespaces: ['team-a'],
      headline: 'api in team-a: how many more replicas fit',
      lines: [
        'None: ResourceQuota team-quota refuses the next on pods (10 / 10 used now, 0 free); 1 cpu / 1Gi memory each.',
      ],
    },
  ],
  [
    // compute (NotBestEffort) pods 4/15 → 11; requests.cpu 850m + 11 × 200m = 3050m ≤ 4; requests.memory
    // 1792Mi + 11 × 256Mi = 4608Mi ≤ 8Gi; limits likewise: pods binds first. 11 × 200m fit the general nodes' free cpu.
    'how many more frontend pods can I run',
    {},
    {
      namespaces: ['team-b'],
      headline: 'frontend in team-b: how many more replicas fit',
      lines: [
        '11 more (3 → 14, 200m cpu / 256Mi memory each) — then ResourceQuota compute refuses the next on pods (4 / 15 used now, 11 free).',
        '✓ verified: all 11 admitted and scheduled.',
        'Command: kubectl -n team-b scale deploy/frontend --replicas=14',
      ],
    },
  ],
  [
    // compute requests.memory 8Gi − 1792Mi = 6400Mi free; 6400Mi / 1Gi = 6.25 → 6 (pods would allow 11).
    'how far can cache scale',
    {},
    {
      namespaces: ['team-b'],
      headline: 'cache in team-b: how many more replicas fit',
      lines: [
        '6 more (1 → 7, 250m cpu / 1Gi memory each) — then ResourceQuota compute refuses the next on requests.memory (1792Mi / 8Gi used now, 6400Mi free).',
        '✓ verified: all 6 admitted and scheduled.',
        'Command: kubectl -n team-b scale deploy/cache --replicas=7',
      ],
    },
  ],
  [
    // toolbox requests nothing: BestEffort, counted by besteffort (pods 2/2), not by compute.
    'how many more replicas of toolbox',
    {},
    {
      namespaces: ['team-b'],
      headline: 'toolbox in team-b: how many more replicas fit',
      lines: [
        'None: ResourceQuota besteffort refuses the next on pods (2 / 2 used now, 0 free); pods with no requests.',
      ],
    },
  ],
  // ── a scale-down: the pods the controller removes, then what the freed room lets happen
  [
    // inference holds 2 GPUs on gpu-a-1 (2 free of 4): without it gpu-a-1 has 4 free, what finetune-7b-jmngj asks.
    'what if inference scales to 0',
    { defaultNamespace: 'ml' },
    {
      namespaces: ['ml'],
      headline: 'inference 1 → 0 replicas in ml (8 cpu / 32Gi memory each)',
      lines: [
        'Scaling down frees 1 pod: the controller removes inference-7f9c6d5b8-w7mh2.',
        'Then Pending pod ml/finetune-7b-jmngj schedules on gpu-a-1 in the room it frees.',
        'Command: kubectl -n ml scale deploy/inference --replicas=0',
      ],
    },
  ],
  [
    // team-quota pods 10/10: two web pods fewer let worker's ReplicaSet create the third pod it was refused.
    'what if web scales to 2',
    { defaultNamespace: 'team-a' },
    {
      namespaces: ['team-a'],
      headline: 'web 4 → 2 replicas in team-a (100m cpu / 128Mi memory each, after LimitRange defaults)',
      lines: [
        'Scaling down frees 2 pods: the controller removes web-7c5d8f9b6-djb9h, web-7c5d8f9b6-nm5rr.',
        'Then team-a/deploy/worker creates 1 pod it was short of (3/3 after).',
        'Command: kubectl -n team-a scale deploy/web --replicas=2',
      ],
    },
  ],
  [
    // worker's pod on general-a-1 holds 250m: 770m + 250m = 1020m ≥ the 1 CPU the Pending api pod asks.
    'what if worker scales to 0',
    { defaultNamespace: 'team-a' },
    {
      namespaces: ['team-a'],
      headline: 'worker 2 → 0 replicas in team-a (250m cpu / 512Mi memory each, after LimitRange defaults)',
      lines: [
        'Scaling down frees 2 pods: the controller removes worker-5d8c7b9f4-jxj7c, worker-5d8c7b9f4-vbnhb.',
        'Then Pending pod team-a/api-6b9f4c7d8-gnt9f schedules on general-a-1 in the room it frees.',
        'Command: kubectl -n team-a scale deploy/worker --replicas=0',
      ],
    },
  ],
  // ── is NODE back
  [
    'is general-c-2 back?',
    {},
    {
      namespaces: [],
      headline: 'general-c-2 is not back: it is still cordoned (spec.unschedulable), so no new pod is scheduled there',
      lines: [
        'Cordoned since 07:58.',
        'Ready: True (KubeletReady).',
        'Taints: node.kubernetes.io/unschedulable:NoSchedule.',
        '1 pod on it; free: 3920m cpu of 3920m, 14775Mi memory of 14775Mi.',
        'Platform can bring it back with kubectl uncordon general-c-2 — ask "what if general-c-2 is uncordoned" to see what would schedule there.',
      ],
    },
  ],
  [
    'is general-a-1 ready',
    {},
    {
      namespaces: [],
      headline: 'general-a-1 is back: schedulable and Ready',
      lines: [
        'Ready: True (KubeletReady).',
        'Taints: none.',
        '6 pods on it; free: 770m cpu of 3920m, 9713Mi memory of 14775Mi.',
      ],
    },
  ],
  [
    'is genral-c-2 back?',
    {},
    { namespaces: [], headline: "I can't find node genral-c-2.", lines: ['Did you mean general-c-2?'] },
  ],
  // ── priority
  [
    'what priority does api have?',
    {},
    {
      namespaces: ['team-a'],
      headline: 'deploy/api (team-a) runs at priority 0',
      lines: [
        'No priorityClassName and no globalDefault class: priority 0.',
        'preemptionPolicy PreemptLowerPriority: when Pending it may evict pods of lower priority.',
        // batch-low (50) is preemptionPolicy Never: it never evicts anything
        'Pods of low (100), default-priority (1000), high (100000), system-cluster-critical (2000000000), system-node-critical (2000001000) may preempt it.',
      ],
    },
  ],
  [
    'what priority does nightly-etl have',
    {},
    {
      namespaces: ['batch'],
      headline: 'cronjob/nightly-etl (batch) runs at priority 50 — PriorityClass batch-low',
      lines: [
        'preemptionPolicy Never: it waits for room and never evicts other pods.',
        'Pods of low (100), default-priority (1000), high (100000), system-cluster-critical (2000000000), system-node-critical (2000001000) may preempt it.',
        'Quota batch-low counts its pods (PriorityClass scope).',
      ],
    },
  ],
  [
    'which PriorityClasses can I use?',
    { allowedNamespaces: ['batch'] },
    {
      namespaces: ['batch'],
      headline: '6 PriorityClasses in the cluster',
      lines: [
        'A pod without priorityClassName gets priority 0 (no class is globalDefault).',
        'Any namespace may name any class (set spec.template.spec.priorityClassName), unless the API server limits a class to namespaces with a quota for it (ResourceQuota admission limitedResources, not visible here).',
        'In batch, quota batch-low applies to pods of batch-low.',
      ],
    },
  ],
  // ── add a node
  [
    'add a node',
    { defaultNamespace: 'batch' },
    {
      namespaces: ['batch'],
      headline: 'One more node: 0 of 1 Pending pod would schedule',
      lines: [
        'reindex-backfill (batch): no node can ever hold it — it requests 1500 cpu, the largest node (gpu-a-1) allocates 47810m. Lower the request; a node will not help.',
        'job/nightly-etl-29551740 (batch) cannot create pods: quota batch-low (requests.cpu) — a node will not help.',
        POOLS,
      ],
    },
  ],
  [
    'would another node help in ml?',
    {},
    {
      namespaces: ['ml'],
      headline: 'One more node: 1 of 2 Pending pods would schedule',
      lines: [
        'finetune-7b-jmngj (ml): a new node in gpu (like gpu-a-1) would take it.',
        'notebook-priya (ml): no new node of any pool takes it — its node selector, affinity or tolerations match no pool with room (ask "why is notebook-priya pending").',
        POOLS,
      ],
    },
  ],
  [
    'add a node',
    { defaultNamespace: 'team-a' },
    {
      namespaces: ['team-a'],
      headline: 'One more node: 1 of 1 Pending pod would schedule',
      lines: [
        'api-6b9f4c7d8-gnt9f (team-a): a new node in general (like general-b-3) would take it.',
        'deploy/worker (team-a) cannot create pods: quota team-quota (pods) — a node will not help.',
        'deploy/exporter (team-a) cannot create pods: LimitRange — a node will not help.',
        POOLS,
      ],
    },
  ],
  // ── typos: "did you mean", from visible names only
  [
    'what if wbe scales to 8',
    { defaultNamespace: 'team-a' },
    { namespaces: [], headline: "I can't find workload wbe.", lines: ['Did you mean web?'] },
  ],
  [
    'quota in tema-a',
    {},
    { namespaces: ['tema-a'], headline: "I can't find namespace tema-a.", lines: ['Did you mean team-a?'] },
  ],
  [
    'raise requests.cpu of team-qouta to 20',
    {},
    { namespaces: [], headline: "I can't find ResourceQuota team-qouta.", lines: ['Did you mean team-quota?'] },
  ],
  [
    'what if the limitrange defualts max cpu is 4',
    {},
    { namespaces: [], headline: "I can't find LimitRange defualts.", lines: ['Did you mean defaults?'] },
  ],
  [
    'why is notebook-priy pending',
    {},
    { namespaces: [], headline: "I can't find notebook-priy.", lines: ['Did you mean notebook-priya?'] },
  ],
  // team-a's web is not suggested to a channel that sees only team-b
  [
    'can I add 2 more replicas of web',
    { allowedNamespaces: ['team-b'] },
    {
      namespaces: [],
      headline: "I can't find workload web.",
      lines: ['Check the name (and the namespace: add "in <namespace>").'],
    },
  ],
  [
    'why is finetune-7 pending',
    { allowedNamespaces: ['team-a'] },
    {
      namespaces: [],
      headline: "I can't find finetune-7.",
      lines: ['Check the name (and the namespace: add "in <namespace>").'],
    },
  ],
  // ── quota names resolve across the asker's namespaces (the README example with another default)
  [
    'raise requests.cpu of team-quota to 20',
    { defaultNamespace: 'batch' },
    {
      namespaces: ['team-a'],
      headline: 'team-quota requests.cpu 8 → 20 in team-a',
      lines: ['Pods of the default shape that fit: 0 → 0 (then stopped by pods).'],
    },
  ],
];

describe('questions on the demo cluster: exact answers', () => {
  it.each(CASES)('%j %j', async (text, extra, want) => {
    const r = await a.question(text, { source, now: NOW, ...extra });
    expect(r.replies).toHaveLength(1);
    const reply = r.replies[0]!;
    expect({ namespaces: r.namespaces, headline: reply.headline, lines: reply.lines }).toEqual(want);
  });

  it('"which PriorityClasses" lists every class, highest first, with preemption and globalDefault', async () => {
    const r = await a.question('which PriorityClasses can I use?', { source, now: NOW });
    expect(r.replies[0]!.table).toEqual({
      columns: ['name', 'value', 'preemption', 'globalDefault'],
      rows: [
        ['system-node-critical', '2000001000', 'PreemptLowerPriority', ''],
        ['system-cluster-critical', '2000000000', 'PreemptLowerPriority', ''],
        ['high', '100000', 'PreemptLowerPriority', ''],
        ['default-priority', '1000', 'PreemptLowerPriority', ''],
        ['low', '100', 'PreemptLowerPriority', ''],
        ['batch-low', '50', 'Never', ''],
      ],
    });
  });
});

describe('did you mean: distance and candidates', () => {
  it.each<[string, string, number]>([
    ['team-a', 'team-a', 0],
    ['tema-a', 'team-a', 1],
    ['tema-a', 'team-b', 2],
    ['wbe', 'web', 1],
    ['workrs', 'worker', 2],
    ['abc', 'xyz', 3],
  ])('editDistance(%j, %j) = %i', (x, y, d) => {
    expect(editDistance(x, y, 3)).toBe(d);
  });

  it.each<[string, string[], string[]]>([
    ['tema-a', ['team-a', 'team-b', 'ml', 'batch'], ['team-a']],
    ['wbe', ['web', 'api', 'worker'], ['web']],
    // short names: one edit only
    ['ap', ['api', 'web'], ['api']],
    ['xy', ['api', 'web'], []],
    // a prefix of a longer name
    ['nightly-etl', ['nightly-etl-29551740', 'reindex-backfill'], ['nightly-etl-29551740']],
    ['team-c', ['team-a', 'team-b'], ['team-a', 'team-b']],
  ])('closestNames(%j, %j) = %j', (name, candidates, want) => {
    expect(closestNames(name, candidates)).toEqual(want);
  });
});

describe('the console default namespace', () => {
  it('is the oldest namespace with a workload, system namespaces left out: team-a on the demo', () => {
    // team-a 2026-01-15T09:30:00Z < team-b 09:31:27 < batch 2026-01-20 < ml 2026-02-24; default has no workload.
    expect(consoleDefaultNamespace(readStateFiles(DEMO, { now: NOW }).snapshot)).toBe('team-a');
  });
});
