/**
 * The RuntimeClass admission plugin's four refusals (plugin/pkg/admission/runtimeclass/admission.go:
 * prepareObjects, setOverhead/validateOverhead, setScheduling) and Kyverno's PolicyViolation event forms,
 * read into the docs/contract.md facts.
 */
import { describe, expect, it } from 'vitest';
import { parsePaste } from '../../src/parse/index.ts';

function found(text: string): unknown[] {
  return parsePaste(text).findings.map((f) => [f.layer, f.kind, f.facts, f.object ?? null]);
}

describe('RuntimeClass admission (admission.go)', () => {
  it.each([
    [
      'prepareObjects: not found, behind kubectl',
      'Error from server (Forbidden): error when creating "p.yaml": pods "p" is forbidden: pod rejected: RuntimeClass "kata" not found',
      [['other', 'runtimeclass', { reason: 'class-not-found', runtimeClass: 'kata' }, { resource: 'pods', name: 'p' }]],
    ],
    [
      'a FailedCreate event of a ReplicaSet',
      'Warning  FailedCreate  3s  replicaset-controller  Error creating: pods "web-7c5d-" is forbidden: pod rejected: RuntimeClass "gvisor" not found',
      [
        [
          'other',
          'runtimeclass',
          { reason: 'class-not-found', runtimeClass: 'gvisor' },
          { resource: 'pods', name: 'web-7c5d-' },
        ],
      ],
    ],
    [
      'setOverhead: a different overhead',
      `pods "p" is forbidden: pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead`,
      [['other', 'runtimeclass', { reason: 'overhead-mismatch', runtimeClass: null }, { resource: 'pods', name: 'p' }]],
    ],
    [
      'validateOverhead: an overhead without a class defining one',
      'pods "p" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead',
      [
        [
          'other',
          'runtimeclass',
          { reason: 'overhead-without-class', runtimeClass: null },
          { resource: 'pods', name: 'p' },
        ],
      ],
    ],
    [
      'setScheduling: a nodeSelector conflict',
      'pods "p" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[sandbox.gke.io/runtime] = gvisor; pod.spec.nodeSelector[sandbox.gke.io/runtime] = runc',
      [
        [
          'other',
          'runtimeclass',
          {
            reason: 'node-selector-conflict',
            runtimeClass: null,
            nodeSelector: { key: 'sandbox.gke.io/runtime', runtimeClass: 'gvisor', pod: 'runc' },
          },
          { resource: 'pods', name: 'p' },
        ],
      ],
    ],
    [
      'relayed by a webhook: the RuntimeClass refusal only',
      'admission webhook "relay.example.com" denied the request: pods "p" is forbidden: pod rejected: RuntimeClass "kata" not found',
      [['other', 'runtimeclass', { reason: 'class-not-found', runtimeClass: 'kata' }, { resource: 'pods', name: 'p' }]],
    ],
    ['prose about a RuntimeClass is no finding', 'The RuntimeClass "kata" was found on every node.', []],
  ])('%s', (_name, text, want) => {
    expect(found(text)).toEqual(want);
  });
});

describe('Kyverno PolicyViolation events', () => {
  it.each([
    [
      '1.6+ on the resource, in Audit mode',
      'default  1s  Warning  PolicyViolation  pod/web  policy require-labels/check-team fail: validation error: label team is required. rule check-team failed at path /metadata/labels/team/',
      [
        'other',
        'policy-violation',
        {
          engine: 'kyverno',
          policy: 'require-labels',
          rule: 'check-team',
          message: 'validation error: label team is required. rule check-team failed at path /metadata/labels/team/',
          blocked: false,
        },
        { resource: 'pods', name: 'web' },
      ],
    ],
    [
      'on the policy, blocked',
      '5s  Warning  PolicyViolation  clusterpolicy/require-labels  Pod team-a/web: [check-team] fail (blocked); validation error: label team is required.',
      [
        'other',
        'policy-violation',
        {
          engine: 'kyverno',
          policy: 'require-labels',
          rule: 'check-team',
          message: 'validation error: label team is required.',
          resource: 'Pod/team-a/web',
          blocked: true,
        },
        { resource: 'pods', name: 'web' },
      ],
    ],
  ])('%s', (_name, text, want) => {
    expect(found(text)).toEqual([want]);
  });
});
