/**
 * src/engine/completeness.ts, table-driven: the cause of a source error, which reads a namespace's
 * admission and the scheduler stand on, and the per-layer verdicts of a simulation run.
 */
import { describe, expect, it } from 'vitest';
import {
  causeOf,
  incompleteOf,
  readsOf,
  runVerdict,
  simVerdicts,
  unreadCluster,
  unreadIn,
} from '../../src/engine/completeness.ts';
import { simulate } from '../../src/engine/simulate.ts';
import { Snapshot, type KObject } from '../../src/k8s/snapshot.ts';

describe('causeOf: the reason (and message) of a source error → its cause', () => {
  it.each([
    ['Forbidden', 'x', 'Forbidden'],
    ['Unauthorized', 'x', 'Unauthorized'],
    ['TooManyRequests', 'x', 'TooManyRequests'],
    ['InternalError', 'x', 'ServerError'],
    ['ServiceUnavailable', 'x', 'ServerError'],
    ['HTTP 502', 'x', 'ServerError'],
    ['Timeout', 'x', 'Timeout'],
    ['Unreachable', 'connect ECONNREFUSED 127.0.0.1:6443', 'Unreachable'],
    ['Unreachable', 'unable to verify the first certificate', 'TLS'],
    ['Error', 'self-signed certificate in certificate chain', 'TLS'],
  ])('%s / %s → %s', (reason, message, cause) => {
    expect(causeOf({ resource: 'nodes', reason, message })).toBe(cause);
  });
  it('a cause given by the source wins', () => {
    expect(causeOf({ resource: 'nodes', reason: 'Unreachable', message: '', cause: 'Credentials' })).toBe(
      'Credentials',
    );
  });
});

describe('unreadIn / unreadCluster', () => {
  const reads = readsOf(
    [
      { resource: 'pods', reason: 'Forbidden', message: 'no' },
      { resource: 'nodes', reason: 'Forbidden', message: 'no' },
      { resource: 'limitranges', namespace: 'team-b', reason: 'Forbidden', message: 'no' },
      { resource: 'resourcequotas', reason: 'Unauthorized', message: 'no' },
      { resource: 'state', reason: 'x', message: 'bad state' },
    ],
    ['team-a', 'team-b'],
  );
  it.each<[string, string | undefined, string | undefined]>([
    // A cluster-wide 403 on a namespaced resource is read in each asked namespace.
    ['pods', 'team-a', undefined],
    ['pods', 'team-c', 'pods'],
    ['limitranges', 'team-a', undefined],
    ['limitranges', 'team-b', 'limitranges'],
    // A 401 is not retried per namespace: unread everywhere.
    ['resourcequotas', 'team-a', 'resourcequotas'],
  ])('%s in %s', (resource, ns, want) => {
    expect(unreadIn(reads, resource, ns!)?.resource).toBe(want);
  });
  it('cluster-wide: nodes and pods unread; a state error is not a gap', () => {
    expect(
      ['nodes', 'pods', 'limitranges', 'state', 'services'].map((r) => unreadCluster(reads, r)?.resource ?? null),
    ).toEqual(['nodes', 'pods', 'limitranges', null, null]);
  });
  it('placement not asked: nodes are not read', () => {
    expect(unreadCluster(readsOf([], ['team-a'], false), 'nodes')?.cause).toBe('NotRead');
  });
  it('incomplete entries: resource, namespace (null cluster-wide), cause', () => {
    expect(incompleteOf(reads.unread.slice(1, 3))).toEqual([
      { resource: 'nodes', namespace: null, reason: 'Forbidden' },
      { resource: 'limitranges', namespace: 'team-b', reason: 'Forbidden' },
    ]);
  });
});

const ns = (name: string): KObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
const quota = (pods: string, used: string): KObject => ({
  apiVersion: 'v1',
  kind: 'ResourceQuota',
  metadata: { name: 'q', namespace: 'a' },
  spec: { hard: { pods } },
  status: { hard: { pods }, used: { pods: used } },
});
const node: KObject = {
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: 'n1' },
  status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' }, capacity: { cpu: '4', memory: '8Gi', pods: '110' } },
};
const pod = (name: string, cpu = '100m'): KObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'a' },
  spec: { containers: [{ name: 'c', image: 'x', resources: { requests: { cpu }, limits: { cpu } } }] },
});

describe('simVerdicts: per layer, from what was read', () => {
  const run = (objects: KObject[], state: KObject[], errors: Parameters<typeof readsOf>[0]) => {
    const snapshot = new Snapshot();
    for (const o of state) snapshot.put(o);
    const out = simulate(snapshot, objects, { now: 0 });
    const v = simVerdicts(out.results, readsOf(errors, ['a']));
    return { verdicts: v.map((x) => [x.limitrange, x.quota, x.scheduler, x.verdict]), run: runVerdict(v) };
  };
  const nodes403 = [{ resource: 'nodes', reason: 'Forbidden', message: 'no' }];
  it.each<[string, KObject[], KObject[], Parameters<typeof readsOf>[0], unknown[][], string]>([
    [
      'everything read, fits',
      [pod('p')],
      [ns('a'), node, quota('10', '0')],
      [],
      [['passes', 'passes', 'passes', 'passes']],
      'passes',
    ],
    [
      'everything read, too big',
      [pod('p', '8')],
      [ns('a'), node, quota('10', '0')],
      [],
      [['passes', 'passes', 'fails', 'fails']],
      'fails',
    ],
    [
      'nodes unread, admitted: scheduler unknown',
      [pod('p')],
      [ns('a'), quota('10', '0')],
      nodes403,
      [['passes', 'passes', 'unknown', 'unknown']],
      'unknown',
    ],
    [
      'nodes unread, pods quota full: fails whatever the nodes hold',
      [pod('p')],
      [ns('a'), quota('1', '1')],
      nodes403,
      [['passes', 'fails', null, 'fails']],
      'fails',
    ],
    [
      'quotas unread (500): admission unknown',
      [pod('p')],
      [ns('a'), node],
      [{ resource: 'resourcequotas', reason: 'InternalError', message: 'boom' }],
      [['passes', 'unknown', 'passes', 'unknown']],
      'unknown',
    ],
    [
      'an earlier undecided admission makes a later exceeded quota undecided',
      [pod('p1'), pod('p2')],
      [ns('a'), node, quota('2', '1')],
      [{ resource: 'limitranges', reason: 'InternalError', message: 'boom' }],
      [
        ['unknown', 'passes', 'passes', 'unknown'],
        ['unknown', 'unknown', null, 'unknown'],
      ],
      'unknown',
    ],
  ])('%s', (_name, objects, state, errors, want, verdict) => {
    const r = run(objects, state, errors);
    expect(r.verdicts).toEqual(want);
    expect(r.run).toBe(verdict);
  });
});
