/**
 * The scheduler's verdict cache (engine/scheduler/schedule.ts ScheduleCache) changes only the cost of a
 * result, never the result: on a generated 200-node / 2,000-pod cluster, pods scheduled one after another
 * with the cache and without it land on the same nodes with the same messages and node statuses, and a
 * convergence with it (the default) equals one without it event for event, pod for pod. The pods are of
 * shapes the cache serves (plain replicas, a nodeSelector, host ports, tolerations, a higher priority) and
 * of shapes it must leave alone (topology spread, pod anti-affinity), interleaved; preemption and the
 * pods bound on the way change nodes under the cache.
 */
import { describe, expect, it } from 'vitest';
import { generateCluster } from '../../../bench/generate.ts';
import { converge, type Convergence } from '../../../src/engine/converge.ts';
import type { Change } from '../../../src/engine/changes/types.ts';
import { reconcileQuotaStatus } from '../../../src/engine/quota-ledger.ts';
import { nodeInfoIndex } from '../../../src/engine/scheduler/node-info.ts';
import { bindPod, type ScheduleResult, ScheduleCache, schedulePod } from '../../../src/engine/scheduler/schedule.ts';
import type { Pod } from '../../../src/k8s/objects.ts';
import { type KObject, Snapshot } from '../../../src/k8s/snapshot.ts';
import { deployment, priorityClass } from '../../support/builders.ts';

const NOW = Date.parse('2026-01-01T00:00:00Z');

let built: { state: Snapshot; big: string; workload: string } | undefined;

/** Built once; every use forks it (converge and placeAll never write to it). */
function cluster(): { state: Snapshot; big: string; workload: string } {
  built ??= build();
  return built;
}

function build(): { state: Snapshot; big: string; workload: string } {
  const g = generateCluster({ nodes: 200, pods: 2000, seed: 7 });
  const s = new Snapshot();
  for (const o of g.objects) s.put(o);
  s.put(priorityClass('high', 1000));
  // Workloads of team-big that start at 0 replicas: each scale below creates its pods.
  const ns = g.bigNamespace;
  const pinned = deployment('pinned', { namespace: ns, replicas: 0, requests: { cpu: '300m', memory: '256Mi' } });
  const pinnedSpec = pinned.spec.template.spec;
  pinnedSpec.nodeSelector = { 'topology.kubernetes.io/zone': 'eu-west-1a' };
  pinnedSpec.containers[0]!.ports = [{ containerPort: 8080, hostPort: 8080 }];
  pinnedSpec.tolerations = [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }];
  const spread = deployment('spread', { namespace: ns, replicas: 0, requests: { cpu: '100m', memory: '64Mi' } });
  spread.spec.template.spec.topologySpreadConstraints = [
    {
      maxSkew: 1,
      topologyKey: 'topology.kubernetes.io/zone',
      whenUnsatisfiable: 'DoNotSchedule',
      labelSelector: { matchLabels: { app: 'spread' } },
    },
  ];
  const lonely = deployment('lonely', { namespace: ns, replicas: 0, requests: { cpu: '50m', memory: '64Mi' } });
  lonely.spec.template.spec.affinity = {
    podAntiAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: [
        { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'lonely' } } },
      ],
    },
  };
  // Large and important, held to the smallest nodes (3920m, some of it taken): it fits only where it preempts.
  const big = { cpu: '3900m', memory: '1Gi' };
  const vip = deployment('vip', { namespace: ns, replicas: 0, requests: big, limits: big });
  vip.spec.template.spec.priorityClassName = 'high';
  vip.spec.template.spec.nodeSelector = { 'node.kubernetes.io/instance-type': 'm6i.xlarge' };
  for (const d of [pinned, spread, lonely, vip]) s.put(d as KObject);
  reconcileQuotaStatus(s, NOW);
  nodeInfoIndex(s);
  return { state: s, big: ns, workload: g.bigWorkload };
}

function probe(name: string, spec: Pod['spec'], labels: Record<string, string>): Pod {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'team-big', labels }, spec };
}

const plain: Pod['spec'] = {
  containers: [{ name: 'app', image: 'x', resources: { requests: { cpu: '400m', memory: '512Mi' } } }],
};
const ported: Pod['spec'] = {
  containers: [
    {
      name: 'app',
      image: 'x',
      ports: [{ containerPort: 9000, hostPort: 9000 }],
      resources: { requests: { cpu: '1' } },
    },
  ],
  nodeSelector: { 'topology.kubernetes.io/zone': 'eu-west-1b' },
};
const spreadSpec: Pod['spec'] = {
  containers: [{ name: 'app', image: 'x', resources: { requests: { cpu: '100m' } } }],
  topologySpreadConstraints: [
    {
      maxSkew: 1,
      topologyKey: 'topology.kubernetes.io/zone',
      whenUnsatisfiable: 'DoNotSchedule',
      labelSelector: { matchLabels: { app: 'probe-spread' } },
    },
  ],
};

/** Pods placed one after another (schedulePod + bindPod), with or without a cache. */
function placeAll(cache: ScheduleCache | undefined): { results: ScheduleResult[]; cache?: ScheduleCache } {
  const s = cluster().state.fork();
  const results: ScheduleResult[] = [];
  for (let i = 0; i < 240; i++) {
    const [spec, app] =
      i % 3 === 0 ? [plain, 'probe-plain'] : i % 3 === 1 ? [ported, 'probe-ported'] : [spreadSpec, 'probe-spread'];
    const p = probe(`probe-${i}`, spec, { app });
    s.put(p);
    const r = schedulePod(s, p, cache ? { cache } : {});
    results.push(r);
    if (r.node) bindPod(s, p, r.node);
  }
  return { results, ...(cache ? { cache } : {}) };
}

function summary(r: Convergence) {
  const pods = r.state
    .list('Pod')
    .map(
      (p) =>
        `${p.metadata.namespace}/${p.metadata.name} ${p.spec.nodeName ?? '-'} ${p.status?.nominatedNodeName ?? ''}`,
    )
    .sort();
  const { state: _s, ...rest } = r;
  void _s;
  return { ...rest, pods };
}

describe('the scheduler verdict cache gives the results of a full scheduling pass', () => {
  it('240 pods of three shapes placed one by one: same node, message and node statuses, with reuse', () => {
    const slow = placeAll(undefined).results;
    const fast = placeAll(new ScheduleCache());
    expect(fast.results).toEqual(slow);
    // The run means something: 224 bound; the 16 last port-9000 pods find the port taken on every
    // schedulable zone-b node.
    expect(slow.filter((r) => r.scheduled).length).toBe(224);
    const refused = slow.filter((r) => !r.scheduled).map((r) => r.message);
    expect(refused).toEqual(
      Array(16).fill(
        "0/200 nodes are available: 127 node(s) didn't match Pod's node affinity/selector, 2 node(s) were unschedulable, 64 node(s) didn't have free ports for the requested pod ports, 7 node(s) had untolerated taint(s). no new claims to deallocate, preemption: 0/200 nodes are available: 136 Preemption is not helpful for scheduling, 64 No preemption victims found for incoming pod.",
      ),
    );
    // Of 240 × 200 node visits at most, about half reused a verdict.
    expect(fast.cache!.reused).toBeGreaterThan(20_000);
  });

  const scale = (name: string, replicas: number): Change => ({
    kind: 'scale',
    target: { kind: 'Deployment', namespace: 'team-big', name },
    replicas,
  });
  const raise: Change = {
    kind: 'quota',
    namespace: 'team-big',
    name: 'team-quota',
    hard: { 'requests.cpu': '1000', 'requests.memory': '4000Gi', pods: '5000' },
  };
  const count = (r: Convergence, t: string) => r.events.filter((e) => e.type === t).length;
  const outcomes = (r: Convergence, names: string[]) =>
    names.map((n) => {
      const w = r.workloads.find((x) => x.name === n)!;
      return [n, w.pods, w.scheduled];
    });

  it('a convergence scaling four workloads (preemption included) equals the one without the cache', () => {
    const { state } = cluster();
    const changes = [raise, scale('svc-0', 1000), scale('pinned', 90), scale('spread', 30), scale('vip', 8)];
    const slow = converge(state, changes, { scheduleCache: false, now: NOW });
    const fast = converge(state, changes, { now: NOW });
    expect(summary(fast)).toEqual(summary(slow));
    expect({ steps: slow.steps, bounded: slow.bounded }).toEqual({ steps: 5, bounded: false });
    // vip preempts pods, whose ReplicaSets re-create them (bound again elsewhere); pinned pods wait.
    expect([count(slow, 'Scheduled'), count(slow, 'FailedScheduling'), count(slow, 'Preempted')]).toEqual([
      764, 41, 62,
    ]);
    expect(outcomes(slow, ['svc-0', 'pinned', 'spread', 'vip'])).toEqual([
      ['svc-0', 1000, 1000],
      ['pinned', 90, 57],
      ['spread', 30, 30],
      ['vip', 8, 8],
    ]);
  });

  it('pods with required anti-affinity bound on the way: the cache steps aside, results unchanged', () => {
    const { state } = cluster();
    const changes = [raise, scale('lonely', 12), scale('svc-0', 700), scale('pinned', 40)];
    const slow = converge(state, changes, { scheduleCache: false, now: NOW });
    const fast = converge(state, changes, { now: NOW });
    expect(summary(fast)).toEqual(summary(slow));
    expect([count(slow, 'Scheduled'), count(slow, 'FailedScheduling')]).toEqual([352, 0]);
    expect(outcomes(slow, ['lonely', 'svc-0', 'pinned'])).toEqual([
      ['lonely', 12, 12],
      ['svc-0', 700, 700],
      ['pinned', 40, 40],
    ]);
  });
});
