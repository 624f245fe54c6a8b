/**
 * The Priority admission plugin's refusals (plugin/pkg/admission/priority/admission.go, admitPod): the pod
 * names a PriorityClass that does not exist, or its spec carries an integer `priority` — a field only
 * admission sets. Neither is quota nor LimitRange.
 */
import type { Finding } from '../../parse/index.ts';
import type { Snapshot } from '../../k8s/snapshot.ts';
import { closestNames } from '../handlers/suggest.ts';
import type { LookalikeText } from './lookalike.ts';

type PriorityFinding = Extract<Finding, { kind: 'priority' }>;

/** The PriorityClasses of the state, highest value first (name and value). */
function classes(state: Snapshot): { name: string; value: number }[] {
  return state
    .list('PriorityClass')
    .map((o) => ({ name: o.metadata.name ?? '', value: Number((o as { value?: unknown }).value ?? 0) }))
    .sort((a, b) => b.value - a.value || a.name.localeCompare(b.name));
}

export function priorityText(f: PriorityFinding, state?: Snapshot): LookalikeText {
  const facts = f.facts;
  if (facts.reason === 'priority-set') {
    const lines = [
      `The pod spec sets spec.priority${facts.priority !== undefined ? ` (${facts.priority})` : ''} itself; only the Priority admission plugin may set it${facts.computed !== undefined ? ` (it computed ${facts.computed} from the class)` : ', from the PriorityClass name'}.`,
      'Fix: remove spec.priority from the manifest (a copy of a running pod carries it) — priorityClassName is enough.',
      'Not a ResourceQuota or LimitRange decision: the app team fixes the manifest.',
    ];
    return { headline: 'Rejected at admission — Priority: spec.priority must not be set', lines };
  }
  if (facts.reason === 'preemption-policy-set') {
    const lines = [
      `The pod spec sets preemptionPolicy${facts.preemptionPolicy ? ` (${facts.preemptionPolicy})` : ''} itself; the Priority admission plugin takes it from the PriorityClass${facts.computedPolicy ? ` (${facts.computedPolicy})` : ''}.`,
      'Fix: remove spec.preemptionPolicy, or use a PriorityClass whose preemptionPolicy is the one you want.',
      'Not a ResourceQuota or LimitRange decision: the app team fixes the manifest.',
    ];
    return { headline: 'Rejected at admission — Priority: spec.preemptionPolicy must not be set', lines };
  }
  if (facts.reason === 'class-not-permitted') {
    const cls = facts.priorityClass ?? 'a system PriorityClass';
    const lines = [
      `The pod uses ${cls}${facts.inNamespace ? ` in namespace ${facts.inNamespace}` : ''}: the Priority admission plugin allows the system classes (system-cluster-critical, system-node-critical) only in kube-system.`,
      'Fix: set priorityClassName to a class of your own (`kubectl get priorityclass`), or deploy the component into kube-system as its docs say.',
      'Not a ResourceQuota or LimitRange decision: the app team fixes the manifest.',
    ];
    return { headline: `Rejected at admission — Priority: ${cls} is not permitted here`, lines };
  }
  const name = facts.priorityClass;
  const lines = [
    `No PriorityClass ${name ? `"${name}"` : 'of that name'} exists: the Priority admission plugin refuses a pod naming a class that does not exist (PriorityClasses are cluster-wide).`,
  ];
  if (state) {
    const all = classes(state);
    if (all.length) {
      const shown = all.slice(0, 8).map((c) => `${c.name} (${c.value})`);
      lines.push(
        `PriorityClasses that exist: ${shown.join(', ')}${all.length > 8 ? `, and ${all.length - 8} more` : ''}.`,
      );
      const near = name
        ? closestNames(
            name,
            all.map((c) => c.name),
          )
        : [];
      if (near.length) lines.push(`Did you mean ${near[0]}?`);
    } else lines.push('The cluster has no PriorityClass at all.');
  }
  lines.push(
    `Fix: set priorityClassName to one that exists (app team)${name ? `, or a cluster admin creates ${name}` : ''} — \`kubectl get priorityclass\` lists them.`,
    'Not a ResourceQuota or LimitRange decision.',
  );
  return { headline: `Rejected at admission — Priority: no PriorityClass ${name ?? ''}`.trimEnd(), lines };
}
