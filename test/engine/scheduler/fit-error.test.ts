import { describe, expect, it } from 'vitest';
import { formatFitError, sortReasonsHistogram, type FitErrorInput } from '../../../src/engine/scheduler/fit-error.ts';

describe('formatFitError', () => {
  it.each<[string, FitErrorInput, string, string]>([
    [
      'sorts "<count> <reason>" by bytes: 10 before 2',
      {
        numAllNodes: 12,
        nodeReasons: {
          a: ['node(s) were unschedulable'],
          b: ['node(s) were unschedulable'],
          ...Object.fromEntries([...Array(10).keys()].map((i) => [`m${i}`, ['Insufficient memory']])),
        },
      },
      '1.35',
      '0/12 nodes are available: 10 Insufficient memory, 2 node(s) were unschedulable.',
    ],
    [
      'uppercase before lowercase',
      { numAllNodes: 2, nodeReasons: { a: ['node(s) had untolerated taint(s)'], b: ['Insufficient cpu'] } },
      '1.35',
      '0/2 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint(s).',
    ],
    [
      'a node with two reasons counts for both',
      { numAllNodes: 1, nodeReasons: { a: ['Insufficient cpu', 'Insufficient memory'] } },
      '1.35',
      '0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient memory.',
    ],
    [
      'absent nodes counted with the absent reasons',
      {
        numAllNodes: 3,
        nodeReasons: { n1: ['Insufficient cpu'] },
        absentReasons: ["node(s) didn't satisfy plugin(s) [NodeAffinity]"],
      },
      '1.35',
      "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't satisfy plugin(s) [NodeAffinity].",
    ],
    [
      'PreFilter message replaces the histogram',
      {
        numAllNodes: 3,
        preFilterMsg: 'pod has unbound immediate PersistentVolumeClaims',
        nodeReasons: { a: ['x'] },
        postFilterMsg: 'preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
      },
      '1.35',
      '0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
    ],
    [
      '1.27 appends the PostFilter text with a dot (the ".." of PR #117588)',
      {
        numAllNodes: 1,
        nodeReasons: { a: ['Insufficient cpu'] },
        postFilterMsg: 'preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.',
      },
      '1.27',
      '0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod..',
    ],
    [
      '1.23 shows no PostFilter text',
      { numAllNodes: 1, nodeReasons: { a: ['Insufficient cpu'] }, postFilterMsg: 'preemption: whatever' },
      '1.23',
      '0/1 nodes are available: 1 Insufficient cpu.',
    ],
    [
      '1.24 counts the PreFilter rejection per node',
      { numAllNodes: 3, preFilterMsg: 'pod has unbound immediate PersistentVolumeClaims', nodeReasons: {} },
      '1.24',
      '0/3 nodes are available: 3 pod has unbound immediate PersistentVolumeClaims.',
    ],
  ])('%s', (_name, input, k8sVersion, want) => {
    expect(formatFitError(input, { k8sVersion })).toBe(want);
  });

  it('exposes the histogram', () => {
    expect(
      sortReasonsHistogram({
        numAllNodes: 2,
        nodeReasons: new Map([
          ['a', ['b']],
          ['c', ['b']],
        ]),
      }),
    ).toEqual(['2 b']);
  });
});
