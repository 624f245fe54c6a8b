/**
 * The classes of text of issue #17 (deliver 6), as rules rather than texts: each row varies one thing the
 * real fixtures (test/fixtures/pastes 168–182) hold, and a row that must NOT be read is as important as
 * one that must. Expected values are exact.
 */
import { describe, expect, it } from 'vitest';
import { parsePaste } from '../../src/parse/index.ts';

const brief = (text: string) =>
  parsePaste(text).findings.map((f) => ({ kind: f.kind, facts: f.facts, ...(f.object ? { object: f.object } : {}) }));

describe('scheduler reason lists without the frame, elisions, emphasis', () => {
  const cases: [string, string, unknown[]][] = [
    [
      'two known reasons, no frame: total unknown',
      "Pending with 3 Insufficient cpu, 2 node(s) didn't match Pod's node affinity/selector.",
      [
        {
          kind: 'unschedulable',
          facts: {
            total: null,
            reasons: [
              { count: 3, reason: 'Insufficient cpu' },
              { count: 2, reason: "node(s) didn't match Pod's node affinity/selector" },
            ],
          },
        },
      ],
    ],
    [
      'one reason next to FailedScheduling',
      'Warning FailedScheduling: 1 Insufficient nvidia.com/gpu',
      [
        {
          kind: 'unschedulable',
          facts: { total: null, reasons: [{ count: 1, reason: 'Insufficient nvidia.com/gpu' }] },
        },
      ],
    ],
    ['one reason without a scheduling word is prose', 'we saw 1 Insufficient memory today', []],
    ['an unknown reason is not a scheduler list', 'Pending: 3 Insufficient funds, 2 coffees', []],
    [
      'an elision inside the frame',
      '0/5 nodes are available: 2 Insufficient cpu, … 3 node(s) had untolerated taint(s).',
      [
        {
          kind: 'unschedulable',
          facts: {
            total: 5,
            reasons: [
              { count: 2, reason: 'Insufficient cpu' },
              { count: 3, reason: 'node(s) had untolerated taint(s)' },
            ],
          },
        },
      ],
    ],
    [
      'three dots as the elision',
      '0/5 nodes are available: 2 Insufficient cpu, ... 3 Too many pods.',
      [
        {
          kind: 'unschedulable',
          facts: {
            total: 5,
            reasons: [
              { count: 2, reason: 'Insufficient cpu' },
              { count: 3, reason: 'Too many pods' },
            ],
          },
        },
      ],
    ],
    [
      'bold around the whole message',
      'Status: **0/3 nodes are available: 3 Insufficient memory.**',
      [{ kind: 'unschedulable', facts: { total: 3, reasons: [{ count: 3, reason: 'Insufficient memory' }] } }],
    ],
    [
      'a whole line in single emphasis',
      '_0/3 nodes are available: 3 Insufficient memory._',
      [{ kind: 'unschedulable', facts: { total: 3, reasons: [{ count: 3, reason: 'Insufficient memory' }] } }],
    ],
  ];
  it.each(cases)('%s', (_name, text, expected) => {
    expect(brief(text)).toEqual(expected);
  });
});

describe('validation wordings and decode-time quantity errors', () => {
  const cases: [string, string, unknown[]][] = [
    [
      'the pre-1.20 wording on the limit: the value printed is the limit',
      'The Pod "x" is invalid: spec.containers[0].resources.limits: Invalid value: "128Mi": must be greater than or equal to memory request',
      [
        {
          kind: 'api-validation',
          facts: { resource: 'memory', value: null, limit: '128Mi', field: 'spec.containers[0].resources.limits' },
          object: { resource: 'pods', name: 'x' },
        },
      ],
    ],
    [
      'a decode error with a quoted quantity in its JSON context',
      `Deployment in version "v1" cannot be handled as a Deployment: v1.Deployment.Spec: v1.DeploymentSpec.Template: v1.PodTemplateSpec.Spec: v1.PodSpec.Containers: []v1.Container: v1.Container.Resources: v1.ResourceRequirements.Requests: unmarshalerDecoder: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$', error found in #10 byte of ...|y":"512mb"},"limits|..., bigger context ...|"requests":{"memory":"512mb"},"limits":{|...`,
      [
        {
          kind: 'api-validation',
          facts: { resource: 'memory', value: '512mb', limit: null, field: 'resources.requests' },
          object: { resource: 'deployments' },
        },
      ],
    ],
    [
      "the quantity's suffix form",
      'StatefulSet in version "v1" cannot be handled as a StatefulSet: unable to parse quantity\'s suffix',
      [
        {
          kind: 'api-validation',
          facts: { resource: null, value: null, limit: null, field: null },
          object: { resource: 'statefulsets' },
        },
      ],
    ],
  ];
  it.each(cases)('%s', (_name, text, expected) => {
    expect(brief(text)).toEqual(expected);
  });
});

describe('the Priority admission plugin', () => {
  const cases: [string, string, unknown[]][] = [
    [
      'a missing class, with the pod',
      'pods "web-0" is forbidden: no PriorityClass with name gold was found',
      [
        {
          kind: 'priority',
          facts: { reason: 'class-not-found', priorityClass: 'gold' },
          object: { resource: 'pods', name: 'web-0' },
        },
      ],
    ],
    [
      'the 1.8–1.10 wording without numbers',
      'The integer value of priority must not be provided in pod spec. The system populates the value from the given PriorityClass name',
      [{ kind: 'priority', facts: { reason: 'priority-set', priorityClass: null } }],
    ],
    [
      'a negative computed priority',
      'the integer value of priority (5) must not be provided in pod spec; priority admission controller computed -10 from the given PriorityClass name',
      [{ kind: 'priority', facts: { reason: 'priority-set', priorityClass: null, priority: 5, computed: -10 } }],
    ],
  ];
  it.each(cases)('%s', (_name, text, expected) => {
    expect(brief(text)).toEqual(expected);
  });
});
