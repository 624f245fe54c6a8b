/**
 * Look-alikes explained (issue #17, Deliver 5): refusals that read like quota or scheduling but are made by
 * something else — a policy engine's webhook (Gatekeeper, Kyverno), Pod Security admission, the cluster
 * autoscaler or Karpenter declining to add a node. Each answer says what it is, that it is NOT a
 * ResourceQuota/LimitRange/scheduler decision, quotes the rule and its message, says who can act, and gives
 * the next command to read more.
 */
import type { Finding } from '../../parse/index.ts';
import type { Snapshot } from '../../k8s/snapshot.ts';

type Of<K extends Finding['kind']> = Extract<Finding, { kind: K }>;

/** What a look-alike reply says: its headline (without the object) and its lines. */
export interface LookalikeText {
  headline: string;
  lines: string[];
}

const MAX_LISTED = 5;

function listed<T>(xs: readonly T[], line: (x: T) => string): string[] {
  const out = xs.slice(0, MAX_LISTED).map(line);
  if (xs.length > MAX_LISTED) out.push(`… and ${xs.length - MAX_LISTED} more`);
  return out;
}

const NOT_QUOTA =
  'Not a ResourceQuota, LimitRange or scheduler decision: raising quota or freeing nodes changes nothing.';

function webhookText(f: Of<'webhook-denied'>, ns: string | undefined): LookalikeText {
  const facts = f.facts;
  const vs = facts.violations ?? [];
  if (facts.engine === 'gatekeeper') {
    const names = [...new Set(vs.map((v) => v.name))];
    const lines = [
      `Gatekeeper (OPA) refused it — webhook ${facts.webhook}, a policy of the cluster:`,
      ...(vs.length ? listed(vs, (v) => `constraint ${v.name}: "${v.message}"`) : [`"${facts.reason}"`]),
      NOT_QUOTA,
      'Who: the app team meets the rule in its manifest; the constraint belongs to the platform/security team (ask them for an exception).',
      names.length
        ? `Read it: \`kubectl get constraints | grep ${names[0]}\` (its kind is its ConstraintTemplate's), then \`kubectl get <kind> ${names[0]} -o yaml\`.`
        : 'Read it: `kubectl get constraints` (each kind is a ConstraintTemplate), then `kubectl get <kind> <name> -o yaml`.',
    ];
    return {
      headline: names.length
        ? `Not quota — denied by Gatekeeper constraint ${names.join(', ')}`
        : 'Not quota — denied by Gatekeeper',
      lines,
    };
  }
  if (facts.engine === 'kyverno') {
    const policies = [...new Set(vs.map((v) => v.name))];
    const lines = [
      `Kyverno refused ${facts.resource ?? 'it'} — webhook ${facts.webhook}, a policy of the cluster:`,
      ...(vs.length
        ? listed(vs, (v) => `policy ${v.name}, rule ${v.rule ?? '?'}: "${v.message}"`)
        : [`"${facts.reason}"`]),
    ];
    if (vs.some((v) => v.rule?.startsWith('autogen-')))
      lines.push(
        'autogen- rules are the ones Kyverno derives from a Pod rule for the pod template of a Deployment, Job, …: the rule itself is about pods.',
      );
    lines.push(
      NOT_QUOTA,
      'Who: the app team meets the rule in its manifest; the policy belongs to the platform/security team (a PolicyException is theirs to grant).',
      policies.length
        ? `Read it: \`kubectl get clusterpolicy ${policies[0]} -o yaml\` (a namespaced one: \`kubectl${ns ? ` -n ${ns}` : ''} get policy ${policies[0]} -o yaml\`).`
        : '`kubectl get clusterpolicy,policy -A` lists the policies.',
    );
    return {
      headline: policies.length
        ? `Not quota — denied by Kyverno policy ${policies.join(', ')}`
        : 'Not quota — denied by Kyverno',
      lines,
    };
  }
  return {
    headline: `Not quota — denied by admission webhook ${facts.webhook}`,
    lines: [
      `The admission webhook ${facts.webhook} refused it: "${facts.reason}"`,
      NOT_QUOTA,
      'Who: whoever runs that webhook (usually the platform team).',
      `Read it: \`kubectl get validatingwebhookconfigurations,mutatingwebhookconfigurations | grep ${facts.webhook.split('.')[0] ?? facts.webhook}\`.`,
    ],
  };
}

function podSecurityText(f: Of<'pod-security'>, ns: string | undefined, state?: Snapshot): LookalikeText {
  const facts = f.facts;
  const level = facts.version ? `${facts.level}:${facts.version}` : facts.level;
  const lines: string[] = [];
  lines.push(
    facts.enforced
      ? `Pod Security admission refused the pod: the namespace enforces the "${facts.level}" level${facts.version ? ` (version ${facts.version})` : ''}, and the pod breaks ${facts.controls.length} control${facts.controls.length === 1 ? '' : 's'}:`
      : `A Pod Security warning (would violate "${level}"): the pod was admitted; the namespace's warn/audit level flags ${facts.controls.length} control${facts.controls.length === 1 ? '' : 's'}:`,
  );
  lines.push(...listed(facts.controls, (c) => (c.detail ? `${c.control} — ${c.detail}` : c.control)));
  if (state && ns) {
    const labels = state.get('Namespace', undefined, ns)?.metadata.labels ?? {};
    const enforce = labels['pod-security.kubernetes.io/enforce'];
    if (enforce) {
      const v = labels['pod-security.kubernetes.io/enforce-version'];
      lines.push(`${ns} has pod-security.kubernetes.io/enforce=${enforce}${v ? ` (enforce-version ${v})` : ''}.`);
    }
  }
  lines.push(
    NOT_QUOTA,
    "Who: the app team sets the pod's securityContext as each line says; the level is the namespace's label, set by its owner / the platform team.",
    `Read it: \`kubectl get ns ${ns ?? 'NAMESPACE'} --show-labels\`.`,
  );
  return {
    headline: facts.enforced
      ? `Not quota — Pod Security admission (${level}) refused it`
      : `Not quota — a Pod Security warning (${level}): the pod was admitted`,
    lines,
  };
}

/** What one cluster-autoscaler reason means, and who acts on it. */
function autoscalerReason(reason: string): string {
  if (/max node group size reached/i.test(reason))
    return "node groups at their max size: raise the group's max (platform)";
  if (/max (?:cluster )?(?:cpu |memory )?(?:resource )?limit reached|max limit reached/i.test(reason))
    return "the autoscaler's cluster-wide limit is reached (--cores-total / --memory-total, or the node auto-provisioning limits): raise it (platform)";
  const ins = /^Insufficient (.+)$/i.exec(reason);
  if (ins)
    return `a new node of those groups would not have enough ${ins[1]} for the pod: a larger machine type (platform) or a smaller request (app team)`;
  if (/affinity|selector/i.test(reason))
    return "a new node of those groups would not match the pod's nodeSelector/affinity";
  if (/taint/i.test(reason)) return 'a new node of those groups carries a taint the pod does not tolerate';
  if (/backoff|not ready|not safe to scale/i.test(reason))
    return 'those groups are backing off after failed scale-ups (a cloud quota or a stockout?): see the status ConfigMap';
  return reason;
}

function autoscalerText(f: Of<'autoscaler'>): LookalikeText {
  const reasons = f.facts.reasons;
  const lines: string[] = [];
  if (reasons.length) {
    lines.push('cluster-autoscaler looked at its node groups and would not add a node:');
    lines.push(
      ...listed(
        reasons,
        (r) =>
          `${r.count === null ? '' : `${r.count} group${r.count === 1 ? '' : 's'}: `}${r.reason} → ${autoscalerReason(r.reason)}`,
      ),
    );
  } else {
    lines.push(
      'cluster-autoscaler would not add a node ("it wouldn\'t fit if a new node is added"): no node group\'s node could hold the pod — or every group it would fit is at its max size (kubernetes/autoscaler#1607).',
    );
  }
  lines.push(
    'The scheduler already found no node for the pod; this is the autoscaler declining to add one — not a ResourceQuota or LimitRange decision.',
    "Who: the platform team (node groups: their max size and machine types); the app team only by lowering the pod's requests.",
    'Read it: `kubectl -n kube-system get configmap cluster-autoscaler-status -o yaml`.',
  );
  return { headline: 'Not quota — cluster-autoscaler did not add a node (NotTriggerScaleUp)', lines };
}

function karpenterReason(reason: string): string {
  if (/exceed limits/i.test(reason)) return "the NodePool's spec.limits are used up: raise them (platform)";
  if (/no instance type satisfied resources/i.test(reason))
    return "no instance type the NodePool allows holds the pod plus its daemonset overhead: widen the NodePool's requirements (platform) or lower the pod's requests (app team)";
  if (/did not tolerate/i.test(reason)) return "the NodePool's nodes are tainted and the pod does not tolerate it";
  if (/incompatible requirements/i.test(reason))
    return "the pod's nodeSelector/affinity asks for labels the NodePool's requirements do not offer";
  return reason;
}

function karpenterText(f: Of<'karpenter'>): LookalikeText {
  const pools = f.facts.nodepools;
  const lines = [
    'Karpenter would not launch a node for the pod:',
    ...listed(
      pools,
      (p) =>
        `NodePool ${p.nodepool}: ${p.reason.length > 240 ? `${p.reason.slice(0, 240)}…` : p.reason} → ${karpenterReason(p.reason)}`,
    ),
    'Not a ResourceQuota or LimitRange decision: the pod was admitted; no node exists for it and Karpenter will not create one.',
    "Who: the platform team (NodePools: requirements and limits); the app team only by lowering the pod's requests or selectors.",
    `Read it: \`kubectl get nodepool ${pools[0]?.nodepool ?? 'NAME'} -o yaml\`.`,
  ];
  return { headline: 'Not quota — Karpenter could not launch a node', lines };
}

function kueueText(f: Of<'kueue'>): LookalikeText {
  const { podSet, message } = f.facts;
  const flavor = /\bin flavor ([a-z0-9][a-z0-9.-]{0,62})/.exec(message)?.[1];
  const borrowing = /borrowing limit/i.test(message);
  const lines = [
    `Kueue has not admitted the workload: it could not assign a ResourceFlavor to pod set ${podSet ?? '?'}: "${message}".`,
    "Not a ResourceQuota, LimitRange or scheduler decision: the quota is the ClusterQueue's (Kueue's own), and the job stays suspended — no pod exists yet, so nothing is Pending on a node.",
    borrowing
      ? "Who: the batch administrator raises the ClusterQueue's borrowingLimit (or the cohort's lending); the app team waits, or requests less."
      : "Who: the app team waits for admitted workloads to finish, or requests less; the batch administrator raises the ClusterQueue's nominalQuota for the flavor, or lets it borrow in its cohort.",
    `Read it: \`kubectl get workloads -n <namespace>\`, then \`kubectl describe clusterqueue <cluster-queue>\`${flavor ? ` (flavor ${flavor})` : ''}.`,
  ];
  return { headline: 'Not quota — Kueue has not admitted the workload', lines };
}

const SECURITY_PLUGIN: Record<Of<'admission-plugin'>['facts']['plugin'], { what: string; who: string; read: string }> =
  {
    SecurityContextDeny: {
      what: 'the SecurityContextDeny admission plugin (removed in Kubernetes 1.30) refuses any pod that sets the securityContext field it names',
      who: 'Who: the app team drops that field from the pod spec; the platform team can turn the plugin off (it is deprecated: Pod Security admission replaces it).',
      read: "Read it: the kube-apiserver's `--enable-admission-plugins` list.",
    },
    PodSecurityPolicy: {
      what: "no PodSecurityPolicy the pod's service account may use allows its spec (PodSecurityPolicy was removed in Kubernetes 1.25)",
      who: "Who: the platform team grants a policy to the pod's service account, or the app team fits the pod to one it may use.",
      read: 'Read it: `kubectl get psp`, then `kubectl auth can-i use podsecuritypolicy/<name> --as=system:serviceaccount:<namespace>:<sa>`.',
    },
    SecurityContextConstraints: {
      what: "no OpenShift SecurityContextConstraints the pod's service account may use allows its spec",
      who: 'Who: a cluster admin grants an SCC to the service account (`oc adm policy add-scc-to-user <scc> -z <sa>`), or the app team fits the pod to the ones it may use (often restricted-v2).',
      read: 'Read it: `oc get scc`, and `oc adm policy scc-subject-review -f <pod.yaml>`.',
    },
  };

function admissionPluginText(f: Of<'admission-plugin'>): LookalikeText {
  const { plugin, message } = f.facts;
  const t = SECURITY_PLUGIN[plugin];
  return {
    headline: `Not quota — refused by ${plugin}`,
    lines: [
      `Refused at admission: ${t.what}: "${message.length > 300 ? `${message.slice(0, 300)}…` : message}".`,
      "Not a ResourceQuota, LimitRange or scheduler decision: it is about the pod's securityContext, not its resources.",
      t.who,
      t.read,
    ],
  };
}

/** The explained reply text of a look-alike kind this module covers; undefined for the others. */
export function lookalikeText(f: Finding, ns: string | undefined, state?: Snapshot): LookalikeText | undefined {
  switch (f.kind) {
    case 'webhook-denied':
      return webhookText(f, ns);
    case 'pod-security':
      return podSecurityText(f, ns, state);
    case 'autoscaler':
      return autoscalerText(f);
    case 'karpenter':
      return karpenterText(f);
    case 'kueue':
      return kueueText(f);
    case 'admission-plugin':
      return admissionPluginText(f);
    default:
      return undefined;
  }
}
