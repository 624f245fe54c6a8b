/**
 * A message written as a template (placeholders where the server prints quantities or counts) or searched for
 * (a grep pattern, a matcher's argument, a comparison, advice on what to look for) reports nothing
 * (src/parse/placeholder.ts). Next to each, the same words printed or asserted with their numbers, which do.
 */
import { describe, expect, it } from 'vitest';
import { parsePaste } from '../../src/parse/index.ts';

const short = (text: string) =>
  parsePaste(text).findings.map((f) => ({ layer: f.layer, kind: f.kind, facts: f.facts }));

describe('templates and search patterns are not reports', () => {
  it.each([
    ['LimitRange with X and Y', 'forbidden: maximum cpu usage per Pod is X, but limit is Y'],
    ['LimitRange with <max> and <limit>', 'maximum memory usage per Container is <max>, but limit is <limit>'],
    [
      'quota with N, M and L',
      'pods "web" is forbidden: exceeded quota: compute, requested: cpu=N, used: cpu=M, limited: cpu=L',
    ],
    [
      'validation with <value>',
      'spec.containers[0].resources.requests: Invalid value: "<value>": must be less than or equal to cpu limit',
    ],
    ['scheduler with <nodes> and <n>', 'The scheduler says `0/<nodes> nodes are available: <n> Insufficient memory`'],
    [
      'scheduler with N counts',
      'Warning FailedScheduling 0/N nodes are available: N node(s) had untolerated taint {gpu: true}',
    ],
    ['grep argument', 'kubectl get events -A --field-selector reason=FailedScheduling | grep "Insufficient cpu"'],
    ['grep -E alternation', 'grep -E "OOMKilled|Evicted" pod.log'],
    ['Go strings.Contains', '\tif strings.Contains(msg, "Insufficient cpu") {\n\t\treturn ReasonCPU\n\t}'],
    ['JS includes', "if (msg.includes('must specify limits.cpu')) { hint = 'add limits'; }"],
    ['switch case label', 'case "OOMKilled":\n    return "memory"'],
    ['comparison', 'if status.Reason == "Evicted" {'],
    [
      'advice on what to look for',
      '    description: "Pod is pending. Check for Insufficient cpu or untolerated taint."',
    ],
    ['messages like', 'messages like "exceeded quota" mean the ResourceQuota refused the pod'],
    ['a test asserting the reason', '    assert_equal "OutOfmemory", decision.reason'],
    [
      'a definition list',
      '- `OOMKilled` — the container used more memory than its limit\n- `Evicted` — the node ran out of a resource',
    ],
    ['a sentence defining a reason', 'The reason `Evicted` means the kubelet removed the pod.'],
    ['a metric label matcher', 'kube_pod_container_status_last_terminated_reason{reason="OOMKilled"} > 0'],
    [
      'a metric label matcher after others',
      'sum by (namespace) (kube_pod_status_reason{namespace="a", reason="Evicted"})',
    ],
    ['a page title', 'title: "Fix OOMKilled pods"'],
    [
      'a list of cloud error codes',
      'Match the full failure set\n- `VcpuLimitExceeded`, `InstanceLimitExceeded`, `InsufficientInstanceCapacity`,',
    ],
    [
      'a symptom table with its counts elided',
      '| `0/13 nodes are available: … node(s) were unschedulable` | node cordoned | §8 |',
    ],
    [
      "constants holding a message's words",
      'const errQuotaMessageString = `exceeded quota:`\nconst errQuotaUnknownMessageString = `status unknown for quota:`',
    ],
    [
      "a document's examples under a header",
      '# Common events:\n# "0/20 nodes are available: 20 Insufficient nvidia.com/gpu"\n# "0/20 nodes are available: 5 node(s) didn\'t match Pod\'s node affinity"',
    ],
    [
      'example messages with elided parts',
      'Example error messages:\n\n- **"Spawn failed: 0/18 nodes are available: 3 Insufficient cpu"**',
    ],
    [
      'a storage-limit template in brackets',
      '- `Container somecontainer exceeded its local ephemeral storage limit "[some_size]".`',
    ],
    [
      'a list of messages where one is a template',
      '- **What to look for**: messages like:\n  - "Error creating: pods \\"web-xxx\\" is forbidden: exceeded quota"\n  - "forbidden: maximum cpu usage per Pod is X, but limit is Y"',
    ],
    [
      'an entry of a catalogue of problems',
      '---\ntitle: "Node Max Volume Count Exceeded"\nerror_message: "node(s) exceed max volume count"\ncategory: nodes\nseverity: Medium',
    ],
  ])('%s', (_name, text) => {
    expect(short(text)).toEqual([]);
  });
});

describe('the same words printed or asserted with their numbers are reports', () => {
  it.each([
    [
      'LimitRange with numbers',
      'forbidden: maximum cpu usage per Pod is 2, but limit is 3',
      [
        {
          layer: 'limitrange',
          kind: 'limitrange',
          facts: { violations: [{ scope: 'Pod', resource: 'cpu', bound: 'max', limit: '2', actual: '3' }] },
        },
      ],
    ],
    [
      'a whole message a test asserts',
      '\tif !strings.Contains(out.Message, "maximum storage usage per PersistentVolumeClaim is 2Gi, but request is 3Gi") {',
      [
        {
          layer: 'limitrange',
          kind: 'limitrange',
          facts: {
            violations: [
              { scope: 'PersistentVolumeClaim', resource: 'storage', bound: 'max', limit: '2Gi', actual: '3Gi' },
            ],
          },
        },
      ],
    ],
    [
      'a symptom listed as seen',
      '- Describe pod errors such as: `node(s) had volume node affinity conflict`.',
      [
        {
          layer: 'scheduler',
          kind: 'unschedulable',
          facts: { total: null, reasons: [{ count: null, reason: 'node(s) had volume node affinity conflict' }] },
        },
      ],
    ],
    [
      'a reason list with counts after advice',
      'Check the events. Ours: 0/3 nodes are available: 3 Insufficient cpu.',
      [
        {
          layer: 'scheduler',
          kind: 'unschedulable',
          facts: { total: 3, reasons: [{ count: 3, reason: 'Insufficient cpu' }] },
        },
      ],
    ],
    [
      'a validation value the user wrote',
      'spec.containers[0].resources.requests: Invalid value: "2Gb": must be less than or equal to memory limit',
      [
        {
          layer: 'api-validation',
          kind: 'api-validation',
          facts: { resource: 'memory', value: '2Gb', limit: null, field: 'spec.containers[0].resources.requests' },
        },
      ],
    ],
    [
      'a bare refusal in a list whose template is far away',
      '- "forbidden: maximum cpu usage per Pod is X, but limit is Y"\n\n\n\n\n- Error creating: pods "web-1" is forbidden: exceeded quota',
      [{ layer: 'quota', kind: 'quota-exceeded', facts: { quota: null, resources: {}, exceeding: [] } }],
    ],
    [
      'a report under a header of its own',
      'I get errors like:\n0/3 nodes are available: 3 Insufficient cpu.',
      [
        {
          layer: 'scheduler',
          kind: 'unschedulable',
          facts: { total: 3, reasons: [{ count: 3, reason: 'Insufficient cpu' }] },
        },
      ],
    ],
    [
      'the pod-limit eviction told without "Pod"',
      'the pod got evicted with `ephemeral local storage usage exceeds the total limit`',
      [{ layer: 'runtime', kind: 'runtime', facts: { reason: 'Evicted', resource: 'ephemeral-storage' } }],
    ],
    [
      'a constant holding a whole refusal with its names',
      '\twant := "must specify limits.memory for: app,b; requests.cpu for: app,b"',
      [
        {
          layer: 'quota',
          kind: 'quota-must-specify',
          facts: { quota: null, resources: { 'limits.memory': ['app', 'b'], 'requests.cpu': ['app', 'b'] } },
        },
      ],
    ],
    [
      'a cloud error code returned',
      'An error occurred (VcpuLimitExceeded) when calling the RunInstances operation: You have requested more vCPU capacity than your current vCPU limit of 32 allows',
      [{ layer: 'other', kind: 'cloud-quota', facts: { provider: 'aws', quota: 'VcpuLimitExceeded' } }],
    ],
    [
      "a status's reason in YAML",
      '    lastState:\n      terminated:\n        reason: OOMKilled',
      [{ layer: 'runtime', kind: 'runtime', facts: { reason: 'OOMKilled' } }],
    ],
    [
      'a status reason in JSON',
      '{"status": {"phase": "Failed", "reason": "Evicted"}}',
      [{ layer: 'runtime', kind: 'runtime', facts: { reason: 'Evicted' } }],
    ],
  ])('%s', (_name, text, want) => {
    expect(short(text)).toEqual(want);
  });
});
