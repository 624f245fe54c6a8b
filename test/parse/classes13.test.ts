/**
 * Classes of text from held11 read after its opening (test/fixtures/paste-wild/README.md): the decoder's refusals of
 * every kind, a bare quantity error in a writer's own account, kubelet reasons and preemption wordings, a container
 * named by a log's key, and pods of one controller in one runtime problem. Each row is a text of its own shape; the
 * fixtures hold the pastes they came from.
 */
import { describe, expect, it } from 'vitest';
import { parsePaste } from '../../src/parse/index.ts';

const read = (text: string) => parsePaste(text).findings.map((f) => [f.layer, f.kind, f.facts, f.object]);
const layers = (text: string) => parsePaste(text).findings.map((f) => f.layer);
const V = (field: string | null, value: string | null = null, resource: string | null = null) => ({
  resource,
  value,
  limit: null,
  field,
});

describe("the decoder's refusals (LABELLING.md §1)", () => {
  it.each([
    [
      "Go's JSON decoder names the field it could not fill (p013's shape)",
      'Error: UPGRADE FAILED: 1 error occurred:\n  * CronJob in version "v1" cannot be handled as a CronJob: json: cannot unmarshal number into Go struct field PodSpec.spec.jobTemplate.spec.template.spec.hostname of type string',
      [
        [
          'api-validation',
          'api-validation',
          V('spec.jobTemplate.spec.template.spec.hostname'),
          { resource: 'cronjobs' },
        ],
      ],
    ],
    [
      'a field error after the envelope: its field and value (p014)',
      'Error: INSTALLATION FAILED: Deployment in version "v1" cannot be handled as a Deployment: spec.strategy.type: Unsupported value: "Rolling": supported values: "Recreate", "RollingUpdate"',
      [['api-validation', 'api-validation', V('spec.strategy.type', 'Rolling'), { resource: 'deployments' }]],
    ],
    [
      'a JSON-escaped Status message with json-iterator words: the field unknown (p015)',
      '{"kind":"Status","apiVersion":"v1","status":"Failure","message":"StatefulSet in version \\"v1\\" cannot be handled as a StatefulSet: v1.StatefulSet.Spec: v1.StatefulSetSpec.Replicas: readUint32: unexpected character: \\ufffd","reason":"BadRequest","code":400}',
      [['api-validation', 'api-validation', V(null), { resource: 'statefulsets' }]],
    ],
    [
      "a changelog's line of the refusal a release fixed (p056)",
      '- FIX: Ingress in version "v1" cannot be handled as a Ingress: strict decoding error on clusters 1.25+',
      [['api-validation', 'api-validation', V(null), { resource: 'ingresses' }]],
    ],
    [
      'strict decoding with its field keeps its own reading',
      'Error from server (BadRequest): error when creating "d.yaml": Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.template.spec.containers[0].resource"',
      [
        [
          'api-validation',
          'api-validation',
          V('spec.template.spec.containers[0].resource'),
          { resource: 'deployments' },
        ],
      ],
    ],
    [
      'a Go format string is the program that prints it, not a refusal',
      'return fmt.Errorf("%s in version %q cannot be handled as a %s: %v", kind, version, kind, err)',
      [],
    ],
    [
      'the words in prose without the envelope are no refusal',
      'The object cannot be handled as a Deployment by this tool.',
      [],
    ],
  ])('%s', (_name, text, want) => {
    expect(read(text)).toEqual(want);
  });
});

describe("resource.ParseQuantity's bare error", () => {
  it.each([
    [
      "in a writer's account of a container's cpu request (q019's shape)",
      "We typed `500mi` for the memory limit of the sidecar. The error we get is `quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`.",
      [['api-validation', 'api-validation', V(null), undefined]],
    ],
    [
      "an operator's own config check is any Go program's error",
      'level=error msg="invalid config" err="quantities must match the regular expression \'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\'"',
      [],
    ],
  ])('%s', (_name, text, want) => {
    expect(read(text)).toEqual(want);
  });
});

describe('kubelet reasons, preemption wordings, containers named by a key', () => {
  it.each([
    [
      'an OutOf reason holds the resource as the node names it, case and digits (q013)',
      'web-0   0/1   OutOfhugepages-2Mi   0   3m',
      [['runtime', 'runtime', { reason: 'OutOfhugepages-2Mi' }, undefined]],
    ],
    [
      "the kubelet's message alone names the reason the same way",
      "Warning  UnexpectedAdmission  2m  kubelet  Node didn't have enough resource: hugepages-1Gi, requested: 2147483648, used: 0, capacity: 1073741824",
      [['runtime', 'runtime', { reason: 'OutOfhugepages-1Gi' }, undefined]],
    ],
    [
      'a preemption whose preemptor is not named (p093)',
      '  Normal  Preempted  40s  default-scheduler  Preempted by a pod on node gpu-node-2',
      [['runtime', 'runtime', { reason: 'Preempted' }, undefined]],
    ],
    [
      "a log's container_name key beside the OOM reason (q017)",
      'Pod phase: Failed, reason: None, container_type: main, container_name: trainer,\ncontainer_state: terminated, container_reason: OOMKilled, exit_code: 137',
      [['runtime', 'runtime', { reason: 'OOMKilled', container: 'trainer' }, undefined]],
    ],
  ])('%s', (_name, text, want) => {
    expect(read(text)).toEqual(want);
  });
});

describe('pods of one controller are one runtime problem (LABELLING.md §3)', () => {
  it.each([
    [
      'two Evicted rows of one ReplicaSet (p076)',
      'NAME                     READY   STATUS    RESTARTS   AGE\nshop-api-6b44897c57-btrfz   0/1   Evicted   0   8m\nshop-api-6b44897c57-nqwhj   0/1   Evicted   0   23m',
      1,
    ],
    [
      'pods of two controllers are two problems',
      'NAME                     READY   STATUS    RESTARTS   AGE\nshop-api-6b44897c57-btrfz   0/1   Evicted   0   8m\ncart-7d9f5c6b8-nqwhj   0/1   Evicted   0   23m',
      2,
    ],
  ])('%s', (_name, text, want) => {
    expect(parsePaste(text).findings.filter((f) => f.layer === 'runtime')).toHaveLength(want);
  });
});

describe('talk: leads, marks and runbook rows (LABELLING.md §2.1)', () => {
  it.each([
    [
      "a comment heading naming one typical message (p071's shape)",
      '# Typical error message:\n# Error creating: pods "api-xxx" is forbidden: exceeded quota: team-q, requested: requests.cpu=2, used: requests.cpu=9, limited: requests.cpu=10',
      [],
    ],
    [
      "a lead saying what the error typically looks like (p028's shape)",
      'The error usually looks like this:\n\n```\n0/4 nodes are available: 4 Insufficient memory.\n```',
      [],
    ],
    [
      "the second of two examples, 'it looks slightly different'",
      'For TPUs it looks slightly different:\n```\n0/2 nodes are available: 2 Insufficient google.com/tpu.\n```',
      [],
    ],
    [
      "a lead inside the message's own sentence (p020's shape)",
      'The status will look like this: `OutOfnvidia.com/gpu`; a new pod then starts.',
      [],
    ],
    [
      "a component's general account of what it writes (p064's shape)",
      'The scheduler emits a `FailedScheduling` event with a message: `0/12 nodes are available: 12 Insufficient cpu`. Read it per plugin.',
      [],
    ],
    [
      "Chinese 'will report … like' (p009's shape)",
      '资源不足时，会报类似“0/3 nodes are available: 3 Insufficient nvidia.com/gpu.”的事件。',
      [],
    ],
    [
      "Chinese 'like' in a lived account stays a report",
      '昨天日志里出现了类似“0/3 nodes are available: 3 Insufficient nvidia.com/gpu.”的事件。',
      ['scheduler'],
    ],
    [
      "a lived summary's 'Messages like:' stays a report (held8 u164)",
      '- Multiple FailedScheduling events:\n  - Messages like: `0/6 nodes are available: 6 Insufficient cpu.`',
      ['scheduler'],
    ],
    [
      "a comment after the output that calls it an example (p026's shape)",
      'Error from server (Forbidden): pods "dbg" is forbidden: exceeded quota: q, requested: pods=1, used: pods=5, limited: pods=5\n# (example output; the wording depends on your version)',
      [],
    ],
    [
      "a runbook table's row: message, cause, fix (p006's shape)",
      '| `exceeded quota: team-q` on deploy | the namespace quota | raise `hard` after review |',
      [],
    ],
    [
      'a table row without advice stays a report (an incident timeline)',
      '| 10:02 | `0/3 nodes are available: 3 Insufficient cpu` | paged on-call |',
      ['scheduler'],
    ],
    [
      "a bare scheduler message as a Markdown heading names a section (p008's shape)",
      '### 3. no nodes available to schedule pods\nThe cluster has no node left.',
      [],
    ],
  ])('%s', (_name, text, want) => {
    expect(layers(text)).toEqual(want);
  });
});

describe('FitError lists and field-error lists', () => {
  it("an entry period before the writer's elision keeps the entries after it (p030)", () => {
    expect(
      read(
        "describe says: `0/6 nodes are available: 2 node(s) had untolerated taint {dedicated: infra}. ... 4 node(s) didn't match Pod's node affinity/selector.`",
      ).map((r) => r[2]),
    ).toEqual([
      {
        total: 6,
        reasons: [
          { count: 2, reason: 'node(s) had untolerated taint {dedicated: infra}' },
          { count: 4, reason: "node(s) didn't match Pod's node affinity/selector" },
        ],
      },
    ]);
  });
  it.each([
    [
      'two rules refusing one field are two findings, in text order (p094, p095)',
      'The ResourceQuota "rq" is invalid: [spec.hard[limit.memory]: Invalid value: "limit.memory": must be a standard resource type or fully qualified, spec.hard[limit.memory]: Invalid value: "limit.memory": must be a standard resource for quota]',
      [
        ['spec.hard[limit.memory]', 'limit.memory'],
        ['spec.hard[limit.memory]', 'limit.memory'],
      ],
    ],
    [
      "a field that is not a resource's, before a resource's, is read too (dev6a a003)",
      'Error from server: Pod "web-0" is invalid: [spec.containers[0].image: Required value, spec.containers[0].resources.requests[foo]: Invalid value: "foo": must be a standard resource type or fully qualified]',
      [
        ['spec.containers[0].image', null],
        ['spec.containers[0].resources.requests[foo]', 'foo'],
      ],
    ],
    [
      'the same rule printed again (the Status and an Event) is one finding',
      'Pod "web-0" is invalid: spec.containers[0].resources.requests[foo]: Invalid value: "foo": must be a standard resource for containers\nWarning FailedCreate  Pod "web-0" is invalid: spec.containers[0].resources.requests[foo]: Invalid value: "foo": must be a standard resource for containers',
      [['spec.containers[0].resources.requests[foo]', 'foo']],
    ],
  ])('%s', (_name, text, want) => {
    expect(
      parsePaste(text).findings.map((f) => {
        const facts = f.facts as { field: string | null; value: string | null };
        return [facts.field, facts.value];
      }),
    ).toEqual(want);
  });
});

describe('held12 classes after its opening', () => {
  it.each([
    [
      "a Chinese examples heading over a block of messages (g010's shape)",
      '#### 常见报错\n```\ncreate Pod db-0 in StatefulSet db failed error: persistentvolumeclaim "data-db-0" not found\ncreate Pod db-1 failed: Pod "db-1" is invalid: spec.containers[0].image: Required value\n```',
      [],
    ],
    [
      "a catalogue section's sub-heading (g054's shape)",
      '## Errores comunes\n\n### 2. Cuota agotada\n\n```\nError from server (Forbidden): pods "p" is forbidden:\nexceeded quota: q, requested: pods=1, used: pods=4, limited: pods=4\n```',
      [],
    ],
    [
      'a Russian catalogue label over a list (h056)',
      '**Частые ошибки:**\n\n- `The Job "j" is invalid: spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"`: поставь Never.',
      [],
    ],
    [
      "a conditional lead without its colon over the output (h052's shape)",
      "* If you see the following error then raise max_count\n\n  Normal NotTriggerScaleUp  1m  cluster-autoscaler  pod didn't trigger scale-up: 2 max node group size reached",
      [],
    ],
    [
      "an issue log's Symptom of one incident stays a report (held5 z018)",
      '### Issue: PVC cannot be created\nSymptoms:\nError: exceeded quota: store-q, requested: requests.storage=10Gi, used: requests.storage=50Gi, limited: requests.storage=50Gi',
      ['quota'],
    ],
    [
      "an 'Example output' right under the command a step runs stays its run (held6 w108)",
      '$ oc create -f gpu-pod.yaml\n\nExample output\n\npods "gpu-pod-x2" is forbidden: exceeded quota: gpu-q, requested: requests.nvidia.com/gpu=1, used: requests.nvidia.com/gpu=1, limited: requests.nvidia.com/gpu=1',
      ['quota'],
    ],
    [
      "'For example, the event \"…\"' (g039's shape)",
      'For example, the event "0/2 nodes are available: 2 node(s) were not ready" indicates that no node is ready.',
      [],
    ],
    [
      "a Go program building the field error (g047's shape)",
      '\treturn field.ErrorList{field.Invalid(path, "3", "must be less than or equal to memory limit of 2")}',
      [],
    ],
    [
      "a test's matcher holding the refusal cut before its numbers (h007's shape)",
      '\tmatch := fmt.Sprintf("\\"upload-pod\\" is forbidden: exceeded quota: test-q, requested")\n\tExpect(log).To(ContainSubstring(match))',
      [],
    ],
    [
      "a fixture's short refusal is still one (held5 z009)",
      'message=\'pods "x" is forbidden: exceeded quota: none-allowed\')',
      ['quota'],
    ],
  ])('%s', (_name, text, want) => {
    expect(layers(text)).toEqual(want);
  });

  it.each([
    [
      "NodeResourcesFit's reason ends where its words do (g057's shape)",
      'the pods were refused with `0/3 nodes are available: 3 Too many pods` the moment they were created.',
      { total: 3, reasons: [{ count: 3, reason: 'Too many pods' }] },
    ],
  ])('%s', (_name, text, want) => {
    expect(parsePaste(text).findings.map((f) => f.facts)).toEqual([want]);
  });

  it("a describe in a Python triple-quoted string gives its request (g031's shape)", () => {
    const text =
      'output="""Containers:\n  worker:\n    Last State:     Terminated\n      Reason:       OOMKilled\n    Limits:\n      memory:  256Mi\n    Requests:\n      memory:  128Mi"""';
    expect(parsePaste(text).findings.map((f) => f.facts)).toEqual([
      { reason: 'OOMKilled', container: 'worker', limit: '256Mi', request: '128Mi' },
    ]);
  });

  it.each([
    [
      "a status whose own message is a node condition takes no other pod's numbers (h026's shape)",
      'Status:         Failed\nReason:         Evicted\nMessage:        Pod The node had condition: [DiskPressure].\n# from events\nThe node was low on resource: ephemeral-storage. Container app was using 20Ki, which exceeds its request of 0.',
    ],
    [
      "a writer's line a colon ends is a sentence of its own (m028: `… should be done for the job:`)",
      'The same should be done for the job:\n\n2 pods were evicted with this in their describe:\n> Pod The node had condition: [MemoryPressure].\n\nand the other\n> The node was low on resource: ephemeral-storage. Container app was using 20Ki, which exceeds its request of 0.',
    ],
  ])('%s', (_name, text) => {
    expect(parsePaste(text).findings.map((f) => f.facts)).toEqual([
      { reason: 'Evicted' },
      { reason: 'Evicted', container: 'app', resource: 'ephemeral-storage', request: '0', used: '20Ki' },
    ]);
  });
});

describe('held12 classes after its opening: lines the writer broke', () => {
  it.each([
    [
      "a shell's line continuation is one line (h009's shape)",
      '$ kubectl apply -f web.yaml\nError from server (Forbidden): error when creating "web.yaml": \\\npods "web" is forbidden: failed quota: team-q: must specify \\\nlimits.cpu for: web; requests.cpu for: \\\nweb',
      [['quota', { quota: 'team-q', resources: { 'limits.cpu': ['web'], 'requests.cpu': ['web'] } }]],
    ],
    [
      "a code span over a line break is one span (h049's shape)",
      "We see `FailedScheduling` and a message noting `node(s) had taints that\nthe pod didn't tolerate`. Check the taints on the nodes.",
      [
        [
          'scheduler',
          { total: null, reasons: [{ count: null, reason: "node(s) had taints that the pod didn't tolerate" }] },
        ],
      ],
    ],
    [
      "a code span broken inside a blockquote: the marker is the quote's (held dev b047)",
      '> every deploy is rejected\n> (`FailedCreate: minimum cpu usage per Container is 50m, but request is\n> 25m`) in production.',
      [
        [
          'limitrange',
          { violations: [{ scope: 'Container', resource: 'cpu', bound: 'min', limit: '50m', actual: '25m' }] },
        ],
      ],
    ],
    [
      "a shell comment right under `kubectl describe` is its output (h014's shape)",
      "kubectl describe pod -l app=web | grep -A4 Events\n# node(s) didn't match pod topology spread constraints (missing required label)",
      [
        [
          'scheduler',
          {
            total: null,
            reasons: [
              { count: null, reason: "node(s) didn't match pod topology spread constraints (missing required label)" },
            ],
          },
        ],
      ],
    ],
    [
      "a tool's `error:` head before a PreFilter reason in a comment (g044's shape)",
      '# error: pod has unbound immediate PersistentVolumeClaims\n# ### fix: --set persistence.enabled=false',
      [
        [
          'scheduler',
          { total: null, reasons: [{ count: null, reason: 'pod has unbound immediate PersistentVolumeClaims' }] },
        ],
      ],
    ],
    [
      'a Markdown heading naming a reason stays a section name',
      "## node(s) didn't match pod topology spread constraints\n\nThe pod is pending when zones are missing.",
      [],
    ],
    [
      "a Chinese lead: what the error will look like (h010's shape)",
      '假設 Pod 沒有寫明 cpu request，錯誤訊息會長這樣 -\n\n```\nError from server (Forbidden): pods "rq-2" is forbidden: failed quota: demo-q: must specify requests.cpu for: app\n```',
      [],
    ],
  ])('%s', (_name, text, want) => {
    expect(parsePaste(text).findings.map((f) => [f.layer, f.facts])).toEqual(want);
  });
});

describe('held13 classes after its opening', () => {
  it.each([
    [
      "a FitError the writer broke inside an entry, in a quote (j016's shape)",
      '原文是 "0/40 nodes are unavailable: 7 Insufficient memory, 3 Insufficient\n   cpu, 30 node(s) didn\'t match Pod\'s node affinity/selector"。三个原因里',
      [
        {
          total: 40,
          reasons: [
            { count: 7, reason: 'Insufficient memory' },
            { count: 3, reason: 'Insufficient cpu' },
            { count: 30, reason: "node(s) didn't match Pod's node affinity/selector" },
          ],
        },
      ],
    ],
    [
      "the old per-node fit failures print no node total (j021's shape)",
      "pod (web-1) failed to fit in any node\nfit failure on node (n-1): Node didn't have enough resource: CPU, requested: 500, used: 1800, capacity: 2000",
      [
        {
          total: null,
          reasons: [
            { count: 1, reason: "Node didn't have enough resource: CPU, requested: 500, used: 1800, capacity: 2000" },
          ],
        },
      ],
    ],
    [
      "a Python triple-quoted string's close after the reasons (n007's shape)",
      '        text = """\n        Warning  FailedScheduling  2m  default-scheduler  0/4 nodes are available:\n        4 node(s) didn\'t match Pod\'s node affinity/selector\n        """',
      [{ total: 4, reasons: [{ count: 4, reason: "node(s) didn't match Pod's node affinity/selector" }] }],
    ],
    [
      "a Gatekeeper denial as a JSON string's value ends before its closing quote (n026's shape)",
      '{"reason": "FailedCreate", "message": "admission webhook \\"validation.gatekeeper.sh\\" denied the request: [must-have-team] missing label \\"team\\""}',
      [
        {
          webhook: 'validation.gatekeeper.sh',
          reason: '[must-have-team] missing label "team"',
          engine: 'gatekeeper',
          violations: [{ name: 'must-have-team', message: 'missing label "team"' }],
        },
      ],
    ],
    [
      "a describe inside an indented string literal names its container (n006's shape)",
      '    def test_oom(self):\n        text = """\n        Containers:\n          worker:\n            State:          Terminated\n              Reason:       OOMKilled\n        """',
      [{ reason: 'OOMKilled', container: 'worker' }],
    ],
    [
      "'which exceeds the request of' (a golden input's wording, n029)",
      '"message": "The node was low on resource: memory. Container app was using 3Gi, which exceeds the request of 1Gi."',
      [{ reason: 'Evicted', container: 'app', resource: 'memory', request: '1Gi', used: '3Gi' }],
    ],
    [
      "what may happen is conditional prose, whatever the message holds (j019's shape)",
      'Use the lite image, otherwise the error `Pod ephemeral local storage usage exceeds the total limit of containers 100Mi.` may occur',
      [],
    ],
  ])('%s', (_name, text, want) => {
    expect(parsePaste(text).findings.map((f) => f.facts)).toEqual(want);
  });
});

describe('held13 talk after its opening', () => {
  it.each([
    [
      "'Look for Events' in bold over the output (j045's shape)",
      '**Look for Events**:\n```\nEvents:\n  Warning  FailedScheduling  0/2 nodes are available: 2 Insufficient cpu\n```',
      [],
    ],
    [
      "'Look for the line like:' (n043's shape)",
      'Look for the line like:\n\n```\nError creating: pods "api-..." is forbidden: exceeded quota: team-q, requested: pods=1, used: pods=5, limited: pods=5\n```',
      [],
    ],
    [
      "a catalogue section's block of commented output, its empty comment lines blank (n011's shape)",
      '## Common Issues & Solutions\n\n### Quota exceeded\n\n```bash\nkubectl apply -f pod.yaml\n#\n# pods "web" is forbidden: exceeded quota: q, requested: pods=1, used: pods=3, limited: pods=3\n```',
      [],
    ],
    [
      "a numbered issue's Symptom is the incident it records (j026's shape)",
      "## Issue 4: Job stuck in Pending (Volcano)\n\n**Symptom:**\n`TrainingJob` status shows:\n```\nmessage: '1/0 tasks in gang unschedulable: pod group is not ready, 1 minAvailable'\n```",
      ['other'],
    ],
    [
      "a runbook's Symptom of a class of failure stays guidance",
      '### OOM in sidecars\n\n**Symptom:**\nThe pod status shows:\n```\nReason: OOMKilled\n```',
      [],
    ],
  ])('%s', (_name, text, want) => {
    expect(layers(text)).toEqual(want);
  });
});

describe('held14 (r) talk after its measure', () => {
  it.each([
    [
      "'as you will get the following error `…`' in the sentence (r002's shape)",
      "Don't create it in the UI, as you will get the following error `0/6 nodes are available: 6 Insufficient devices.kubevirt.io/kvm.`",
      [],
    ],
    [
      "what is usually the case, in Chinese (r006's shape)",
      '# Pending 时看事件\n# → 通常是 "Insufficient aliyun.com/gpu-mem"',
      [],
    ],
    [
      "a FAQ entry's title, then what it may mean (r026's shape)",
      "> googleapi: Error 403: Insufficient regional quota to satisfy request: resource \"CPUS\": request requires '8.0' and is short '2.0'. project has a quota of '24.0' with '6.0' available\n\nThis may happen if the project's quota is exceeded.",
      [],
    ],
    [
      "'You may encounter this error … if …:' over the output (r029's shape)",
      "You may encounter this error from time to time if you keep deleting and recreating clusters, nodes and databases quickly:\n\n```\nError: googleapi: Error 403: Insufficient regional quota to satisfy request: resource \"SSD_TOTAL_GB\": request requires '300.0' and is short '300.0'. project has a quota of '500.0' with '0.0' available.\n```",
      [],
    ],
    [
      "'… . Example:' ending a comment line (r030's shape)",
      '\t// TODO: check for quota violations. Example:\n\t// 0/3 nodes are available: 3 Insufficient cpu.',
      [],
    ],
    [
      "a lived 'I got the following error' stays a report",
      'I got the following error `0/6 nodes are available: 6 Insufficient cpu.` on our cluster.',
      ['scheduler'],
    ],
  ])('%s', (_name, text, want) => {
    expect(layers(text)).toEqual(want);
  });
});

describe('an envelope whose name lost its quotes (held14 t002)', () => {
  it.each([
    [
      "an Events table's `pods <name> is forbidden:`",
      '26m  Warning  FailedCreate  replicaset-controller  Error creating: pods api-7c5d8b-q5mll is forbidden: exceeded quota: ns-q, requested: requests.cpu=20m, used: requests.cpu=40m, limited: requests.cpu=50m',
      { resource: 'pods', name: 'api-7c5d8b-q5mll' },
    ],
    [
      'a resource without a name stays one',
      'Error from server (Forbidden): : pods is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1',
      { resource: 'pods' },
    ],
  ])('%s', (_name, text, want) => {
    expect(parsePaste(text).findings.map((f) => f.object)).toEqual([want]);
  });
});
