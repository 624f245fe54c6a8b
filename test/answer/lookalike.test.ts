/**
 * Look-alikes explained (issue #17, Deliver 5), the Priority plugin's refusals and decode-time quantity
 * errors: what it is, that it is not quota/LimitRange/scheduler, the quoted rule, who can act, the next
 * command. Fixtures: test/fixtures/lookalikes (sources in its README.md) and test/fixtures/pastes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/answer/diagnose.ts';
import { respell } from '../../src/answer/replies/decode.ts';
import type { Snapshot } from '../../src/k8s/snapshot.ts';
import { namespace, priorityClass, snapshotOf } from '../support/builders.ts';

const fixtures = join(import.meta.dirname, '..', 'fixtures');

function replies(text: string, o: { state?: Snapshot; namespace?: string } = {}): string[][] {
  return diagnose({ text, ...o })
    .answer.replies.filter((r) => !r.headline.startsWith('Admitted'))
    .map((r) => [`${r.icon} ${r.headline}`, ...r.lines]);
}

describe('look-alike replies from the text', () => {
  it.each([
    [
      'lookalikes/decode-with-context.txt',
      [
        [
          '🚫 Rejected by API decoding: not a valid quantity',
          '"1.5 GB" (resources.limits memory) is not a Kubernetes quantity: the API server could not decode the object, so nothing was validated or admitted.',
          'Write it 1.5G — a number, no space, then one of m k M G T P E (powers of 1000) or Ki Mi Gi Ti Pi Ei (powers of 1024): "1.5Gi" is valid, "1.5 GB" is not.',
          'Not quota, LimitRange or scheduling: fix the manifest (app team); `kubectl apply --dry-run=server -f FILE` checks it.',
        ],
      ],
    ],
    [
      'lookalikes/deploykf-kyverno-blocked.txt',
      [
        [
          'ℹ️ Not quota — denied by Kyverno policy require-requests-limits, restrict-image-registries — job deploykf-auth-generate-secrets (deploykf-auth)',
          'Kyverno refused Job/deploykf-auth/deploykf-auth-generate-secrets — webhook validate.kyverno.svc-ignore, a policy of the cluster:',
          'policy require-requests-limits, rule autogen-validate-resources: "validation error: CPU and memory resource requests and limits are required. rule autogen-validate-resources failed at path /spec/template/spec/containers/1/resources/limits/"',
          'policy restrict-image-registries, rule autogen-validate-allow-registries: "validation failure: failed to check deny preconditions: failed to substitute variables in condition value: failed to resolve allowedregistries.data.registries | parse_yaml(@) at path :"',
          'autogen- rules are the ones Kyverno derives from a Pod rule for the pod template of a Deployment, Job, …: the rule itself is about pods.',
          'Not a ResourceQuota, LimitRange or scheduler decision: raising quota or freeing nodes changes nothing.',
          'Who: the app team meets the rule in its manifest; the policy belongs to the platform/security team (a PolicyException is theirs to grant).',
          'Read it: `kubectl get clusterpolicy require-requests-limits -o yaml` (a namespaced one: `kubectl -n deploykf-auth get policy require-requests-limits -o yaml`).',
        ],
      ],
    ],
    [
      'lookalikes/devlake-quantity-suffix.txt',
      [
        [
          '🚫 Rejected by API decoding: not a valid quantity',
          'A quantity is not valid: the API server could not decode the object, so nothing was validated or admitted. The paste does not show which value.',
          'Look for a space before the unit, a unit like GB/MB/gb/gib, or a unit alone: a quantity is a number then one of m k M G T P E or Ki Mi Gi Ti Pi Ei ("1.5Gi" is valid, "1.5 GB" is not).',
          'Not quota, LimitRange or scheduling: fix the manifest (app team); `kubectl apply --dry-run=server -f FILE` checks it.',
        ],
      ],
    ],
    [
      'lookalikes/karpenter-exceed-limits-log.txt',
      [
        [
          'ℹ️ Not quota — Karpenter could not launch a node — pod web-746d677b76-lghl4 (team-a)',
          'Karpenter would not launch a node for the pod:',
          "NodePool kb-demo: did not tolerate kaas.acquia.io/pool=management:NoSchedule → the NodePool's nodes are tainted and the pod does not tolerate it",
          "NodePool stable-multi-az-xxlarge: all available instance types exceed limits for nodepool → the NodePool's spec.limits are used up: raise them (platform)",
          'Not a ResourceQuota or LimitRange decision: the pod was admitted; no node exists for it and Karpenter will not create one.',
          "Who: the platform team (NodePools: requirements and limits); the app team only by lowering the pod's requests or selectors.",
          'Read it: `kubectl get nodepool kb-demo -o yaml`.',
        ],
      ],
    ],
    [
      'lookalikes/karpenter-trino-no-instance-type.txt',
      [
        [
          'ℹ️ Not quota — Karpenter could not launch a node',
          'Karpenter would not launch a node for the pod:',
          'NodePool default: no instance type satisfied resources {"cpu":"29500m","memory":"246400Mi","pods":"6"} and requirements karpenter.k8s.aws/ec2nodeclass In [default], karpenter.sh/capacity-type In [on-demand], karpenter.sh/nodepool In [default], node.kubernete… → no instance type the NodePool allows holds the pod plus its daemonset overhead: widen the NodePool\'s requirements (platform) or lower the pod\'s requests (app team)',
          'Not a ResourceQuota or LimitRange decision: the pod was admitted; no node exists for it and Karpenter will not create one.',
          "Who: the platform team (NodePools: requirements and limits); the app team only by lowering the pod's requests or selectors.",
          'Read it: `kubectl get nodepool default -o yaml`.',
        ],
      ],
    ],
    [
      'lookalikes/kyverno-policy-violation.txt',
      [
        [
          'ℹ️ Not quota — denied by Kyverno policy require-requests-limits — deployment api (team-a)',
          'Kyverno refused Deployment/team-a/api — webhook validate.kyverno.svc-fail, a policy of the cluster:',
          'policy require-requests-limits, rule autogen-validate-resources: "validation error: CPU and memory resource requests and limits are required. rule autogen-validate-resources failed at path /spec/template/spec/containers/0/resources/limits/"',
          'autogen- rules are the ones Kyverno derives from a Pod rule for the pod template of a Deployment, Job, …: the rule itself is about pods.',
          'Not a ResourceQuota, LimitRange or scheduler decision: raising quota or freeing nodes changes nothing.',
          'Who: the app team meets the rule in its manifest; the policy belongs to the platform/security team (a PolicyException is theirs to grant).',
          'Read it: `kubectl get clusterpolicy require-requests-limits -o yaml` (a namespaced one: `kubectl -n team-a get policy require-requests-limits -o yaml`).',
        ],
      ],
    ],
    [
      'lookalikes/metal-stack-podsecurity.txt',
      [
        [
          'ℹ️ Not quota — Pod Security admission (restricted:latest) refused it — pod droptailer-867cfb7555-8gzmv',
          'Pod Security admission refused the pod: the namespace enforces the "restricted" level (version latest), and the pod breaks 2 controls:',
          'runAsNonRoot != true — pod or container "droptailer" must set securityContext.runAsNonRoot=true',
          'seccompProfile — pod or container "droptailer" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"',
          'Not a ResourceQuota, LimitRange or scheduler decision: raising quota or freeing nodes changes nothing.',
          "Who: the app team sets the pod's securityContext as each line says; the level is the namespace's label, set by its owner / the platform team.",
          'Read it: `kubectl get ns NAMESPACE --show-labels`.',
        ],
      ],
    ],
    [
      'lookalikes/podsecurity-would-violate.txt',
      [
        [
          'ℹ️ Not quota — a Pod Security warning (restricted:latest): the pod was admitted',
          'A Pod Security warning (would violate "restricted:latest"): the pod was admitted; the namespace\'s warn/audit level flags 4 controls:',
          'allowPrivilegeEscalation != false — containers "gather", "copy" must set securityContext.allowPrivilegeEscalation=false',
          'unrestricted capabilities — containers "gather", "copy" must set securityContext.capabilities.drop=["ALL"]',
          'runAsNonRoot != true — pod or containers "gather", "copy" must set securityContext.runAsNonRoot=true',
          'seccompProfile — pod or containers "gather", "copy" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"',
          'Not a ResourceQuota, LimitRange or scheduler decision: raising quota or freeing nodes changes nothing.',
          "Who: the app team sets the pod's securityContext as each line says; the level is the namespace's label, set by its owner / the platform team.",
          'Read it: `kubectl get ns NAMESPACE --show-labels`.',
        ],
      ],
    ],
    [
      'lookalikes/priority-class-typo.txt',
      [
        [
          'ℹ️ Rejected at admission — Priority: no PriorityClass hihg-priority — pod api-7c5d8f9b4-x2k9q',
          'No PriorityClass "hihg-priority" exists: the Priority admission plugin refuses a pod naming a class that does not exist (PriorityClasses are cluster-wide).',
          'Fix: set priorityClassName to one that exists (app team), or a cluster admin creates hihg-priority — `kubectl get priorityclass` lists them.',
          'Not a ResourceQuota or LimitRange decision.',
        ],
      ],
    ],
    [
      'lookalikes/stackrox-decode-no-value.txt',
      [
        [
          '🚫 Rejected by API decoding: not a valid quantity',
          'A quantity is not valid: the API server could not decode the object, so nothing was validated or admitted. The paste does not show which value.',
          'Look for a space before the unit, a unit like GB/MB/gb/gib, or a unit alone: a quantity is a number then one of m k M G T P E or Ki Mi Gi Ti Pi Ei ("1.5Gi" is valid, "1.5 GB" is not).',
          'Not quota, LimitRange or scheduling: fix the manifest (app team); `kubectl apply --dry-run=server -f FILE` checks it.',
        ],
      ],
    ],
    [
      'pastes/078-autoscaler-max-node-group-size.txt',
      [
        [
          'ℹ️ Not quota — cluster-autoscaler did not add a node (NotTriggerScaleUp)',
          'cluster-autoscaler looked at its node groups and would not add a node:',
          "12 groups: node(s) didn't match Pod's node affinity/selector → a new node of those groups would not match the pod's nodeSelector/affinity",
          "3 groups: max node group size reached → node groups at their max size: raise the group's max (platform)",
          'The scheduler already found no node for the pod; this is the autoscaler declining to add one — not a ResourceQuota or LimitRange decision.',
          "Who: the platform team (node groups: their max size and machine types); the app team only by lowering the pod's requests.",
          'Read it: `kubectl -n kube-system get configmap cluster-autoscaler-status -o yaml`.',
        ],
      ],
    ],
    [
      'pastes/079-autoscaler-klog-event-max-limit.txt',
      [
        [
          'ℹ️ Not quota — cluster-autoscaler did not add a node (NotTriggerScaleUp) — pod hello-world-699d84fcc5-7c4pr (default)',
          'cluster-autoscaler looked at its node groups and would not add a node:',
          "1 group: max limit reached → the autoscaler's cluster-wide limit is reached (--cores-total / --memory-total, or the node auto-provisioning limits): raise it (platform)",
          'The scheduler already found no node for the pod; this is the autoscaler declining to add one — not a ResourceQuota or LimitRange decision.',
          "Who: the platform team (node groups: their max size and machine types); the app team only by lowering the pod's requests.",
          'Read it: `kubectl -n kube-system get configmap cluster-autoscaler-status -o yaml`.',
        ],
      ],
    ],
    [
      'pastes/081-gatekeeper-no-limits-multiline.txt',
      [
        [
          'ℹ️ Not quota — denied by Gatekeeper constraint container-must-have-limits, container-must-meet-ratio, container-must-have-requests',
          'Gatekeeper (OPA) refused it — webhook validation.gatekeeper.sh, a policy of the cluster:',
          'constraint container-must-have-limits: "container <streamdal-console> has no resource limits"',
          'constraint container-must-meet-ratio: "container <streamdal-console> has no resource limits"',
          'constraint container-must-meet-ratio: "container <streamdal-console> has no resource requests"',
          'constraint container-must-have-requests: "container <streamdal-console> has no resource requests"',
          'Not a ResourceQuota, LimitRange or scheduler decision: raising quota or freeing nodes changes nothing.',
          'Who: the app team meets the rule in its manifest; the constraint belongs to the platform/security team (ask them for an exception).',
          "Read it: `kubectl get constraints | grep container-must-have-limits` (its kind is its ConstraintTemplate's), then `kubectl get <kind> container-must-have-limits -o yaml`.",
        ],
      ],
    ],
    [
      'pastes/085-gatekeeper-helm-upgrade.txt',
      [
        [
          'ℹ️ Not quota — denied by Gatekeeper constraint require-resource-requests',
          'Gatekeeper (OPA) refused it — webhook validation.gatekeeper.sh, a policy of the cluster:',
          'constraint require-resource-requests: "Container "ck8s-user-demo" has no resource requests"',
          'Not a ResourceQuota, LimitRange or scheduler decision: raising quota or freeing nodes changes nothing.',
          'Who: the app team meets the rule in its manifest; the constraint belongs to the platform/security team (ask them for an exception).',
          "Read it: `kubectl get constraints | grep require-resource-requests` (its kind is its ConstraintTemplate's), then `kubectl get <kind> require-resource-requests -o yaml`.",
        ],
      ],
    ],
    [
      'pastes/123-openshift-release-ephemeral-storage-autoscaler.txt',
      [
        [
          'ℹ️ Not quota — cluster-autoscaler did not add a node (NotTriggerScaleUp)',
          'cluster-autoscaler would not add a node ("it wouldn\'t fit if a new node is added"): no node group\'s node could hold the pod — or every group it would fit is at its max size (kubernetes/autoscaler#1607).',
          'The scheduler already found no node for the pod; this is the autoscaler declining to add one — not a ResourceQuota or LimitRange decision.',
          "Who: the platform team (node groups: their max size and machine types); the app team only by lowering the pod's requests.",
          'Read it: `kubectl -n kube-system get configmap cluster-autoscaler-status -o yaml`.',
        ],
      ],
    ],
    [
      'pastes/175-k8s-priority-must-not-be-provided.txt',
      [
        [
          'ℹ️ Rejected at admission — Priority: spec.priority must not be set — pod hello',
          'The pod spec sets spec.priority (1) itself; only the Priority admission plugin may set it (it computed 0 from the class).',
          'Fix: remove spec.priority from the manifest (a copy of a running pod carries it) — priorityClassName is enough.',
          'Not a ResourceQuota or LimitRange decision: the app team fixes the manifest.',
        ],
      ],
    ],
    [
      'lookalikes/kueue-insufficient-unused-quota.txt',
      [
        [
          'ℹ️ Not quota — Kueue has not admitted the workload',
          'Kueue has not admitted the workload: it could not assign a ResourceFlavor to pod set main: "insufficient unused quota for cpu in flavor default-flavor, 3 more needed".',
          "Not a ResourceQuota, LimitRange or scheduler decision: the quota is the ClusterQueue's (Kueue's own), and the job stays suspended — no pod exists yet, so nothing is Pending on a node.",
          "Who: the app team waits for admitted workloads to finish, or requests less; the batch administrator raises the ClusterQueue's nominalQuota for the flavor, or lets it borrow in its cohort.",
          'Read it: `kubectl get workloads -n <namespace>`, then `kubectl describe clusterqueue <cluster-queue>` (flavor default-flavor).',
        ],
      ],
    ],
    [
      'lookalikes/knative-securitycontextdeny.txt',
      [
        [
          'ℹ️ Not quota — refused by SecurityContextDeny — pod configuration-example-00001-deployment-587d979986-hsx2p',
          'Refused at admission: the SecurityContextDeny admission plugin (removed in Kubernetes 1.30) refuses any pod that sets the securityContext field it names: "SecurityContext.RunAsUser is forbidden".',
          "Not a ResourceQuota, LimitRange or scheduler decision: it is about the pod's securityContext, not its resources.",
          'Who: the app team drops that field from the pod spec; the platform team can turn the plugin off (it is deprecated: Pod Security admission replaces it).',
          "Read it: the kube-apiserver's `--enable-admission-plugins` list.",
        ],
      ],
    ],
    [
      'lookalikes/openshift-scc-csi.txt',
      [
        [
          'ℹ️ Not quota — refused by SecurityContextConstraints — pod ratings-api-d997c8f74-',
          'Refused at admission: no OpenShift SecurityContextConstraints the pod\'s service account may use allows its spec: "unable to validate against any security context constraint: [provider "anyuid": Forbidden: not usable by user or serviceaccount, spec.volumes[0]: Invalid value: "csi": csi volumes are not allowed to be used, provider "nonroot": Forbidden: not usable by user or serviceaccount, provider "hostmount-any…".',
          "Not a ResourceQuota, LimitRange or scheduler decision: it is about the pod's securityContext, not its resources.",
          'Who: a cluster admin grants an SCC to the service account (`oc adm policy add-scc-to-user <scc> -z <sa>`), or the app team fits the pod to the ones it may use (often restricted-v2).',
          'Read it: `oc get scc`, and `oc adm policy scc-subject-review -f <pod.yaml>`.',
        ],
      ],
    ],
  ])('%s', (file, expected) => {
    expect(replies(readFileSync(join(fixtures, file), 'utf8'))).toEqual(expected);
  });
});

describe('with the state', () => {
  it('Pod Security: the namespace label says the level it enforces', () => {
    const text = readFileSync(join(fixtures, 'lookalikes/metal-stack-podsecurity.txt'), 'utf8');
    const state = snapshotOf(
      namespace('firewall', {
        'pod-security.kubernetes.io/enforce': 'restricted',
        'pod-security.kubernetes.io/enforce-version': 'latest',
      }),
    );
    expect(replies(text, { state, namespace: 'firewall' })[0]).toEqual([
      'ℹ️ Not quota — Pod Security admission (restricted:latest) refused it — pod droptailer-867cfb7555-8gzmv (firewall)',
      'Pod Security admission refused the pod: the namespace enforces the "restricted" level (version latest), and the pod breaks 2 controls:',
      'runAsNonRoot != true — pod or container "droptailer" must set securityContext.runAsNonRoot=true',
      'seccompProfile — pod or container "droptailer" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"',
      'firewall has pod-security.kubernetes.io/enforce=restricted (enforce-version latest).',
      'Not a ResourceQuota, LimitRange or scheduler decision: raising quota or freeing nodes changes nothing.',
      "Who: the app team sets the pod's securityContext as each line says; the level is the namespace's label, set by its owner / the platform team.",
      'Read it: `kubectl get ns firewall --show-labels`.',
    ]);
  });

  it.each([
    [
      'a typo of an existing class',
      [
        priorityClass('high-priority', 1000),
        priorityClass('batch-low', 10),
        priorityClass('system-cluster-critical', 2000000000),
      ],
      [
        'ℹ️ Rejected at admission — Priority: no PriorityClass hihg-priority — pod api-7c5d8f9b4-x2k9q (team-a)',
        'No PriorityClass "hihg-priority" exists: the Priority admission plugin refuses a pod naming a class that does not exist (PriorityClasses are cluster-wide).',
        'PriorityClasses that exist: system-cluster-critical (2000000000), high-priority (1000), batch-low (10).',
        'Did you mean high-priority?',
        'Fix: set priorityClassName to one that exists (app team), or a cluster admin creates hihg-priority — `kubectl get priorityclass` lists them.',
        'Not a ResourceQuota or LimitRange decision.',
      ],
    ],
    [
      'no class at all',
      [],
      [
        'ℹ️ Rejected at admission — Priority: no PriorityClass hihg-priority — pod api-7c5d8f9b4-x2k9q (team-a)',
        'No PriorityClass "hihg-priority" exists: the Priority admission plugin refuses a pod naming a class that does not exist (PriorityClasses are cluster-wide).',
        'The cluster has no PriorityClass at all.',
        'Fix: set priorityClassName to one that exists (app team), or a cluster admin creates hihg-priority — `kubectl get priorityclass` lists them.',
        'Not a ResourceQuota or LimitRange decision.',
      ],
    ],
  ])('Priority: %s', (_n, classes, expected) => {
    const text = readFileSync(join(fixtures, 'lookalikes/priority-class-typo.txt'), 'utf8');
    expect(replies(text, { state: snapshotOf(namespace('team-a'), ...classes), namespace: 'team-a' })[0]).toEqual(
      expected,
    );
  });
});

describe('respell', () => {
  it.each([
    ['1.5 GB', '1.5G'],
    ['512mb', '512M'],
    ['2 Gi', '2Gi'],
    ['1gib', '1Gi'],
    ['100 m', '100m'],
    ['192i', undefined],
    ['1Gi', undefined],
    ['lots', undefined],
  ])('%s → %s', (bad, good) => {
    expect(respell(bad)).toBe(good);
  });
});
