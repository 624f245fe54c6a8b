/**
 * "Make room" (src/engine/fixes/makeroom.ts): for a pod no node fits, scale down another workload of the
 * pod's own namespace whose bound pods sit on a node that fails the pod only for lack of room, by the
 * fewest replicas verification shows end the incident (its controller picks which pods go).
 *
 * On the demo cluster (manifests/demo): api and finetune-7b get it, notebook-priya and reindex-backfill do
 * not. On small builder states: a StatefulSet loses its highest ordinals (so the room is made where they
 * run, not where ordinal 0 runs), a workload of another namespace is never scaled, a Job and a DaemonSet
 * are never scaled. Every make-room fix, applied with the real kubectl client (test/support/verify-fixes.ts:
 * `kubectl scale` as the merge patch it sends, through `kubectl patch --local`), ends the incident.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { diagnose, type JsonFinding } from '../../src/answer/diagnose.ts';
import { readStateFiles } from '../../src/cluster/file-source.ts';
import { subjectOf } from '../../src/engine/diagnose/goal.ts';
import { replayPod } from '../../src/engine/diagnose/replay.ts';
import { fixesFor, type VerifiedFix } from '../../src/engine/fixes/index.ts';
import type { KObject, Snapshot } from '../../src/k8s/snapshot.ts';
import { deployment, node, pod, replicaSet, snapshotOf, statefulSet } from '../support/builders.ts';
import { applyFix, HAVE_KUBECTL } from '../support/verify-fixes.ts';

const DEMO = fileURLToPath(new URL('../../manifests/demo', import.meta.url));
const DEMO_NOW = Date.parse('2026-03-10T09:40:00Z');
const demo = readStateFiles(DEMO).snapshot;

const API_PENDING =
  '0/10 nodes are available: 1 node(s) were unschedulable, 3 node(s) had untolerated taint(s), 6 Insufficient cpu. no new claims to deallocate, preemption: 0/10 nodes are available: 4 Preemption is not helpful for scheduling, 6 No preemption victims found for incoming pod.';
const FINETUNE_PENDING =
  "0/10 nodes are available: 1 node(s) had untolerated taint(s), 1 node(s) were unschedulable, 2 Insufficient nvidia.com/gpu, 6 node(s) didn't match Pod's node affinity/selector. no new claims to deallocate, preemption: 0/10 nodes are available: 2 No preemption victims found for incoming pod, 8 Preemption is not helpful for scheduling.";
const NOTEBOOK_PENDING =
  "0/10 nodes are available: 1 node(s) were unschedulable, 3 node(s) had untolerated taint(s), 6 node(s) didn't match Pod's node affinity/selector. no new claims to deallocate, preemption: 0/10 nodes are available: 10 Preemption is not helpful for scheduling.";
const REINDEX_PENDING =
  '0/10 nodes are available: 1 node(s) were unschedulable, 3 node(s) had untolerated taint(s), 6 Insufficient cpu. no new claims to deallocate, preemption: 0/10 nodes are available: 10 Preemption is not helpful for scheduling.';

type Row = [who: string, summary: string, change: string, verified: boolean];

function findingOf(state: Snapshot, text: string, ns: string, now?: number): JsonFinding {
  const out = diagnose({ text, state, namespace: ns, ...(now !== undefined ? { now } : {}) });
  expect(out.json.findings.length).toBe(1);
  return out.json.findings[0]!;
}

const rows = (f: JsonFinding): Row[] => f.fixes.map((x) => [x.who, x.summary, x.change ?? '', x.verified]);

/** A make-room fix: a scale of a workload other than the subject, worded "makes room on". */
const MAKE_ROOM = /^scale \S+ \d+ → \d+ \(makes room on /;

describe('make room on the demo cluster', () => {
  it.each<{ story: string; ns: string; text: string; fixes: Row[] }>([
    {
      // api-6b9f4c7d8-gnt9f needs 1 CPU; general-a-1 has 770m free and worker-5d8c7b9f4-jxj7c (250m) runs
      // there: 770m + 250m ≥ 1000m. worker wants 3 and has 2 (its third is refused by pods 10/10): 3 → 1
      // deletes one of its two, and the ReplicaSet controller's ranking (newest first) picks jxj7c, on
      // general-a-1 — verified, so 3 → 0 is not offered. It costs running capacity (cost 2): after the
      // app team's free "drop the Pending replica", before the platform's uncordon. The four verified
      // fixes fill the list before "add a node" is tried; the combination that scales worker to 0 (it
      // stops serving: it pays, ranked after the others) stays.
      story: 'api after the drain',
      ns: 'team-a',
      text: API_PENDING,
      fixes: [
        [
          'app-team',
          'scale deploy/api 3 → 2: drops the Pending replica (costs no running capacity: 2 run as now)',
          'kubectl -n team-a scale deploy/api --replicas=2',
          true,
        ],
        [
          'app-team',
          'scale deploy/worker 3 → 1 (makes room on general-a-1 for the pod; stops 1 running pod)',
          'kubectl -n team-a scale deploy/worker --replicas=1',
          true,
        ],
        [
          'platform',
          'uncordon general-c-2 (cordoned; 3920m CPU / 14775Mi memory free)',
          'kubectl uncordon general-c-2',
          true,
        ],
        // "scale worker 3 → 0, then lower requests.cpu of api" also verifies, but scaling worker to 1 alone already
        // ends it: the combination is not offered (verify.ts dominates), and its slot goes to a node of the pool.
        [
          'platform',
          'add a node like general-a-1 to pool general (3920m CPU / 14775Mi allocatable; it also runs 1 DaemonSet pod: kube-system/ds/kube-proxy)',
          '',
          true,
        ],
        [
          'app-team',
          'lower requests.cpu of api to ≤ 770m (fits general-a-1)',
          'kubectl -n team-a set resources deploy/api -c api --requests=cpu=770m',
          false,
        ],
      ],
    },
    {
      // finetune-7b needs 4 GPUs on one node: gpu-a-1 has 2 free and inference's one pod holds 2 there.
      // inference 1 → 0 stops it serving: it pays (Plan.harm), so it ranks after the platform's node.
      // embed-docs holds 1 GPU on gpu-b-1 but is a Job: not scaled.
      story: 'finetune needs 4 GPUs',
      ns: 'ml',
      text: FINETUNE_PENDING,
      fixes: [
        [
          'platform',
          'add a node like gpu-a-1 to pool gpu (47810m CPU / 186699Mi allocatable; it also runs 2 DaemonSet pods: kube-system/ds/kube-proxy, kube-system/ds/nvidia-device-plugin-daemonset)',
          '',
          true,
        ],
        [
          'app-team',
          'scale deploy/inference 1 → 0 (makes room on gpu-a-1 for the pod; stops 1 running pod; deploy/inference pays: scaled to 0, it stops serving)',
          'kubectl -n ml scale deploy/inference --replicas=0',
          true,
        ],
      ],
    },
  ])('$story: the fixes, exactly', ({ ns, text, fixes }) => {
    expect(rows(findingOf(demo.fork(), text, ns, DEMO_NOW))).toEqual(fixes);
  });

  it.each([
    // notebook-priya fails every node on a taint, the selector or the cordon — no node fails it only for
    // lack of room, so there is nothing to make room on (its fix is the toleration).
    { story: 'notebook without the toleration', ns: 'ml', text: NOTEBOOK_PENDING },
    // reindex-backfill asks for 1500 CPUs: more than any general node allocates (freeing a node whole does
    // not hold it), and the only batch workload on those nodes is the nightly-etl Job (Jobs are not scaled).
    { story: 'reindex-backfill 1500 CPUs', ns: 'batch', text: REINDEX_PENDING },
  ])('$story: no make-room fix', ({ ns, text }) => {
    const f = findingOf(demo.fork(), text, ns, DEMO_NOW);
    expect(f.fixes.length).toBeGreaterThan(0);
    expect(f.fixes.filter((x) => MAKE_ROOM.test(x.summary))).toEqual([]);
  });

  it.skipIf(!HAVE_KUBECTL).each([
    { ns: 'team-a', text: API_PENDING, change: 'kubectl -n team-a scale deploy/worker --replicas=1' },
    { ns: 'ml', text: FINETUNE_PENDING, change: 'kubectl -n ml scale deploy/inference --replicas=0' },
  ])('$change, applied with kubectl, ends the incident', ({ ns, text, change }) => {
    const f = findingOf(demo.fork(), text, ns, DEMO_NOW);
    const fix = f.fixes.find((x) => x.change === change)!;
    expect(fix.verified).toBe(true);
    const copy = demo.fork();
    applyFix(copy, fix);
    expect(findingOf(copy, text, ns, DEMO_NOW).now).toBe('passes');
  });
});

// --- small states of our own (namespace s; the subject deploy/app wants 1 pod of 1100m, Pending) ---

const S = 's';

function subjectApp(): KObject[] {
  return [
    deployment('app', { namespace: S, requests: { cpu: '1100m' } }),
    replicaSet('app-5f7c9', { namespace: S, owner: 'app', requests: { cpu: '1100m' } }),
    pod('app-5f7c9-pq2xz', {
      namespace: S,
      cpu: '1100m',
      container: 'app',
      labels: { app: 'app' },
      owner: { kind: 'ReplicaSet', name: 'app-5f7c9' },
    }),
  ];
}

/** A Deployment of one bound pod (its ReplicaSet and pod). */
function oneDeploy(name: string, ns: string, cpu: string, on: string): KObject[] {
  return [
    deployment(name, { namespace: ns, requests: { cpu } }),
    replicaSet(`${name}-6d8f7`, { namespace: ns, owner: name, requests: { cpu } }),
    pod(`${name}-6d8f7-x4k2m`, {
      namespace: ns,
      cpu,
      container: 'app',
      labels: { app: name },
      owner: { kind: 'ReplicaSet', name: `${name}-6d8f7` },
      node: on,
    }),
  ];
}

/**
 * The subject's fixes as diagnose computes them (its context, built the same way: the pod replayed on the
 * state, its subject), and every plan verification tried, verified or not (the verify trace).
 */
function builderFixes(state: Snapshot): { fixes: VerifiedFix[]; tried: string[] } {
  const p = state.get('Pod', S, 'app-5f7c9-pq2xz')!;
  const replay = replayPod(state, p, true, S, {})!;
  expect(replay.now.scheduling?.scheduled).toBe(false);
  const ctx = {
    state,
    base: replay.base,
    subject: subjectOf(state, p, true, S),
    pod: replay.submitted,
    admitted: replay.admitted,
    ns: S,
    opts: {},
  };
  const tried: string[] = [];
  const { fixes } = fixesFor(ctx, replay.now, (f) => tried.push(f.change));
  return { fixes, tried };
}

/** The FailedScheduling message the scheduler gives the subject's pod on this state (what is pasted). */
function message(state: Snapshot): string {
  const p = state.get('Pod', S, 'app-5f7c9-pq2xz')!;
  return replayPod(state, p, true, S, {})?.now.scheduling?.message ?? '';
}

describe('make room on small states', () => {
  it('a StatefulSet loses its highest ordinals: 3 → 1 makes room on n2, where db-1 and db-2 run', () => {
    // n1 (2 CPU): db-0 600m + a bare pod 800m → 600m free, short 500m: db-0 alone would make room, but
    // scaling to 2 or 1 never deletes ordinal 0. n2: db-1, db-2 600m each + a bare pod 400m → 400m free;
    // 3 → 2 deletes db-2 (1000m free, still short), 3 → 1 deletes db-2 and db-1 (1600m free: fits).
    const db = (ordinal: number, on: string) =>
      pod(`db-${ordinal}`, {
        namespace: S,
        cpu: '600m',
        container: 'app',
        labels: { app: 'db' },
        owner: { kind: 'StatefulSet', name: 'db' },
        node: on,
      });
    const state = snapshotOf(
      node('n1', { cpu: '2' }),
      node('n2', { cpu: '2' }),
      ...subjectApp(),
      statefulSet('db', { namespace: S, replicas: 3, requests: { cpu: '600m' } }),
      db(0, 'n1'),
      db(1, 'n2'),
      db(2, 'n2'),
      pod('pin-1', { namespace: S, cpu: '800m', node: 'n1' }),
      pod('pin-2', { namespace: S, cpu: '400m', node: 'n2' }),
    );
    const f = findingOf(state, message(state), S);
    expect(f.fixes.filter((x) => MAKE_ROOM.test(x.summary)).map((x) => [x.summary, x.change, x.verified])).toEqual([
      [
        'scale statefulset/db 3 → 1 (makes room on n2 for the pod; stops 2 running pods)',
        'kubectl -n s scale statefulset/db --replicas=1',
        true,
      ],
    ]);
    if (HAVE_KUBECTL) {
      const copy = state.fork();
      applyFix(copy, f.fixes.find((x) => MAKE_ROOM.test(x.summary))!);
      expect(findingOf(copy, message(state), S).now).toBe('passes');
    }
  });

  it('a workload of another namespace is never scaled, even when it frees more', () => {
    // n1 (2 CPU): side (namespace s) 600m and big (namespace o) 800m → 600m free, short 500m; either
    // would make room, big more of it. Only side is the asker's to change: scaled to 0, it pays.
    const state = snapshotOf(
      node('n1', { cpu: '2' }),
      ...subjectApp(),
      ...oneDeploy('side', S, '600m', 'n1'),
      ...oneDeploy('big', 'o', '800m', 'n1'),
    );
    const { fixes, tried } = builderFixes(state);
    expect(fixes.filter((x) => MAKE_ROOM.test(x.summary)).map((x) => [x.summary, x.change, x.verified])).toEqual([
      [
        'scale deploy/side 1 → 0 (makes room on n1 for the pod; stops 1 running pod; deploy/side pays: scaled to 0, it stops serving)',
        'kubectl -n s scale deploy/side --replicas=0',
        true,
      ],
    ]);
    expect(tried.length).toBeGreaterThan(0);
    expect(tried.filter((c) => c.includes('-n o ') || c.includes('big'))).toEqual([]);
  });

  it('not offered when it does not verify: a higher-priority Pending pod takes the room first', () => {
    // As above, side's 600m on n1 would make room (600m free + 600m ≥ 1100m); but a Pending pod of
    // namespace o, priority 1000, asks 1000m and fits nowhere now (preemptionPolicy Never: it does not
    // preempt side's pod, which the settled state would then not hold) — the scheduler's queue takes it first
    // (higher priority), it binds in the freed 1200m, and app stays Pending. Tried, never offered.
    const state = snapshotOf(
      node('n1', { cpu: '2' }),
      ...subjectApp(),
      ...oneDeploy('side', S, '600m', 'n1'),
      pod('pin', { namespace: S, cpu: '800m', node: 'n1' }),
      pod('urgent', { namespace: 'o', cpu: '1000m', priority: 1000, preemptionPolicy: 'Never' }),
    );
    const { fixes, tried } = builderFixes(state);
    expect(tried).toContain('kubectl -n s scale deploy/side --replicas=0');
    expect(fixes.filter((x) => MAKE_ROOM.test(x.summary))).toEqual([]);
  });

  it('a Job and a DaemonSet are not scaled', () => {
    // n1: the Job etl's pod 800m + a bare pod 600m → 600m free; n2: the DaemonSet agent's pod 800m + a
    // bare pod 600m → 600m free. Removing either would make room; neither is a fix of this kind.
    const job: KObject = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'etl', namespace: S },
      spec: {
        parallelism: 1,
        completions: 1,
        template: {
          metadata: { labels: { app: 'etl' } },
          spec: {
            restartPolicy: 'Never',
            containers: [{ name: 'app', image: 'etl', resources: { requests: { cpu: '800m' } } }],
          },
        },
      },
    };
    const ds: KObject = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent', namespace: S },
      spec: {
        selector: { matchLabels: { app: 'agent' } },
        template: {
          metadata: { labels: { app: 'agent' } },
          spec: { containers: [{ name: 'app', image: 'agent', resources: { requests: { cpu: '800m' } } }] },
        },
      },
    };
    const state = snapshotOf(
      node('n1', { cpu: '2' }),
      node('n2', { cpu: '2' }),
      ...subjectApp(),
      job,
      ds,
      pod('etl-7xk2p', {
        namespace: S,
        cpu: '800m',
        container: 'app',
        labels: { app: 'etl' },
        owner: { kind: 'Job', name: 'etl' },
        node: 'n1',
      }),
      pod('agent-n1', {
        namespace: S,
        cpu: '800m',
        container: 'app',
        labels: { app: 'agent' },
        owner: { kind: 'DaemonSet', name: 'agent' },
        node: 'n2',
      }),
      pod('pin-1', { namespace: S, cpu: '600m', node: 'n1' }),
      pod('pin-2', { namespace: S, cpu: '600m', node: 'n2' }),
    );
    const { fixes, tried } = builderFixes(state);
    expect(fixes.length).toBeGreaterThan(0);
    expect(fixes.filter((x) => MAKE_ROOM.test(x.summary))).toEqual([]);
    expect(tried.length).toBeGreaterThan(0);
    expect(tried.filter((c) => / scale (job|ds|daemonset)\//.test(c) || c.includes('parallelism'))).toEqual([]);
  });
});
