/**
 * The test builders produce exactly the literals tests used to write inline (copied from those tests),
 * so converting a test to them changes no input; capture() records what a command writes; eventually()
 * returns the first answer that holds and fails with the last one when none does in time.
 */
import { describe, expect, it } from 'vitest';
import type { KObject } from '../../src/k8s/snapshot.ts';
import {
  deployment,
  limitRange,
  namespace,
  pod,
  podTemplate,
  priorityClass,
  quota,
  replicaSet,
  statefulSet,
} from './builders.ts';
import { capture } from './capture.ts';
import { eventually } from './eventually.ts';

const TPL = {
  metadata: { labels: { app: 'api' } },
  spec: {
    containers: [
      {
        name: 'app',
        image: 'api',
        resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '100m', memory: '128Mi' } },
      },
    ],
  },
};
const RES = { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '100m', memory: '128Mi' } };

describe('builders equal the inline literals they replace', () => {
  it.each<[string, KObject, KObject]>([
    [
      'quota without status',
      quota('q', { namespace: 'fresh', hard: { pods: '1' } }),
      {
        apiVersion: 'v1',
        kind: 'ResourceQuota',
        metadata: { name: 'q', namespace: 'fresh' },
        spec: { hard: { pods: '1' } },
      },
    ],
    [
      'quota with used: status.hard = spec.hard',
      quota('q', {
        namespace: 'v',
        hard: { pods: '2', 'requests.cpu': '1' },
        used: { pods: '1', 'requests.cpu': '500m' },
      }),
      {
        apiVersion: 'v1',
        kind: 'ResourceQuota',
        metadata: { name: 'q', namespace: 'v' },
        spec: { hard: { pods: '2', 'requests.cpu': '1' } },
        status: { hard: { pods: '2', 'requests.cpu': '1' }, used: { pods: '1', 'requests.cpu': '500m' } },
      },
    ],
    [
      'quota with scopes and a scopeSelector',
      quota('b', {
        namespace: 'batch',
        hard: { 'requests.cpu': '22' },
        scopes: ['NotBestEffort'],
        scopeSelector: { matchExpressions: [{ operator: 'In', scopeName: 'PriorityClass', values: ['batch-low'] }] },
      }),
      {
        apiVersion: 'v1',
        kind: 'ResourceQuota',
        metadata: { name: 'b', namespace: 'batch' },
        spec: {
          hard: { 'requests.cpu': '22' },
          scopes: ['NotBestEffort'],
          scopeSelector: { matchExpressions: [{ operator: 'In', scopeName: 'PriorityClass', values: ['batch-low'] }] },
        },
      },
    ],
    [
      'LimitRange: Container item',
      limitRange('limits', {
        namespace: 'ro',
        container: {
          max: { cpu: '1' },
          default: { cpu: '200m', memory: '256Mi' },
          defaultRequest: { cpu: '100m', memory: '128Mi' },
        },
      }),
      {
        apiVersion: 'v1',
        kind: 'LimitRange',
        metadata: { name: 'limits', namespace: 'ro' },
        spec: {
          limits: [
            {
              type: 'Container',
              max: { cpu: '1' },
              default: { cpu: '200m', memory: '256Mi' },
              defaultRequest: { cpu: '100m', memory: '128Mi' },
            },
          ],
        },
      },
    ],
    [
      'LimitRange: Container, Pod and PVC items in that order',
      limitRange('lr', {
        pvc: { min: { storage: '1Gi' } },
        pod: { max: { cpu: '4' } },
        container: { maxLimitRequestRatio: { cpu: '10' } },
      }),
      {
        apiVersion: 'v1',
        kind: 'LimitRange',
        metadata: { name: 'lr', namespace: 'default' },
        spec: {
          limits: [
            { type: 'Container', maxLimitRequestRatio: { cpu: '10' } },
            { type: 'Pod', max: { cpu: '4' } },
            { type: 'PersistentVolumeClaim', min: { storage: '1Gi' } },
          ],
        },
      },
    ],
    [
      'Deployment with a strategy',
      deployment('api', {
        namespace: 'ro',
        replicas: 4,
        ...RES,
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
      }),
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'api', namespace: 'ro' },
        spec: {
          replicas: 4,
          selector: { matchLabels: { app: 'api' } },
          template: TPL,
          strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
        },
      },
    ],
    [
      'ReplicaSet owned by a Deployment (app label from the owner)',
      replicaSet('api-7c5d9', { namespace: 'ro', replicas: 4, owner: 'api', ...RES }),
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: {
          name: 'api-7c5d9',
          namespace: 'ro',
          ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'api', controller: true }],
        },
        spec: { replicas: 4, selector: { matchLabels: { app: 'api' } }, template: TPL },
      },
    ],
    [
      'ReplicaSet without resources (no resources key)',
      replicaSet('app-6b7c8d9f5', { namespace: 'lrs', app: 'a', image: 'x' }),
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: { name: 'app-6b7c8d9f5', namespace: 'lrs' },
        spec: {
          replicas: 1,
          selector: { matchLabels: { app: 'a' } },
          template: { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'app', image: 'x' }] } },
        },
      },
    ],
    [
      'StatefulSet',
      statefulSet('db', { namespace: 'st', replicas: 2, requests: { cpu: '300m' } }),
      {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        metadata: { name: 'db', namespace: 'st' },
        spec: {
          replicas: 2,
          serviceName: 'db',
          selector: { matchLabels: { app: 'db' } },
          template: {
            metadata: { labels: { app: 'db' } },
            spec: { containers: [{ name: 'app', image: 'db', resources: { requests: { cpu: '300m' } } }] },
          },
        },
      },
    ],
    [
      'PriorityClass',
      priorityClass('high', 1000, { globalDefault: true }),
      {
        apiVersion: 'scheduling.k8s.io/v1',
        kind: 'PriorityClass',
        metadata: { name: 'high' },
        value: 1000,
        globalDefault: true,
      },
    ],
    [
      'PriorityClass that never preempts',
      priorityClass('high-np', 1000, { preemptionPolicy: 'Never' }),
      {
        apiVersion: 'scheduling.k8s.io/v1',
        kind: 'PriorityClass',
        metadata: { name: 'high-np' },
        value: 1000,
        preemptionPolicy: 'Never',
      },
    ],
    [
      'Namespace',
      namespace('data', { team: 'db' }),
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'data', labels: { team: 'db' } } },
    ],
    [
      'pod with limits, container name and owner',
      pod('web-x-aaaaa', {
        namespace: 'wi',
        cpu: '500m',
        limits: { cpu: '2' },
        container: 'app',
        image: 'web',
        node: 'w1',
        owner: { kind: 'ReplicaSet', name: 'web-x' },
      }) as KObject,
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name: 'web-x-aaaaa',
          namespace: 'wi',
          ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-x', controller: true }],
        },
        spec: {
          containers: [{ name: 'app', image: 'web', resources: { requests: { cpu: '500m' }, limits: { cpu: '2' } } }],
          nodeName: 'w1',
        },
        status: { phase: 'Running' },
      },
    ],
    [
      'pod without resources or options (unchanged by the new options)',
      pod('p') as KObject,
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p', namespace: 'default' },
        spec: { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.10', resources: {} }] },
        status: { phase: 'Pending' },
      },
    ],
  ])('%s', (_name, built, literal) => {
    expect(built).toStrictEqual(literal);
  });

  it('the template of a built workload is podTemplate(app, …), and quota copies hard into status', () => {
    expect(deployment('api', RES).spec.template).toStrictEqual(podTemplate('api', RES));
    const hard = { pods: '2' };
    const q = quota('q', { hard, used: { pods: '0' } });
    hard.pods = '9';
    expect([q.spec?.hard, q.status?.hard]).toStrictEqual([{ pods: '2' }, { pods: '2' }]);
  });
});

describe('capture()', () => {
  it('records stdout and stderr chunk by chunk, and gives stdin', async () => {
    const io = capture({ stdin: 'piped' });
    io.stdout('a');
    io.stdout('b\n');
    io.stderr('oops');
    expect([io.out, io.err, io.stdoutText, io.stderrText, await io.readStdin(), io.isTTY]).toStrictEqual([
      ['a', 'b\n'],
      ['oops'],
      'ab\n',
      'oops',
      'piped',
      false,
    ]);
    expect([await capture().readStdin(), capture({ isTTY: true }).isTTY]).toStrictEqual(['', true]);
  });
});

describe('eventually()', () => {
  it('returns the first answer that holds, asking again until then', async () => {
    let n = 0;
    expect(
      await eventually(
        () => ++n,
        (x) => x === 3,
        1000,
        { intervalMs: 1 },
      ),
    ).toBe(3);
    expect(n).toBe(3);
  });

  it('awaits an async ask', async () => {
    expect(
      await eventually(
        async () => 'ok',
        (x) => x === 'ok',
      ),
    ).toBe('ok');
  });

  it('fails after the deadline, saying what the last answer was', async () => {
    await expect(
      eventually(
        () => ({ pods: 1 }),
        (x) => x.pods === 2,
        50,
        { intervalMs: 5 },
      ),
    ).rejects.toThrow('condition not met within 50 ms; last: {"pods":1}');
    await expect(
      eventually(
        () => 7,
        () => false,
        20,
        { describe: (x) => `count ${x}` },
      ),
    ).rejects.toThrow('condition not met within 20 ms; last: count 7');
  });

  it('lets an error of ask through at once', async () => {
    let n = 0;
    const boom = () => {
      n++;
      throw new Error('boom');
    };
    await expect(eventually(boom, () => true, 1000)).rejects.toThrow('boom');
    expect(n).toBe(1);
  });
});
