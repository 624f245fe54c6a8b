/**
 * The classes of text the fourth blind set (test/fixtures/paste-wild/held4.jsonl) missed (issue #17, Deliver 6),
 * read in general, each positive next to a negative:
 * - must-specify refusals (plugin/pkg/admission/resourcequota/controller.go: `failed quota: %s: must specify %s`)
 *   printed one resource a line, retyped without their `failed quota: ` label, and under an envelope broken
 *   between the resource and the object's name (`Error creating: pods` ⏎ `"x" is forbidden: …`);
 * - API validation (pkg/apis/core/validation/validation.go): pod-level resources below the containers' aggregate
 *   (validatePodResourceConsistency), negative quantities (ValidateNonnegativeQuantity), the limit-below-request
 *   rule in its wording without the resource, a message split into adjacent source literals, and a limit a page
 *   glued to the sentence after it;
 * - the kubelet's eviction message (pkg/kubelet/eviction/helpers.go nodeLowMessageFmt, containerMessageFmt) in a
 *   quoted string, spaced out by a terminal, its comma without a blank;
 * - look-alikes: `pod rejected: RuntimeClass x not found` unquoted, an admission webhook's refusal quoted from its
 *   name on (apiserver webhook errors; a webhook name has three segments or more), Karpenter's Provisioner-era
 *   `incompatible with provisioner` and its `no instance type satisfied resources` quoted alone;
 * - LimitRanger's `<res> max limit to request ratio per <T> is <q>` cut after the maximum
 *   (plugin/pkg/admission/limitranger limitRequestRatioConstraint);
 * - scheduler: a frameless reason next to the Filter plugin that prints it (a catalogue: names.go), and the 1.6
 *   `pod (x) failed to fit in any node fit failure summary on nodes : …` on one line.
 */
import { describe, expect, it } from 'vitest';
import { type Said, said } from '../support/said.ts';

const mustSpecify = (quota: string, resources: Record<string, string[]>, object?: Said['object']): Said => ({
  layer: 'quota',
  kind: 'quota-must-specify',
  facts: { quota, resources },
  ...(object ? { object } : {}),
});

const api = (
  resource: string,
  value: string | null,
  limit: string | null,
  field: string | null,
  object?: Said['object'],
): Said => ({
  layer: 'api-validation',
  kind: 'api-validation',
  facts: { resource, value, limit, field },
  ...(object ? { object } : {}),
});

const runtime = (facts: Record<string, string>): Said => ({ layer: 'runtime', kind: 'runtime', facts });

const ratio = (resource: string, limit: string, actual: string | null): Said => ({
  layer: 'limitrange',
  kind: 'limitrange',
  facts: { violations: [{ scope: 'Container', resource, bound: 'ratio', limit, actual }] },
});

const cases: [name: string, text: string, want: Said[]][] = [
  // ---- must-specify: one resource a line, no label, a broken envelope
  [
    'a must-specify list one resource a line',
    'pods "web-1" is forbidden: failed quota: compute:\n  must specify limits.cpu for: app\n  must specify requests.memory for: app,sidecar\n',
    [
      mustSpecify(
        'compute',
        { 'limits.cpu': ['app'], 'requests.memory': ['app', 'sidecar'] },
        { resource: 'pods', name: 'web-1' },
      ),
    ],
  ],
  [
    'negative: a line that starts with "must specify" after unrelated text stays apart',
    'the admission log said:\nmust specify limits.cpu for: app',
    [],
  ],
  [
    'a must-specify refusal without its "failed quota:" label',
    'Creating a pod fails with: mem-quota: must specify memory for: app',
    [mustSpecify('mem-quota', { memory: ['app'] })],
  ],
  [
    'negative: a placeholder for the container (LABELLING.md §2.3)',
    'Creating a pod fails with: mem-quota: must specify memory for: <pod>',
    [],
  ],
  [
    'without the label, the comma list of before 1.24',
    'compute-resources: must specify limits.cpu,requests.memory',
    [mustSpecify('compute-resources', { 'limits.cpu': [], 'requests.memory': [] })],
  ],
  ['negative: kubectl\'s own "must specify" error', 'error: must specify one of -f and -k', []],
  ['negative: a tool\'s flag error with "for:"', 'Flag: must specify --name for: create', []],
  [
    'the envelope broken between the resource and the quoted name',
    'Error creating: pods\n"api-7d9-x2" is forbidden: failed quota: team-q: must specify requests.cpu',
    [mustSpecify('team-q', { 'requests.cpu': [] }, { resource: 'pods', name: 'api-7d9-x2' })],
  ],
  [
    'the broken envelope in shell comments',
    '# Error from server (Forbidden): pods\n# "job-1" is forbidden: failed quota: q1: must specify limits.memory',
    [mustSpecify('q1', { 'limits.memory': [] }, { resource: 'pods', name: 'job-1' })],
  ],
  ['negative: "pods" then a quoted word that is no envelope', 'Note that pods\n"x" is a name', []],
  // ---- API validation: the other `must be greater than or equal to …` rules, old wordings, glued prose
  [
    "pod-level requests below the containers' aggregate (validatePodResourceConsistency)",
    'The Pod "fry" is invalid: spec.resources.requests[memory]: Invalid value: "576Mi": must be greater than or equal to aggregate container requests of 6Gi',
    [api('memory', '576Mi', null, 'spec.resources.requests[memory]', { resource: 'pods', name: 'fry' })],
  ],
  [
    "pod-level limits below the containers' aggregate: the value is a limit",
    'spec.resources.limits[cpu]: Invalid value: "1": must be greater than or equal to aggregate container limits of 2',
    [api('cpu', null, '1', 'spec.resources.limits[cpu]')],
  ],
  [
    'the message split into adjacent Python string literals',
    '    x = (\n        \'"message":"spec.resources.requests[cpu]: Invalid value: \\"500m\\": \'\n        \'must be greater than or equal to aggregate container requests of 1"\'\n    )',
    [api('cpu', '500m', null, 'spec.resources.requests[cpu]')],
  ],
  ['negative: a YAML scalar opened at the end of a line', "key: '\n'value'", []],
  [
    'a negative quantity (ValidateNonnegativeQuantity)',
    'spec.containers[0].resources.requests[cpu]: Invalid value: "-1": must be greater than or equal to 0.',
    [api('cpu', '-1', null, 'spec.containers[0].resources.requests[cpu]')],
  ],
  [
    'negative: a non-resource field greater than or equal to 0',
    'replicas: Invalid value: -1: must be greater than or equal to 0',
    [],
  ],
  ['negative: the rule in prose', 'the value must be greater than or equal to 0', []],
  [
    'the old wording with no resource in it: the value is the limit',
    'spec.containers[0].resources.limits[memory]: Invalid value: "256Mi": must be greater than or equal to request',
    [api('memory', null, '256Mi', 'spec.containers[0].resources.limits[memory]')],
  ],
  [
    '"invalid value \'v\', Details: limit cannot be smaller than request"',
    "spec.containers[0].resources.limits[memory]: invalid value '256Mi', Details: limit cannot be smaller than request",
    [api('memory', null, '256Mi', 'spec.containers[0].resources.limits[memory]')],
  ],
  [
    'negative: "limit cannot be smaller than request" in prose',
    'a limit cannot be smaller than request, says the doc',
    [],
  ],
  [
    'a limit glued to the next sentence of a page (`2` ⏎ `**Why**`)',
    'Error: `nvidia.com/gpu requests: Invalid value: "1": must be equal to nvidia.com/gpu limit of 2`\n**Why**: GPUs cannot be shared.',
    [api('nvidia.com/gpu', '1', '2', 'requests')],
  ],
  [
    'negative: a limit with a binary suffix is not cut',
    'resources.requests[memory]: Invalid value: "1Gi": must be less than or equal to memory limit of 512Mi',
    [api('memory', '1Gi', '512Mi', 'resources.requests[memory]')],
  ],
  // ---- evictions: the resource closing a quoted string, spaced-out columns, no blank after the comma
  [
    'the eviction message in a quoted Go string',
    'podMessage: "The node was low on resource: memory.",',
    [runtime({ reason: 'Evicted', resource: 'memory' })],
  ],
  [
    "a terminal's spacing and no blank after the comma (old wording)",
    ' Reason :    Evicted\n The node was low on resource:   ephemeral-storage.\n Container certified-operators was using 44156Ki,which exceeds its request of 0.\n',
    [
      runtime({
        reason: 'Evicted',
        container: 'certified-operators',
        resource: 'ephemeral-storage',
        request: '0',
        used: '44156Ki',
      }),
    ],
  ],
  [
    "negative: a container sentence that is not the kubelet's gives no numbers",
    'The node was low on resource: memory. Container app was using 1843Mi,which is fine.',
    [runtime({ reason: 'Evicted', resource: 'memory' })],
  ],
  // ---- look-alikes: a RuntimeClass without quotes, a webhook without its head, Karpenter's older wordings
  [
    'pod rejected: RuntimeClass without quotes (plugin/pkg/admission/runtimeclass)',
    'workflows hit "pod rejected: RuntimeClass nvidia not found". Apply runs',
    [{ layer: 'other', kind: 'runtimeclass', facts: { reason: 'class-not-found', runtimeClass: 'nvidia' } }],
  ],
  ["negative: the unquoted class without the plugin's head", 'we set RuntimeClass nvidia not found in the docs', []],
  [
    'a webhook refusal quoted from its name on (Gatekeeper)',
    '> "validation.gatekeeper.sh" denied the request: [container-must-have-limits] container \\<name> has no resource/memory limit',
    [
      {
        layer: 'other',
        kind: 'webhook-denied',
        facts: {
          webhook: 'validation.gatekeeper.sh',
          reason: '[container-must-have-limits] container \\<name> has no resource/memory limit',
          engine: 'gatekeeper',
          violations: [
            { name: 'container-must-have-limits', message: 'container \\<name> has no resource/memory limit' },
          ],
        },
      },
    ],
  ],
  [
    'a webhook refusal quoted from its name on (Kyverno)',
    '"mutate.kyverno.svc-fail" denied the request: policy check-labels: rule x failed',
    [
      {
        layer: 'other',
        kind: 'webhook-denied',
        facts: { webhook: 'mutate.kyverno.svc-fail', reason: 'policy check-labels: rule x failed', engine: 'kyverno' },
      },
    ],
  ],
  ['negative: a quoted word of one segment "denied the request"', 'the "reviewer" denied the request for access', []],
  [
    'Karpenter before v0.32: incompatible with provisioner',
    'Could not schedule pod, incompatible with provisioner "default", no instance type satisfied resources {"cpu":"800m","pods":"1"} and requirements karpenter.sh/capacity-type In [on-demand spot]',
    [
      {
        layer: 'other',
        kind: 'karpenter',
        facts: {
          nodepools: [
            {
              nodepool: 'default',
              reason:
                'no instance type satisfied resources {"cpu":"800m","pods":"1"} and requirements karpenter.sh/capacity-type In [on-demand spot]',
            },
          ],
        },
      },
    ],
  ],
  [
    "Karpenter's reason quoted alone, elided",
    'could not schedule pod ... no instance type satisfied resources ...',
    [{ layer: 'other', kind: 'karpenter', facts: { nodepools: [] } }],
  ],
  ['negative: instance types in prose', 'Karpenter picks the cheapest instance type that satisfies the resources.', []],
  // ---- LimitRange: the ratio violation cut after its maximum (as the min/max ones already are read)
  [
    'ratio violations cut after the maximum, one a line under one envelope: one refusal (LimitRanger aggregate)',
    'Error from server (Forbidden):\ncpu max limit to request ratio per Container is 10\nmemory max limit to request ratio per Container is 8\n',
    [
      {
        layer: 'limitrange',
        kind: 'limitrange',
        facts: {
          violations: [
            { scope: 'Container', resource: 'cpu', bound: 'ratio', limit: '10', actual: null },
            { scope: 'Container', resource: 'memory', bound: 'ratio', limit: '8', actual: null },
          ],
        },
      },
    ],
  ],
  [
    'the whole ratio violation still reads its provided ratio',
    'pods "p" is forbidden: cpu max limit to request ratio per Container is 4, but provided ratio is 10.000000',
    [{ ...ratio('cpu', '4', '10.000000'), object: { resource: 'pods', name: 'p' } }],
  ],
  ['negative: the ratio named in prose', 'the cpu max limit to request ratio per Container is configurable', []],
  // ---- scheduler: a reason next to the plugin that prints it (a catalogue), the 1.6 summary on the header's line
  [
    'negative: a catalogue row naming the Filter plugin that prints the reason',
    '| NodeVolumeLimits | Nodes already at their maximum attached volume count | "node(s) exceed max volume count" |',
    [],
  ],
  [
    'a reason in a table row of pods (no plugin named) is still read',
    '| web-0 | Pending | "node(s) exceed max volume count" |',
    [
      {
        layer: 'scheduler',
        kind: 'unschedulable',
        facts: { total: null, reasons: [{ count: null, reason: 'node(s) exceed max volume count' }] },
      },
    ],
  ],
  [
    "1.6 fit failure summary on the header's own line",
    'pod (demo-1) failed to fit in any node fit failure summary on nodes : Insufficient cpu (1), Insufficient memory (1)',
    [
      {
        layer: 'scheduler',
        kind: 'unschedulable',
        facts: {
          total: null,
          reasons: [
            { count: 1, reason: 'Insufficient cpu' },
            { count: 1, reason: 'Insufficient memory' },
          ],
        },
        object: { resource: 'pods', name: 'demo-1' },
      },
    ],
  ],
  [
    '1.6 fit failure summary on the line under the header (as before)',
    'pod (demo-1) failed to fit in any node\nfit failure summary on nodes : Insufficient cpu (2)',
    [
      {
        layer: 'scheduler',
        kind: 'unschedulable',
        facts: { total: null, reasons: [{ count: 2, reason: 'Insufficient cpu' }] },
        object: { resource: 'pods', name: 'demo-1' },
      },
    ],
  ],
];

describe('classes of the fourth blind set (held4), exact findings', () => {
  it.each(cases)('%s', (_name, text, want) => {
    expect(said(text)).toEqual(want);
  });
});
