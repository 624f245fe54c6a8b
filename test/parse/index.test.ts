import { describe, expect, it } from 'vitest';
import { parsePaste } from '../../src/parse/index.ts';

describe('parsePaste', () => {
  it('orders admission layers first, then scheduler, runtime, other', () => {
    const text = [
      "googleapi: Error 403: Quota 'CPUS' exceeded. Limit: 24.0 in region us-central1.",
      '  Reason: OOMKilled',
      '0/3 nodes are available: 3 Insufficient cpu.',
      'pods "a" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2',
      'pods "b" is forbidden: maximum cpu usage per Pod is 1, but limit is 2',
    ].join('\n');
    expect(parsePaste(text).findings.map((f) => f.layer)).toEqual([
      'limitrange',
      'quota',
      'scheduler',
      'runtime',
      'other',
    ]);
  });

  it('dedupes repeats that differ only by the generated pod name, keeping the first object', () => {
    const line = (p: string) =>
      `9m44s  Warning  FailedCreate  replicaset/web-6b78556b99  Error creating: pods "${p}" is forbidden: failed quota: quota: must specify limits.cpu`;
    const r = parsePaste(
      `$ kubectl get events -n team-a\n${line('web-6b78556b99-mcpwh')}\n${line('web-6b78556b99-xng7m')}`,
    );
    expect(r.findings).toHaveLength(1);
    expect(r.findings[0]).toMatchObject({
      object: { resource: 'pods', name: 'web-6b78556b99-mcpwh' },
      controller: { kind: 'ReplicaSet', name: 'web-6b78556b99' },
      namespace: 'team-a',
    });
  });

  it.each([
    [
      'kubectl -n',
      'kubectl apply -f p.yaml -n team-a\npods "p" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1',
      'team-a',
    ],
    [
      'describe Namespace:',
      'Name:         web-0\nNamespace:    team-b\nContainers:\nEvents:\n  Warning  FailedScheduling  1m  default-scheduler  0/1 nodes are available: 1 Insufficient cpu.',
      'team-b',
    ],
    [
      'klog pod=',
      'E0101 schedule_one.go:1] "Unable to schedule pod" pod="team-c/web-0" err="0/1 nodes are available: 1 Insufficient cpu."',
      'team-c',
    ],
    [
      'API URL',
      'Failure executing: POST at: https://h/api/v1/namespaces/team-d/pods. Message: pods "p" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1.',
      'team-d',
    ],
  ])('namespace from %s', (_name, text, ns) => {
    expect(parsePaste(text).findings[0]?.namespace).toBe(ns);
  });

  it('StatefulSet controller wording names the controller', () => {
    const [f] = parsePaste(
      'create Pod db-0 in StatefulSet db failed error: pods "db-0" is forbidden: failed quota: q: must specify memory',
    ).findings;
    expect(f).toMatchObject({
      object: { resource: 'pods', name: 'db-0' },
      controller: { kind: 'StatefulSet', name: 'db' },
    });
  });

  it('a runtime word inside a scheduler message is not a runtime finding', () => {
    const r = parsePaste(
      'No nodes are available that match all of the following predicates:: NodeUnderMemoryPressure (1).',
    );
    expect(r.findings.map((f) => f.kind)).toEqual(['unschedulable']);
  });

  it('caps the input and says so', () => {
    const r = parsePaste(`${'x'.repeat(2000)}\n0/1 nodes are available: 1 Insufficient cpu.`, { maxBytes: 1000 });
    expect(r.truncated).toBe(true);
    expect(r.findings).toEqual([]);
  });

  it('returns manifests next to findings', () => {
    const r = parsePaste(
      '```yaml\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n```\npods "p" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1',
    );
    expect(r.manifests).toHaveLength(1);
    expect(r.findings).toHaveLength(1);
  });

  it.each([
    [''],
    ['\n\n\n'],
    ['\u0000\uffff'],
    ['exceeded quota:'],
    ['0/'],
    ['nodes are available:'],
    ['pods "" is forbidden: '],
  ])('never throws on %j', (t) => {
    expect(() => parsePaste(t)).not.toThrow();
  });
});
