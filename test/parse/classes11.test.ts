/**
 * Classes of text read in general this session (issue #17, Deliver 6), each next to what must stay as it is.
 */
import { describe, expect, it } from 'vitest';
import { parsePaste } from '../../src/parse/index.ts';

const short = (text: string) =>
  parsePaste(text).findings.map((f) => ({ layer: f.layer, kind: f.kind, facts: f.facts, object: f.object }));

const describeTwo = `Name:           web-a-1
Status:         Failed
Reason:         Evicted
Message:        The node was low on resource: memory. Container a was using 900Mi, which exceeds its request of 512Mi.

Name:           web-b-2
Status:         Failed
Reason:         Evicted
Message:        The node was low on resource: ephemeral-storage. Container b was using 3Gi, which exceeds its request of 0.
`;

describe('two pods evicted in one paste: each its own numbers', () => {
  it('describe of two pods', () => {
    expect(short(describeTwo).map((f) => f.facts)).toEqual([
      { reason: 'Evicted', container: 'a', resource: 'memory', request: '512Mi', used: '900Mi' },
      { reason: 'Evicted', container: 'b', resource: 'ephemeral-storage', request: '0', used: '3Gi' },
    ]);
  });
  it("the first pod's Name: cut off", () => {
    const cut = describeTwo.slice(describeTwo.indexOf('Status:'));
    expect(short(cut).map((f) => [f.facts, f.object?.name])).toEqual([
      [{ reason: 'Evicted', container: 'a', resource: 'memory', request: '512Mi', used: '900Mi' }, undefined],
      [{ reason: 'Evicted', container: 'b', resource: 'ephemeral-storage', request: '0', used: '3Gi' }, undefined],
    ]);
  });
  it('one eviction mentioned above the describe that shows it is that eviction', () => {
    const text = `The pod's status is Evicted:\n${describeTwo.slice(describeTwo.indexOf('Name:           web-b-2'))}`;
    expect(short(text).map((f) => [f.facts, f.object?.name])).toEqual([
      [{ reason: 'Evicted', container: 'b', resource: 'ephemeral-storage', request: '0', used: '3Gi' }, undefined],
    ]);
  });
});

describe('a second reason list on the line of a whole message', () => {
  it.each([
    [
      'quoted after prose',
      "emits `0/4 nodes are available: 4 node(s) didn't match Pod's node affinity/selector` — sometimes followed in larger clusters by `1 Insufficient hugepages-2Mi, 3 node(s) didn't match Pod's node affinity/selector`.",
      [
        { total: 4, reasons: [{ count: 4, reason: "node(s) didn't match Pod's node affinity/selector" }] },
        {
          total: null,
          reasons: [
            { count: 1, reason: 'Insufficient hugepages-2Mi' },
            { count: 3, reason: "node(s) didn't match Pod's node affinity/selector" },
          ],
        },
      ],
    ],
    [
      'the same message going on without quotes is one',
      "0/4 nodes are available: 1 Insufficient hugepages-2Mi, 3 node(s) didn't match Pod's node affinity/selector.",
      [
        {
          total: 4,
          reasons: [
            { count: 1, reason: 'Insufficient hugepages-2Mi' },
            { count: 3, reason: "node(s) didn't match Pod's node affinity/selector" },
          ],
        },
      ],
    ],
  ])('%s', (_name, text, want) => {
    expect(short(text).map((f) => f.facts)).toEqual(want);
  });
});

describe('a frame quoted without its reasons next to the whole message', () => {
  it.each([
    [
      'a test marking the words it expects',
      "  { out: 'Warning  FailedScheduling  4m  default-scheduler  0/6 nodes are available: 6 Insufficient cpu.',\n    mark: ['FailedScheduling', '0/6 nodes are available', 'Insufficient cpu'] }",
      [{ total: 6, reasons: [{ count: 6, reason: 'Insufficient cpu' }] }],
    ],
    [
      'a frame of another node count stays its own',
      "0/6 nodes are available: 6 Insufficient cpu.\nlater: '0/7 nodes are available'",
      [
        { total: 6, reasons: [{ count: 6, reason: 'Insufficient cpu' }] },
        { total: 7, reasons: [] },
      ],
    ],
  ])('%s', (_name, text, want) => {
    expect(short(text).map((f) => f.facts)).toEqual(want);
  });
});

describe("a policy engine's message keeps the backticks it prints", () => {
  const message = (text: string) =>
    parsePaste(text).findings.map((f) => {
      const facts = f.facts as { message?: string; violations?: { message: string }[] };
      return facts.message ?? facts.violations?.map((v) => v.message);
    });
  it.each([
    [
      'Gatekeeper, inner backticks',
      'admission webhook "validation.gatekeeper.sh" denied the request: [denied by no-lb] Creating services of type `LoadBalancer` without Internal annotation is not allowed',
      [['Creating services of type `LoadBalancer` without Internal annotation is not allowed']],
    ],
    [
      'Kyverno PolicyViolation, inner backticks',
      "  Warning  PolicyViolation  1m  policy-controller  policy 'disallow-capabilities-strict' (Validation) rule 'require-drop-all' failed. validation failure: Containers must drop `ALL` capabilities.",
      ['validation failure: Containers must drop `ALL` capabilities.'],
    ],
    [
      'a code span around the whole message is Markdown',
      'The apply failed with `admission webhook "validation.gatekeeper.sh" denied the request: [denied by no-lb] Services of type LoadBalancer are not allowed`.',
      [['Services of type LoadBalancer are not allowed']],
    ],
  ])('%s', (_name, text, want) => {
    expect(message(text)).toEqual(want);
  });
});

describe('NotTriggerScaleUp told in prose as what happened', () => {
  it.each([
    ['reported', 'The cluster autoscaler reports NotTriggerScaleUp for the pending pod.', 1],
    ['shown as events', 'kubectl describe shows NotTriggerScaleUp events on the pod', 1],
    [
      'among its other event names: a list',
      'The autoscaler emits TriggeredScaleUp, NotTriggerScaleUp and ScaleDown events.',
      0,
    ],
    ['defined', 'NotTriggerScaleUp: the autoscaler could not find a node group to scale up', 0],
  ])('%s', (_name, text, n) => {
    expect(short(text)).toEqual(
      n
        ? [
            {
              layer: 'other',
              kind: 'autoscaler',
              facts: { reason: 'NotTriggerScaleUp', reasons: [] },
              object: undefined,
            },
          ]
        : [],
    );
  });
});

describe('held7 classes: forms and conventions', () => {
  it.each([
    [
      'fullwidth punctuation of a CJK page',
      'Error from server： pods &quot;p&quot; is forbidden： ［memory max limit to request ratio per Pod is 2， but provided ratio is 2.048000.］ 下面的例子',
      [
        {
          layer: 'limitrange',
          kind: 'limitrange',
          facts: { violations: [{ scope: 'Pod', resource: 'memory', bound: 'ratio', limit: '2', actual: '2.048000' }] },
        },
      ],
    ],
    [
      'retyped CPU after its head',
      'Invalid value: "300m": must be less than or equal to CPU limit',
      [
        {
          layer: 'api-validation',
          kind: 'api-validation',
          facts: { resource: 'cpu', value: '300m', limit: null, field: null },
        },
      ],
    ],
    [
      'Preemption: capitalised, without reasons',
      "errorMessage: '0/24 nodes are available: 3 Insufficient cpu, 20 Insufficient memory. Preemption: 0/24 nodes are available.',",
      [
        {
          layer: 'scheduler',
          kind: 'unschedulable',
          facts: {
            total: 24,
            reasons: [
              { count: 3, reason: 'Insufficient cpu' },
              { count: 20, reason: 'Insufficient memory' },
            ],
            preemption: { total: 24, reasons: [] },
          },
        },
      ],
    ],
    [
      'a fragment without its frame: total not printed',
      '4 pod has unbound immediate PersistentVolumeClaims. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.',
      [
        {
          layer: 'scheduler',
          kind: 'unschedulable',
          facts: {
            total: null,
            reasons: [{ count: 4, reason: 'pod has unbound immediate PersistentVolumeClaims' }],
            preemption: { total: 4, reasons: [{ count: 4, reason: 'Preemption is not helpful for scheduling' }] },
          },
        },
      ],
    ],
  ])('%s', (_name, text, want) => {
    expect(short(text).map(({ layer, kind, facts }) => ({ layer, kind, facts }))).toEqual(want);
  });
});

describe('a pod over its storage limit beside a node-pressure eviction', () => {
  it('two evictions, each with its own numbers', () => {
    const text =
      'own.update(reason="Evicted", message="Pod ephemeral local storage usage exceeds the total limit of containers 25Gi.")\npressure.update(reason="Evicted", message="The node was low on resource: ephemeral-storage.")';
    expect(short(text).map((f) => f.facts)).toEqual([
      { reason: 'Evicted', resource: 'ephemeral-storage', limit: '25Gi' },
      { reason: 'Evicted', resource: 'ephemeral-storage' },
    ]);
  });
});

describe('held7 classes: a message in a literal, a list retyped', () => {
  it.each([
    [
      'a statement of code after a message held in a literal',
      '\tquotaMsg := `create Pod jupyter-0 in StatefulSet jupyter failed error: pods "jupyter-0" is forbidden: exceeded quota: onyxia-quota`\n\tclient := k8sfake.NewClientset(',
      [{ layer: 'quota', kind: 'quota-exceeded', facts: { quota: 'onyxia-quota', resources: {}, exceeding: [] } }],
    ],
    [
      'a quota refusal wrapped before its used pairs still goes on',
      'forbidden: exceeded quota: lab-quota, requested: limits.cpu=300m, used:\nlimits.cpu=3800m, limited: limits.cpu=4',
      [
        {
          layer: 'quota',
          kind: 'quota-exceeded',
          facts: {
            quota: 'lab-quota',
            resources: { 'limits.cpu': { requested: '300m', used: '3800m', limited: '4' } },
            exceeding: ['limits.cpu'],
          },
        },
      ],
    ],
    [
      'must specify retyped with semicolons',
      'Error from server (Forbidden): pods "probe" is forbidden: failed quota: tenant-a-quota: must specify requests.cpu; requests.memory',
      [
        {
          layer: 'quota',
          kind: 'quota-must-specify',
          facts: { quota: 'tenant-a-quota', resources: { 'requests.cpu': [], 'requests.memory': [] } },
        },
      ],
    ],
  ])('%s', (_name, text, want) => {
    expect(short(text).map(({ layer, kind, facts }) => ({ layer, kind, facts }))).toEqual(want);
  });
});

describe('held7 classes: what starts a line of its own', () => {
  it.each([
    [
      'a shell prompt after a message',
      '[root@m-k8s 8.7]# ka limits-3G-pvc.yaml\nError from server (Forbidden): error when creating "limits-3G-pvc.yaml": persistentvolumeclaims "limits-3g-pvc" is forbidden: maximum storage usage per PersistentVolumeClaim is 2Gi, but request is 3Gi\n[root@m-k8s 8.7]# k get pvc -n dev2',
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
      'closing brackets after a JSON message',
      '        {"type": "PodScheduled", "status": "False", "reason": "Unschedulable",\n         "message": "0/16 nodes are available: 1 Insufficient nvidia.com/gpu"}\n    ]}}]\n    assert driver.state(handle) == DeploymentState.STARTING',
      [
        {
          layer: 'scheduler',
          kind: 'unschedulable',
          facts: { total: 16, reasons: [{ count: 1, reason: 'Insufficient nvidia.com/gpu' }] },
        },
      ],
    ],
  ])('%s', (_name, text, want) => {
    expect(short(text).map(({ layer, kind, facts }) => ({ layer, kind, facts }))).toEqual(want);
  });
});

describe('a reason list broken after its comma, the next reason under it', () => {
  it.each([
    [
      'aligned under the first',
      "FailedScheduling: 1 node(s) didn't satisfy existing pods anti-affinity rules,\n                  2 node(s) didn't match Pod's node affinity/selector",
      [
        {
          total: null,
          reasons: [
            { count: 1, reason: "node(s) didn't satisfy existing pods anti-affinity rules" },
            { count: 2, reason: "node(s) didn't match Pod's node affinity/selector" },
          ],
        },
      ],
    ],
    [
      'a line not indented is its own',
      "FailedScheduling: 1 node(s) didn't satisfy existing pods anti-affinity rules,\nand then: 2 node(s) didn't match Pod's node affinity/selector",
      [
        { total: null, reasons: [{ count: 1, reason: "node(s) didn't satisfy existing pods anti-affinity rules" }] },
        { total: null, reasons: [{ count: 2, reason: "node(s) didn't match Pod's node affinity/selector" }] },
      ],
    ],
  ])('%s', (_name, text, want) => {
    expect(short(text).map((f) => f.facts)).toEqual(want);
  });
});

describe("a reason's words told without its node(s) head", () => {
  const r = (reason: string) => [{ total: null, reasons: [{ count: null, reason }] }];
  it.each([
    [
      'quoted after Pending',
      'The visible symptom was Traefik stuck Pending with "didn\'t have free ports for the requested pod ports", several layers',
      r("didn't have free ports for the requested pod ports"),
    ],
    [
      'in a code span after the scheduler',
      "- **Symptom**: `node-exporter` DaemonSet **Pending** — scheduler:\n  `didn't have free ports for the requested pod ports` + affinity noise.",
      r("didn't have free ports for the requested pod ports"),
    ],
    [
      'without a scheduling word near',
      'The docs say "didn\'t have free ports for the requested pod ports" somewhere.',
      [],
    ],
    [
      'inside a regular expression',
      "      /\\d+ node[(]s[)] didn't find available persistent volumes to bind./, # Pending",
      [],
    ],
  ])('%s', (_name, text, want) => {
    expect(short(text).map((f) => f.facts)).toEqual(want);
  });
});

describe('a look-alike message and where it ends', () => {
  const message = (text: string) =>
    parsePaste(text).findings.map((f) => {
      const facts = f.facts as { message?: string; violations?: { message: string }[] };
      return facts.message ?? facts.violations?.map((v) => v.message);
    });
  it.each([
    [
      'a ValidatingAdmissionPolicy message, then the writer capitalised',
      "Error from server (Forbidden): ValidatingAdmissionPolicy 'require-labels' with binding 'b' denied request: Deployment must have 'app' label\n\nSuccess! CEL validation blocked it.",
      ["Deployment must have 'app' label"],
    ],
    [
      'a Gatekeeper message wrapped before a quoted name',
      'admission webhook\n"validation.gatekeeper.sh" denied the request: [container-must-have-limits] container\n"app" has no resource limits set',
      [['container "app" has no resource limits set']],
    ],
  ])('%s', (_name, text, want) => {
    expect(message(text)).toEqual(want);
  });
});
