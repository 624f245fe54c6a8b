/**
 * Classes of text from held8 and held7 read after their opening (test/fixtures/paste-wild/README.md): a reason list
 * in a single-quoted message, a reason list a table's wrapped column ran on into the next message, one counted
 * reason a line with nothing else, a container status pasted under the command that printed it, and an OOM alert's
 * labelled numbers. Each row is a text of its own shape; the fixtures hold the pastes they came from.
 */
import { describe, expect, it } from 'vitest';
import { parsePaste } from '../../src/parse/index.ts';

const read = (text: string) => parsePaste(text).findings.map((f) => [f.layer, f.kind, f.facts]);
const U = (total: number | null, ...reasons: [number | null, string][]) => ({
  total,
  reasons: reasons.map(([count, reason]) => ({ count, reason })),
});

describe('reason lists where the paste goes on', () => {
  it.each([
    [
      "a single-quoted message closes at its quote (u002's shape)",
      "- events: 'Pod/web-1 FailedScheduling (x3): 0/4 nodes are available: 1 Insufficient cpu, 3 node(s) had untolerated taint(s)' at 10:02:11Z",
      [['scheduler', 'unschedulable', U(4, [1, 'Insufficient cpu'], [3, 'node(s) had untolerated taint(s)'])]],
    ],
    [
      "the apostrophes of FitError's own words stay (didn't, Pod's)",
      "- events: 'Pod/web-1 FailedScheduling: 0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector' at 10:02Z",
      [['scheduler', 'unschedulable', U(2, [2, "node(s) didn't match Pod's node affinity/selector"])]],
    ],
    [
      'no single quote opened before the frame: a trailing quote is not a close',
      "0/2 nodes are available: 2 node(s) had untolerated taint {team: 'gpu'}.",
      [['scheduler', 'unschedulable', U(2, [2, "node(s) had untolerated taint {team: 'gpu'}"])]],
    ],
    [
      "a wrapped table column running into the next frame and the autoscaler's event (u126's shape)",
      [
        '#  api-7c9   Pending   0/3 nodes are available: 3 Insufficient memory',
        '#                      0/5 nodes are available: 5 Insufficient memory',
        '#                      NotTriggerScaleUp: 2 max node group size reached',
        '#  db-0      Pending   (4m, never scheduled)',
      ].join('\n'),
      [
        ['scheduler', 'unschedulable', U(3, [3, 'Insufficient memory'])],
        ['scheduler', 'unschedulable', U(5, [5, 'Insufficient memory'])],
        [
          'other',
          'autoscaler',
          { reason: 'NotTriggerScaleUp', reasons: [{ count: 2, reason: 'max node group size reached' }] },
        ],
      ],
    ],
  ])('%s', (_name, text, want) => {
    expect(read(text)).toEqual(want);
  });
});

describe('one counted reason a line (u012)', () => {
  it.each([
    [
      'three lines in a code block, nothing else on them',
      'The pod stays Pending:\n```\n1 Insufficient example.com/dev-a\n2 Insufficient example.com/dev-b\n1 Too many pods\n```',
      [
        [
          'scheduler',
          'unschedulable',
          U(null, [1, 'Insufficient example.com/dev-a'], [2, 'Insufficient example.com/dev-b'], [1, 'Too many pods']),
        ],
      ],
    ],
    [
      'a line with words after its reason is not one of them',
      'The pod stays Pending:\n```\n1 Insufficient example.com/dev-a\n```\nand 2 Insufficient example.com/dev-b, says the other cluster',
      [['scheduler', 'unschedulable', U(null, [1, 'Insufficient example.com/dev-a'])]],
    ],
  ])('%s', (_name, text, want) => {
    expect(read(text)).toEqual(want);
  });
});

describe('reasons without counts, one a line, under the sentence that reports them (u011, w103)', () => {
  it.each([
    [
      'one reason in a code block after "failed with:"',
      'Every retry failed with:\n\n```text\nInsufficient example.com/serial0\n```\n\nThen I rebooted the host.',
      [['scheduler', 'unschedulable', U(null, [null, 'Insufficient example.com/serial0'])]],
    ],
    [
      'three of them after a sentence that ends with its stop',
      'The events showed three shortages together.\n```\nInsufficient example.com/neuron\nInsufficient cpu\nInsufficient ephemeral-storage\n```',
      [
        [
          'scheduler',
          'unschedulable',
          U(
            null,
            [null, 'Insufficient example.com/neuron'],
            [null, 'Insufficient cpu'],
            [null, 'Insufficient ephemeral-storage'],
          ),
        ],
      ],
    ],
    [
      'a list of what may be printed is talked about',
      'Common scheduler messages:\n```\nInsufficient cpu\nInsufficient memory\n```',
      [],
    ],
  ])('%s', (_name, text, want) => {
    expect(read(text)).toEqual(want);
  });
});

describe("a bare reason beside the autoscaler's event (v155)", () => {
  it.each([
    [
      'the scheduler and the autoscaler each reporting',
      'The scheduler reports `Insufficient cpu`; the autoscaler reports `NotTriggerScaleUp` because no group fits.',
      [
        ['scheduler', 'unschedulable', U(null, [null, 'Insufficient cpu'])],
        ['other', 'autoscaler', { reason: 'NotTriggerScaleUp', reasons: [] }],
      ],
    ],
    [
      'a list of names is still a catalogue',
      'Events to watch: `Insufficient cpu`, `ImagePullBackOff`, `NotTriggerScaleUp`.',
      [],
    ],
  ])('%s', (_name, text, want) => {
    expect(read(text)).toEqual(want);
  });
});

describe('a bare reason in quotes of its own beside a whole message (u029)', () => {
  it.each([
    [
      'two messages the writer saw, in corner brackets',
      'イベントには「0/2 nodes are available: 2 Insufficient cpu.」や「node(s) had untolerated taint」が出ていました。',
      [
        ['scheduler', 'unschedulable', U(2, [2, 'Insufficient cpu'])],
        ['scheduler', 'unschedulable', U(null, [null, 'node(s) had untolerated taint'])],
      ],
    ],
    [
      "one of that message's own reasons is that message again",
      'イベントには「0/2 nodes are available: 2 node(s) had untolerated taint.」と「node(s) had untolerated taint」。',
      [['scheduler', 'unschedulable', U(2, [2, 'node(s) had untolerated taint'])]],
    ],
  ])('%s', (_name, text, want) => {
    expect(read(text)).toEqual(want);
  });
});

describe("a fixed reason's words end it", () => {
  it.each([
    [
      "a folded scalar's next line after the last reason (r023's shape)",
      "log: 'Warning  FailedScheduling  0/4 nodes are available: 1 Insufficient memory, 3 node(s) had disk pressure\nLiveness probe failed: connection refused'",
      [['scheduler', 'unschedulable', U(4, [1, 'Insufficient memory'], [3, 'node(s) had disk pressure'])]],
    ],
    [
      "a vendor's own words in lower case stay the reason's",
      '0/2 nodes are available: 2 node(s) were unschedulable due to zone spread.',
      [['scheduler', 'unschedulable', U(2, [2, 'node(s) were unschedulable due to zone spread'])]],
    ],
  ])('%s', (_name, text, want) => {
    expect(read(text)).toEqual(want);
  });
});

describe('runtime facts around the kill', () => {
  it.each([
    [
      "a container status under the command that printed it (v008's shape)",
      [
        '$ kubectl get pod api-5d9 -o yaml | grep -A 8 lastState',
        '    lastState:',
        '      terminated:',
        '        exitCode: 137',
        '        reason: OOMKilled',
        '    name: api',
        '    ready: true',
      ].join('\n'),
      [['runtime', 'runtime', { reason: 'OOMKilled', container: 'api' }]],
    ],
    [
      "an alert's labels and its description's numbers (u062's shape)",
      [
        '"labels": {',
        '  "pod": "api-5d9",',
        '  "container": "api-main"',
        '},',
        '"annotations": {',
        '  "summary": "Container OOMKilled",',
        '  "description": "Memory limit exceeded. Current limit: 512Mi. Usage: 530Mi."',
        '}',
      ].join('\n'),
      [['runtime', 'runtime', { reason: 'OOMKilled', container: 'api-main', limit: '512Mi', used: '530Mi' }]],
    ],
    [
      "the eviction manager's log line for a refused pod (u067's shape)",
      'W0101 10:00:00.000000    901 eviction_manager.go:159] Failed to admit pod web-1_default(1234) - node has conditions: [MemoryPressure]',
      [['runtime', 'runtime', { reason: 'Evicted' }]],
    ],
    [
      'the same words without the refusal are prose',
      'The eviction manager logs node has conditions: [DiskPressure] on every sync.',
      [],
    ],
    [
      'a table of prose around a reason name is a catalogue (v130)',
      '| Rule | Who objects | What you are left with |\n|---|---|---|\n| CPU request over capacity | the kubelet — `OutOfcpu` | a `Failed` Pod, still in the API |\n| nodeSelector | the kubelet — `Predicate NodeAffinity failed` | a `Failed` Pod, still in the API |',
      [],
    ],
    [
      "a state table's STATUS cell is the pod's state",
      '| NAME | READY | STATUS | RESTARTS | AGE |\n|---|---|---|---|---|\n| web-1 | 0/1 | OutOfcpu | 0 | 3m |',
      [['runtime', 'runtime', { reason: 'OutOfcpu' }]],
    ],
    [
      'a container label without the numbers names nobody',
      '"labels": {"container": "api-main"}\nsummary: the build was OOMKilled last night',
      [['runtime', 'runtime', { reason: 'OOMKilled' }]],
    ],
  ])('%s', (_name, text, want) => {
    expect(read(text)).toEqual(want);
  });
});

describe('source literals and general prose (w177, a046)', () => {
  it.each([
    [
      "a message concatenated over a program's lines with +",
      '\tdeclineMsg = "pod didn\'t trigger scale-up: 1 max node group size reached, " +\n\t\t"3 node(s) had untolerated taint {pool: batch}"',
      [
        [
          'other',
          'autoscaler',
          {
            reason: 'NotTriggerScaleUp',
            reasons: [
              { count: 1, reason: 'max node group size reached' },
              { count: 3, reason: 'node(s) had untolerated taint {pool: batch}' },
            ],
          },
        ],
      ],
    ],
    [
      'a Pod Security level closed by its quote and a comma gives no controls',
      'Error from server (Forbidden): pods "p" is forbidden: violates PodSecurity "restricted:latest", then the next step',
      [['other', 'pod-security', { level: 'restricted', version: 'latest', controls: [], enforced: true }]],
    ],
    [
      'named in a table of prose without controls: a catalogue',
      '| Stage | Question | What it prints |\n|---|---|---|\n| Validating admission | "Is the object acceptable?" | `violates PodSecurity "restricted:latest"`, `exceeded quota` |',
      [],
    ],
    [
      'what a setting prevents is no report',
      '// The limit is dropped for cpu: this prevents throttling of cpu for bursty pods.',
      [],
    ],
    ['what the writer avoids is no report', 'We set no cpu limit to avoid CPU throttling.', []],
    [
      'a throttling report stays one',
      'Our api pods show heavy CPU throttling since the 1.30 upgrade.',
      [['runtime', 'runtime', { reason: 'CPUThrottling' }]],
    ],
  ])('%s', (_name, text, want) => {
    expect(read(text)).toEqual(want);
  });
});

describe('retyped envelopes and labels (held10 k015 k042 k056)', () => {
  it.each([
    [
      'a list elided at its head (k085)',
      'Kubernetes on the same pods: `0/23 nodes are available: ... 7 Insufficient cpu`.',
      [['scheduler', 'unschedulable', U(23, [7, 'Insufficient cpu']), undefined]],
    ],
    [
      'a copy cut inside its preemption part beside the whole message is that message (k038)',
      'FailedScheduling\n0/17 nodes are available: 17 node(s) had untolerated taint(s). preemption: 0/17 nodes are available: 17 Preemption is not helpful for scheduling.\nFailedScheduling\n0/17 nodes are available: 17 node(s) had untolerated taint(s). preemption: 0/17 nodes ',
      [
        [
          'scheduler',
          'unschedulable',
          {
            ...U(17, [17, 'node(s) had untolerated taint(s)']),
            preemption: { total: 17, reasons: [{ count: 17, reason: 'Preemption is not helpful for scheduling' }] },
          },
          undefined,
        ],
      ],
    ],
    [
      "a blank before the used label's colon",
      'pods "mem-pod" is forbidden: exceeded quota: mem-quota, requested: requests.memory=200Mi, used : requests.memory=0, limited: requests.memory=100Mi',
      [
        [
          'quota',
          'quota-exceeded',
          {
            quota: 'mem-quota',
            resources: { 'requests.memory': { requested: '200Mi', used: '0', limited: '100Mi' } },
            exceeding: ['requests.memory'],
          },
          { resource: 'pods', name: 'mem-pod' },
        ],
      ],
    ],
    [
      'the blank lost between the resource and the quoted name',
      'Error from server (Forbidden): pods"demo-2" is forbidden: maximum memory usage per Container is 512Mi, but limit is 2Gi',
      [
        [
          'limitrange',
          'limitrange',
          { violations: [{ scope: 'Container', resource: 'memory', bound: 'max', limit: '512Mi', actual: '2Gi' }] },
          { resource: 'pods', name: 'demo-2' },
        ],
      ],
    ],
    [
      'a Filter reason inside a frame without its count keeps count null (TaintToleration)',
      'o evento "0/17 nodes are available: node(s) had untolerated taint(s)" apareceu',
      [['scheduler', 'unschedulable', U(17, [null, 'node(s) had untolerated taint(s)']), undefined]],
    ],
  ])('%s', (_name, text, want) => {
    expect(parsePaste(text).findings.map((f) => [f.layer, f.kind, f.facts, f.object])).toEqual(want);
  });
});

describe('held9 classes after its opening', () => {
  it.each([
    [
      'a web copy that doubled a blank in a LimitRange message (m069)',
      'Error creating: pods "w-1" is forbidden:  [maximum cpu usage per Pod is 6, but limit is 8106m., maximum memory  usage per Pod is 3Gi, but limit is 4352770048.]',
      [
        [
          'limitrange',
          'limitrange',
          {
            violations: [
              { scope: 'Pod', resource: 'cpu', bound: 'max', limit: '6', actual: '8106m' },
              { scope: 'Pod', resource: 'memory', bound: 'max', limit: '3Gi', actual: '4352770048' },
            ],
          },
        ],
      ],
    ],
    [
      "Tekton's must-specify without the quota's name (m052)",
      'taskrun failed: forbidden: failed quota, must specify limits.cpu,requests.memory. Maybe missing or invalid Task',
      [['quota', 'quota-must-specify', { quota: null, resources: { 'limits.cpu': [], 'requests.memory': [] } }]],
    ],
    [
      'a message closed by a guillemet (m091)',
      "мы получаем ошибку: «0/1 nodes are available: 1 node(s) had taints that the pod didn't tolerate.»",
      [['scheduler', 'unschedulable', U(1, [1, "node(s) had taints that the pod didn't tolerate"])]],
    ],
    [
      "an issue title's marker before a preemption fragment's reason (m093)",
      '# Insufficient nvidia.com/gpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.',
      [
        [
          'scheduler',
          'unschedulable',
          {
            total: null,
            reasons: [{ count: null, reason: 'Insufficient nvidia.com/gpu' }],
            preemption: { total: 1, reasons: [{ count: 1, reason: 'No preemption victims found for incoming pod' }] },
          },
        ],
      ],
    ],
    [
      'an eviction retyped with "resources" and "ephemeral storage" (m073)',
      "I'm getting this error:\n`The node was low on resources: ephemeral storage. Container wait was using 68Ki, which exceeds it's request of 0.`",
      [
        [
          'runtime',
          'runtime',
          { reason: 'Evicted', container: 'wait', resource: 'ephemeral-storage', request: '0', used: '68Ki' },
        ],
      ],
    ],
    [
      'under an "Error Messages" heading (m090)',
      'Error Messages\n\npods ... is forbidden: [minimum cpu usage per Container is 50m, but limit is 0]\n\nProblem\n\nPods fail.',
      [],
    ],
    [
      "a placeholder's alternatives (m094)",
      'kube_pod_status_reason\nreason=<Evicted|NodeAffinity|NodeLost|Shutdown>',
      [],
    ],
    [
      "a condition refusal beside another pod's eviction keeps no numbers of it (m074)",
      'cdi-7d9-a  ns  Evicted  node-1  Pod The node had condition: [DiskPressure].\ncdi-7d9-b  ns  Evicted  node-1  The node was low on resource: ephemeral-storage. Container cdi was using 68Ki, which exceeds its request of 0.',
      [
        ['runtime', 'runtime', { reason: 'Evicted' }],
        [
          'runtime',
          'runtime',
          { reason: 'Evicted', container: 'cdi', resource: 'ephemeral-storage', request: '0', used: '68Ki' },
        ],
      ],
    ],
    [
      "the container's name before its noun (m087)",
      'The config-db container was terminated for exceeding its memory limit of 4Gi (OOMKilled).',
      [['runtime', 'runtime', { reason: 'OOMKilled', container: 'config-db', limit: '4Gi' }]],
    ],
  ])('%s', (_name, text, want) => {
    expect(read(text)).toEqual(want);
  });
});

describe('held10 look-alikes after its opening', () => {
  it.each([
    [
      "Karpenter's later words after 'Failed to schedule pod' (k096)",
      'Warning FailedScheduling  Pod/web-1  Failed to schedule pod, did not tolerate taint (taint=pool=a:NoSchedule); no instance type has enough resources',
      [['other', 'karpenter', { nodepools: [] }]],
    ],
    [
      "a Python test's constant split over implicit literals (k049)",
      'DENIAL = (\n    \'Error from server (Forbidden): error when creating "x.yaml": admission webhook \'\n    \'"validation.gatekeeper.sh" denied the request: [k8sprivilegedcontainer] privileged mode must be false\'\n)',
      [
        [
          'other',
          'webhook-denied',
          {
            webhook: 'validation.gatekeeper.sh',
            reason: '[k8sprivilegedcontainer] privileged mode must be false',
            engine: 'gatekeeper',
            violations: [{ name: 'k8sprivilegedcontainer', message: 'privileged mode must be false' }],
          },
        ],
      ],
    ],
  ])('%s', (_name, text, want) => {
    expect(read(text)).toEqual(want);
  });
});
