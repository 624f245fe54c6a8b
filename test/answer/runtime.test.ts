/**
 * Runtime replies with numbers (issue #17, Deliver 4): the container, its limit (or request for an
 * eviction), what it used, and one kubectl command rounded up — checked against LimitRange max and quota
 * headroom when the state is known. Every amount is worked out in the comments.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/answer/diagnose.ts';
import { formatMemory, readable, roundUpMemory } from '../../src/answer/replies/runtime.ts';
import type { KObject, Snapshot } from '../../src/k8s/snapshot.ts';
import { deployment, limitRange, pod, quota, replicaSet, snapshotOf } from '../support/builders.ts';

const fixtures = join(import.meta.dirname, '..', 'fixtures');
function paste(name: string): string {
  if (name.includes('/')) return readFileSync(join(fixtures, name), 'utf8');
  const file = readdirSync(join(fixtures, 'pastes')).find((f) => f.startsWith(`${name}-`) && f.endsWith('.txt'));
  return readFileSync(join(fixtures, 'pastes', file!), 'utf8');
}

function lines(text: string, o: { state?: Snapshot; namespace?: string } = {}): string[] {
  const r = diagnose({ text, ...o }).answer.replies[0]!;
  return [`${r.icon} ${r.headline}`, ...r.lines];
}

const MI = 1024n * 1024n;

describe('rounding', () => {
  it.each([
    [90n * MI, true, '128Mi'],
    [466160n * 1024n, true, '512Mi'],
    [1843n * MI, false, '2Gi'],
    [2048n * MI, true, '2304Mi'],
    [48458972n * 1024n, false, '47Gi'],
    [96n * 1024n, false, '64Mi'],
  ])('%s above=%s → %s', (bytes, above, expected) => {
    expect(formatMemory(roundUpMemory(bytes, above))).toBe(expected);
  });
  it.each([
    ['48458972Ki', '48458972Ki (46.2Gi)'],
    ['30332Ki', '30332Ki (30Mi)'],
    ['2097152Ki', '2097152Ki (2Gi)'],
    ['90Mi', '90Mi'],
  ])('readable %s', (q, expected) => {
    expect(readable(q)).toBe(expected);
  });
});

describe('runtime replies from the text alone', () => {
  it.each([
    [
      // Limit 90Mi from the describe block; killed at the limit: the next 64Mi step above 90Mi is 128Mi.
      '164',
      [
        '💥 Runtime problem: OOMKilled — pod memcached-operator-controller-manager-6d57f5fd7-gfnxw (memcached-operator-system)',
        'The container: memory limit 90Mi, request 60Mi.',
        'Raise the limit above what it used — the next step is 128Mi (the paste does not say how much more it needs: it was killed at 90Mi):',
        'kubectl -n memcached-operator-system set resources deploy/memcached-operator-controller-manager --limits=memory=128Mi',
        'The paste does not name the container: without -c this sets every container; add -c NAME for one.',
      ],
    ],
    [
      // 48458972Ki = 46.2Gi used against a 15Gi request: at or above 8Gi the step is 1Gi → 47Gi.
      '068',
      [
        '💥 Runtime problem: Evicted — in ci',
        'Container dptp-controller-manager used 48458972Ki (46.2Gi) of memory with a request of 15Gi — the node ran low on memory, and pods using more than they request are evicted first.',
        'Set the request to what it uses, 47Gi:',
        'kubectl -n ci set resources deploy/WORKLOAD -c dptp-controller-manager --requests=memory=47Gi',
      ],
    ],
    [
      // 1275700Ki = 1245.8Mi (1.2Gi); between 1Gi and 8Gi the step is 256Mi → 1280Mi. Pod name → deploy/treetracker-pgpool.
      '066',
      [
        '💥 Runtime problem: Evicted — pod treetracker-pgpool-598947fd8f-vzvkq (pgpool)',
        'Container treetracker-pgpool used 1275700Ki (1.2Gi) of memory with a request of 0 (no request: first in line) — the node ran low on memory, and pods using more than they request are evicted first.',
        'Set the request to what it uses, 1280Mi:',
        'kubectl -n pgpool set resources deploy/treetracker-pgpool -c treetracker-pgpool --requests=memory=1280Mi',
      ],
    ],
    [
      'runtime/describe-redis-maxmemory.txt',
      [
        '💥 Runtime problem: OOMKilled',
        'Container redis: memory limit 2Gi, request 1Gi.',
        "The app's own cap --maxmemory 3gb (3Gi) is at or above the limit 2Gi: the kernel kills it before the app limits itself. Lower the app's cap below 2Gi — or raise the limit above 3Gi.",
      ],
    ],
    [
      'runtime/pod-yaml-xmx.txt',
      [
        '💥 Runtime problem: OOMKilled',
        'Container app: memory limit 2Gi, request 1Gi.',
        "The app's own cap -Xmx4g (4Gi) is at or above the limit 2Gi: the kernel kills it before the app limits itself. Lower the app's cap below 2Gi (that cap is the heap only: leave room for the rest of the process) — or raise the limit above 4Gi.",
      ],
    ],
    [
      // cgroup usage = limit = 2097152kB = 2Gi: strictly above, the next 256Mi step is 2304Mi.
      'runtime/kernel-memcg.txt',
      [
        '💥 Runtime problem: OOMKilled',
        'The container (process node): memory limit 2Gi, it used 2Gi when killed.',
        'Raise the limit above what it used — the next step is 2304Mi:',
        'kubectl set resources deploy/WORKLOAD --limits=memory=2304Mi',
        'The paste does not name the container: without -c this sets every container; add -c NAME for one.',
      ],
    ],
    [
      '180',
      [
        '💥 Runtime problem: OOMKilled',
        'The container: no memory limit in the paste.',
        "The paste gives no memory limit or usage: `kubectl get pod POD -o jsonpath='{.spec.containers[*].resources}'` shows the limit; raise it above what the container needs.",
      ],
    ],
  ])('%s', (name, expected) => {
    expect(lines(paste(name))).toEqual(expected);
  });
});

describe('runtime replies against the state', () => {
  const ns = 'team-a';
  const base = (o: { lrMax?: string; quotaFree?: boolean } = {}) =>
    snapshotOf(
      deployment('api', {
        namespace: ns,
        replicas: 3,
        container: 'api',
        limits: { memory: '1Gi' },
        requests: { memory: '512Mi' },
      }),
      replicaSet('api-7c5d8f9b4', {
        namespace: ns,
        owner: 'api',
        replicas: 3,
        container: 'api',
        limits: { memory: '1Gi' },
        requests: { memory: '512Mi' },
      }),
      pod('api-7c5d8f9b4-x2k9q', {
        namespace: ns,
        container: 'api',
        memory: '512Mi',
        limits: { memory: '1Gi' },
        owner: { kind: 'ReplicaSet', name: 'api-7c5d8f9b4' },
        node: 'n1',
      }),
      ...(o.lrMax ? [limitRange('bounds', { namespace: ns, container: { max: { memory: o.lrMax } } })] : []),
      ...(o.quotaFree !== undefined
        ? [
            quota('mem', {
              namespace: ns,
              hard: { 'limits.memory': '4Gi' },
              used: { 'limits.memory': o.quotaFree ? '3Gi' : '3584Mi' },
            }),
          ]
        : []),
    );
  // `kubectl describe pod` cut to what people paste: no Limits block, so the limit is the state's.
  const text = [
    'Name:             api-7c5d8f9b4-x2k9q',
    'Namespace:        team-a',
    'Containers:',
    '  api:',
    '    State:          Running',
    '    Last State:     Terminated',
    '      Reason:       OOMKilled',
    '      Exit Code:    137',
  ].join('\n');

  it.each([
    [
      'no bounds: the limit from the pod, the workload from its owner',
      {},
      [
        '💥 Runtime problem: OOMKilled — pod api-7c5d8f9b4-x2k9q (team-a)',
        'Container api: memory limit 1Gi, request 512Mi.',
        'Raise the limit above what it used — the next step is 1280Mi (the paste does not say how much more it needs: it was killed at 1Gi):',
        'kubectl -n team-a set resources deploy/api -c api --limits=memory=1280Mi',
      ],
    ],
    [
      // LimitRange max 1Gi < 1280Mi: refused.
      'LimitRange max below the target',
      { lrMax: '1Gi' },
      [
        '💥 Runtime problem: OOMKilled — pod api-7c5d8f9b4-x2k9q (team-a)',
        'Container api: memory limit 1Gi, request 512Mi.',
        'Raise the limit above what it used — the next step is 1280Mi (the paste does not say how much more it needs: it was killed at 1Gi):',
        'kubectl -n team-a set resources deploy/api -c api --limits=memory=1280Mi',
        '⚠ Raising it to 1280Mi would be refused: LimitRange bounds allows at most 1Gi memory per container (the platform team can raise it).',
      ],
    ],
    [
      // limits.memory 4Gi hard, 3Gi used → 1Gi free; 3 replicas × (1280Mi − 1Gi = 256Mi) = 768Mi fits.
      'quota with room',
      { quotaFree: true },
      [
        '💥 Runtime problem: OOMKilled — pod api-7c5d8f9b4-x2k9q (team-a)',
        'Container api: memory limit 1Gi, request 512Mi.',
        'Raise the limit above what it used — the next step is 1280Mi (the paste does not say how much more it needs: it was killed at 1Gi):',
        'kubectl -n team-a set resources deploy/api -c api --limits=memory=1280Mi',
      ],
    ],
    [
      // 3584Mi used of 4Gi → 512Mi free; 3 replicas × 256Mi more = 768Mi > 512Mi: refused.
      'quota without room',
      { quotaFree: false },
      [
        '💥 Runtime problem: OOMKilled — pod api-7c5d8f9b4-x2k9q (team-a)',
        'Container api: memory limit 1Gi, request 512Mi.',
        'Raise the limit above what it used — the next step is 1280Mi (the paste does not say how much more it needs: it was killed at 1Gi):',
        'kubectl -n team-a set resources deploy/api -c api --limits=memory=1280Mi',
        '⚠ Raising it would be refused by ResourceQuota mem: limits.memory has 512Mi free, 3 pods × 256Mi more need 768Mi (the platform team can raise it, or free limits.memory in the namespace).',
      ],
    ],
  ])('%s', (_name, o, expected) => {
    expect(lines(text, { state: base(o), namespace: ns })).toEqual(expected);
  });
});

describe('a paste naming no pod, tied by the pods status', () => {
  const ns = 'ci';
  const killed = (name: string, container: string, limit: string): KObject => {
    const p = pod(name, {
      namespace: ns,
      container,
      memory: '1Gi',
      limits: { memory: limit },
      owner: { kind: 'ReplicaSet', name: 'builder-5d9c7b6f4' },
      node: 'n1',
    });
    return {
      ...p,
      status: {
        phase: 'Running',
        containerStatuses: [
          { name: container, restartCount: 3, lastState: { terminated: { reason: 'OOMKilled', exitCode: 137 } } },
        ],
      },
    };
  };
  const evicted: KObject = {
    ...pod('cache-0', {
      namespace: ns,
      container: 'redis',
      memory: '128Mi',
      owner: { kind: 'StatefulSet', name: 'cache' },
    }),
    status: {
      phase: 'Failed',
      reason: 'Evicted',
      message:
        'The node was low on resource: memory. Threshold quantity: 100Mi, available: 87608Ki. Container redis was using 1843Mi, request is 128Mi, has larger consumption of memory. ',
    },
  };

  it('prose OOM: the one pod whose last state is OOMKilled, its limit and workload from the state', () => {
    const state = snapshotOf(
      deployment('builder', { namespace: ns, replicas: 2, container: 'build', limits: { memory: '2Gi' } }),
      replicaSet('builder-5d9c7b6f4', { namespace: ns, owner: 'builder', replicas: 2, container: 'build' }),
      killed('builder-5d9c7b6f4-abcde', 'build', '2Gi'),
      pod('other-1', { namespace: ns, node: 'n1' }),
    );
    // Killed at 2Gi: the next 256Mi step above is 2304Mi.
    expect(lines('my build pod was OOM killed again', { state, namespace: ns })).toEqual([
      '💥 Runtime problem: OOMKilled — in ci',
      'This is pod/builder-5d9c7b6f4-abcde (ci): its status shows the OOM kill.',
      'Container build: memory limit 2Gi, request 1Gi.',
      'Raise the limit above what it used — the next step is 2304Mi (the paste does not say how much more it needs: it was killed at 2Gi):',
      'kubectl -n ci set resources deploy/builder -c build --limits=memory=2304Mi',
    ]);
  });

  it('a bare "Evicted": the evicted pod, and the numbers of its status message', () => {
    const state = snapshotOf(evicted, pod('other-1', { namespace: ns, node: 'n1' }));
    // 1843Mi between 1Gi and 8Gi: the 256Mi step at or above is 2048Mi = 2Gi.
    expect(
      lines('Warning  Evicted  kubelet  The node had condition: [MemoryPressure].', { state, namespace: ns }),
    ).toEqual([
      '💥 Runtime problem: Evicted — in ci',
      'This is pod/cache-0 (ci): its status shows the eviction.',
      'Container redis used 1843Mi of memory with a request of 128Mi — the node ran low on memory, and pods using more than they request are evicted first.',
      'Set the request to what it uses, 2Gi:',
      'kubectl -n ci set resources statefulset/cache -c redis --requests=memory=2Gi',
    ]);
  });
});

describe("the app's own memory cap read from the container's spec", () => {
  const ns = 'ci';
  /** A pod of deploy/app killed at a 1Gi limit, its container `app` started with `command`, `args` and `env`. */
  const state = (spec: { command?: string[]; args?: string[]; env?: unknown[] }) => {
    const p = pod('app-5d9c7b6f4-abcde', {
      namespace: ns,
      container: 'app',
      memory: '1Gi',
      limits: { memory: '1Gi' },
      owner: { kind: 'ReplicaSet', name: 'app-5d9c7b6f4' },
      node: 'n1',
    });
    const podSpec = p.spec as { containers: Record<string, unknown>[] };
    podSpec.containers[0] = { ...podSpec.containers[0], ...spec };
    return snapshotOf(
      deployment('app', { namespace: ns, replicas: 1, container: 'app', limits: { memory: '1Gi' } }),
      replicaSet('app-5d9c7b6f4', { namespace: ns, owner: 'app', replicas: 1, container: 'app' }),
      { ...p, status: { phase: 'Running' } },
    );
  };
  const OOM =
    'kubectl describe pod app-5d9c7b6f4-abcde -n ci\n    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137';
  const atOrAbove = (setting: string, memory: string, where: string) =>
    `The app's own cap ${setting} (${memory}, in the container's ${where}) is at or above the limit 1Gi: the kernel kills it before the app limits itself. Lower the app's cap below 1Gi — or raise the limit above ${memory}.`;
  it.each([
    // redis: 1gb = 2^30 (redis.conf units), so `--maxmemory 2gb` is 2Gi.
    ['redis args', { args: ['--maxmemory', '2gb'] }, atOrAbove('--maxmemory 2gb', '2Gi', 'command line')],
    // A shell command line: `redis-server --maxmemory 1gb` is exactly the limit, still at it.
    [
      'redis in a shell command',
      { command: ['sh', '-c', 'exec redis-server --maxmemory 1gb'] },
      atOrAbove('--maxmemory 1gb', '1Gi', 'command line'),
    ],
  ])('%s', (_name, spec, line) => {
    expect(lines(OOM, { state: state(spec), namespace: ns })).toContain(line);
  });

  it('a JVM heap cap under the limit bounds the heap only', () => {
    expect(lines(OOM, { state: state({ args: ['-Xmx768m', '-jar', 'app.jar'] }), namespace: ns })).toContain(
      "-Xmx768m (768Mi, in the container's command line) is under the limit 1Gi, but it bounds the heap only: the process uses more than that.",
    );
  });

  // An env value is never echoed: GOMEMLIMIT in the spec's env (plain or from a Secret) is not read.
  it.each([
    ['plain', { name: 'GOMEMLIMIT', value: '3GiB' }],
    ['from a Secret', { name: 'GOMEMLIMIT', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }],
  ])('env (%s) is not read: no cap, no value echoed', (_name, env) => {
    const got = lines(OOM, { state: state({ env: [env] }), namespace: ns });
    expect(got.filter((l) => l.includes('cap') || l.includes('3GiB'))).toEqual([]);
  });

  it('a cap in the paste wins over the spec', () => {
    const got = lines(`${OOM}\n    Args:\n      --maxmemory\n      4gb`, {
      state: state({ args: ['--maxmemory', '2gb'] }),
      namespace: ns,
    });
    expect(got.filter((l) => l.startsWith("The app's own cap"))).toEqual([
      "The app's own cap --maxmemory 4gb (4Gi) is at or above the limit 1Gi: the kernel kills it before the app limits itself. Lower the app's cap below 1Gi — or raise the limit above 4Gi.",
    ]);
  });
});
