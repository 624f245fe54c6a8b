/**
 * Ported from plugin/pkg/admission/priority/admission_test.go (v1.35) TestPodAdmission and TestDefaultPriority:
 * the value and policy a pod gets, and the three refusals of admitPod.
 */
import { describe, expect, it } from 'vitest';
import type { Pod, PriorityClass } from '../../../src/k8s/objects.ts';
import { Snapshot } from '../../../src/k8s/snapshot.ts';
import { admitPodPriority } from '../../../src/engine/admission/priority.ts';

const pc = (name: string, value: number, extra: Partial<PriorityClass> = {}): PriorityClass => ({
  kind: 'PriorityClass',
  metadata: { name },
  value,
  ...extra,
});
const defaultClass1 = pc('default1', 1000, { globalDefault: true });
const defaultClass2 = pc('default2', 2000, { globalDefault: true });
const nondefaultClass1 = pc('nondefault1', 2000);
const nonPreempting = pc('nopreempting', 2000, { preemptionPolicy: 'Never' });

function state(classes: PriorityClass[]): Snapshot {
  const s = new Snapshot();
  for (const c of classes) s.put(c);
  return s;
}
const pod = (spec: Partial<Pod['spec']> = {}): Pod => ({
  kind: 'Pod',
  metadata: { name: 'pod-w-priorityclass', namespace: 'namespace' },
  spec: { containers: [{ name: 'container' }], ...spec },
});

type Row = [
  name: string,
  classes: PriorityClass[],
  spec: Partial<Pod['spec']>,
  want: { priority: number; className?: string; policy: string } | string,
];

describe('Priority admission (priority/admission_test.go TestPodAdmission)', () => {
  it.each<Row>([
    ['pod with no priority class and no default: 0', [], {}, { priority: 0, policy: 'PreemptLowerPriority' }],
    [
      'pod with no priority class: the default',
      [defaultClass1, nondefaultClass1],
      {},
      { priority: 1000, className: 'default1', policy: 'PreemptLowerPriority' },
    ],
    [
      'pod with a priority class',
      [defaultClass1, nondefaultClass1],
      { priorityClassName: 'nondefault1' },
      { priority: 2000, className: 'nondefault1', policy: 'PreemptLowerPriority' },
    ],
    [
      'pod with a non-existing priority class',
      [defaultClass1],
      { priorityClassName: 'foo' },
      'no PriorityClass with name foo was found',
    ],
    [
      'pod with system-node-critical in any namespace',
      [],
      { priorityClassName: 'system-node-critical' },
      { priority: 2000001000, className: 'system-node-critical', policy: 'PreemptLowerPriority' },
    ],
    [
      'pod with priority set and no class',
      [],
      { priority: 1000 },
      'the integer value of priority (1000) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name',
    ],
    [
      'pod with the same priority as its class',
      [nondefaultClass1],
      { priorityClassName: 'nondefault1', priority: 2000 },
      { priority: 2000, className: 'nondefault1', policy: 'PreemptLowerPriority' },
    ],
    [
      'pod with a non-preempting class',
      [nonPreempting],
      { priorityClassName: 'nopreempting' },
      { priority: 2000, className: 'nopreempting', policy: 'Never' },
    ],
    [
      'pod with preemptionPolicy Never and a preempting class',
      [nondefaultClass1],
      { priorityClassName: 'nondefault1', preemptionPolicy: 'Never' },
      'the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name',
    ],
    [
      'pod with preemptionPolicy PreemptLowerPriority and a non-preempting class',
      [nonPreempting],
      { priorityClassName: 'nopreempting', preemptionPolicy: 'PreemptLowerPriority' },
      'the string value of PreemptionPolicy (PreemptLowerPriority) must not be provided in pod spec; priority admission controller computed Never from the given PriorityClass name',
    ],
    [
      'pod with the policy its class gives',
      [nonPreempting],
      { priorityClassName: 'nopreempting', preemptionPolicy: 'Never' },
      { priority: 2000, className: 'nopreempting', policy: 'Never' },
    ],
  ])('%s', (_name, classes, spec, want) => {
    const r = admitPodPriority(pod(spec), state(classes), 'CREATE');
    if (typeof want === 'string') {
      expect(r.error).toBe(want);
      return;
    }
    expect(r.error).toBeUndefined();
    expect([r.pod.spec.priority, r.pod.spec.priorityClassName, r.pod.spec.preemptionPolicy]).toEqual([
      want.priority,
      want.className,
      want.policy,
    ]);
  });
});

describe('Priority admission: the default class (priority/admission_test.go TestDefaultPriority)', () => {
  it.each<[string, PriorityClass[], number, string | undefined]>([
    ['no default class', [nondefaultClass1], 0, undefined],
    ['one default class', [defaultClass1, nondefaultClass1], 1000, 'default1'],
    ['several default classes: the lowest value', [defaultClass2, defaultClass1], 1000, 'default1'],
  ])('%s', (_name, classes, value, className) => {
    const r = admitPodPriority(pod(), state(classes), 'CREATE');
    expect([r.pod.spec.priority, r.pod.spec.priorityClassName]).toEqual([value, className]);
  });
});

describe('Priority admission on UPDATE keeps what CREATE set', () => {
  it('restores an omitted priority and policy from the old pod', () => {
    const old = pod({ priority: 2000, priorityClassName: 'nopreempting', preemptionPolicy: 'Never' });
    const r = admitPodPriority(pod({ priorityClassName: 'nopreempting' }), state([]), 'UPDATE', old);
    expect([r.error, r.pod.spec.priority, r.pod.spec.preemptionPolicy]).toEqual([undefined, 2000, 'Never']);
  });
  it('never refuses an update (validation guards the fields)', () => {
    const r = admitPodPriority(pod({ priority: 5 }), state([]), 'UPDATE', pod({ priority: 0 }));
    expect([r.error, r.pod.spec.priority]).toEqual([undefined, 5]);
  });
});
