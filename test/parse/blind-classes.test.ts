/**
 * Classes of text the second blind measure (issue #17) found misread, one table row each, with the
 * exact findings. Each input has the shape of a real paste; names and numbers are changed.
 */
import { describe, expect, it } from 'vitest';
import { parsePaste } from '../../src/parse/index.ts';

const facts = (text: string): unknown[] => parsePaste(text).findings.map((f) => [f.layer, f.kind, f.facts]);
const objects = (text: string): unknown[] => parsePaste(text).findings.map((f) => f.object ?? null);

describe('blind-set classes (issue #17, second measure)', () => {
  it.each([
    [
      // plugin/pkg/admission/resourcequota: a client kept only the head of the message.
      'exceeded quota with only its name',
      '"stderr": "Error from server (Forbidden): persistentvolumeclaims \\"scratch-7\\" is forbidden: exceeded quota: ci-storage"',
      [['quota', 'quota-exceeded', { quota: 'ci-storage', resources: {}, exceeding: [] }]],
    ],
    [
      'exceeded quota with only its name, as a bullet',
      'Expected error:\n\n- exceeded quota: object-counts',
      [['quota', 'quota-exceeded', { quota: 'object-counts', resources: {}, exceeding: [] }]],
    ],
    [
      'exceeded quota in prose after the name is not a quota name',
      'we hit exceeded quota: the team asked for more',
      [],
    ],
    [
      'exceeded quota broken inside the phrase and cut before limited:',
      '    pvc "tmp-1" is forbidden: exceeded\n    quota: dev-q, requested: requests.storage=10Gi,\n    used: requests.storage=80Gi\n    """',
      [
        [
          'quota',
          'quota-exceeded',
          {
            quota: 'dev-q',
            resources: { 'requests.storage': { requested: '10Gi', used: '80Gi', limited: null } },
            exceeding: ['requests.storage'],
          },
        ],
      ],
    ],
    [
      'exceeded quota cut before used:',
      '"exceeded quota: object-counts, requested: pods=1". In the web namespace',
      [
        [
          'quota',
          'quota-exceeded',
          {
            quota: 'object-counts',
            resources: { pods: { requested: '1', used: null, limited: null } },
            exceeding: ['pods'],
          },
        ],
      ],
    ],
    [
      // plugin/pkg/admission/limitranger limitRequestRatioConstraint, wrapped before `is N`.
      'ratio message broken before is N',
      'pods "api-0" is forbidden: cpu max limit to request ratio per Container\nis 4, but provided ratio is 12.000000',
      [
        [
          'limitrange',
          'limitrange',
          { violations: [{ scope: 'Container', resource: 'cpu', bound: 'ratio', limit: '4', actual: '12.000000' }] },
        ],
      ],
    ],
    [
      'ratio retyped as maximum <resource> limit to request ratio',
      '# maximum memory limit to request ratio per Container is 2, but provided ratio is 3.000000',
      [
        [
          'limitrange',
          'limitrange',
          {
            violations: [{ scope: 'Container', resource: 'memory', bound: 'ratio', limit: '2', actual: '3.000000' }],
          },
        ],
      ],
    ],
    [
      // pkg/apis/core/validation ValidateResourceRequirements; field.Error prints `field: detail`.
      'field path alone on the line above Invalid value',
      '```\nspec.template.spec.containers[1].resources.requests:\nInvalid value: "2": must be less than or equal to cpu limit of 1\n```',
      [
        [
          'api-validation',
          'api-validation',
          { resource: 'cpu', value: '2', limit: '1', field: 'spec.template.spec.containers[1].resources.requests' },
        ],
      ],
    ],
    [
      'field error cut right after the resource',
      'spec.template.spec.containers[0].resources.requests: Invalid value: \\"96M\\": must be less than or equal to memory \n```',
      [
        [
          'api-validation',
          'api-validation',
          {
            resource: 'memory',
            value: '96M',
            limit: null,
            field: 'spec.template.spec.containers[0].resources.requests',
          },
        ],
      ],
    ],
    [
      'prose cut after a resource is not a field error',
      'the request must be less than or equal to memory\nor it fails',
      [],
    ],
    [
      // pkg/scheduler/framework/types.go FitError.Error with no per-node statuses in the PostFilter part.
      'empty preemption part',
      'message: "0/4 nodes are available: 4 Insufficient memory. preemption: 0/4 nodes are available." },',
      [
        [
          'scheduler',
          'unschedulable',
          { total: 4, reasons: [{ count: 4, reason: 'Insufficient memory' }], preemption: { total: 4, reasons: [] } },
        ],
      ],
    ],
    [
      'Python single-quoted string with escaped apostrophes',
      "msg = '0/2 nodes are available: 2 node(s) didn\\'t match Pod\\'s node affinity/selector.'",
      [
        [
          'scheduler',
          'unschedulable',
          { total: 2, reasons: [{ count: 2, reason: "node(s) didn't match Pod's node affinity/selector" }] },
        ],
      ],
    ],
    [
      'a lone reason in prose repeating the full message is the same finding',
      "  Warning  FailedScheduling  1m  default-scheduler  0/3 nodes are available: 1 node(s) had taints that the pod didn't tolerate, 2 Insufficient cpu.\n\ndescribe showed: `1 node(s) had taints that the pod didn't tolerate.`",
      [
        [
          'scheduler',
          'unschedulable',
          {
            total: 3,
            reasons: [
              { count: 1, reason: "node(s) had taints that the pod didn't tolerate" },
              { count: 2, reason: 'Insufficient cpu' },
            ],
          },
        ],
      ],
    ],
    [
      'a lone reason the full message does not list is kept',
      "0/3 nodes are available: 3 Insufficient cpu.\n\nthe pod stays pending; describe showed: `2 node(s) had taints that the pod didn't tolerate.`",
      [
        ['scheduler', 'unschedulable', { total: 3, reasons: [{ count: 3, reason: 'Insufficient cpu' }] }],
        [
          'scheduler',
          'unschedulable',
          { total: null, reasons: [{ count: 2, reason: "node(s) had taints that the pod didn't tolerate" }] },
        ],
      ],
    ],
    [
      'OOMKilled as one item of a prose list of status names',
      '- alert on pod states: Insufficient memory, OOMKilled, Too many pods, CrashLoopBackOff',
      [],
    ],
    [
      'OOMKilled in a describe block is still a kill',
      '    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137',
      [['runtime', 'runtime', { reason: 'OOMKilled', container: undefined }]],
    ],
    [
      // plugin/pkg/admission/priority admitPod, wrapped after `computed`.
      'priority message with its computed value on the next line',
      'pods "x" is forbidden: the integer value of priority (0) must not be provided in pod spec; priority admission controller computed\n1000 from the given PriorityClass name',
      [['other', 'priority', { reason: 'priority-set', priorityClass: null, priority: 0, computed: 1000 }]],
    ],
    [
      'PreemptionPolicy set in the pod spec',
      'pods "nginx" is forbidden: the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name',
      [
        [
          'other',
          'priority',
          {
            reason: 'preemption-policy-set',
            priorityClass: null,
            preemptionPolicy: 'Never',
            computedPolicy: 'PreemptLowerPriority',
          },
        ],
      ],
    ],
  ])('%s', (_name, text, want) => {
    expect(JSON.parse(JSON.stringify(facts(text)))).toEqual(JSON.parse(JSON.stringify(want)));
  });

  it.each([
    [
      'the object of a name-only quota message',
      '"persistentvolumeclaims \\"scratch-7\\" is forbidden: exceeded quota: ci-storage"',
      [{ resource: 'persistentvolumeclaims', name: 'scratch-7' }],
    ],
    [
      'the object of a PreemptionPolicy refusal',
      'pods "nginx" is forbidden: the string value of PreemptionPolicy (Never) must not be provided in pod spec',
      [{ resource: 'pods', name: 'nginx' }],
    ],
  ])('%s', (_name, text, want) => {
    expect(objects(text)).toEqual(want);
  });
});
