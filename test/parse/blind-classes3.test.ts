/**
 * Classes of text the second blind measure (issue #17, HELD2) missed, and the ways a stranger's paste is
 * dressed (JSON strings, YAML blocks, event tables, log prefixes, terminal colours, Windows line ends,
 * chat-client spaces, HTML entities, terminal wraps): one table row each, with the exact findings. Inputs
 * have the shape of real pastes; names and numbers are ours. Real ones: test/fixtures/paste-wild/*.jsonl.
 */
import { describe, expect, it } from 'vitest';
import { priorityText } from '../../src/answer/replies/priority.ts';
import { parsePaste } from '../../src/parse/index.ts';

const facts = (text: string): unknown[] => parsePaste(text).findings.map((f) => [f.layer, f.kind, f.facts]);
const objects = (text: string): unknown[] => parsePaste(text).findings.map((f) => f.object ?? null);

const QUOTA_Q1 = [
  'quota',
  'quota-exceeded',
  {
    quota: 'q1',
    resources: { 'limits.memory': { requested: '2Gi', used: '7Gi', limited: '8Gi' } },
    exceeding: ['limits.memory'],
  },
];
const Q1 =
  'pods "web-1" is forbidden: exceeded quota: q1, requested: limits.memory=2Gi, used: limits.memory=7Gi, limited: limits.memory=8Gi';
const SCHED_3CPU = ['scheduler', 'unschedulable', { total: 3, reasons: [{ count: 3, reason: 'Insufficient cpu' }] }];

describe('cluster-autoscaler reasons are a look-alike, never also a scheduler finding', () => {
  const nts = (reasons: unknown[]) => ['other', 'autoscaler', { reason: 'NotTriggerScaleUp', reasons }];
  it.each([
    [
      'one node(s) reason',
      "pod didn't trigger scale-up: 1 node(s) didn't match Pod's node affinity/selector",
      [nts([{ count: 1, reason: "node(s) didn't match Pod's node affinity/selector" }])],
    ],
    [
      'the wouldn’t-fit form with Insufficient and max node group size',
      "Normal  NotTriggerScaleUp  2m  cluster-autoscaler  pod didn't trigger scale-up (it wouldn't fit if a new node is added): 2 Insufficient memory, 1 max node group size reached",
      [
        nts([
          { count: 2, reason: 'Insufficient memory' },
          { count: 1, reason: 'max node group size reached' },
        ]),
      ],
    ],
    [
      'a kubectl get events row',
      "5m   Normal   NotTriggerScaleUp   pod/web-1   pod didn't trigger scale-up: 3 node(s) had untolerated taint {dedicated: infra}",
      [nts([{ count: 3, reason: 'node(s) had untolerated taint {dedicated: infra}' }])],
    ],
    [
      'next to the scheduler event: one finding each',
      "Warning  FailedScheduling  1m  default-scheduler  0/3 nodes are available: 3 Insufficient cpu.\nNormal   NotTriggerScaleUp  1m  cluster-autoscaler  pod didn't trigger scale-up: 2 Insufficient cpu, 1 max node group size reached",
      [
        SCHED_3CPU,
        nts([
          { count: 2, reason: 'Insufficient cpu' },
          { count: 1, reason: 'max node group size reached' },
        ]),
      ],
    ],
    [
      'broken after its colon',
      "Normal   NotTriggerScaleUp  cluster-autoscaler   Pod didn't trigger scale-up:\n  4 node(s) didn't match Pod's node affinity/selector",
      [nts([{ count: 4, reason: "node(s) didn't match Pod's node affinity/selector" }])],
    ],
    [
      'inside a JSON string',
      '{"reason": "NotTriggerScaleUp", "message": "pod didn\'t trigger scale-up: 1 max node group size reached"}, {"x": 1}',
      [nts([{ count: 1, reason: 'max node group size reached' }])],
    ],
  ])('%s', (_name, text, expected) => {
    expect(facts(text)).toEqual(expected);
  });
});

describe('a lone counted scheduler reason quoted in prose', () => {
  const one = (count: number, reason: string) => [
    ['scheduler', 'unschedulable', { total: null, reasons: [{ count, reason }] }],
  ];
  it.each([
    [
      'in backticks after "said"',
      'the event said `1 Insufficient memory` and nothing else',
      one(1, 'Insufficient memory'),
    ],
    [
      'in backticks, nothing before it',
      '`2 Insufficient nvidia.com/gpu` is all I get',
      one(2, 'Insufficient nvidia.com/gpu'),
    ],
    [
      'after "the error message"',
      'but I still got the error message `1 node(s) had volume node affinity conflict`.',
      one(1, 'node(s) had volume node affinity conflict'),
    ],
    [
      'after a colon',
      'it fails on the spot pool due to missing tolerations: 1 node(s) had untolerated taint {kubernetes.azure.com/scalesetpriority: spot}',
      one(1, 'node(s) had untolerated taint {kubernetes.azure.com/scalesetpriority: spot}'),
    ],
    ['a count in a sentence is not one', 'we saw 1 Insufficient memory today', []],
    ['nodes in a sentence are not one', 'the cluster has 3 node(s) that are tainted', []],
    ['a bare count without any quote or word is not one', 'we saw 1 Insufficient memory', []],
  ])('%s', (_name, text, expected) => {
    expect(facts(text)).toEqual(expected);
  });
});

describe('Pod Security admission broken, diffed or elided', () => {
  const ape = {
    control: 'allowPrivilegeEscalation != false',
    detail: 'containers "a", "b" must set securityContext.allowPrivilegeEscalation=false',
  };
  it.each([
    [
      'broken after the level',
      'would violate PodSecurity "restricted:latest":\n  allowPrivilegeEscalation != false (containers "a", "b" must set securityContext.allowPrivilegeEscalation=false),\n  runAsNonRoot != true (pod or containers "a", "b" must set securityContext.runAsNonRoot=true)',
      {
        level: 'restricted',
        version: 'latest',
        controls: [
          ape,
          {
            control: 'runAsNonRoot != true',
            detail: 'pod or containers "a", "b" must set securityContext.runAsNonRoot=true',
          },
        ],
        enforced: false,
      },
    ],
    [
      'behind diff + markers, broken inside a detail',
      '+     pods "web-0" is forbidden: violates PodSecurity "restricted:latest":\n+     allowPrivilegeEscalation != false (containers "a", "b"\n+     must set securityContext.allowPrivilegeEscalation=false)\'\n+   reason: HealthyConditionRule',
      { level: 'restricted', version: 'latest', controls: [ape], enforced: true },
    ],
    [
      'behind diff - markers',
      '-    pods "web-0" is forbidden: violates PodSecurity "baseline:v1.30":\n-      host namespaces (hostNetwork=true)',
      {
        level: 'baseline',
        version: 'v1.30',
        controls: [{ control: 'host namespaces', detail: 'hostNetwork=true' }],
        enforced: true,
      },
    ],
    [
      'cut by an ellipsis inside a detail',
      'pods "web-0" is forbidden: violates PodSecurity "baseline:latest": hostPort (container "web" uses hostPort 80), privileged (container "web" must not set securityContext.privileged=…',
      {
        level: 'baseline',
        version: 'latest',
        controls: [
          { control: 'hostPort', detail: 'container "web" uses hostPort 80' },
          { control: 'privileged', detail: 'container "web" must not set securityContext.privileged=' },
        ],
        enforced: true,
      },
    ],
    [
      'cut by ... after a control',
      'Warning: would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false, unrestricted capabilities, ...',
      {
        level: 'restricted',
        version: 'latest',
        controls: [{ control: 'allowPrivilegeEscalation != false' }, { control: 'unrestricted capabilities' }],
        enforced: false,
      },
    ],
    [
      'elisions between controls and an elided detail',
      'Warning: would violate PodSecurity "restricted:latest": privileged (container "s" must not set securityContext.privileged=true), ... seccompProfile (...)',
      {
        level: 'restricted',
        version: 'latest',
        controls: [
          { control: 'privileged', detail: 'container "s" must not set securityContext.privileged=true' },
          { control: 'seccompProfile' },
        ],
        enforced: false,
      },
    ],
    [
      'prose after the message',
      'the API server refused it with `violates PodSecurity "baseline:v1.35": privileged`. Nothing was created',
      { level: 'baseline', version: 'v1.35', controls: [{ control: 'privileged' }], enforced: true },
    ],
    [
      'an elided control',
      'violates PodSecurity "baseline:latest": forbidden AppArmor profile ..., hostPort (container "c" uses hostPort 80)',
      {
        level: 'baseline',
        version: 'latest',
        controls: [
          { control: 'forbidden AppArmor profile' },
          { control: 'hostPort', detail: 'container "c" uses hostPort 80' },
        ],
        enforced: true,
      },
    ],
  ])('%s', (_name, text, expected) => {
    expect(facts(text)).toEqual([['other', 'pod-security', expected]]);
  });
});

describe("the Priority plugin's namespace rule (plugin/pkg/admission/priority/admission.go, priorityClassPermittedInNamespace)", () => {
  it.each([
    [
      'upstream wording with the class',
      'Error creating: pods "kubeip-7545b86569-" is forbidden: pods with system-cluster-critical priorityClass is not permitted in default namespace',
      { reason: 'class-not-permitted', priorityClass: 'system-cluster-critical', inNamespace: 'default' },
      { resource: 'pods', name: 'kubeip-7545b86569-' },
    ],
    [
      'in a controller log line',
      'E0506 12:05:14.362447 1 stateful_set.go:400] Error syncing StatefulSet ns1/ctl, requeuing: pods "ctl-0" is forbidden: pods with system-node-critical priorityClass is not permitted in ns1 namespace',
      { reason: 'class-not-permitted', priorityClass: 'system-node-critical', inNamespace: 'ns1' },
      { resource: 'pods', name: 'ctl-0' },
    ],
    [
      "retyped as pod's priorityClass",
      'pods "x-1" is forbidden: pod\'s priorityClass is not permitted in team-a namespace',
      { reason: 'class-not-permitted', priorityClass: null, inNamespace: 'team-a' },
      { resource: 'pods', name: 'x-1' },
    ],
  ])('%s', (_name, text, expected, object) => {
    expect(facts(text)).toEqual([['other', 'priority', expected]]);
    expect(objects(text)).toEqual([object]);
  });

  it('says the system classes are for kube-system, and who fixes it', () => {
    const f = parsePaste(
      'pods "a-0" is forbidden: pods with system-cluster-critical priorityClass is not permitted in team-a namespace',
    ).findings[0]!;
    expect(f.kind === 'priority' ? priorityText(f) : undefined).toEqual({
      headline: 'Rejected at admission — Priority: system-cluster-critical is not permitted here',
      lines: [
        'The pod uses system-cluster-critical in namespace team-a: the Priority admission plugin allows the system classes (system-cluster-critical, system-node-critical) only in kube-system.',
        'Fix: set priorityClassName to a class of your own (`kubectl get priorityclass`), or deploy the component into kube-system as its docs say.',
        'Not a ResourceQuota or LimitRange decision: the app team fixes the manifest.',
      ],
    });
  });
});

describe('cloud-provider quotas are a look-alike, never a ResourceQuota finding', () => {
  const cloud = (f: Record<string, unknown>) => [['other', 'cloud-quota', f]];
  it.each([
    [
      'Azure exceeding quota limit of, with its numbers',
      'Code="OperationNotAllowed" Message="The operation couldn\'t be completed as it results in exceeding quota limit of standardDSv3Family Cores. Maximum allowed: 1000, Current in use: 986, Additional requested: 72."',
      cloud({ provider: 'azure', quota: 'standardDSv3Family Cores', limit: '1000' }),
    ],
    [
      'Azure exceeding quota limit of a number',
      'Operation could not be completed as it results in exceeding quota limit of 20 for standard DSv3 vCPUs',
      cloud({ provider: 'azure', quota: null, limit: '20' }),
    ],
    [
      'Azure QuotaExceeded code with its message on the next line',
      'Error: creating Kubernetes Cluster: Code="QuotaExceeded"\n  Message="Operation could not be completed as it results in exceeding approved Total Regional Cores quota"',
      cloud({ provider: 'azure', quota: 'Total Regional Cores' }),
    ],
    [
      'AKS InsufficientVCPUQuota',
      '(ErrCode_InsufficientVCPUQuota) Insufficient regional vcpu quota left for location eastus. left regional vcpu quota 4, requested quota 8',
      cloud({ provider: 'azure', quota: null }),
    ],
    [
      'GCP Quota exceeded with limit and region',
      "Error: googleapi: Error 403: Quota 'CPUS' exceeded.  Limit: 24.0 in region us-central1., quotaExceeded",
      cloud({ provider: 'gcp', quota: 'CPUS', limit: '24.0', region: 'us-central1' }),
    ],
    [
      'GCP quota metric',
      "Error 403: Quota exceeded for quota metric 'CPUs' and limit 'CPUs per project per region' of service compute.googleapis.com",
      cloud({ provider: 'gcp', quota: 'CPUs' }),
    ],
    [
      'AWS VcpuLimitExceeded code',
      'Failed to scale up: VcpuLimitExceeded: You have requested more vCPU capacity than your current vCPU limit of 32 allows for the instance bucket',
      cloud({ provider: 'aws', quota: 'VcpuLimitExceeded' }),
    ],
    [
      'AWS vCPU sentence without its code',
      'You have requested more vCPU capacity than your current vCPU limit of 32 allows for the instance bucket that the specified instance type belongs to.',
      cloud({ provider: 'aws', quota: 'VcpuLimitExceeded' }),
    ],
  ])('%s', (_name, text, expected) => {
    expect(facts(text)).toEqual(expected);
  });
});

describe('an API field error in a code comment or a quoted log line', () => {
  const v = [
    'api-validation',
    'api-validation',
    { resource: 'cpu', value: '2', limit: '1', field: 'spec.containers[0].resources.requests' },
  ];
  it.each([
    [
      '// comment',
      '// spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1',
    ],
    [
      '// comment over two lines',
      '  // The Pod "web" is invalid: spec.containers[0].resources.requests: Invalid value: "2":\n  // must be less than or equal to cpu limit of 1',
    ],
    [
      'a JSDoc block over two lines',
      '  /**\n   *   "spec.containers[0].resources.requests: Invalid value: \\"2\\":\n   *    must be less than or equal to cpu limit of 1"\n   */',
    ],
    [
      'a logfmt msg with escaped quotes',
      'time="2026-01-02T10:00:00Z" level=error msg="Pod \\"web\\" is invalid: spec.containers[0].resources.requests: Invalid value: \\"2\\": must be less than or equal to cpu limit of 1"',
    ],
    [
      '# comment over two lines',
      '# spec.containers[0].resources.requests: Invalid value: "2":\n# must be less than or equal to cpu limit of 1',
    ],
  ])('%s', (_name, text) => {
    expect(facts(text)).toEqual([v]);
  });
});

describe('LimitRange: every violation of one message', () => {
  it.each([
    [
      'second violation after ; (retyped max)',
      'pods "p" is forbidden: minimum memory usage per Container is 10Mi, \nbut request is 0; max memory usage per Container is 100Mi, but limit is 250Mi.',
      [
        { scope: 'Container', resource: 'memory', bound: 'min', limit: '10Mi', actual: '0' },
        { scope: 'Container', resource: 'memory', bound: 'max', limit: '100Mi', actual: '250Mi' },
      ],
    ],
    [
      'second violation after ; (upstream words)',
      'pods "p" is forbidden: minimum cpu usage per Container is 100m, but request is 50m; maximum memory usage per Container is 1Gi, but limit is 2Gi',
      [
        { scope: 'Container', resource: 'cpu', bound: 'min', limit: '100m', actual: '50m' },
        { scope: 'Container', resource: 'memory', bound: 'max', limit: '1Gi', actual: '2Gi' },
      ],
    ],
    [
      'a violation cut after its bound (a paste kept only the head)',
      'Error from server (Forbidden): maximum cpu usage per Container is 800m.',
      [{ scope: 'Container', resource: 'cpu', bound: 'max', limit: '800m', actual: null }],
    ],
  ])('%s', (_name, text, violations) => {
    expect(facts(text)).toEqual([['limitrange', 'limitrange', { violations }]]);
  });

  it('a placeholder is not a bound', () => {
    expect(facts('| `forbidden: maximum cpu usage per Container is X` | LimitRange max exceeded |')).toEqual([]);
  });
});

describe('how a stranger’s paste is dressed', () => {
  it.each([
    [
      'a message in a JSON string with \\n',
      '{"message": "0/3 nodes are available: 3 Insufficient cpu.\\npreemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod."}',
      [
        [
          'scheduler',
          'unschedulable',
          {
            total: 3,
            reasons: [{ count: 3, reason: 'Insufficient cpu' }],
            preemption: { total: 3, reasons: [{ count: 3, reason: 'No preemption victims found for incoming pod' }] },
          },
        ],
      ],
    ],
    [
      'a quota error inside a JSON log field',
      '{"level":"error","msg":"create failed","error":"pods \\"web-1\\" is forbidden: exceeded quota: q1, requested: limits.memory=2Gi, used: limits.memory=7Gi, limited: limits.memory=8Gi"}',
      [QUOTA_Q1],
    ],
    [
      'a YAML message: | block',
      'status:\n  conditions:\n  - type: PodScheduled\n    reason: Unschedulable\n    message: |\n      0/3 nodes are available: 1 Insufficient cpu,\n      2 node(s) had untolerated taint {dedicated: gpu}.',
      [
        [
          'scheduler',
          'unschedulable',
          {
            total: 3,
            reasons: [
              { count: 1, reason: 'Insufficient cpu' },
              { count: 2, reason: 'node(s) had untolerated taint {dedicated: gpu}' },
            ],
          },
        ],
      ],
    ],
    [
      'kubectl get events -o wide columns',
      'LAST SEEN   TYPE      REASON             OBJECT          SUBOBJECT   SOURCE              MESSAGE                                            FIRST SEEN   COUNT   NAME\n2m          Warning   FailedScheduling   pod/web-5d8f                default-scheduler   0/3 nodes are available: 3 Insufficient cpu.   10m          7       web-5d8f.17a2b3c4d5e6f7a8',
      [SCHED_3CPU],
    ],
    ['an ISO-timestamp ERROR log prefix', `2026-01-02T10:00:00.123Z ERROR controller ${Q1}`, [QUOTA_Q1]],
    ['a [pod/x] prefix', `[pod/web-1] Error from server (Forbidden): ${Q1}`, [QUOTA_Q1]],
    [
      'ANSI colour codes',
      `\u001b[31mError from server (Forbidden):\u001b[0m ${Q1.replace('q1,', '\u001b[1mq1\u001b[0m,')}`,
      [QUOTA_Q1],
    ],
    ['escaped ANSI codes in a JSON log', `{"msg":"\\u001b[31m${Q1.replace(/"/g, '\\"')}\\u001b[0m"}`, [QUOTA_Q1]],
    [
      'Windows line ends',
      'Warning  FailedScheduling  default-scheduler  0/3 nodes are available:\r\n 3 Insufficient cpu.\r\n',
      [SCHED_3CPU],
    ],
    ['zero-width and no-break spaces', '0/3\u00a0nodes are available: 3\u00a0Insufficient\u200b cpu.', [SCHED_3CPU]],
    ['HTML entities', Q1.replace(/"/g, '&quot;'), [QUOTA_Q1]],
    [
      'wrapped at 80 columns inside a number',
      'pods "web-1" is forbidden: exceeded quota: q1, requested: limits.memory=2Gi, used: l\nimits.memory=7Gi, limited: limits.memory=8Gi',
      [QUOTA_Q1],
    ],
    [
      'a break inside a quantity (digits)',
      'pods "w" is forbidden: exceeded quota: q, requested: requests.cpu=15\n00m, used: requests.cpu=19500m, limited: requests.cpu=20',
      [
        [
          'quota',
          'quota-exceeded',
          {
            quota: 'q',
            resources: { 'requests.cpu': { requested: '1500m', used: '19500m', limited: '20' } },
            exceeding: ['requests.cpu'],
          },
        ],
      ],
    ],
    [
      'a break inside a quantity (its suffix)',
      Q1.replace('requested: limits.memory=2Gi', 'requested: limits.memory=2G\ni'),
      [QUOTA_Q1],
    ],
    [
      'a word after a whole quantity is not glued to it',
      'pods "w" is forbidden: exceeded quota: q, requested: pods=1\nand then it failed',
      [
        [
          'quota',
          'quota-exceeded',
          { quota: 'q', resources: { pods: { requested: '1', used: null, limited: null } }, exceeding: ['pods'] },
        ],
      ],
    ],
    [
      'wrapped at 80 columns inside a resource name',
      'Warning  FailedScheduling  5s  default-scheduler  0/12 nodes are available: 12 In\nsufficient nvidia.com/gpu. preemption: 0/12 nodes are available: 12 No preemption\n victims found for incoming pod.',
      [
        [
          'scheduler',
          'unschedulable',
          {
            total: 12,
            reasons: [{ count: 12, reason: 'Insufficient nvidia.com/gpu' }],
            preemption: { total: 12, reasons: [{ count: 12, reason: 'No preemption victims found for incoming pod' }] },
          },
        ],
      ],
    ],
    [
      'a reason list annotated line by line',
      '# 0/15 nodes are available: \n#   3 Insufficient cpu,           ← some nodes\n#   12 Insufficient memory         ← the rest',
      [
        [
          'scheduler',
          'unschedulable',
          {
            total: 15,
            reasons: [
              { count: 3, reason: 'Insufficient cpu' },
              { count: 12, reason: 'Insufficient memory' },
            ],
          },
        ],
      ],
    ],
    [
      'a word cut by a padding run inside one line',
      `0/1 nodes are available: 1 Insufficient ephemeral-storage, 1 Insufficient i${' '.repeat(40)}ntel.com/gpu, 1 Insufficient memory.`,
      [
        [
          'scheduler',
          'unschedulable',
          {
            total: 1,
            reasons: [
              { count: 1, reason: 'Insufficient ephemeral-storage' },
              { count: 1, reason: 'Insufficient intel.com/gpu' },
              { count: 1, reason: 'Insufficient memory' },
            ],
          },
        ],
      ],
    ],
    [
      'table padding between columns is not a cut word',
      `LAST SEEN   TYPE      REASON             OBJECT${' '.repeat(30)}MESSAGE\n2m          Warning   FailedScheduling   pod/web${' '.repeat(30)}0/3 nodes are available: 3 Insufficient cpu.`,
      [SCHED_3CPU],
    ],
    [
      'a FitError retyped without "are"',
      '  Warning  FailedScheduling  60s   default-scheduler  0/3 nodes available: 3 Insufficient cpu.',
      [SCHED_3CPU],
    ],
    ['other nodes available: lines are no FitError', 'No cluster nodes available: 10.0.0.1', []],
    [
      'a FitError in a code span with prose after it',
      'the event was `0/3 nodes are available: 3 Insufficient cpu`, so I added a node',
      [SCHED_3CPU],
    ],
    [
      'a FitError in a code span the text wrapped',
      'the pod went `Pending` - `0/3 nodes are available: 1\nInsufficient memory, 2 Insufficient cpu`, an outage. Later',
      [
        [
          'scheduler',
          'unschedulable',
          {
            total: 3,
            reasons: [
              { count: 1, reason: 'Insufficient memory' },
              { count: 2, reason: 'Insufficient cpu' },
            ],
          },
        ],
      ],
    ],
    [
      'an autoscaler message in a code span with prose after it',
      "see `pod didn't trigger scale-up: 2 max node group size reached` in the events",
      [
        [
          'other',
          'autoscaler',
          { reason: 'NotTriggerScaleUp', reasons: [{ count: 2, reason: 'max node group size reached' }] },
        ],
      ],
    ],
    [
      'an autoscaler message ending a sentence in prose',
      "its logs show NotTriggerScaleUp: pod didn't trigger scale-up: 1 pod has unbound immediate PersistentVolumeClaims. It knows",
      [
        [
          'other',
          'autoscaler',
          {
            reason: 'NotTriggerScaleUp',
            reasons: [{ count: 1, reason: 'pod has unbound immediate PersistentVolumeClaims' }],
          },
        ],
      ],
    ],
    [
      'a shell comment after a config value keeps its message',
      'default = 1     # Original Error: Code="QuotaExceeded" Message="… results in exceeding quota limit of Core.',
      [['other', 'cloud-quota', { provider: 'azure', quota: 'Core' }]],
    ],
  ])('%s', (_name, text, expected) => {
    expect(facts(text)).toEqual(expected);
  });
});
