/**
 * A bare message tied to its object (src/answer/tie.ts), on the demo cluster (manifests/demo, 10 March
 * 2026 09:40 UTC): the stories' FailedScheduling and FailedCreate texts pasted with only the namespace
 * known (or none), inside the namespaces the asker may see. Times and counts are the demo's events:
 * api-6b9f4c7d8-gnt9f count 21 07:58:05 → 09:38:12; worker-5d8c7b9f4 1 + 1 + 9 = 11, 09:05:31 → 09:36:02;
 * nightly-etl-29551740 1 + 64 = 65, 01:00:01 → 09:30:14.
 */
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { readStateFiles } from '../../src/cluster/file-source.ts';
import { diagnose } from '../../src/answer/diagnose.ts';
import { clockTime, history, sameFinding, tie, type TieMatch } from '../../src/answer/tie.ts';
import { Visibility } from '../../src/answer/policy.ts';
import { parsePaste } from '../../src/parse/index.ts';
import type { Snapshot } from '../../src/k8s/snapshot.ts';

const DEMO = fileURLToPath(new URL('../../manifests/demo', import.meta.url));
const NOW = Date.parse('2026-03-10T09:40:00Z');
let state: Snapshot;
beforeAll(() => {
  state = readStateFiles(DEMO).snapshot;
});

const API =
  '0/10 nodes are available: 1 node(s) were unschedulable, 3 node(s) had untolerated taint(s), 6 Insufficient cpu. no new claims to deallocate, preemption: 0/10 nodes are available: 4 Preemption is not helpful for scheduling, 6 No preemption victims found for incoming pod.';
const NOTEBOOK =
  "0/10 nodes are available: 1 node(s) were unschedulable, 3 node(s) had untolerated taint(s), 6 node(s) didn't match Pod's node affinity/selector. no new claims to deallocate, preemption: 0/10 nodes are available: 10 Preemption is not helpful for scheduling.";
const FINETUNE =
  "0/10 nodes are available: 1 node(s) had untolerated taint(s), 1 node(s) were unschedulable, 2 Insufficient nvidia.com/gpu, 6 node(s) didn't match Pod's node affinity/selector. no new claims to deallocate, preemption: 0/10 nodes are available: 2 No preemption victims found for incoming pod, 8 Preemption is not helpful for scheduling.";
const REINDEX =
  '0/10 nodes are available: 1 node(s) were unschedulable, 3 node(s) had untolerated taint(s), 6 Insufficient cpu. no new claims to deallocate, preemption: 0/10 nodes are available: 10 Preemption is not helpful for scheduling.';
const WORKER = 'exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10';
const ETL =
  'Error creating: pods "nightly-etl-29551740-zzzzz" is forbidden: exceeded quota: batch-low, requested: requests.cpu=2500m, used: requests.cpu=20, limited: requests.cpu=22';
const FIRST_SENTENCE =
  '0/10 nodes are available: 1 node(s) were unschedulable, 3 node(s) had untolerated taint(s), 6 Insufficient cpu.';

function answer(text: string, namespace?: string, allowedNamespaces?: string[]) {
  const d = diagnose({ text, state, namespace, now: NOW, allowedNamespaces });
  const r = d.answer.replies[0]!;
  return { d, r, f: d.json.findings[0]! };
}

describe('the demo stories, pasted bare with only the namespace known', () => {
  const cases: {
    story: string;
    ns: string;
    text: string;
    headline: string;
    tied: string;
    line: string;
    fix: string;
  }[] = [
    {
      story: 'api cannot come back after the drain',
      ns: 'team-a',
      text: API,
      headline: 'Admitted, but no node fits — scheduler (0/10 nodes) — pod api-6b9f4c7d8-gnt9f (team-a)',
      tied: 'This is pod/api-6b9f4c7d8-gnt9f (team-a): FailedScheduling since 07:58, 21 times (last 09:38).',
      line: '6 nodes short on resources — needs 1 CPU / 1Gi memory; most free: general-a-1 with 770m CPU / 9713Mi (short 230m cpu)',
      fix: 'uncordon general-c-2 (cordoned; 3920m CPU / 14775Mi memory free)',
    },
    {
      story: 'notebook-priya without the GPU toleration',
      ns: 'ml',
      text: NOTEBOOK,
      headline: 'Admitted, but no node fits — scheduler (0/10 nodes) — pod notebook-priya (ml)',
      tied: 'This is pod/notebook-priya (ml): FailedScheduling since 09:02, 9 times (last 09:37).',
      line: 'Needs 1 nvidia.com/gpu on one node; free now: gpu-b-1 3 of 4, gpu-a-1 2 of 4.',
      fix: "tolerate nvidia.com/gpu=present:NoSchedule (the 2 nodes of pool gpu, tainted nvidia.com/gpu=present; the pod's nodeSelector pool=gpu selects them)",
    },
    {
      story: 'finetune-7b needs 4 GPUs on one node',
      ns: 'ml',
      text: FINETUNE,
      headline: 'Admitted, but no node fits — scheduler (0/10 nodes) — pod finetune-7b-jmngj (ml)',
      tied: 'This is pod/finetune-7b-jmngj (ml): FailedScheduling since 08:14, 17 times (last 09:34).',
      line: 'Needs 4 nvidia.com/gpu on one node; free now: gpu-b-1 3 of 4, gpu-a-1 2 of 4.',
      fix: '',
    },
    {
      story: 'reindex-backfill asks for 1500 CPUs',
      ns: 'batch',
      text: REINDEX,
      headline: 'Admitted, but no node fits — scheduler (0/10 nodes) — pod reindex-backfill (batch)',
      tied: 'This is pod/reindex-backfill (batch): FailedScheduling since 09:12, 6 times (last 09:37).',
      // gpu-a-1 / gpu-b-1 (g5.12xlarge) allocate 47810m: the largest of all nodes, and still ≪ 1500 cores.
      line: 'No node can ever hold it: it requests 1500 cpu, more than any node allocates (the largest, gpu-a-1, has 47810m). Preemption cannot make room that no node has.',
      fix: 'lower requests.cpu of reindex to ≤ 770m (fits general-a-1)',
    },
    {
      story: 'worker is out of pods (the quota error alone)',
      ns: 'team-a',
      text: WORKER,
      headline: 'Rejected at admission — ResourceQuota team-quota — pods of ReplicaSet worker-5d8c7b9f4 (team-a)',
      tied: 'This is deploy/worker (team-a): FailedCreate since 09:05, 11 times (last 09:36).',
      line: 'pods: over by 1 — free 1 in the namespace, or raise the quota to 11.',
      fix: 'raise team-quota pods to 11',
    },
    {
      story: 'nightly-etl stopped by batch-low (a generated pod name never stored)',
      ns: 'batch',
      text: ETL,
      headline: 'Rejected at admission — ResourceQuota batch-low — pod nightly-etl-29551740-zzzzz (batch)',
      tied: 'This is job/nightly-etl-29551740 (cronjob/nightly-etl) (batch): FailedCreate since 01:00, 65 times (last 09:30).',
      line: 'requests.cpu: over by 500m — request ≤ 2, free 500m in the namespace, or raise the quota to 22500m.',
      // Raising the quota by one pod's worth would not end it (2 more pods wait): the verified fix runs the job narrower.
      fix: 'run job/nightly-etl-29551740 8 at a time instead of 10 (what the quota holds now; the job takes longer)',
    },
  ];
  it.each(cases)('$story', ({ ns, text, headline, tied, line, fix }) => {
    const { r } = answer(text, ns);
    expect(r.headline).toBe(headline);
    expect(r.lines[0]).toBe(tied);
    expect(r.lines).toContain(line);
    if (fix) expect(r.fixes.map((x) => x.summary)).toContain(fix);
    // Preemption as the engine decides it on the demo state (only lower-priority victims: SelectVictimsOnNode);
    // reindex is never told that lower-priority pods are the matter, a quota refusal says nothing of it.
    const pre = (parts: string) =>
      `Preemption cannot help: no node would fit it after evicting lower-priority pods — ${parts}.`;
    const PREEMPTION = new Map<string, string[]>([
      [API, [pre('6 nodes hold no lower-priority pod to evict; 4 nodes fail for a reason no eviction changes')]],
      [NOTEBOOK, [pre('10 nodes fail for a reason no eviction changes')]],
      [FINETUNE, [pre('2 nodes hold no lower-priority pod to evict; 8 nodes fail for a reason no eviction changes')]],
    ]);
    expect(r.lines.filter((l) => l.startsWith('Preemption'))).toEqual(PREEMPTION.get(text) ?? []);
  });

  // A GPU pod that selects the GPU pool is told of the GPU nodes' room, never of a general node's (the reply once
  // ended with the cluster's "largest free schedulable node", general-a-1, whatever the pod could use).
  it.each([
    ['notebook-priya', NOTEBOOK],
    ['finetune-7b', FINETUNE],
  ])('%s: no line offers a general node as room', (_name, text) => {
    const { r } = answer(text, 'ml');
    expect(r.lines.filter((l) => /general-[abc]-\d/.test(l))).toEqual([]);
  });

  it('api and reindex share the first sentence; the preemption part tells them apart', () => {
    expect(answer(API, 'batch').r.lines[0]).toBe(
      'This is pod/api-6b9f4c7d8-gnt9f (team-a): FailedScheduling since 07:58, 21 times (last 09:38).',
    );
    expect(answer(REINDEX, 'team-a').r.lines[0]).toBe(
      'This is pod/reindex-backfill (batch): FailedScheduling since 09:12, 6 times (last 09:37).',
    );
  });

  it('the JSON finding names the tied pod and its namespace', () => {
    const { f } = answer(REINDEX, 'batch');
    expect(f.object).toEqual({ resource: 'pods', name: 'reindex-backfill' });
    expect(f.namespace).toBe('batch');
  });
});

describe('several matches, none, and the policy', () => {
  it('the first sentence alone matches both pods: how many and which, the most recent answered', () => {
    const { r } = answer(FIRST_SENTENCE);
    expect(r.lines[0]).toBe(
      '2 Pending pods have this FailedScheduling message: pod/api-6b9f4c7d8-gnt9f, pod/reindex-backfill (batch). Answering for the most recent, pod/api-6b9f4c7d8-gnt9f (team-a): FailedScheduling since 07:58, 21 times (last 09:38).',
    );
  });

  it('the assumed namespace is searched first: with batch assumed only reindex matches', () => {
    expect(answer(FIRST_SENTENCE, 'batch').r.lines[0]).toBe(
      'This is pod/reindex-backfill (batch): FailedScheduling since 09:12, 6 times (last 09:37).',
    );
  });

  it('a channel that sees only ml is never told of team-a or batch pods', () => {
    const { r, d } = answer(API, undefined, ['ml']);
    expect(r.headline).toBe('Admitted, but no node fits — scheduler (0/10 nodes)');
    expect(r.lines.at(-1)).toBe(
      'No Pending pod in ml has this FailedScheduling message now, in its events or re-simulated.',
    );
    expect(JSON.stringify(d.answer)).not.toContain('api-6b9f4c7d8');
  });

  it('a FailedCreate message no workload has', () => {
    const { r } = answer('exceeded quota: team-quota, requested: pods=1, used: pods=3, limited: pods=3', 'team-a');
    expect(r.lines.at(-1)).toBe('No workload in team-a has this FailedCreate message now.');
  });

  it('with the events gone, a Pending pod whose re-simulation gives the message is found', () => {
    const s = state.fork();
    for (const e of s.list('Event', 'batch')) s.remove('Event', 'batch', e.metadata.name!);
    const f = parsePaste(REINDEX).findings[0]!;
    const t = tie(s, f, Visibility.everything(), 'batch', { now: NOW });
    expect(t.matches.map((m) => [m.ref, m.replayed])).toEqual([['pod/reindex-backfill', true]]);
    expect(t.lines).toEqual([
      'This is pod/reindex-backfill (batch): no FailedScheduling event left (they expire), but re-simulated now it gets this message (created 09:12).',
    ]);
  });
});

describe('sameFinding: the parsed facts decide, not the bytes', () => {
  const f = (text: string) => parsePaste(text).findings[0]!;
  const cases: [string, string, string, boolean][] = [
    ['the same message', API, API, true],
    ['the paste is the first sentence only', FIRST_SENTENCE, API, true],
    ['another preemption part', API, REINDEX, false],
    ['another reason count', FIRST_SENTENCE.replace('6 Insufficient cpu', '5 Insufficient cpu'), API, false],
    ['another generated pod name, same quota error', ETL, ETL.replace('zzzzz', 'kgtlw'), true],
    [
      'requested and used moved, same hard limit',
      WORKER,
      WORKER.replace('requested: pods=1, used: pods=10', 'requested: pods=2, used: pods=9'),
      true,
    ],
    ['another hard limit', WORKER, WORKER.replace(/pods=10/g, 'pods=12'), false],
    ['another quota', WORKER, WORKER.replace('team-quota', 'other'), false],
  ];
  it.each(cases)('%s', (_name, paste, event, same) => {
    expect(sameFinding(f(paste), f(event))).toBe(same);
  });
});

describe('since when and how often', () => {
  const m = (p: Partial<TieMatch>): TieMatch => ({
    namespace: 'a',
    kind: 'Pod',
    name: 'p',
    ref: 'pod/p',
    count: 1,
    replayed: false,
    ...p,
  });
  const t = (iso: string) => Date.parse(iso);
  const cases: [string, TieMatch, number | undefined, string][] = [
    [
      'today: the time only',
      m({ first: t('2026-03-10T09:05:00Z'), last: t('2026-03-10T09:36:59Z'), count: 14 }),
      NOW,
      'FailedScheduling since 09:05, 14 times (last 09:36)',
    ],
    [
      'once',
      m({ first: t('2026-03-10T09:05:00Z'), last: t('2026-03-10T09:05:00Z') }),
      NOW,
      'FailedScheduling since 09:05, once',
    ],
    [
      'another day: the date too',
      m({ first: t('2026-03-09T23:10:00Z'), last: t('2026-03-10T01:00:00Z'), count: 3 }),
      NOW,
      'FailedScheduling since 2026-03-09 23:10, 3 times (last 01:00)',
    ],
    [
      'no clock: always the date',
      m({ first: t('2026-03-10T09:05:00Z'), count: 2 }),
      undefined,
      'FailedScheduling since 2026-03-10 09:05, 2 times',
    ],
    ['no timestamps', m({ count: 5 }), NOW, 'FailedScheduling, 5 times'],
  ];
  it.each(cases)('%s', (_name, match, now, text) => {
    expect(history(match, 'FailedScheduling', now)).toBe(text);
  });
  it('clockTime is UTC', () => {
    expect(clockTime(t('2026-03-10T00:00:00Z'), NOW)).toBe('00:00');
  });
});
