/**
 * The RuntimeClass admission plugin's refusals (plugin/pkg/admission/runtimeclass/admission.go): the pod
 * names a RuntimeClass that does not exist, sets an overhead its class does not define, or a nodeSelector
 * that conflicts with its class's. Admission, but neither quota nor LimitRange. With the state (when the
 * class list was read) the reply names the RuntimeClasses that exist and the closest one; without it, it
 * says that is unknown. Also Kyverno's PolicyViolation events (a report, not a refusal, unless blocked).
 */
import type { Finding } from '../../parse/index.ts';
import type { Snapshot } from '../../k8s/snapshot.ts';
import { closestNames } from '../handlers/suggest.ts';
import type { LookalikeText } from './lookalike.ts';

type RuntimeClassFinding = Extract<Finding, { kind: 'runtimeclass' }>;
type PolicyViolationFinding = Extract<Finding, { kind: 'policy-violation' }>;

const NOT_QUOTA =
  'Not a ResourceQuota, LimitRange or scheduler decision: raising quota or freeing nodes changes nothing.';

/** The RuntimeClasses of the state, in name order, with their handlers. */
function classes(state: Snapshot): { name: string; handler: string }[] {
  return state
    .list('RuntimeClass')
    .map((o) => ({ name: o.metadata.name ?? '', handler: String((o as { handler?: unknown }).handler ?? '') }))
    .filter((c) => c.name !== '')
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The reply text of a RuntimeClass refusal. `state` is the cluster when its RuntimeClass list was read
 * (undefined: no cluster, or the list could not be read — then which classes exist is unknown).
 */
export function runtimeClassText(f: RuntimeClassFinding, state?: Snapshot): LookalikeText {
  const facts = f.facts;
  if (facts.reason === 'node-selector-conflict') {
    const c = facts.nodeSelector;
    const lines = [
      c
        ? `The pod's nodeSelector sets ${c.key}=${c.pod}, but its RuntimeClass requires ${c.key}=${c.runtimeClass} (its scheduling.nodeSelector is merged into the pod's, and a different value is refused).`
        : "The pod's nodeSelector conflicts with its RuntimeClass's scheduling.nodeSelector.",
      `Fix (app team): drop ${c ? `${c.key} from ` : 'that key from '}the pod's nodeSelector (the class adds it), or use a RuntimeClass whose nodes match.`,
      `Who: the app team fixes the pod; the RuntimeClass's scheduling belongs to the platform team.`,
      NOT_QUOTA,
    ];
    return { headline: 'Rejected at admission — RuntimeClass: nodeSelector conflict', lines };
  }
  if (facts.reason === 'overhead-mismatch' || facts.reason === 'overhead-without-class') {
    const lines = [
      facts.reason === 'overhead-mismatch'
        ? "The pod spec sets spec.overhead other than its RuntimeClass's overhead.podFixed; only the RuntimeClass admission plugin sets it."
        : 'The pod spec sets spec.overhead, but its RuntimeClass (or the pod, with no class) defines no overhead; only the RuntimeClass admission plugin sets it.',
      'Fix (app team): remove spec.overhead from the manifest (a copy of a running pod carries it) — runtimeClassName is enough.',
      NOT_QUOTA,
    ];
    return { headline: 'Rejected at admission — RuntimeClass: spec.overhead must not be set', lines };
  }
  const name = facts.runtimeClass;
  const lines = [
    `No RuntimeClass ${name ? `"${name}"` : 'of that name'} exists: the RuntimeClass admission plugin refuses a pod whose runtimeClassName names no RuntimeClass (RuntimeClasses are cluster-wide; the name is the object's, not its handler's).`,
  ];
  let near: string[] = [];
  if (state) {
    const all = classes(state);
    if (all.length) {
      const shown = all
        .slice(0, 8)
        .map((c) => (c.handler && c.handler !== c.name ? `${c.name} (handler ${c.handler})` : c.name));
      lines.push(
        `RuntimeClasses that exist: ${shown.join(', ')}${all.length > 8 ? `, and ${all.length - 8} more` : ''}.`,
      );
      near = name
        ? closestNames(
            name,
            all.map((c) => c.name),
          )
        : [];
      // `runtimeClassName: runc` where a class named otherwise has handler runc: the handler was used as the name.
      const byHandler = name ? all.find((c) => c.handler === name && c.name !== name) : undefined;
      if (byHandler && !near.includes(byHandler.name)) near.unshift(byHandler.name);
      if (near.length) lines.push(`Did you mean ${near[0]}?`);
    } else lines.push('The cluster has no RuntimeClass at all.');
  } else {
    lines.push(
      'Which RuntimeClasses exist is unknown here (the class list was not read): `kubectl get runtimeclass` lists them.',
    );
  }
  lines.push(
    `Who: the app team fixes runtimeClassName${near.length ? ` (to ${near[0]})` : ' to one that exists'}; the platform team installs the RuntimeClass${name ? ` ${name}` : ''} (and its handler on the nodes) if the workload needs it.`,
    NOT_QUOTA,
  );
  return { headline: `Rejected at admission — RuntimeClass ${name ?? ''} not found`.replace('  ', ' '), lines };
}

/** The reply text of a Kyverno PolicyViolation event. */
export function policyViolationText(f: PolicyViolationFinding): LookalikeText {
  const facts = f.facts;
  const rule = [facts.policy ? `policy ${facts.policy}` : '', facts.rule ? `rule ${facts.rule}` : '']
    .filter(Boolean)
    .join(', ');
  const lines = [
    facts.blocked
      ? `Kyverno refused ${facts.resource ?? 'the object'} (an Enforce policy): ${rule || 'a policy rule'} — "${facts.message}"`
      : `Kyverno reports ${facts.resource ?? 'the object'} breaks ${rule || 'a policy rule'} — "${facts.message}". A PolicyViolation event in Audit mode: the object was admitted; an Enforce policy would refuse it.`,
    NOT_QUOTA,
    'Who: the app team meets the rule in its manifest; the policy belongs to the platform/security team (a PolicyException is theirs to grant).',
    facts.policy
      ? `Read it: \`kubectl get clusterpolicy ${facts.policy} -o yaml\` (or \`kubectl get policyreport -A\` for every result).`
      : 'Read it: `kubectl get policyreport -A` lists the results.',
  ];
  return {
    headline: facts.blocked
      ? `Not quota — denied by Kyverno${facts.policy ? ` policy ${facts.policy}` : ''}`
      : `Not quota — a Kyverno policy violation (audit)${facts.policy ? `: ${facts.policy}` : ''}`,
    lines,
  };
}
