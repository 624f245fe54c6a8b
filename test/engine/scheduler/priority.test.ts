/**
 * One priority resolver (src/engine/priority.ts) for admission and the scheduler. Two behaviours changed
 * when the two copies became one (both now as plugin/pkg/admission/priority/admission.go):
 * - the scheduler resolves the system classes even when the snapshot has no object for them
 *   (it took 0 before; admission already took 2000000000 / 2000001000);
 * - with several global default classes both take the lowest value (both took the first listed before).
 */
import { describe, expect, it } from 'vitest';
import type { KObject } from '../../../src/k8s/snapshot.ts';
import { admitObject } from '../../../src/engine/admit.ts';
import { podPriority, resolvePriorityClass } from '../../../src/engine/priority.ts';
import { schedulePod } from '../../../src/engine/scheduler/schedule.ts';
import { node, pod, snapshotOf } from '../../support/builders.ts';

const pc = (name: string, value: number, extra: Record<string, unknown> = {}): KObject => ({
  kind: 'PriorityClass',
  metadata: { name },
  value,
  ...extra,
});

describe('resolvePriorityClass', () => {
  it.each<[string, KObject[], string | undefined, ReturnType<typeof resolvePriorityClass>]>([
    ['no class, no global default', [], undefined, { kind: 'none', value: 0 }],
    [
      'system-cluster-critical without its object',
      [],
      'system-cluster-critical',
      { kind: 'class', className: 'system-cluster-critical', value: 2000000000, preemptionPolicy: undefined },
    ],
    [
      'system-node-critical without its object',
      [],
      'system-node-critical',
      { kind: 'class', className: 'system-node-critical', value: 2000001000, preemptionPolicy: undefined },
    ],
    [
      'a class object',
      [pc('high', 1000, { preemptionPolicy: 'Never' })],
      'high',
      { kind: 'class', className: 'high', value: 1000, preemptionPolicy: 'Never' },
    ],
    ['a missing class', [pc('high', 1000)], 'gold', { kind: 'missing', className: 'gold' }],
    [
      'the global default',
      [pc('high', 1000), pc('def', 7, { globalDefault: true })],
      undefined,
      { kind: 'class', className: 'def', value: 7, preemptionPolicy: undefined },
    ],
    [
      'several global defaults: the lowest value',
      [pc('d-high', 500, { globalDefault: true }), pc('d-low', 5, { globalDefault: true })],
      undefined,
      { kind: 'class', className: 'd-low', value: 5, preemptionPolicy: undefined },
    ],
  ])('%s', (_n, objects, name, want) => {
    expect(resolvePriorityClass(snapshotOf(...objects), name)).toEqual(want);
  });

  it.each<
    [
      string,
      KObject[],
      { priority?: number; priorityClassName?: string; preemptionPolicy?: string },
      { priority: number; preemptionPolicy: string },
    ]
  >([
    [
      'spec.priority wins',
      [pc('high', 1000)],
      { priority: 3, priorityClassName: 'high' },
      { priority: 3, preemptionPolicy: 'PreemptLowerPriority' },
    ],
    [
      'a missing class counts as 0',
      [],
      { priorityClassName: 'gold' },
      { priority: 0, preemptionPolicy: 'PreemptLowerPriority' },
    ],
    [
      'the class policy',
      [pc('np', 10, { preemptionPolicy: 'Never' })],
      { priorityClassName: 'np' },
      { priority: 10, preemptionPolicy: 'Never' },
    ],
    [
      'the pod policy over the class',
      [pc('np', 10, { preemptionPolicy: 'Never' })],
      { priorityClassName: 'np', preemptionPolicy: 'PreemptLowerPriority' },
      { priority: 10, preemptionPolicy: 'PreemptLowerPriority' },
    ],
  ])('podPriority: %s', (_n, objects, spec, want) => {
    expect(podPriority(snapshotOf(...objects), spec)).toEqual(want);
  });
});

describe('admission and the scheduler agree', () => {
  it.each<[string, KObject[], string | undefined, number]>([
    ['system-cluster-critical, no objects', [], 'system-cluster-critical', 2000000000],
    ['system-node-critical, no objects', [], 'system-node-critical', 2000001000],
    [
      'global defaults, lowest value',
      [pc('d-high', 500, { globalDefault: true }), pc('d-low', 5, { globalDefault: true })],
      undefined,
      5,
    ],
    ['no class at all', [], undefined, 0],
  ])('%s', (_n, objects, className, want) => {
    const incoming = pod('web', { cpu: '1', ...(className ? { priorityClassName: className } : {}) });
    const admitted = admitObject(incoming, snapshotOf(...objects));
    expect(admitted.allowed).toBe(true);
    expect((admitted.object as typeof incoming).spec.priority).toBe(want);
    // The scheduler preempts a victim of priority want − 1 and not one of priority want.
    const below = schedulePod(
      snapshotOf(node('n1', { cpu: '1' }), ...objects, pod('v', { node: 'n1', cpu: '1', priority: want - 1 })),
      incoming,
    );
    expect(below.victims).toEqual(['default/v']);
    const equal = schedulePod(
      snapshotOf(node('n1', { cpu: '1' }), ...objects, pod('v', { node: 'n1', cpu: '1', priority: want })),
      incoming,
    );
    expect(equal.victims).toBeUndefined();
  });
});
