/**
 * The long tail of real pastes after the fourth blind set (issue #17, Deliver 6), read in general, each positive
 * next to a negative:
 * - Kyverno's policy reports (wgpolicyk8s.io PolicyReport, as kyverno/website docs/guides/reports.md shows them):
 *   a `results:` entry with `result: fail` in `-o yaml` form (keys in any order, a folded message, v1alpha2
 *   `resources:`) and in `kubectl describe polr` form (entries one after the other, the describer's key order);
 *   a pass, another tool's report, a Kyverno CLI test's expected results are not violations;
 * - prose about a reason name in general (a definition, a question, a condition) is not an incident; a report
 *   of the same reason still reads.
 */
import { describe, expect, it } from 'vitest';
import { type Said, said } from '../support/said.ts';

const violation = (
  policy: string,
  rule: string | null,
  message: string,
  resource?: string,
  where?: { object: Said['object']; namespace?: string },
): Said => ({
  layer: 'other',
  kind: 'policy-violation',
  facts: { engine: 'kyverno', policy, rule, message, blocked: false, ...(resource ? { resource } : {}) },
  ...(where?.object ? { object: where.object } : {}),
  ...(where?.namespace ? { namespace: where.namespace } : {}),
});

const bare = (reason: string): Said => ({
  layer: 'scheduler',
  kind: 'unschedulable',
  facts: { total: null, reasons: [{ count: null, reason }] },
});

const HOST_NS =
  'validation error: Sharing the host namespaces is disallowed. The fields spec.hostNetwork, spec.hostIPC, and spec.hostPID must be unset or set to false. rule host-namespaces failed at path /spec/hostNetwork/';

const cases: [name: string, text: string, want: Said[]][] = [
  // ---- Kyverno policy reports
  [
    'a PolicyReport (-o yaml): the failed entry, its message folded over lines, the passed one left alone',
    [
      'results:',
      '  - category: Pod Security Standards (Baseline)',
      "    message: validation rule 'adding-capabilities' passed.",
      '    policy: disallow-capabilities',
      '    result: pass',
      '    rule: adding-capabilities',
      '    source: kyverno',
      '  - category: Pod Security Standards (Baseline)',
      '    message:',
      "      'validation error: Sharing the host namespaces is disallowed. The fields",
      '      spec.hostNetwork, spec.hostIPC, and spec.hostPID must be unset or set to `false`.',
      "      rule host-namespaces failed at path /spec/hostNetwork/'",
      '    policy: disallow-host-namespaces',
      '    result: fail',
      '    rule: host-namespaces',
      '    scored: true',
      '    source: kyverno',
    ].join('\n'),
    [violation('disallow-host-namespaces', 'host-namespaces', HOST_NS)],
  ],
  [
    'negative: a report whose entries all passed',
    "results:\n- message: validation rule 'check-for-labels' passed.\n  policy: require-labels\n  result: pass\n  rule: check-for-labels\n  source: kyverno\n",
    [],
  ],
  [
    'a v1alpha2 entry (result before its keys, the object under resources:)',
    [
      'results:',
      '- message: "validation error: label app.kubernetes.io/name is required. rule check-for-labels failed at path /metadata/labels/"',
      '  policy: require-labels',
      '  resources:',
      '  - apiVersion: v1',
      '    kind: Pod',
      '    name: nginx',
      '    namespace: default',
      '  result: fail',
      '  rule: check-for-labels',
      '  scored: true',
      '  source: kyverno',
    ].join('\n'),
    [
      violation(
        'require-labels',
        'check-for-labels',
        'validation error: label app.kubernetes.io/name is required. rule check-for-labels failed at path /metadata/labels/',
        'Pod/default/nginx',
        { object: { resource: 'pods', name: 'nginx' }, namespace: 'default' },
      ),
    ],
  ],
  [
    "negative: another tool's report in the same format (Trivy)",
    'results:\n- message: Container runs as root\n  policy: KSV012\n  result: fail\n  rule: Runs as root user\n  source: Trivy\n',
    [],
  ],
  [
    'kubectl describe polr: entries one after the other, the failed one read',
    [
      'Results:',
      '  Message:   validation error: The label app is required. rule check-for-labels failed at path /metadata/labels/app/',
      '  Policy:    require-labels',
      '  Resources:',
      '    API Version:  v1',
      '    Kind:         Pod',
      '    Name:         web-0',
      '    Namespace:    shop',
      '  Result:         fail',
      '  Rule:           check-for-labels',
      '  Scored:         true',
      '  Source:         kyverno',
      '  Message:   validation rule check-image-tag passed.',
      '  Policy:    disallow-latest-tag',
      '  Result:    pass',
      '  Rule:      check-image-tag',
      '  Source:    kyverno',
    ].join('\n'),
    [
      violation(
        'require-labels',
        'check-for-labels',
        'validation error: The label app is required. rule check-for-labels failed at path /metadata/labels/app/',
        'Pod/shop/web-0',
        { object: { resource: 'pods', name: 'web-0' }, namespace: 'shop' },
      ),
    ],
  ],
  [
    "negative: a Kyverno CLI test's expected results (no message, no source: what the test wants)",
    'results:\n- policy: require-labels\n  rule: check-for-labels\n  resources:\n  - nginx\n  kind: Pod\n  result: fail\n',
    [],
  ],

  // ---- prose about a reason name
  [
    'negative: a definition of the reason',
    "The `Insufficient cpu` reason means that no node has enough allocatable CPU left for the pod's request.",
    [],
  ],
  [
    'negative: a glossary entry, the reason then a colon and its explanation',
    '`Insufficient memory`: the scheduler found no node with enough unrequested memory; lower the request or add nodes.',
    [],
  ],
  ['negative: a question about the reason', 'What does `Insufficient nvidia.com/gpu` mean for a pending pod?', []],
  [
    'negative: a condition on the reason',
    'If you see `Insufficient ephemeral-storage` in the events, clean up the node disk.',
    [],
  ],
  [
    'a report of the same reason still reads (the pod is Pending with it)',
    'The pod stays `Pending` with `Insufficient nvidia.com/gpu` since the node pool was resized.',
    [bare('Insufficient nvidia.com/gpu')],
  ],
  [
    'a report of the same reason: the event row',
    'Warning  FailedScheduling  3m  default-scheduler  Insufficient memory',
    [bare('Insufficient memory')],
  ],
];

describe('classes after the fourth blind set (classes6), exact findings', () => {
  it.each(cases)('%s', (_name, text, want) => {
    expect(said(text)).toEqual(want);
  });
});
