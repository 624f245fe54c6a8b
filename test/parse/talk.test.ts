/**
 * Messages talked about rather than reported (test/fixtures/paste-wild/LABELLING.md §2; src/parse/talk.ts and
 * the placeholder rules of src/parse/placeholder.ts and index.ts): conditional and modal sentences, lists mapping a
 * message to advice, catalogue headers, definitions, format fields where the server prints a value. Next to each,
 * the same words reported, which stay findings.
 */
import { describe, expect, it } from 'vitest';
import { parsePaste } from '../../src/parse/index.ts';

const short = (text: string) =>
  parsePaste(text).findings.map((f) => ({ layer: f.layer, kind: f.kind, facts: f.facts }));

describe('talked about: no finding', () => {
  it.each([
    [
      'a conditional sentence',
      'If the zone has no capacity, the pod is permanently unschedulable with `node(s) had volume node affinity conflict`.',
    ],
    [
      'a conditional about a runtime reason',
      'If a container has an OOM, the pod container status shows the Reason as `OOMKilled` and `ExitCode` is 137.',
    ],
    ['a modal sentence', 'The chart may get stuck `Pending` on KinD due to `Insufficient ephemeral-storage`.'],
    [
      'examples in a parenthesis opened by e.g.',
      'The `message` field names the condition (e.g. `"The node was low on resource: memory. Threshold quantity: ..."` or `"Pod was rejected: The node had condition: [DiskPressure]."`).',
    ],
    [
      'an example with its numbers (LABELLING.md §2.1: whatever numbers it holds)',
      'The Events section states the reason, for example `0/12 nodes are available: 4 Insufficient nvidia.com/gpu`.',
    ],
    [
      'under a lead of what a reader will see, and the "or" between examples',
      'The event message will include something like:\n0/3 nodes are available: 3 node(s) had untolerated taint {a: b}.\nOr, for memory:\n0/3 nodes are available: 3 Insufficient memory.',
    ],
    ['"For example:" before a whole reason list', 'For example: 0/3 nodes are available: 3 Insufficient cpu.'],
    [
      "an example of a quota refusal's lists",
      'For example, `requested: requests.cpu=500m, used: requests.cpu=2, limited: requests.cpu=2` means the pod needs more.',
    ],
    [
      'under a heading comment that names an example, over an Events table',
      '# Example event indicating scheduling issues\nEvents:\n  Type     Reason            Age   From               Message\n  ----     ------            ----  ----               -------\n  Warning  FailedScheduling  31s   default-scheduler  0/2 nodes are available: 2 Insufficient memory.',
    ],
    [
      'a conditional over the command the example runs',
      '# This will fail if quota exists for requests.cpu\nkubectl run no-requests --image=nginx\n# Error: pods "no-requests" is forbidden: failed quota: q: must specify requests.cpu',
    ],
    [
      'under a Symptom label',
      "* **Symptom**:\n  The launcher pod remains stuck in `Pending` with `FailedScheduling`:\n  ```\n  Warning  FailedScheduling  0/23 nodes are available: 15 node(s) didn't match Pod's node affinity/selector\n  ```",
    ],
    [
      '"will fail with:" over a refusal of a placeholder object',
      'If the chart came from a git checkout, `helm upgrade` will fail with:\n\n```\nError: UPGRADE FAILED: cannot patch "<release>-db" with kind StatefulSet:\nStatefulSet.apps "<release>-db" is invalid: spec: Forbidden: updates to statefulset spec for fields other than \'replicas\' are forbidden\n```',
    ],
    ['a search for a whole message', 'grep -Fq \'maximum ephemeral-storage usage per Container is 4Gi\' "$SCRIPT"'],
    [
      'a program concatenating a denial',
      "console.error('Error from server: admission webhook \"validate.kyverno.svc-fail\" denied the request: resource '+kind+'/ns/'+n+' was blocked due to the following policies');",
    ],
    [
      'a container placeholder in a must-specify',
      'It still fails the quota (`failed quota: compute: must specify limits.cpu for: <container>`).',
    ],
    [
      "an issue template's expected results",
      '**Describe the results you received:**\n```\n{"reason": "Error"}\n```\n**Describe the results you expected:**\nThe reason field is OOMKilled:\n```\n{"reason": "OOMKilled"}\n```',
    ],
    ['a step that will trigger a kill', '1. create a pod that will trigger OOM and be killed by the OOM killer'],
    [
      'under "Kubernetes reports that as:" (an explanation of the name)',
      'Linux has an OOM killer. Kubernetes reports that as:\n\n```\nReason: OOMKilled\nExit Code: 137\n```',
    ],
    ['a question about a term', 'What Does OOMKilled Mean in Kubernetes Pods?'],
    ['what a tool shows in general', 'A container gets shut down hard when Kubernetes shows OOMKilled.'],
    ['a reason on a Markdown heading', '### J02 OOMKilled (Exit Code 137)\nThe container went over its limit.'],
    ['a reason defined in Vietnamese', '! OOMKilled là trạng thái báo cáo bởi kubelet.'],
    [
      'a question about a case (a quiz prompt)',
      'Что делать, если под постоянно падает с ошибкой OOMKilled (Exit Code 137)?',
    ],
    ['under "If you get:"', 'If you get:\n```\n0/1 nodes are available: 1 Too many pods.\n```\nThen raise maxPods.'],
    [
      'under "Example output:"',
      '# Example output:\n# default/api-7d9f8c6b5-x2h4k: The node was low on resource: memory.',
    ],
    [
      'an example after "for example"',
      'The reason field says why, for example `node(s) had volume node affinity conflict`.',
    ],
    ['a modal with "will"', 'It will not be scheduled there (`Insufficient devices.kubevirt.io/kvm`).'],
    ['a conditional in German', 'Wenn der Knoten voll ist, bleibt der Pod mit `Insufficient cpu` hängen.'],
    ['a definition', 'Hint: Exit code 137 typically means the process is killed because it ran out of memory'],
    [
      'a list mapping messages to advice',
      '- `TriggeredScaleUp` → DWS is provisioning a VM\n- `NotTriggerScaleUp: 1 in backoff after failed scale-up` → wait ~5 min\n- `Insufficient google.com/tpu` → another job is using the node',
    ],
    [
      'a "common causes" header',
      "Common Pending causes:\n- **Insufficient google.com/tpu**: node pool is full\n- **didn't match node affinity/selector**: wrong label",
    ],
    ['a "look for events like" header', 'Look for events like:\n- `PreBind plugin rejected pod`\n- `Insufficient cpu`'],
    ['"Check for:" in a comment', '# Check for: "Insufficient aws.amazon.com/neuron" or scheduler errors'],
    [
      'a header in a drawn box',
      '│ Possible causes:                     │\n│                                      │\n│ 1. Quota exceeded                    │\n│    Error: "Quota \'CPUS\' exceeded. Limit: 24.0"  │',
    ],
    [
      'a Rust format field',
      'return Err(Status::forbidden(format!(\n    "pod rejected: RuntimeClass \\"{rc_name}\\" not found"\n)));',
    ],
    ['empty braces', '"status unknown for quota: {}, resources: {}",'],
    ['a Go verb in a look-alike', 'fmt.Errorf("incompatible with nodepool %q, daemonset overhead=%s, %w", a, b, err)'],
    [
      'a lone X for a ratio',
      '**Error**: `memory max limit to request ratio per Container is 4, but provided ratio is X`',
    ],
    ['a cloud quota with Limit: X', '- Error message: "Quota \'CPUS\' exceeded. Limit: X in region us-central1"'],
    ['docker-compose, no Kubernetes', '+ docker-compose exec web supervisorctl restart all\nExited with code 137'],
  ])('%s', (_name, text) => {
    expect(short(text)).toEqual([]);
  });
});

const U = (total: number | null, reasons: [number | null, string][]) => ({
  layer: 'scheduler',
  kind: 'unschedulable',
  facts: { total, reasons: reasons.map(([count, reason]) => ({ count, reason })) },
});

describe('reported: still a finding', () => {
  it.each([
    [
      'a conditional in the first person',
      'If I describe the pod I see it Pending with `Insufficient cpu`.',
      [U(null, [[null, 'Insufficient cpu']])],
    ],
    [
      'a conditional sentence with the whole message',
      'If you run it you get `0/3 nodes are available: 3 Insufficient cpu.`',
      [U(3, [[3, 'Insufficient cpu']])],
    ],
    [
      'a lived account',
      'All of those pods sat `Pending` with `0/13 nodes are available`. No node has carried that label since.',
      [U(13, [])],
    ],
    [
      'a list without arrows',
      '- `0/2 nodes are available: 2 Insufficient memory.`\n- the node pool was at its max',
      [U(2, [[2, 'Insufficient memory']])],
    ],
    [
      'a Filter reason whose count the writer dropped',
      'it stays Pending with `0/9 nodes are available: Insufficient cpu`, which is maddening',
      [U(9, [[null, 'Insufficient cpu']])],
    ],
    [
      'a PreFilter text keeps count = total',
      '0/4 nodes are available: pod has unbound immediate PersistentVolumeClaims.',
      [U(4, [[4, 'pod has unbound immediate PersistentVolumeClaims']])],
    ],
    [
      'a sentence glued in another script',
      'Warning FailedScheduling 4m default-scheduler 0/4 nodes are available: 1 Too many pods, 3 Insufficient cpu.Это подтверждает',
      [
        U(4, [
          [1, 'Too many pods'],
          [3, 'Insufficient cpu'],
        ]),
      ],
    ],
    [
      'a message closed by a CJK quote',
      'イベントログには「0/1 nodes are available: 1 Too many pods.」が表示',
      [U(1, [[1, 'Too many pods']])],
    ],
    [
      'an OOM kill against its limit',
      'a snapshot drove the pod from ~500MiB to ~1.0GiB and it was OOMKilled against its 1Gi limit mid-activity.',
      [{ layer: 'runtime', kind: 'runtime', facts: { reason: 'OOMKilled', limit: '1Gi' } }],
    ],
    [
      "a tutorial's step: the lead under the command it runs, the object named",
      '`kubectl apply -f lr-test.yaml`\n\nYou will get Error:\n\n`Error from server (Forbidden): error when creating "lr-test.yaml": pods "lr-test" is forbidden: maximum cpu usage per Pod is 1, but limit is 2`',
      [
        {
          layer: 'limitrange',
          kind: 'limitrange',
          facts: { violations: [{ scope: 'Pod', resource: 'cpu', bound: 'max', limit: '1', actual: '2' }] },
        },
      ],
    ],
    [
      'an alternative in a parenthesis opened by "Or"',
      'Error from server (Forbidden): maximum cpu usage per Container is 1, but limit is 2\n\n(Or a similar message about memory: `maximum memory usage per Container is 512Mi, but limit is 1Gi`.)',
      [
        {
          layer: 'limitrange',
          kind: 'limitrange',
          facts: { violations: [{ scope: 'Container', resource: 'cpu', bound: 'max', limit: '1', actual: '2' }] },
        },
      ],
    ],
    [
      "a tutorial's 'Expected result:' is what the step printed",
      'Expected result:\nadmission webhook "validation.gatekeeper.sh" denied the request: [deny-privileged] Privileged container is not allowed: ubuntu',
      [
        {
          layer: 'other',
          kind: 'webhook-denied',
          facts: {
            webhook: 'validation.gatekeeper.sh',
            reason: '[deny-privileged] Privileged container is not allowed: ubuntu',
            engine: 'gatekeeper',
            violations: [{ name: 'deny-privileged', message: 'Privileged container is not allowed: ubuntu' }],
          },
        },
      ],
    ],
    [
      "an event shown as a series under 'errors like:' is the writer's own run (held9 m044)",
      'otherwise they will not be permitted to start with errors like:\n  Warning  FailedCreate  42s (x4 over 92s)  job-controller  Error creating: pods "j-1" is forbidden: failed quota: q: must specify limits.cpu for: main',
      [
        {
          layer: 'quota',
          kind: 'quota-must-specify',
          facts: { quota: 'q', resources: { 'limits.cpu': ['main'] } },
        },
      ],
    ],
    [
      "a shell comment's reason stays the pod's state",
      '# Expected: Status = NodeAffinity (Failed)\n# Message: "Predicate NodeAffinity failed"',
      [{ layer: 'runtime', kind: 'runtime', facts: { reason: 'NodeAffinity' } }],
    ],
    [
      "what kubectl shows for the writer's pod",
      'kubectl shows OOMKilled for my worker pod since the upgrade',
      [{ layer: 'runtime', kind: 'runtime', facts: { reason: 'OOMKilled' } }],
    ],
    [
      "the writer's own question keeps it",
      'What do I do if my pod keeps getting OOMKilled?',
      [{ layer: 'runtime', kind: 'runtime', facts: { reason: 'OOMKilled' } }],
    ],
    [
      "a tutorial's step: kubectl's result under the warning it got",
      'You will get a warning like this:\n\nWarning: would violate PodSecurity "restricted:v1.25": runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true)\ndeployment.apps/app created (server dry run)',
      [
        {
          layer: 'other',
          kind: 'pod-security',
          facts: {
            level: 'restricted',
            version: 'v1.25',
            controls: [
              {
                control: 'runAsNonRoot != true',
                detail: 'pod or container "app" must set securityContext.runAsNonRoot=true',
              },
            ],
            enforced: false,
          },
        },
      ],
    ],
    [
      "a tutorial's step: what you should see",
      'And you should see a similar warning:\n\nWarning  FailedScheduling  Pod/web-5d8c7b9f6-x2k4p  0/3 nodes are available: 3 Insufficient cpu.',
      [U(3, [[3, 'Insufficient cpu']])],
    ],
    [
      "the writer's own case after e.g.",
      'We hit it again today (e.g. our pod got `node(s) had volume node affinity conflict` twice).',
      [U(null, [[null, 'node(s) had volume node affinity conflict']])],
    ],
    [
      "an OOM kill with the writer's numbers",
      'my pod keeps getting OOMKilled, memory limit is 512Mi and it uses about 600Mi',
      [{ layer: 'runtime', kind: 'runtime', facts: { reason: 'OOMKilled', limit: '512Mi', used: '600Mi' } }],
    ],
    [
      'exit code 137 of a pod',
      'kubectl logs web-0 --previous\nExited with code 137',
      [{ layer: 'runtime', kind: 'runtime', facts: { reason: 'ExitCode137' } }],
    ],
  ])('%s', (_name, text, want) => {
    expect(short(text)).toEqual(want);
  });
});
