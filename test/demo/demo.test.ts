/**
 * The bundled demo cluster (manifests/demo) is a state the README, the local console and many tests
 * lean on. This keeps it honest: it loads cleanly, every quota's status.used is what the quota
 * controller would compute, bound pods fit their nodes, every event's numbers agree with the objects,
 * and re-running admission / the scheduler on the state reproduces each recorded message byte for byte.
 */
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { readStateFiles, type LoadedState } from '../../src/cluster/file-source.ts';
import { admitObject } from '../../src/engine/admit.ts';
import { computeQuotaUsed } from '../../src/engine/quota-ledger.ts';
import { budgetStatus } from '../../src/engine/controllers/disruption.ts';
import { whatIfDrain } from '../../src/engine/whatif/drain.ts';
import { isTerminal, podRequests } from '../../src/engine/pod-resources.ts';
import { schedulePod } from '../../src/engine/scheduler/schedule.ts';
import type { KEvent } from '../../src/k8s/objects.ts';
import type { KObject, Snapshot } from '../../src/k8s/snapshot.ts';
import { Quantity, resourceList } from '../../src/quantity.ts';

const DEMO = fileURLToPath(new URL('../../manifests/demo', import.meta.url));

let loaded: LoadedState;
let snap: Snapshot;

beforeAll(() => {
  loaded = readStateFiles(DEMO);
  snap = loaded.snapshot;
});

const pods = () => snap.list('Pod');
const events = () => snap.list('Event');
const quotas = () => snap.list('ResourceQuota');
const key = (o: KObject) => `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;

/** The API error inside a controller's FailedCreate event message. */
function apiError(message: string): string {
  return message.replace(/^\(combined from similar events\): /, '').replace(/^Error creating: /, '');
}

function eventsFor(kind: string, ns: string, name: string, reason: string): KEvent[] {
  return events().filter(
    (e) =>
      e.involvedObject?.kind === kind &&
      e.involvedObject.namespace === ns &&
      e.involvedObject.name === name &&
      e.reason === reason,
  );
}

function parsePairs(text: string): Map<string, Quantity> {
  return new Map(
    text.split(',').map((p) => {
      const i = p.indexOf('=');
      return [p.slice(0, i), Quantity.parse(p.slice(i + 1))] as [string, Quantity];
    }),
  );
}

const EXCEEDED = /exceeded quota: ([^,]+), requested: (\S+), used: (\S+), limited: (\S+)$/;

describe('demo cluster: loading', () => {
  it('loads without errors or warnings (no skipped kinds, no computed quota status)', () => {
    expect(loaded.errors).toEqual([]);
    expect(loaded.warnings).toEqual([]);
  });

  it('has the expected shape: 10 nodes, the team namespaces, the priority classes', () => {
    expect(
      snap
        .list('Node')
        .map((n) => n.metadata.name)
        .sort(),
    ).toEqual([
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
    for (const ns of ['team-a', 'team-b', 'ml', 'batch', 'kube-system'])
      expect(snap.get('Namespace', undefined, ns), ns).toBeDefined();
    for (const ns of ['team-a', 'team-b', 'ml', 'batch'])
      expect((snap.get('Namespace', undefined, ns)!.metadata.labels as Record<string, string>).team).toBeTruthy();
    expect(
      snap
        .list('PriorityClass')
        .map((p) => p.metadata.name)
        .sort(),
    ).toEqual(['batch-low', 'default-priority', 'high', 'low', 'system-cluster-critical', 'system-node-critical']);
  });
});

describe('demo cluster: quotas', () => {
  it('every ResourceQuota has status.hard = spec.hard and status.used = what the quota controller computes', () => {
    expect(quotas().length).toBe(5);
    for (const q of quotas()) {
      const hard = resourceList(q.spec?.hard);
      const statusHard = resourceList(q.status?.hard);
      expect([...statusHard.keys()].sort(), key(q)).toEqual([...hard.keys()].sort());
      for (const [k, v] of hard) expect(statusHard.get(k)!.cmp(v), `${key(q)} status.hard ${k}`).toBe(0);

      const given = resourceList(q.status?.used);
      const computed = computeQuotaUsed(snap, q);
      expect([...given.keys()].sort(), `${key(q)} used keys`).toEqual([...computed.keys()].sort());
      for (const [k, v] of computed) {
        expect(given.get(k)!.cmp(v), `${key(q)} used ${k}: given ${given.get(k)}, computed ${v}`).toBe(0);
        // Written as the controller prints it (canonical String()).
        expect(String(q.status!.used![k]), `${key(q)} used ${k} canonical`).toBe(v.toString());
      }
    }
  });

  it('every "exceeded quota" FailedCreate event agrees with its quota (same numbers, used + requested > hard)', () => {
    const exceeded = events().filter((e) => e.reason === 'FailedCreate' && EXCEEDED.test(e.message ?? ''));
    expect(exceeded.length).toBeGreaterThanOrEqual(4);
    for (const e of exceeded) {
      const [, name, requested, used, limited] = EXCEEDED.exec(e.message!)!;
      const q = snap.get('ResourceQuota', e.metadata.namespace, name!);
      expect(q, `quota ${name} of event ${e.metadata.name}`).toBeDefined();
      const req = parsePairs(requested!);
      const u = parsePairs(used!);
      const lim = parsePairs(limited!);
      const hard = resourceList(q!.status?.hard);
      const nowUsed = resourceList(q!.status?.used);
      for (const [r, v] of req) {
        expect(lim.get(r)!.cmp(hard.get(r)!), `${e.metadata.name}: limited ${r}`).toBe(0);
        expect(u.get(r)!.cmp(nowUsed.get(r)!), `${e.metadata.name}: used ${r}`).toBe(0);
        expect(u.get(r)!.add(v).cmp(lim.get(r)!), `${e.metadata.name}: ${r} must exceed`).toBe(1);
      }
    }
  });
});

describe('demo cluster: nodes', () => {
  it('every bound pod is on an existing node, and each node holds its pods (requests ≤ allocatable)', () => {
    const sums = new Map<string, { count: number; req: Map<string, Quantity> }>();
    for (const p of pods()) {
      const n = p.spec.nodeName;
      if (!n) continue;
      expect(snap.get('Node', undefined, n), `${key(p)} → node ${n}`).toBeDefined();
      if (isTerminal(p)) continue;
      const s = sums.get(n) ?? { count: 0, req: new Map<string, Quantity>() };
      s.count++;
      for (const [r, v] of podRequests(p, { useStatusResources: true }))
        s.req.set(r, (s.req.get(r) ?? Quantity.zero()).add(v));
      sums.set(n, s);
    }
    expect(sums.size).toBe(10);
    for (const [n, s] of sums) {
      const alloc = resourceList(snap.get('Node', undefined, n)!.status?.allocatable);
      expect(s.count, `${n} pods`).toBeLessThanOrEqual(Number(alloc.get('pods')!.value()));
      for (const [r, v] of s.req) {
        const a = alloc.get(r) ?? Quantity.zero();
        expect(v.cmp(a), `${n}: ${r} requested ${v} > allocatable ${a}`).toBeLessThanOrEqual(0);
      }
    }
  });

  it('has the node pools the stories need', () => {
    const node = (n: string) => snap.get('Node', undefined, n)!;
    for (const n of ['gpu-a-1', 'gpu-b-1']) {
      expect(node(n).spec?.taints).toEqual([{ key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' }]);
      expect(String(node(n).status?.allocatable?.['nvidia.com/gpu'])).toBe('4');
    }
    expect(node('general-c-2').spec?.unschedulable).toBe(true);
    expect(node('general-c-2').spec?.taints?.map((t) => `${t.key}:${t.effect}`)).toEqual([
      'node.kubernetes.io/unschedulable:NoSchedule',
    ]);
    expect(node('control-plane-1').spec?.taints).toEqual([
      { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' },
    ]);
    for (const n of snap.list('Node')) {
      const l = n.metadata.labels as Record<string, string>;
      expect(l['kubernetes.io/hostname']).toBe(n.metadata.name);
      expect(l['topology.kubernetes.io/zone']).toMatch(/^eu-west-1[abc]$/);
      expect(l['node.kubernetes.io/instance-type']).toBeTruthy();
    }
  });
});

describe('demo cluster: objects look like the controllers made them', () => {
  it('every ownerReference resolves to an object of that kind with that uid', () => {
    for (const kind of ['Pod', 'ReplicaSet', 'Job']) {
      for (const o of snap.list(kind)) {
        for (const ref of (o.metadata.ownerReferences ?? []) as { kind: string; name: string; uid?: string }[]) {
          const owner = snap.get(ref.kind, ref.kind === 'Node' ? undefined : o.metadata.namespace, ref.name);
          expect(owner, `${kind} ${key(o)} → ${ref.kind} ${ref.name}`).toBeDefined();
          expect(owner!.metadata.uid).toBe(ref.uid);
        }
      }
    }
  });

  it('generated pod names are <generateName><5 chars of the name alphabet>', () => {
    for (const p of pods()) {
      const gn = p.metadata.generateName as string | undefined;
      if (!gn) continue;
      expect(p.metadata.name, key(p)).toMatch(
        new RegExp(`^${gn.replace(/[.]/g, '\\.')}[bcdfghjklmnpqrstvwxz2456789]{5}$`),
      );
    }
  });

  it('LimitRanges are in stored form (Container defaults derived from max, defaultRequest from default)', () => {
    for (const lr of snap.list('LimitRange')) {
      for (const item of lr.spec.limits) {
        if (item.type !== 'Container') {
          expect(item.default ?? item.defaultRequest, `${key(lr)} ${item.type} has no defaults`).toBeUndefined();
          continue;
        }
        for (const r of Object.keys(item.max ?? {})) expect(item.default?.[r], `${key(lr)} default.${r}`).toBeDefined();
        for (const r of Object.keys(item.default ?? {}))
          expect(item.defaultRequest?.[r], `${key(lr)} defaultRequest.${r}`).toBeDefined();
      }
    }
  });

  it('Pending pods carry the same FailedScheduling text in their PodScheduled condition and their event', () => {
    const pending = pods().filter((p) => !p.spec.nodeName);
    expect(pending.map(key).sort()).toEqual([
      'batch/reindex-backfill',
      'ml/finetune-7b-jmngj',
      'ml/notebook-priya',
      'team-a/api-6b9f4c7d8-gnt9f',
    ]);
    for (const p of pending) {
      const cond = p.status?.conditions?.find((c) => c.type === 'PodScheduled');
      expect(cond?.status).toBe('False');
      expect(cond?.reason).toBe('Unschedulable');
      const ev = eventsFor('Pod', p.metadata.namespace!, p.metadata.name!, 'FailedScheduling');
      expect(ev.length, key(p)).toBe(1);
      expect(ev[0]!.type).toBe('Warning');
      expect(ev[0]!.message).toBe(cond?.message);
      expect(ev[0]!.count).toBeGreaterThan(1);
      expect(String(ev[0]!.lastTimestamp)).toMatch(/^2026-/);
    }
  });
});

/** The rejected pod of a FailedCreate event: the owner's template under the name in the message. */
function rejectedPod(e: KEvent): KObject {
  const ns = e.involvedObject!.namespace!;
  const kind = e.involvedObject!.kind!;
  const owner = (kind === 'ReplicaSet' || kind === 'Job' ? snap.get(kind, ns, e.involvedObject!.name!) : undefined)!;
  const name = /^pods "([^"]+)"/.exec(apiError(e.message!))![1]!;
  const t = owner.spec.template;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { ...(t.metadata ?? {}), name, namespace: ns },
    spec: structuredClone(t.spec),
  };
}

describe('demo cluster: the stories', () => {
  it('team-a: quota full on pods (10/10) with CPU left; worker cannot get its third pod', () => {
    const q = snap.get('ResourceQuota', 'team-a', 'team-quota')!;
    expect(q.status?.used?.pods).toBe('10');
    expect(q.status?.hard?.pods).toBe('10');
    expect(Quantity.parse(q.status!.used!['requests.cpu']).cmp(Quantity.parse(q.status!.hard!['requests.cpu']))).toBe(
      -1,
    );
    const ev = eventsFor('ReplicaSet', 'team-a', 'worker-5d8c7b9f4', 'FailedCreate');
    expect(ev.length).toBe(3);
    expect(ev.map((e) => e.message)).toContain(
      'Error creating: pods "worker-5d8c7b9f4-kj2r7" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10',
    );
    expect(snap.get('Deployment', 'team-a', 'worker')).toBeDefined();
    expect(snap.get('Deployment', 'team-a', 'web')!.spec).toMatchObject({ replicas: 4 });
    expect(snap.get('Deployment', 'team-a', 'api')!.spec).toMatchObject({ replicas: 3 });
    expect(
      pods().filter((p) => p.metadata.namespace === 'team-a' && p.metadata.name!.startsWith('web-7c5d8f9b6-')).length,
    ).toBe(4);
    expect(
      pods().filter((p) => p.metadata.namespace === 'team-a' && p.metadata.name!.startsWith('api-6b9f4c7d8-')).length,
    ).toBe(3);
    // The finished migration pod exists but does not hold a `pods` slot.
    expect(snap.get('Pod', 'team-a', 'db-migrate-v42-bz4ds')?.status?.phase).toBe('Succeeded');
  });

  it('team-a: exporter is refused by the LimitRange (cpu limit/request 20 > maxLimitRequestRatio 10)', () => {
    const ev = eventsFor('ReplicaSet', 'team-a', 'exporter-8f6d5c4b9', 'FailedCreate');
    expect(ev.map((e) => e.message)).toEqual([
      'Error creating: pods "exporter-8f6d5c4b9-79btt" is forbidden: cpu max limit to request ratio per Container is 10, but provided ratio is 20.000000',
    ]);
  });

  it('team-a: web pods carry the LimitRange defaults', () => {
    const web = pods().filter((p) => p.metadata.name!.startsWith('web-7c5d8f9b6-'));
    for (const p of web) {
      expect(p.spec.containers[0]!.resources).toEqual({
        requests: { cpu: '100m', memory: '128Mi' },
        limits: { cpu: '500m', memory: '512Mi' },
      });
      expect((p.metadata.annotations as Record<string, string>)['kubernetes.io/limit-ranger']).toBe(
        'LimitRanger plugin set: cpu, memory request for container web; cpu, memory limit for container web',
      );
    }
  });

  it('team-b: BestEffort and NotBestEffort quotas; report-gen refused with "must specify"; cache OOMKilled', () => {
    expect(snap.get('ResourceQuota', 'team-b', 'besteffort')!.spec?.scopes).toEqual(['BestEffort']);
    expect(snap.get('ResourceQuota', 'team-b', 'compute')!.spec?.scopes).toEqual(['NotBestEffort']);
    const ev = eventsFor('ReplicaSet', 'team-b', 'report-gen-6d8f7b9c4', 'FailedCreate');
    expect(ev.map((e) => e.message)).toContain(
      'Error creating: pods "report-gen-6d8f7b9c4-87lqz" is forbidden: failed quota: compute: must specify limits.cpu for: app; limits.memory for: app',
    );
    const cache = pods().find(
      (p) => p.metadata.namespace === 'team-b' && p.metadata.name!.startsWith('cache-5f7d9c8b6d-'),
    )!;
    const st = cache.status!.containerStatuses![0]! as {
      lastState: { terminated: { reason: string; exitCode: number } };
    };
    expect(st.lastState.terminated).toMatchObject({ reason: 'OOMKilled', exitCode: 137 });
    expect(eventsFor('Pod', 'team-b', cache.metadata.name!, 'BackOff').length).toBe(1);
  });

  it('ml: GPU quota (8/8, five of them held by Pending pods), a notebook without the GPU toleration, a 4-GPU job that fits nowhere', () => {
    const q = snap.get('ResourceQuota', 'ml', 'gpu-quota')!;
    expect(q.status?.used?.['requests.nvidia.com/gpu']).toBe('8');
    expect(q.status?.hard?.['requests.nvidia.com/gpu']).toBe('8');
    expect(eventsFor('Pod', 'ml', 'notebook-priya', 'FailedScheduling')[0]!.message).toBe(
      "0/10 nodes are available: 1 node(s) were unschedulable, 3 node(s) had untolerated taint(s), 6 node(s) didn't match Pod's node affinity/selector. no new claims to deallocate, preemption: 0/10 nodes are available: 10 Preemption is not helpful for scheduling.",
    );
    expect(eventsFor('Pod', 'ml', 'finetune-7b-jmngj', 'FailedScheduling')[0]!.message).toBe(
      "0/10 nodes are available: 1 node(s) had untolerated taint(s), 1 node(s) were unschedulable, 2 Insufficient nvidia.com/gpu, 6 node(s) didn't match Pod's node affinity/selector. no new claims to deallocate, preemption: 0/10 nodes are available: 2 No preemption victims found for incoming pod, 8 Preemption is not helpful for scheduling.",
    );
  });

  it('batch: PriorityClass-scoped quota stops the nightly-etl Job at 8 of 10 pods; CronJob; a 1500-CPU pod admitted but unschedulable', () => {
    const q = snap.get('ResourceQuota', 'batch', 'batch-low')!;
    expect(q.spec?.scopeSelector?.matchExpressions).toEqual([
      { operator: 'In', scopeName: 'PriorityClass', values: ['batch-low'] },
    ]);
    expect(snap.get('CronJob', 'batch', 'nightly-etl')).toBeDefined();
    expect(snap.get('Job', 'batch', 'nightly-etl-29551740')!.spec.parallelism).toBe(10);
    const ev = eventsFor('Job', 'batch', 'nightly-etl-29551740', 'FailedCreate');
    expect(ev.length).toBe(2);
    expect(apiError(ev[0]!.message!)).toMatch(
      /exceeded quota: batch-low, requested: requests\.cpu=2500m, used: requests\.cpu=20, limited: requests\.cpu=22$/,
    );
    expect(eventsFor('Pod', 'batch', 'reindex-backfill', 'FailedScheduling')[0]!.message).toBe(
      '0/10 nodes are available: 1 node(s) were unschedulable, 3 node(s) had untolerated taint(s), 6 Insufficient cpu. no new claims to deallocate, preemption: 0/10 nodes are available: 10 Preemption is not helpful for scheduling.',
    );
  });

  it('team-a: the api pod evicted from the cordoned node stays Pending on cpu', () => {
    expect(eventsFor('Pod', 'team-a', 'api-6b9f4c7d8-gnt9f', 'FailedScheduling')[0]!.message).toBe(
      '0/10 nodes are available: 1 node(s) were unschedulable, 3 node(s) had untolerated taint(s), 6 Insufficient cpu. no new claims to deallocate, preemption: 0/10 nodes are available: 4 Preemption is not helpful for scheduling, 6 No preemption victims found for incoming pod.',
    );
  });
});

describe('demo cluster: disruption budgets', () => {
  it('every PodDisruptionBudget has the status the disruption controller computes (disruption.go updatePdbStatus)', () => {
    const got = snap.list('PodDisruptionBudget').map((p) => {
      const { expectedPods, desiredHealthy, currentHealthy, disruptionsAllowed } = p.status ?? {};
      return { pdb: key(p), expectedPods, desiredHealthy, currentHealthy, disruptionsAllowed };
    });
    expect(got).toEqual([
      { pdb: 'team-a/api', expectedPods: 3, desiredHealthy: 2, currentHealthy: 2, disruptionsAllowed: 0 },
    ]);
    for (const p of snap.list('PodDisruptionBudget')) expect(got).toContainEqual(budgetStatus(snap, p));
  });

  it('story: draining general-a-2 does not finish — the api budget refuses the eviction of api-6b9f4c7d8-t5zcx (429)', () => {
    const d = whatIfDrain(snap, 'general-a-2')!;
    expect(d.refusedEvictions).toEqual([
      {
        pod: 'team-a/api-6b9f4c7d8-t5zcx',
        pdb: 'team-a/api',
        message:
          'error when evicting pods/"api-6b9f4c7d8-t5zcx" -n "team-a" (will retry after 5s): Cannot evict pod as it would violate the pod\'s disruption budget.',
        cause: 'The disruption budget api needs 2 healthy pods and has 2 currently',
      },
    ]);
    expect(d.fates.find((f) => f.pod === 'team-a/api-6b9f4c7d8-t5zcx')?.fate).toBe('stays');
  });
});

describe('demo cluster: the engine reproduces every recorded message', () => {
  it('re-admitting each FailedCreate pod gives the API error of its event, byte for byte', () => {
    const failed = events().filter((e) => e.reason === 'FailedCreate');
    expect(failed.length).toBe(8);
    for (const e of failed) {
      const a = admitObject(rejectedPod(e), snap);
      expect(a.allowed, e.metadata.name).toBe(false);
      expect(a.message, e.metadata.name).toBe(apiError(e.message!));
    }
  });

  it('re-scheduling each Pending pod with schedulePod gives its FailedScheduling message, byte for byte', () => {
    const pending = pods().filter((p) => !p.spec.nodeName && !isTerminal(p));
    expect(pending.length).toBe(4);
    for (const p of pending) {
      const [ev] = eventsFor('Pod', p.metadata.namespace!, p.metadata.name!, 'FailedScheduling');
      const r = schedulePod(snap, p);
      expect(r.scheduled, key(p)).toBe(false);
      expect(r.message, key(p)).toBe(ev!.message);
    }
  });
});
