import { describe, expect, it } from 'vitest';
import { freeOf, locatePod, podRequesting, podWithContainers } from '../../../src/engine/diagnose/subject.ts';
import { replayPod } from '../../../src/engine/diagnose/replay.ts';
import { LAYERS, PATH_STATIONS, isLayer, layerInfo } from '../../../src/k8s/layers.ts';
import type { KObject } from '../../../src/k8s/snapshot.ts';
import { node, pod, snapshotOf } from '../../support/builders.ts';

describe('freeOf', () => {
  it.each([
    ['9', '10', '1'],
    ['500m', '2', '1500m'],
    ['10', '10', '0'],
    ['12', '10', '0 (over by 2)'],
    ['1Gi', '2Gi', '1Gi'],
    ['x', '10', ''],
    ['', '10', ''],
  ])('used %s, hard %s → %s', (used, hard, want) => {
    expect(freeOf(used, hard)).toBe(want);
  });
});

describe('stand-in pods', () => {
  it.each([
    [
      'cpu and memory requests',
      { 'requests.cpu': '2', 'requests.memory': '1Gi' },
      { requests: { cpu: '2', memory: '1Gi' } },
    ],
    ['bare names are requests', { cpu: '500m' }, { requests: { cpu: '500m' } }],
    ['limits', { 'limits.memory': '2Gi' }, { limits: { memory: '2Gi' } }],
    [
      'extended resources as request and limit',
      { 'requests.nvidia.com/gpu': '1' },
      { requests: { 'nvidia.com/gpu': '1' }, limits: { 'nvidia.com/gpu': '1' } },
    ],
    ['counts and unparsable amounts are left out', { pods: null, 'requests.cpu': 'lots' }, {}],
  ])('quota-exceeded, %s', (_name, amounts, resources) => {
    const res = Object.fromEntries(Object.entries(amounts).map(([k, v]) => [k, { requested: v }]));
    expect(podRequesting(undefined, 'team-a', res)).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'pasted-pod', namespace: 'team-a' },
      spec: { containers: [{ name: 'app', resources }] },
    });
  });

  it.each([
    [
      ['app', 'sidecar'],
      ['app', 'sidecar'],
    ],
    [[], ['app']],
  ])('must-specify, containers %j → %j', (given, names) => {
    expect(podWithContainers('web', 'ns', given)).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web', namespace: 'ns' },
      spec: { containers: names.map((name) => ({ name })) },
    });
  });
});

const deployment = (name: string): KObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'team-a' },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: { containers: [{ name: 'app', resources: { requests: { cpu: '1' } } }] },
    },
  },
});
const replicaSet = (name: string, owner: string): KObject => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: {
    name,
    namespace: 'team-a',
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: owner, uid: 'u1', controller: true }],
  },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: owner } },
    template: {
      metadata: { labels: { app: owner } },
      spec: { containers: [{ name: 'app', resources: { requests: { cpu: '1' } } }] },
    },
  },
});

describe('locatePod', () => {
  const state = snapshotOf(
    pod('db-0', { namespace: 'team-a', cpu: '1' }),
    deployment('web'),
    replicaSet('web-7c5d8f9b4', 'web'),
  );
  it.each([
    [
      'the pod itself',
      { object: { resource: 'pods', name: 'db-0' } },
      { ref: 'pod/db-0', existing: true, name: 'db-0' },
    ],
    [
      'a generated name → its ReplicaSet, named by the Deployment',
      { object: { resource: 'pods', name: 'web-7c5d8f9b4-x2k9q' } },
      { ref: 'deploy/web', existing: false, name: 'web-7c5d8f9b4-x2k9q' },
    ],
    [
      'the controller around the message',
      { controller: { kind: 'Deployment', name: 'web' } },
      { ref: 'deploy/web', existing: false, name: undefined },
    ],
  ])('%s', (_name, subject, want) => {
    const hit = locatePod(state, subject, 'team-a');
    expect(
      hit && { ref: hit.ref, existing: hit.existing, name: 'object' in subject ? hit.pod.metadata.name : undefined },
    ).toEqual(want);
  });

  it.each([
    ['a name the state does not hold', { object: { resource: 'pods', name: 'nope' } }, 'team-a'],
    ['the right name in another namespace', { object: { resource: 'pods', name: 'db-0' } }, 'team-b'],
    ['nothing named', {}, 'team-a'],
  ])('%s → null', (_name, subject, ns) => {
    expect(locatePod(state, subject, ns)).toBeNull();
  });
});

describe('replayPod', () => {
  it('a pod the state holds is released before it is replayed: it does not count against itself', () => {
    const state = snapshotOf(node('n1', { cpu: '1' }), pod('big', { namespace: 'team-a', cpu: '1', node: 'n1' }));
    const { pod: p } = locatePod(state, { object: { resource: 'pods', name: 'big' } }, 'team-a')!;
    const again = replayPod(state, p, true, 'team-a', {});
    expect([
      again?.now.admission.allowed,
      again?.now.scheduling?.scheduled,
      again?.now.scheduling?.node,
      again?.submitted.spec.nodeName,
    ]).toEqual([true, true, 'n1', undefined]);
    // Another pod of the same size finds the node full.
    const other = replayPod(state, pod('other', { namespace: 'team-a', cpu: '1' }), false, 'team-a', {});
    expect([other?.now.admission.allowed, other?.now.scheduling?.scheduled]).toEqual([true, false]);
  });
});

describe('LAYERS', () => {
  it('ranks the layers most important first, and only the four admission and scheduling layers decide', () => {
    expect(
      Object.entries(LAYERS)
        .sort((a, b) => a[1].rank - b[1].rank)
        .map(([l, i]) => [l, i.decides, i.station]),
    ).toEqual([
      ['api-validation', true, null],
      ['limitrange', true, 'LimitRange'],
      ['quota', true, 'ResourceQuota'],
      ['scheduler', true, 'Scheduler'],
      ['runtime', false, null],
      ['other', false, null],
    ]);
    expect(PATH_STATIONS).toEqual(['LimitRange', 'ResourceQuota', 'Scheduler']);
  });

  it.each([
    ['quota', true],
    ['other', true],
    ['toString', false],
    ['', false],
    [null, false],
  ])('isLayer(%j) = %s', (s, want) => {
    expect(isLayer(s)).toBe(want);
    expect(layerInfo(s) !== undefined).toBe(want);
  });
});
