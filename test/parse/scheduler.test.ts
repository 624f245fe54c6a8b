import { describe, expect, it } from 'vitest';
import { findScheduler } from '../../src/parse/scheduler.ts';
import { normalizePaste } from '../../src/parse/normalize.ts';

const find = (text: string) => findScheduler(normalizePaste(text));

describe('findScheduler', () => {
  it.each([
    [
      '1.35 with DRA clause and preemption (docs/kubernetes-semantics.md §8.4)',
      '0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.',
      {
        total: 3,
        reasons: [
          { count: 1, reason: 'node(s) had untolerated taint(s)' },
          { count: 2, reason: 'Insufficient cpu' },
        ],
        preemption: {
          total: 3,
          reasons: [
            { count: 1, reason: 'Preemption is not helpful for scheduling' },
            { count: 2, reason: 'No preemption victims found for incoming pod' },
          ],
        },
      },
      '>=1.34.2',
    ],
    [
      'preemption not eligible',
      '0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, preemption: not eligible due to preemptionPolicy=Never.',
      {
        total: 1,
        reasons: [{ count: 1, reason: 'Insufficient cpu' }],
        preemption: { total: 1, reasons: [{ count: 1, reason: 'not eligible due to preemptionPolicy=Never' }] },
      },
      '>=1.34',
    ],
    [
      '1.25-1.27 PreFilter text without counts and `..`',
      '0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling..',
      {
        total: 3,
        reasons: [{ count: 3, reason: 'pod has unbound immediate PersistentVolumeClaims' }],
        preemption: { total: 3, reasons: [{ count: 3, reason: 'Preemption is not helpful for scheduling' }] },
      },
      '1.25-1.27',
    ],
    [
      'old taint text keeps its inner comma',
      "0/5 nodes are available: 2 node(s) had taint {node-role.kubernetes.io/master: }, that the pod didn't tolerate, 3 Insufficient memory.",
      {
        total: 5,
        reasons: [
          { count: 2, reason: "node(s) had taint {node-role.kubernetes.io/master: }, that the pod didn't tolerate" },
          { count: 3, reason: 'Insufficient memory' },
        ],
      },
      '<=1.23',
    ],
    [
      'counts that do not add up and a fraction inside a reason (HiveD)',
      "0/2 nodes are available: 1 Insufficient memory, 1 Pod is waiting for preemptible or free resource to appear: have to use at least one bad node 1/xx.xx.xx.xx when scheduling in VC default, 1 node(s) didn't match node selector.",
      {
        total: 2,
        reasons: [
          { count: 1, reason: 'Insufficient memory' },
          {
            count: 1,
            reason:
              'Pod is waiting for preemptible or free resource to appear: have to use at least one bad node 1/xx.xx.xx.xx when scheduling in VC default',
          },
          { count: 1, reason: "node(s) didn't match node selector" },
        ],
      },
      '<1.20',
    ],
    [
      '1.8-1.10 predicates',
      'No nodes are available that match all of the predicates: Insufficient cpu (3), MatchNodeSelector (2).',
      {
        total: null,
        reasons: [
          { count: 3, reason: 'Insufficient cpu' },
          { count: 2, reason: 'MatchNodeSelector' },
        ],
      },
      '1.8-1.10',
    ],
    [
      '1.6-1.7 predicates with double colon',
      'No nodes are available that match all of the following predicates:: Insufficient cpu (1), PodToleratesNodeTaints (2).',
      {
        total: null,
        reasons: [
          { count: 1, reason: 'Insufficient cpu' },
          { count: 2, reason: 'PodToleratesNodeTaints' },
        ],
      },
      '1.6-1.7',
    ],
    [
      '1.3-1.5 one line per node',
      'pod (nginx) failed to fit in any node\nfit failure on node (n1): Insufficient cpu\nfit failure on node (n2): Insufficient cpu\nfit failure on node (n3): PodFitsHostPorts',
      // No `0/N` is printed: the node total stays unknown (LABELLING.md §4), the counts are the lines'.
      {
        total: null,
        reasons: [
          { count: 2, reason: 'Insufficient cpu' },
          { count: 1, reason: 'PodFitsHostPorts' },
        ],
      },
      '1.3-1.5',
    ],
    [
      'v0.x Go struct',
      'Error scheduling: failed to find fit for pod: {"kind":"Pod"}Node 127.0.0.1: PodFitsPorts',
      { total: null, reasons: [{ count: 1, reason: 'PodFitsPorts' }] },
      '<1.3',
    ],
    ['zero nodes', 'no nodes available to schedule pods', { total: 0, reasons: [] }, undefined],
    [
      'typo `0 /3`',
      '0 /3 nodes are available: 3 Insufficient cpu.',
      { total: 3, reasons: [{ count: 3, reason: 'Insufficient cpu' }] },
      undefined,
    ],
    [
      'volcano',
      '0/2 nodes are unavailable: 1 plugin NodeUnschedulable predicates failed node(s) were unschedulable, 1 plugin NodeVolumeLimits predicates failed node(s) exceed max volume count.',
      {
        total: 2,
        reasons: [
          { count: 1, reason: 'plugin NodeUnschedulable predicates failed node(s) were unschedulable' },
          { count: 1, reason: 'plugin NodeVolumeLimits predicates failed node(s) exceed max volume count' },
        ],
      },
      'volcano',
    ],
    [
      'GKE console split of nvidia.com/gpu',
      '1.PodUnschedulable Cannot schedule pods: Insufficient nvidia\n2.PodUnschedulable Cannot schedule pods: com/gpu.',
      { total: null, reasons: [{ count: null, reason: 'Insufficient nvidia.com/gpu' }] },
      'GKE console',
    ],
  ])('%s', (_name, text, facts, version) => {
    const ms = find(text);
    expect(ms).toHaveLength(1);
    expect(ms[0]!.facts).toEqual(facts);
    expect(ms[0]!.version).toBe(version);
  });

  // Classes from the blind set (test/fixtures/paste-wild): a message inside other text ends where that text closes it.
  it.each([
    [
      'closing quote of a JSON string',
      '{"items": [{"message": "0/3 nodes are available: 1 Insufficient nvidia.com/gpu"}]}',
      { total: 3, reasons: [{ count: 1, reason: 'Insufficient nvidia.com/gpu' }] },
    ],
    [
      'closing quote, prose after it',
      'O evento mostra "0/6 nodes are available: 6 Insufficient cpu" — o pod pede 2 CPUs',
      { total: 6, reasons: [{ count: 6, reason: 'Insufficient cpu' }] },
    ],
    [
      'a quoted claim name inside the quoted message',
      'message: "0/2 nodes are available: 2 persistentvolumeclaim "data" not found" reason: x',
      { total: 2, reasons: [{ count: 2, reason: 'persistentvolumeclaim "data" not found' }] },
    ],
    [
      'closing parenthesis',
      'unschedulable("0/1 nodes are available: pod has unbound immediate PersistentVolumeClaims"),',
      { total: 1, reasons: [{ count: 1, reason: 'pod has unbound immediate PersistentVolumeClaims' }] },
    ],
    [
      'table cell border',
      '| `0/1 nodes are available: 1 Insufficient nvidia.com/gpu` | another pod holds the GPU |',
      { total: 1, reasons: [{ count: 1, reason: 'Insufficient nvidia.com/gpu' }] },
    ],
    [
      'markdown emphasis closing after the period',
      'similar to _0/1 nodes are available: 1 Insufficient memory._',
      { total: 1, reasons: [{ count: 1, reason: 'Insufficient memory' }] },
    ],
    [
      'Slack bold closing at the line end',
      '*Error*: 0/1 nodes are available: 1 Insufficient cpu*',
      { total: 1, reasons: [{ count: 1, reason: 'Insufficient cpu' }] },
    ],
    [
      'prose glued after the period',
      "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector.The magic words",
      { total: 1, reasons: [{ count: 1, reason: "node(s) didn't match Pod's node affinity/selector" }] },
    ],
    [
      '1.16-1.19 filter plugin error (RunFilterPlugins)',
      'Warning  FailedScheduling  51s  default-scheduler  running "VolumeBinding" filter plugin for pod "web-0": pod has unbound immediate PersistentVolumeClaims',
      { total: null, reasons: [{ count: null, reason: 'pod has unbound immediate PersistentVolumeClaims' }] },
    ],
    [
      'bare PreFilter text next to FailedScheduling',
      'Events:\n  Warning  FailedScheduling  pod has unbound immediate PersistentVolumeClaims',
      { total: null, reasons: [{ count: null, reason: 'pod has unbound immediate PersistentVolumeClaims' }] },
    ],
    [
      'lone reason after a blank line under the Pending row',
      'web-0   0/1     Pending   0          2m\n\n1 Insufficient memory',
      { total: null, reasons: [{ count: 1, reason: 'Insufficient memory' }] },
    ],
  ])('%s', (_name, text, facts) => {
    const ms = find(text);
    expect(ms.map((m) => m.facts)).toEqual([facts]);
  });

  it.each([
    [
      'a bare PreFilter text in a cheat sheet',
      '- `pod has unbound immediate PersistentVolumeClaims`: the claim is not bound',
    ],
    [
      'inside an autoscaler event',
      "NotTriggerScaleUp  pod didn't trigger scale-up: 1 pod has unbound immediate PersistentVolumeClaims",
    ],
    ['a filter plugin line of another shape', 'running "VolumeBinding" for pod "x"'],
  ])('no scheduler finding: %s', (_name, text) => {
    expect(find(text)).toEqual([]);
  });

  it('the filter plugin error names its pod', () => {
    const ms = find(
      'running "VolumeBinding" filter plugin for pod "web-0": pod has unbound immediate PersistentVolumeClaims',
    );
    expect(ms.map((m) => [m.object, m.version])).toEqual([[{ resource: 'pods', name: 'web-0' }, '1.16-1.19']]);
  });

  it('a k9s-wrapped message is joined back before parsing', () => {
    const text =
      '│ Warning FailedScheduling 0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No p │\n│ reemption victims found for incoming pod. │';
    expect(find(text)[0]!.facts).toEqual({
      total: 3,
      reasons: [{ count: 3, reason: 'Insufficient cpu' }],
      preemption: { total: 3, reasons: [{ count: 3, reason: 'No preemption victims found for incoming pod' }] },
    });
  });

  it('each conformance FitError message of the cases file parses to its own histogram', () => {
    const msg = '0/12 nodes are available: 10 Insufficient memory, 2 node(s) were unschedulable.';
    expect(find(msg)[0]!.facts).toEqual({
      total: 12,
      reasons: [
        { count: 10, reason: 'Insufficient memory' },
        { count: 2, reason: 'node(s) were unschedulable' },
      ],
    });
  });
});
