/**
 * Admission and validation classes of the development set test/fixtures/paste-wild/dev6a.jsonl (issue #17),
 * read in general, each positive next to a negative (pkg/apis/core/validation/validation.go,
 * plugin/pkg/admission/resourcequota, plugin/pkg/admission/runtimeclass):
 * - a resource list entry's other field errors, after their `<path>[<res>]: Invalid value: "<v>": ` head:
 *   `must be an integer` (isNotIntegerErrorMsg) and `must be a standard resource type or fully qualified` /
 *   `… for containers` (validateResourceName, validateContainerResourceName);
 * - ValidatePodUpdate's `spec: Forbidden: pod updates may not change fields other than …` and
 *   `<path>.resources: Forbidden: HugePages require cpu or memory`, read only after their `Forbidden:` head;
 * - `<path>[hugepages-<size>]: Invalid value: "3Mi": 3Mi is not positive integer multiple of hugepages-2Mi` and
 *   `metadata: Invalid value: "BestEffort": Pod QoS is immutable` (a resize that would change the QoS class);
 * - kubectl edit's own envelopes (`error: pods "web" is invalid:`, `# pods "x" was not valid:` over the `# * `
 *   list of the file it reopens), which name the resource;
 * - a field error cut right after its head inside its envelope (`…limits[memory]: Invalid value"`);
 * - the path on its own line above `Invalid value:`, a decode error on the line under its envelope, a rule
 *   quoted after `kubectl apply:`;
 * - a field path holding a placeholder (`limits[{res}]`) and another program's `CPU limit` wording: none;
 * - `insufficient quota to match these scopes` over comment lines, without the struct's braces, or quoted
 *   without its list;
 * - the RuntimeClass overhead refusal wrapped inside its sentence.
 */
import { describe, expect, it } from 'vitest';
import { type Said, said } from '../support/said.ts';

type Obj = Said['object'];
const av = (
  facts: { resource: string | null; value: string | null; limit: string | null; field: string | null },
  object?: Obj,
): Said => ({ layer: 'api-validation', kind: 'api-validation', facts, ...(object ? { object } : {}) });
const pod = (name: string): Obj => ({ resource: 'pods', name });
const insufficient = (scopes: string[]): Said => ({ layer: 'quota', kind: 'quota-insufficient', facts: { scopes } });
const SCOPE = 'PriorityClass In [system-node-critical system-cluster-critical]';

describe('resource list entries: must be an integer, must be a standard resource (validation.go)', () => {
  it.each<[string, string, Said[]]>([
    [
      'a fraction of an extended resource, each entry one error',
      'The Pod "gpu" is invalid:\n* spec.containers[0].resources.limits[example.com/gpu]: Invalid value: "500m": must be an integer\n* spec.containers[0].resources.requests[example.com/gpu]: Invalid value: "500m": must be an integer',
      [
        av(
          {
            resource: 'example.com/gpu',
            value: '500m',
            limit: null,
            field: 'spec.containers[0].resources.limits[example.com/gpu]',
          },
          pod('gpu'),
        ),
        av(
          {
            resource: 'example.com/gpu',
            value: '500m',
            limit: null,
            field: 'spec.containers[0].resources.requests[example.com/gpu]',
          },
          pod('gpu'),
        ),
      ],
    ],
    [
      'the head wrapped before Invalid value',
      'The Pod "half" is invalid: spec.containers[0].resources.limits[nvidia.com/gpu]:\n  Invalid value: "500m": must be an integer',
      [
        av(
          {
            resource: 'nvidia.com/gpu',
            value: '500m',
            limit: null,
            field: 'spec.containers[0].resources.limits[nvidia.com/gpu]',
          },
          pod('half'),
        ),
      ],
    ],
    ['negative: another field that must be an integer', 'spec.replicas: Invalid value: "1.5": must be an integer', []],
    [
      'negative: a program that words the rule with placeholders',
      'raise ValueError(f"{res}: Invalid value: {q}: must be an integer")',
      [],
    ],
    [
      // LABELLING.md §3: two rules refusing one field are two messages (held11 p094, p095).
      'a name that is no resource: its two errors are two findings',
      'Pod "db-0" is invalid: [spec.containers[0].resources.requests[cpus]: Invalid value: "cpus": must be a standard resource type or fully qualified, spec.containers[0].resources.requests[cpus]: Invalid value: "cpus": must be a standard resource for containers]',
      [
        av(
          { resource: 'cpus', value: 'cpus', limit: null, field: 'spec.containers[0].resources.requests[cpus]' },
          pod('db-0'),
        ),
        av(
          { resource: 'cpus', value: 'cpus', limit: null, field: 'spec.containers[0].resources.requests[cpus]' },
          pod('db-0'),
        ),
      ],
    ],
    [
      'a hugepages quantity that is no whole number of pages',
      'The Pod "p" is invalid: spec.containers[0].resources.requests[hugepages-2Mi]: Invalid value: "3Mi": 3Mi is not positive integer multiple of hugepages-2Mi',
      [
        av(
          {
            resource: 'hugepages-2Mi',
            value: '3Mi',
            limit: null,
            field: 'spec.containers[0].resources.requests[hugepages-2Mi]',
          },
          pod('p'),
        ),
      ],
    ],
    [
      'negative: the format string that prints it',
      'return fmt.Errorf("%s is not positive integer multiple of %s", quantity.String(), name)',
      [],
    ],
    [
      'negative: the rule in a comment, without its head',
      '// LimitRange does not take pids: "pids: must be a standard resource for containers"',
      [],
    ],
    [
      "a LimitRange's max names no resource (the rule on a LimitRange path)",
      'The LimitRange "pid-cap" is invalid: spec.limits[0].max[pids]: Invalid value: "pids": must be a standard resource for containers',
      [
        av(
          { resource: 'pids', value: 'pids', limit: null, field: 'spec.limits[0].max[pids]' },
          { resource: 'limitranges', name: 'pid-cap' },
        ),
      ],
    ],
    [
      "a quota's hard names no resource it tracks",
      'The ResourceQuota "q" is invalid: spec.hard[gpu]: Invalid value: "gpu": must be a standard resource for quota',
      [
        av(
          { resource: 'gpu', value: 'gpu', limit: null, field: 'spec.hard[gpu]' },
          { resource: 'resourcequotas', name: 'q' },
        ),
      ],
    ],
    [
      'retyped without its path, as the refusal somebody got (held7 v090)',
      '// Adding it is rejected by the API server with:\n//\n//\t"pids: must be a standard resource for containers"',
      [av({ resource: 'pids', value: null, limit: null, field: null })],
    ],
  ])('%s', (_name, text, want) => {
    expect(said(text)).toEqual(want);
  });
});

describe('Forbidden field errors: pod updates, HugePages (ValidatePodUpdate, validateResourceRequirements)', () => {
  it.each<[string, string, Said[]]>([
    [
      'a changed pod spec refused, its envelope naming the pod',
      'The Pod "api" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`, `spec.initContainers[*].image`, `spec.activeDeadlineSeconds` or `spec.tolerations` (only additions to existing tolerations)',
      [av({ resource: null, value: null, limit: null, field: 'spec' }, pod('api'))],
    ],
    [
      "kubectl edit's envelope names the resource",
      '# error: pods "web" is invalid: spec: Forbidden: pod updates may not change fields other than\n#   `spec.containers[*].image`, ...',
      [av({ resource: null, value: null, limit: null, field: 'spec' }, pod('web'))],
    ],
    [
      '`Forbidden:` on the line under the field',
      'The Pod "client" is invalid: spec: \nForbidden: pod updates may not change fields other than \n`spec.containers[*].image`',
      [av({ resource: null, value: null, limit: null, field: 'spec' }, pod('client'))],
    ],
    [
      "kubectl edit's reopened file: its `# * ` list under `was not valid:`, Pod QoS is immutable",
      '# pods "nginx" was not valid:\n# * metadata: Invalid value: "BestEffort": Pod QoS is immutable\n# * spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`',
      [
        av({ resource: null, value: 'BestEffort', limit: null, field: 'metadata' }, pod('nginx')),
        av({ resource: null, value: null, limit: null, field: 'spec' }, pod('nginx')),
      ],
    ],
    [
      'negative: Pod QoS is immutable told without its head',
      '// the Pod QoS is immutable and populated at creation time by the kube-apiserver.',
      [],
    ],
    [
      'negative: the rule told in prose',
      'Note: pod updates may not change fields other than `containers[*].image` or `spec.activeDeadlineSeconds`',
      [],
    ],
    [
      'HugePages without cpu or memory',
      'Deployment.apps "dp" is invalid: spec.template.spec.containers[0].resources: Forbidden: HugePages require cpu or memory',
      [
        av(
          { resource: null, value: null, limit: null, field: 'spec.template.spec.containers[0].resources' },
          { resource: 'deployments.apps', name: 'dp' },
        ),
      ],
    ],
    [
      "negative: a program's lowercased copy of the rule",
      'if !strings.Contains(err.Error(), "resources: hugepages require cpu or memory") {',
      [],
    ],
  ])('%s', (_name, text, want) => {
    expect(said(text)).toEqual(want);
  });
});

describe('field error heads: cut, broken at each colon, after kubectl apply; placeholders and other wordings', () => {
  it.each<[string, string, Said[]]>([
    [
      'a head cut after Invalid value, inside its envelope',
      'error_message: "Pod \\"build\\" is invalid: spec.containers[0].resources.limits[memory]: Invalid value"\n  .into(),',
      [
        av(
          { resource: 'memory', value: null, limit: null, field: 'spec.containers[0].resources.limits[memory]' },
          pod('build'),
        ),
      ],
    ],
    ['negative: a cut head without its envelope', 'spec.containers[0].resources.limits[memory]: Invalid value\n', []],
    [
      'the path on its own line, blank lines between',
      'The Deployment "web" is invalid:\n\nspec.template.spec.containers[0].resources.requests:\n\nInvalid value: "64Mi":\nmust be less than or equal to memory limit of 18Mi',
      [
        av(
          {
            resource: 'memory',
            value: '64Mi',
            limit: '18Mi',
            field: 'spec.template.spec.containers[0].resources.requests',
          },
          { resource: 'deployments', name: 'web' },
        ),
      ],
    ],
    [
      'the rule quoted after kubectl apply',
      'Kubernetes отказался на `kubectl apply`: `must be less than or equal to memory limit of 1Gi`.',
      [av({ resource: 'memory', value: null, limit: '1Gi', field: null })],
    ],
    [
      'negative: the rule in a list of rules',
      '- values differ: `must be less than or equal to memory limit of 2Gi`',
      [],
    ],
    [
      'negative: Limit must be set under a placeholder path',
      'raise ValueError(f"limits[{res}]: Required value: Limit must be set for non overcommitable resources")',
      [],
    ],
    [
      "negative: another program's `CPU request` wording",
      'errors.add(:cpu_limit, "must be greater than or equal to CPU request")',
      [],
    ],
    [
      'a decode error on the line under its envelope',
      'Error: 1 error occurred:\n* StatefulSet in version "v1" cannot be handled as a StatefulSet:\n  quantities must match the regular expression \'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\'',
      [av({ resource: null, value: null, limit: null, field: null }, { resource: 'statefulsets' })],
    ],
  ])('%s', (_name, text, want) => {
    expect(said(text)).toEqual(want);
  });
});

describe('insufficient quota to match these scopes: over comment lines, without braces, quoted alone', () => {
  it.each<[string, string, Said[]]>([
    [
      'the Go %v list',
      'Error creating: insufficient quota to match these scopes: [{PriorityClass In [system-node-critical system-cluster-critical]}]',
      [insufficient([SCOPE])],
    ],
    [
      'retyped without braces, over comment lines',
      '//   # "insufficient quota to match these scopes: [PriorityClass In\n//   # [system-node-critical system-cluster-critical]]" and no GPUs',
      [insufficient([SCOPE])],
    ],
    [
      'an elided list names no scope',
      '# ("insufficient quota to match these scopes: [PriorityClass In\n# ...]")',
      [insufficient([])],
    ],
    [
      'quoted without its list',
      'the DaemonSets fail with "insufficient quota to match these scopes", which looks nothing like it',
      [insufficient([])],
    ],
    ['negative: the words in prose, unquoted', 'there is insufficient quota to match these scopes here', []],
  ])('%s', (_name, text, want) => {
    expect(said(text)).toEqual(want);
  });
});

describe('RuntimeClass overhead refusals wrapped inside the sentence (runtimeclass/admission.go)', () => {
  it.each<[string, string, Said[]]>([
    [
      'overhead mismatch wrapped before Overhead',
      "is **rejected** (`Pod's Overhead doesn't match RuntimeClass's defined\n> Overhead`) where",
      [{ layer: 'other', kind: 'runtimeclass', facts: { reason: 'overhead-mismatch', runtimeClass: null } }],
    ],
    [
      'overhead without a class, on one line',
      'pods "p" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead',
      [
        {
          layer: 'other',
          kind: 'runtimeclass',
          object: pod('p'),
          facts: { reason: 'overhead-without-class', runtimeClass: null },
        },
      ],
    ],
    ['negative: the words broken off', "Pod's Overhead doesn't match RuntimeClass's idea of it", []],
  ])('%s', (_name, text, want) => {
    expect(said(text)).toEqual(want);
  });
});
