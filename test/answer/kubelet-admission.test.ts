/**
 * A pod the kubelet refused after scheduling (OutOf<resource>, NodeAffinity, TopologyAffinityError,
 * UnexpectedAdmissionError) or the scheduler preempted: the paste's reason gets its own explanation, naming
 * who refused it, why, and what to do — never the generic "a runtime problem".
 */
import { describe, expect, it } from 'vitest';
import { explain, textReply } from '../../src/answer/replies/diagnosis.ts';
import { parsePaste } from '../../src/parse/index.ts';

const cases = [
  [
    "Warning  OutOfcpu  3s  kubelet  Node didn't have enough resource: cpu, requested: 2000, used: 3500, capacity: 4000",
    'OutOfcpu',
    'The kubelet refused the pod when it reached the node (OutOfcpu): the node no longer had the cpu the scheduler counted on — pods the scheduler did not see took it (static pods, pods that set spec.nodeName) or a device plugin reports fewer devices. The pod is Failed and not retried; its controller creates a replacement. Delete the Failed pods; if it repeats on a node, look there for pods that bypass the scheduler.',
  ],
  [
    'Status:  Failed\nReason:  NodeAffinity\nMessage: Pod was rejected: Predicate NodeAffinity failed',
    'NodeAffinity',
    "The kubelet refused the pod when it reached the node (NodeAffinity): the node's labels no longer match the pod's node selector or affinity (labels changed after scheduling, or the pod set spec.nodeName itself). The pod is Failed and not retried; its controller creates a replacement. Delete the Failed pods, and fix the node's labels or the pod's selector.",
  ],
  [
    '  Warning  TopologyAffinityError  10s  kubelet  Resources cannot be allocated with Topology locality',
    'TopologyAffinityError',
    "The kubelet's Topology Manager refused the pod (TopologyAffinityError): under its policy it cannot give the pod's CPUs and devices from one NUMA node, which the scheduler does not see. Request fewer CPUs or devices per container, or run it on nodes with that much free on one NUMA node.",
  ],
  [
    '  Warning  UnexpectedAdmissionError  2m  kubelet  Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 1, Available: 0, which is unexpected',
    'UnexpectedAdmissionError',
    "The kubelet could not admit the pod (UnexpectedAdmissionError): its device or CPU manager could not allocate what the scheduler counted on (a device plugin restarted, or reports fewer devices than the node's allocatable). The pod is Failed and not retried; its controller creates a replacement. Delete the Failed pods; if it repeats on a node, check that node's device plugin.",
  ],
  [
    'status:\n  message: Pod Allocate failed due to pod d65f container\n    wait unable to find GPU device allocation by scheduler, which is unexpected\n  phase: Failed',
    'UnexpectedAdmissionError',
    "The kubelet could not admit the pod (UnexpectedAdmissionError): its device or CPU manager could not allocate what the scheduler counted on (a device plugin restarted, or reports fewer devices than the node's allocatable). The pod is Failed and not retried; its controller creates a replacement. Delete the Failed pods; if it repeats on a node, check that node's device plugin.",
  ],
  [
    '  Normal  Preempted  12s  default-scheduler  Preempted by pod 3f1e2d4c-1111-2222-3333-444455556666 on node gpu-a-1',
    'Preempted',
    'The scheduler preempted this pod: it was deleted to make room for a pod of higher priority. Its controller creates a replacement, which stays Pending while no room is left. Give the workload a higher PriorityClass, or keep room for the preemptor.',
  ],
] as const;

describe('kubelet admission refusals and preemption are explained by their reason', () => {
  it.each(cases)('%s', (text, reason, words) => {
    const findings = parsePaste(text).findings;
    expect(findings.map((f) => [f.layer, f.kind, (f.facts as { reason?: string }).reason])).toEqual([
      ['runtime', 'runtime', reason],
    ]);
    expect(explain(findings[0]!)).toBe(words);
  });
});

describe('names listed in code or config report nothing', () => {
  it.each([
    [
      'a Go map of reasons',
      'var evictedReasons = map[string]bool{\n\t"Evicted": true, "NodeAffinity": true, "Shutdown": true, "UnexpectedAdmissionError": true,\n}',
    ],
    ['a YAML list of quoted reasons', '      - "NodeLost"\n      - "UnexpectedAdmissionError"'],
    ['a comparison', '\tif pod.Status.Reason == "UnexpectedAdmissionError" {'],
    ['a Python list', 'FATAL = ["OOMKilled", "Error", "ContainerCannotRun"]'],
  ])('%s', (_name, text) => {
    expect(parsePaste(text).findings).toEqual([]);
  });
});

describe('a PersistentVolumeClaim asking for no storage', () => {
  it('is a field error on its storage, explained as such', () => {
    const text =
      'Error: PersistentVolumeClaim "data-0" is invalid: \nspec.resources[storage]: Invalid value: "0": must be greater than zero';
    const findings = parsePaste(text).findings;
    expect(findings.map((f) => [f.layer, f.facts, f.object])).toEqual([
      [
        'api-validation',
        { resource: 'storage', value: '0', limit: null, field: 'spec.resources[storage]' },
        { resource: 'persistentvolumeclaims', name: 'data-0' },
      ],
    ]);
    expect(textReply(findings[0]!, 'team-a').lines).toContain(
      'storage 0 must be greater than zero: a PersistentVolumeClaim must request some storage.',
    );
  });
});
