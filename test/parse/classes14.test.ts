/**
 * Classes of text from the pending items of held11 and held14, read in session 7 (test/fixtures/paste-wild/README.md):
 * a runbook's `Symptoms` of a class of failure, steps under a conditional label, and cluster-autoscaler's scale-up
 * simulation log. Each row is a text of its own shape; the fixtures hold the pastes they came from.
 */
import { describe, expect, it } from 'vitest';
import { parsePaste } from '../../src/parse/index.ts';

const layers = (text: string) => parsePaste(text).findings.map((f) => f.layer);

describe("a runbook's Symptoms of a class of failure (LABELLING.md §2.1)", () => {
  it.each([
    [
      'a `### Symptoms` heading over the message, a `### Cause` after it (r032)',
      '## Error: Pending pods\n\n### Symptoms\n```\n0/3 nodes are available: 3 Insufficient cpu.\n```\n\n### Cause\nThe nodes are full.',
      [],
    ],
    [
      'a bold `Symptom:` label over a table, `Solution:` after it (p055)',
      '### Out of memory\n\n**Symptom:**\n\n```\nNAME     READY   STATUS      RESTARTS   AGE\nweb-1    0/1     OOMKilled   1          5m\n```\n\n**Solution:**\n\nRaise the limit.',
      [],
    ],
    [
      "the message on the label's own line, wrapped, `### Triage` after it (r035)",
      '## Failure mode 6 — GPU exhausted\n\n**Symptom:** New pods stuck `Pending` with\n`Insufficient nvidia.com/gpu`.\n\n### Triage\n\n```bash\nkubectl get nodes\n```',
      [],
    ],
    [
      "a Chinese runbook's `## 现象` over the event, `## 排查步骤` after it (g006)",
      '## 现象\n\n- Pod 一直 `Pending`。\n- 事件：`0/1 nodes are available: 1 Insufficient memory`。\n\n## 排查步骤\n\n1. kubectl describe pod',
      [],
    ],
    [
      'a symptom with no cause or fix after it stays a report',
      '**Symptom:**\n\n```\n0/3 nodes are available: 3 Insufficient cpu.\n```\n\nAny idea?',
      ['scheduler'],
    ],
    [
      "an issue log's numbered issue stays a report",
      '## Issue 17: Training job stuck\n\n**Symptom:**\n```\n0/3 nodes are available: 3 Insufficient nvidia.com/gpu.\n```\n**Cause:** the quota.',
      ['scheduler'],
    ],
    [
      'a `### Problem:` the writer records stays a report (w163)',
      '### Problem: Pods without resource specs rejected\n\n**Symptom:** "failed quota: default: must specify limits.cpu,limits.memory"\n\n**Solution:**\nSet limits.',
      ['quota'],
    ],
    [
      'a first-person line between the symptom and the fix stays a report',
      '**Symptom:**\n```\n0/3 nodes are available: 3 Insufficient cpu.\n```\nWe saw this all night.\n**Fix:** add nodes.',
      ['scheduler'],
    ],
  ])('%s', (_name, text, want) => {
    expect(layers(text)).toEqual(want);
  });
});

describe('steps under a label that opens with a condition (LABELLING.md §2.2)', () => {
  it.each([
    [
      'a bare reason in a numbered step under `If …:` (t032)',
      "If a pod's request lands in that gap:\n1. Karpenter provisions a node.\n2. The node joins.\n3. kube-scheduler fails with `Insufficient ephemeral-storage`; the pod stays Pending.",
      [],
    ],
    [
      'the whole message with its numbers stays a report',
      "If a pod's request lands in that gap:\n1. Karpenter provisions a node.\n2. The scheduler says `0/4 nodes are available: 4 Insufficient ephemeral-storage.`",
      ['scheduler'],
    ],
    [
      'a first-person label stays a report',
      'If I scale the job to 8:\n1. The pods stay Pending with `Insufficient nvidia.com/gpu`.',
      ['scheduler'],
    ],
    [
      'a step under a label that is no condition stays a report',
      'What happened:\n1. The node joined.\n2. kube-scheduler failed with `Insufficient ephemeral-storage`.',
      ['scheduler'],
    ],
  ])('%s', (_name, text, want) => {
    expect(layers(text)).toEqual(want);
  });
});

describe("cluster-autoscaler's scale-up simulation log (t013)", () => {
  it.each([
    [
      'the predicate that failed, without its debug fields',
      "I0211 15:35:46.498813       1 scale_up.go:288] Pod restic-2r6cr can't be scheduled on eks-d6bf7003, predicate checking error: node(s) didn't match Pod's node affinity; predicateName=NodeAffinity; reasons: node(s) didn't match Pod's node affinity; debugInfo=",
      [{ reason: 'NotTriggerScaleUp', reasons: [{ count: null, reason: "node(s) didn't match Pod's node affinity" }] }],
    ],
    [
      'an older line without the debug fields',
      "I0301 10:00:00.000000       1 scale_up.go:300] Pod web-1 can't be scheduled on pool-a, predicate checking error: Insufficient cpu",
      [{ reason: 'NotTriggerScaleUp', reasons: [{ count: null, reason: 'Insufficient cpu' }] }],
    ],
  ])('%s', (_name, text, want) => {
    const got = parsePaste(text).findings;
    expect(got.map((f) => [f.layer, f.kind])).toEqual([['other', 'autoscaler']]);
    expect(got.map((f) => f.facts)).toEqual(want);
  });
});

describe("Kueue's flavor assignment, the securityContext admission plugins and the kubelet's sysctl refusal", () => {
  it.each([
    [
      "a Workload's QuotaReserved condition (j011)",
      "    Message:               couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor default-flavor, 3 more needed\n    Reason:                Pending",
      [
        [
          'other',
          'kueue',
          { podSet: 'main', message: 'insufficient unused quota for cpu in flavor default-flavor, 3 more needed' },
        ],
      ],
    ],
    [
      'a borrowing limit (j012)',
      "Message: couldn't assign flavors to pod set worker: borrowing limit for nvidia.com/gpu in flavor ml.g5.8xlarge exceeded",
      [
        [
          'other',
          'kueue',
          { podSet: 'worker', message: 'borrowing limit for nvidia.com/gpu in flavor ml.g5.8xlarge exceeded' },
        ],
      ],
    ],
    [
      "a shell comment's wrap is one message (j014)",
      "kubectl get workload w -o jsonpath='{.status.conditions[0].message}'\n# couldn't assign flavors to pod set main: insufficient unused quota\n# for nvidia.com/gpu in flavor gpu-a100, 2 more needed",
      [
        [
          'other',
          'kueue',
          { podSet: 'main', message: 'insufficient unused quota for nvidia.com/gpu in flavor gpu-a100, 2 more needed' },
        ],
      ],
    ],
    [
      "Kueue's format string is no refusal",
      'return fmt.Sprintf("couldn\'t assign flavors to pod set %s: %s", ps.Name, msg)',
      [],
    ],
    [
      'SecurityContextDeny in a FailedCreate row, named again in prose before it (t033)',
      'Describing the replicaset shows a `SecurityContext.RunAsUser is forbidden` error:\n  Warning  FailedCreate  1m  replicaset-controller  Error creating: pods "web-587d979986-hsx2p" is forbidden: SecurityContext.RunAsUser is forbidden',
      [
        [
          'other',
          'admission-plugin',
          { plugin: 'SecurityContextDeny', message: 'SecurityContext.RunAsUser is forbidden' },
        ],
      ],
    ],
    [
      "the pod-level field (t026's shape)",
      'create Pod consul-0 in StatefulSet consul failed error: pods "consul-0" is forbidden: pod.Spec.SecurityContext.FSGroup is forbidden',
      [
        [
          'other',
          'admission-plugin',
          { plugin: 'SecurityContextDeny', message: 'pod.Spec.SecurityContext.FSGroup is forbidden' },
        ],
      ],
    ],
    [
      'PodSecurityPolicy',
      'Error creating: pods "web-1" is forbidden: unable to validate against any pod security policy: [spec.securityContext.hostNetwork: Invalid value: true: Host network is not allowed to be used]',
      [
        [
          'other',
          'admission-plugin',
          {
            plugin: 'PodSecurityPolicy',
            message:
              'unable to validate against any pod security policy: [spec.securityContext.hostNetwork: Invalid value: true: Host network is not allowed to be used]',
          },
        ],
      ],
    ],
    [
      "the kubelet's sysctl refusal as a get-pods STATUS (t039)",
      'NAME                  READY   STATUS            RESTARTS   AGE\nweb-9c9bc6fff-4fhwq   0/1     SysctlForbidden   0          10s\nweb-9c9bc6fff-4pmqk   0/1     SysctlForbidden   0          3s',
      [['runtime', 'runtime', { reason: 'SysctlForbidden' }]],
    ],
    [
      'and as its message',
      'Warning  SysctlForbidden  2s  kubelet  forbidden sysctl: "net.core.somaxconn" not allowlisted',
      [['runtime', 'runtime', { reason: 'SysctlForbidden' }]],
    ],
  ])('%s', (_name, text, want) => {
    expect(parsePaste(text).findings.map((f) => [f.layer, f.kind, f.facts])).toEqual(want);
  });
});

describe('facts of copies: a cut eviction message, a wrapped envelope, one denial copied three ways', () => {
  it.each([
    [
      "an eviction message copied up to the request (n032's shape)",
      '"message": "The node was low on resource: memory. Threshold quantity: 100Mi, available: 42Mi. Container app was using 512Mi, request is 128Mi.",',
      [
        [
          'runtime',
          { reason: 'Evicted', container: 'app', resource: 'memory', request: '128Mi', used: '512Mi' },
          undefined,
        ],
      ],
    ],
    [
      'a wrap between the resource and its quoted name (t044)',
      'Missing or invalid Task ns/t: pods\n        "build-hnq2g-pod-f9e7df" is\n        forbidden: [minimum memory usage per Container is 6Mi, but request is 0.]',
      [
        [
          'limitrange',
          { violations: [{ scope: 'Container', resource: 'memory', bound: 'min', limit: '6Mi', actual: '0' }] },
          { resource: 'pods', name: 'build-hnq2g-pod-f9e7df' },
        ],
      ],
    ],
    [
      "one Gatekeeper denial in a status (its wrap cut), in jsonpath output and in a Deployment's message (g022)",
      'status:\n  conditions:\n  - message: \'admission webhook "validation.gatekeeper.sh" denied the request: [psp-privileged-container]\n      Privileged container is not allowed: nginx, securityContext: {"privileged":true}\'\n\n$ kubectl get rs web-755547df65 -o jsonpath=\'{ .status.conditions[].message }\'\nadmission webhook "validation.gatekeeper.sh" denied the request: [psp-privileged-container] Privileged container is not allowed: nginx, securityContext: {"privileged": true}',
      [
        [
          'other',
          {
            webhook: 'validation.gatekeeper.sh',
            reason:
              '[psp-privileged-container] Privileged container is not allowed: nginx, securityContext: {"privileged": true}',
            engine: 'gatekeeper',
            violations: [
              {
                name: 'psp-privileged-container',
                message: 'Privileged container is not allowed: nginx, securityContext: {"privileged": true}',
              },
            ],
          },
          undefined,
        ],
      ],
    ],
    [
      "one Pod Security refusal of two pods of one ReplicaSet (t009's shape)",
      'Warning  FailedCreate  2m  replicaset-controller  Error creating: pods "web-8665bd77fb-2dd4n" is forbidden: violates PodSecurity "restricted:latest": runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true)\nWarning  FailedCreate  2m  replicaset-controller  Error creating: pods "web-8665bd77fb-kpvmf" is forbidden: violates PodSecurity "restricted:latest": runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true)',
      [
        [
          'other',
          {
            level: 'restricted',
            version: 'latest',
            controls: [
              {
                control: 'runAsNonRoot != true',
                detail: 'pod or container "app" must set securityContext.runAsNonRoot=true',
              },
            ],
            enforced: true,
          },
          { resource: 'pods', name: 'web-8665bd77fb-2dd4n' },
        ],
      ],
    ],
  ])('%s', (_name, text, want) => {
    expect(parsePaste(text).findings.map((f) => [f.layer, f.facts, f.object])).toEqual(want);
  });
});

describe('conditional prose over a placeholder object, a lead without its colon, and a resource of other maps', () => {
  it.each([
    [
      'a placeholder object in an If-sentence (j036)',
      '> If GitOps is installed first that image is empty and the Argo CD instance fails to\n> reconcile (`Deployment "<argo>-repo-server" is invalid: spec.template.spec.initContainers[1].image: Required value`),',
      [],
    ],
    [
      'a real object in the same sentence stays a report',
      'If GitOps is installed first, the instance fails (`Deployment "argo-repo-server" is invalid: spec.template.spec.initContainers[1].image: Required value`)',
      ['api-validation'],
    ],
    [
      'Russian `Вы увидите следующие ошибки` without its colon over a denial (p057)',
      'Вы увидите следующие ошибки\n```\nError creating: admission webhook "validation.gatekeeper.sh" denied the request: [psp-host-filesystem] HostPath volume is not allowed\n```',
      [],
    ],
    [
      'a first-person lead stays a report',
      'Я получил следующие ошибки\n```\nError creating: admission webhook "validation.gatekeeper.sh" denied the request: [psp-host-filesystem] HostPath volume is not allowed\n```',
      ['other'],
    ],
  ])('%s', (_name, text, want) => {
    expect(parsePaste(text).findings.map((f) => f.layer)).toEqual(want);
  });

  it.each([
    ["a PV's capacity (u057)", 'spec.capacity[storage]: Invalid value: "0": must be greater than zero', 'storage'],
    [
      "a quota's hard",
      'The ResourceQuota "q" is invalid: spec.hard[requests.cpu]: Invalid value: "-1": must be greater than or equal to 0',
      'requests.cpu',
    ],
  ])('%s', (_name, text, want) => {
    expect(parsePaste(text).findings.map((f) => (f.facts as { resource?: string | null }).resource)).toEqual([want]);
  });
});

describe('objects a controller generates, and objects named alike that are their own (m070)', () => {
  it.each([
    [
      'three claims named -1, -2, -3 are three refusals',
      'Error from server (Forbidden): persistentvolumeclaims "cassandra-pvc-1" is forbidden: minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 256Mi.\nError from server (Forbidden): persistentvolumeclaims "cassandra-pvc-2" is forbidden: minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 256Mi.\nError from server (Forbidden): persistentvolumeclaims "cassandra-pvc-3" is forbidden: minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 256Mi.',
      ['cassandra-pvc-1', 'cassandra-pvc-2', 'cassandra-pvc-3'],
    ],
    [
      "a DeploymentConfig's ReplicationControllers are one",
      ' version 41: replicationcontrollers "app-41" is forbidden: exceeded quota: object-counts, requested: replicationcontrollers=1, used: replicationcontrollers=20, limited: replicationcontrollers=20\n version 42: replicationcontrollers "app-42" is forbidden: exceeded quota: object-counts, requested: replicationcontrollers=1, used: replicationcontrollers=20, limited: replicationcontrollers=20',
      ['app-41'],
    ],
    [
      "a ReplicaSet's pods are one",
      'Error creating: pods "web-7c5d8-x2k9q" is forbidden: exceeded quota: q, requested: pods=1, used: pods=4, limited: pods=4\nError creating: pods "web-7c5d8-b7h2m" is forbidden: exceeded quota: q, requested: pods=1, used: pods=4, limited: pods=4',
      ['web-7c5d8-x2k9q'],
    ],
  ])('%s', (_name, text, want) => {
    expect(parsePaste(text).findings.map((f) => f.object?.name)).toEqual(want);
  });
});

describe('a field error whose path a copy cut off, under a lead (t038)', () => {
  it.each([
    [
      'two rules on one value: the cut one keeps the value as its resource',
      'using "gpu" results in the following error:\nInvalid value: "gpu": must be a standard resource type or fully qualified, spec.containers[0].resources.requests[gpu]: Invalid value: "gpu": must be a standard resource for containers]',
      [
        { resource: 'gpu', value: 'gpu', limit: null, field: null },
        { resource: 'gpu', value: 'gpu', limit: null, field: 'spec.containers[0].resources.requests[gpu]' },
      ],
    ],
    [
      'a path on the line above is still the path',
      'spec.containers[0].resources.requests:\nInvalid value: "64Mi": must be less than or equal to memory limit of 32Mi',
      [{ resource: 'memory', value: '64Mi', limit: '32Mi', field: 'spec.containers[0].resources.requests' }],
    ],
  ])('%s', (_name, text, want) => {
    expect(parsePaste(text).findings.map((f) => f.facts)).toEqual(want);
  });
});

describe('held15 and held16 at their opening: leads, lists and marks around a message', () => {
  it.each([
    [
      "kubectl's list of several errors under the envelope, one a line (A028)",
      'The ConfigMap "immutable-true-cm" is invalid: \n* immutable: Forbidden: field is immutable when `immutable` is set\n* data: Forbidden: field is immutable when `immutable` is set',
      ['api-validation', 'api-validation'],
    ],
    [
      'a Chinese lead of what a status would look like, over YAML keys (A027)',
      '如果 Kueue 尝试准入 Workload，但由于缺乏配额而失败，\nWorkload 应该有类似以下的状态：\n\n```yaml\nstatus:\n  conditions:\n  - message: "couldn\'t assign flavors to pod set main: insufficient quota for cpu in flavor default-flavor"\n    reason: Pending\n```',
      [],
    ],
    [
      "'… you'll get an error:' over the command and its `# Output:` (A050)",
      'However, if you actually try this, you\'ll get an error:\n\n```\n$ kubectl delete namespace parent\n# Output:\nError from server (Forbidden): admission webhook "namespaces.hnc.x-k8s.io" denied the request: Please set allowCascadingDeletion first.\n```',
      [],
    ],
    [
      "'you can see this event:' shows the writer's own case (B010)",
      'Instead picking one of the containers reported as "Error" you can see this event:\n\n```Message:  The node was low on resource: ephemeral-storage. Container diworker was using 111704Ki, request is 0, has larger consumption of ephemeral-storage. ```',
      ['runtime'],
    ],
    [
      'what is searched for, by whoever (B015)',
      'We have been using log based metrics, looking for messages from kubelet like:\n```\nMemory cgroup out of memory: Kill process 1557026 (stress) score 1957 or sacrifice child\n```',
      [],
    ],
    [
      "a rule's condition as the lead, and a title naming a kind of error (B039)",
      '# Detect OOMKilled pod errors\n\nAlerts should trigger if the `kubectl describe pod <pod-name>` command has a `Last State` section of:\n\n```\nLast State:     Terminated\n  Reason:       OOMKilled\n  Exit Code:    137\n```',
      [],
    ],
    [
      "a lived 'Below error will appear if …:' stays a report",
      'Below error will apear if create gitserver with gitserver-persistent.yaml:\nError from server (Forbidden): persistentvolumeclaims "git" is forbidden: minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 1G.',
      ['limitrange'],
    ],
    [
      "a program's condition over a string is code, not a lead",
      'if self.reject and body["spec"].get("runtimeClassName") == "nvidia":\n    return httpx.Response(403, json={"message": \'pod rejected: RuntimeClass "nvidia" not found\'})',
      ['other'],
    ],
  ])('%s', (_name, text, want) => {
    expect(parsePaste(text).findings.map((f) => f.layer)).toEqual(want);
  });

  it.each([
    [
      "AsciiDoc's highlight around the message (A017)",
      "Warning  FailedScheduling  <unknown>  default-scheduler  #0/9 nodes are available: 9 node(s) had taints that the pod didn't tolerate.#",
      [{ count: 9, reason: "node(s) had taints that the pod didn't tolerate" }],
    ],
    [
      "the writer's gloss glued after the period (A032)",
      "Warning  FailedScheduling  35s  default-scheduler  0/3 nodes are available: 1 node(s) had taint {node-role.kubernetes.io/master: }, that the pod didn't tolerate, 2 Insufficient memory.(内存不足)",
      [
        { count: 1, reason: "node(s) had taint {node-role.kubernetes.io/master: }, that the pod didn't tolerate" },
        { count: 2, reason: 'Insufficient memory' },
      ],
    ],
  ])('%s', (_name, text, want) => {
    expect(parsePaste(text).findings.map((f) => (f.facts as { reasons: unknown }).reasons)).toEqual([want]);
  });
});

describe('held16 at its opening: a FAQ title over its cause and fix, an output a doc depicts, a drain', () => {
  it.each([
    [
      "a FAQ entry's heading naming the message, `Cause :` and `Solution :` under it (A039)",
      '### Le Pod est refuse avec "minimum cpu usage per Container is 50m"\n\n**Cause** : le conteneur demande moins de CPU que le `min` de la LimitRange.\n```bash\nkubectl describe limitrange -n rm\n```\n**Solution** : augmenter les requests.',
      [],
    ],
    [
      'a heading naming the message with no cause or fix under it stays a report',
      '### pods "web-1" is forbidden: minimum cpu usage per Container is 50m, but request is 10m\n\nIt happened twice today.',
      ['limitrange'],
    ],
    [
      "'The following output depicts …:' over a drain (A035)",
      'The following output depicts the eviction of a `virt-launcher` pod:\n```shell\n$ kubectl drain node01 --ignore-daemonsets\nevicting pod default/virt-launcher-vm-wn5v4\nerror when evicting pods/"virt-launcher-vm-wn5v4" -n "default" (will retry after 5s): admission webhook "virt-launcher-eviction-interceptor.kubevirt.io" denied the request: Eviction triggered evacuation of VMI "default/vm"\n```',
      [],
    ],
    [
      "kubectl drain's `pod/x evicted` is the drain a person ran, not the kubelet's eviction",
      '$ kubectl drain node01 --ignore-daemonsets --delete-emptydir-data\nevicting pod default/web-5d8f7\npod/web-5d8f7 evicted\nnode/node01 drained',
      [],
    ],
    [
      "an If-sentence naming 'the following error.' over a message (B053's lead, without the event's series)",
      'If user didn\'t set CPU/Memory limits in their pod but a ResourceQuota limits them, user gets the following error.\n\n`Warning FailedCreate 2s replicaset-controller Error creating: pods "ephpod-668668fc76-4rm6p" is forbidden: failed quota: ephtest: must specify limits.cpu`',
      [],
    ],
  ])('%s', (_name, text, want) => {
    expect(parsePaste(text).findings.map((f) => f.layer)).toEqual(want);
  });
});

describe("an entry's one Symptom and a class's Symptoms (z023, h005)", () => {
  it.each([
    [
      "a numbered entry's `Symptom:` of its one incident stays a report (z023)",
      '### 2. k3s-verify pods unschedulable — CCM uninitialized taint\n**Symptom:** `0/3 nodes are available: 3 node(s) had untolerated taint {node.cloudprovider.kubernetes.io/uninitialized: true}`\n**Cause:** CCM has not removed the taint yet.',
      ['scheduler'],
    ],
    [
      "a numbered section's `Symptoms:` of a class is guidance (h005)",
      '### 3) ResourceQuota / LimitRange blocks\nSymptoms:\n- `exceeded quota: payflow-quota`\n- `minimum cpu usage per Container is 50m`\nCauses:\n- Namespace ResourceQuota caps exceeded.',
      [],
    ],
    [
      "`### Defect 6` is an issue log's numbered entry (v068)",
      '## Defect 6 Metrics pod violated namespace CPU guardrails\n\n**Symptom:** The new ReplicaSet existed but had created zero pods\nError creating: pods "metrics-5dcfcd74cd-45hjs" is forbidden:\nmaximum cpu usage per Container is 1, but limit is 4\n\n**Cause:** The guardrails permit 1 CPU per container.',
      ['limitrange'],
    ],
  ])('%s', (_name, text, want) => {
    expect(parsePaste(text).findings.map((f) => f.layer)).toEqual(want);
  });
});

describe("Pod Security's warning when a namespace's new enforce level breaks its running pods (A013)", () => {
  it('reads the level and the first pod’s controls, not enforced', () => {
    const text =
      '$ kubectl apply -k restricted-namespace\nWarning: existing pods in namespace "pss" violate the new PodSecurity enforce level "restricted:latest"\nWarning: pss-d59d88b99-flkgp: allowPrivilegeEscalation != false, runAsNonRoot != true, seccompProfile\nnamespace/pss configured';
    expect(parsePaste(text).findings.map((f) => [f.kind, f.facts])).toEqual([
      [
        'pod-security',
        {
          level: 'restricted',
          version: 'latest',
          controls: [
            { control: 'allowPrivilegeEscalation != false' },
            { control: 'runAsNonRoot != true' },
            { control: 'seccompProfile' },
          ],
          enforced: false,
        },
      ],
    ]);
  });
});

describe("a CRD schema's refusal before 1.15, and Kyverno's podSecurity rule in YAML (A025, A008)", () => {
  it.each([
    [
      "`[]: Invalid value: map[…]: validation failure list:` with the schema's pattern after it is one refusal",
      'The CronTab "my-new-cron-object" is invalid: []: Invalid value: map[string]interface {}{"kind":"CronTab", "spec":map[string]interface {}{"cronSpec":"* * * *", "replicas":15}}:\nvalidation failure list:\nspec.cronSpec in body should match \'^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$\'\nspec.replicas in body should be less than or equal to 10',
      [['api-validation', { resource: 'crontabs', name: 'my-new-cron-object' }]],
    ],
    [
      "Kyverno's podSecurity rule quoting Pod Security with YAML's doubled quotes is Kyverno's denial only",
      "Error from server: admission webhook \"validate.kyverno.svc-fail\" denied the request:\n\nresource Deployment/default/privileged-deploy was blocked due to the following policies\n\nbaseline-policy:\n  baseline: 'Validation rule ''baseline'' failed. It violates PodSecurity \"baseline:latest\": (Forbidden reason: privileged)'",
      [['other', { resource: 'deployments', name: 'privileged-deploy' }]],
    ],
  ])('%s', (_name, text, want) => {
    expect(parsePaste(text).findings.map((f) => [f.layer, f.object])).toEqual(want);
  });
});

describe('held17 C at its opening: an OCI limit, the old SCC wording, the old autoscaler log, a Chinese condition', () => {
  it.each([
    [
      "Oracle Cloud's service limit relayed by its cloud-controller-manager (C008)",
      '"error": "creating load balancer: Service error:LimitExceeded. The following service limits were exceeded: lb-100mbps-count. Request a service limit increase."',
      [['other', 'cloud-quota', { provider: 'oci', quota: 'lb-100mbps-count' }]],
    ],
    [
      "OpenShift's SCC admission before it named its constraints (C013)",
      '$ oc create -f /tmp/tomcat-pod.json\nError from server: Pod "tomcat-openshift" is forbidden: no providers available to validate pod request',
      [
        [
          'other',
          'admission-plugin',
          { plugin: 'SecurityContextConstraints', message: 'no providers available to validate pod request' },
        ],
      ],
    ],
    [
      "cluster-autoscaler's scale-up log before 1.12 (C017)",
      "I1211 10:31:49.438834       1 utils.go:208] Pod prometheus-alertmanager-d9dcffbf8-sspb9 can't be scheduled on k8s1-euw-vmss, predicate failed: NoVolumeZoneConflict predicate mismatch, reason: node(s) had no available volume zone",
      [
        [
          'other',
          'autoscaler',
          { reason: 'NotTriggerScaleUp', reasons: [{ count: null, reason: 'node(s) had no available volume zone' }] },
        ],
      ],
    ],
    [
      'a Chinese condition over the refusal it names (C006)',
      '如果创建 Pod 超过配额,就会报错:\nError from server (Forbidden): exceeded quota: dev-resource-quota, requested: limits.memory=2Gi, used: limits.memory=15Gi, limited: limits.memory=16Gi',
      [],
    ],
    [
      "the writer's own (`我`) stays a report",
      '如果我创建 Pod，就会报错:\nError from server (Forbidden): exceeded quota: dev-resource-quota, requested: limits.memory=2Gi, used: limits.memory=15Gi, limited: limits.memory=16Gi',
      [
        [
          'quota',
          'quota-exceeded',
          {
            quota: 'dev-resource-quota',
            resources: { 'limits.memory': { requested: '2Gi', used: '15Gi', limited: '16Gi' } },
            exceeding: ['limits.memory'],
          },
        ],
      ],
    ],
  ])('%s', (_name, text, want) => {
    expect(parsePaste(text).findings.map((f) => [f.layer, f.kind, f.facts])).toEqual(want);
  });
});
