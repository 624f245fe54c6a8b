/**
 * The changes fixes propose, built for their subject: a workload's template is edited in place (a
 * rollout), a bare Pod's resources are immutable so it is deleted and re-created (one command), and an
 * object the state does not hold has no command — the edited object is what to submit instead.
 */
import type { Pod } from '../../k8s/objects.ts';
import type { Change } from '../changes/types.ts';
import type { FixSubject } from '../diagnose/goal.ts';

/** The change that sets `requests`/`limits` of one container of the subject, or null for a stand-in. */
export function resourcesChange(
  subject: FixSubject,
  container: string,
  requests: Record<string, string> | undefined,
  limits: Record<string, string> | undefined,
): Change | null {
  const lists = {
    ...(requests && Object.keys(requests).length ? { requests } : {}),
    ...(limits && Object.keys(limits).length ? { limits } : {}),
  };
  if (subject.kind === 'workload') return { kind: 'setResources', target: subject.ref, container, ...lists };
  if (subject.kind === 'pod')
    return { kind: 'recreatePod', namespace: subject.namespace, name: subject.name, container, ...lists };
  return null;
}

/** Per container, what a plan sets, from the original pod and the edited one (only values that differ). */
export function resourceDiff(
  before: Pod,
  after: Pod,
): { container: string; requests: Record<string, string>; limits: Record<string, string> }[] {
  const out: { container: string; requests: Record<string, string>; limits: Record<string, string> }[] = [];
  for (const c of after.spec.containers) {
    const old = before.spec.containers.find((x) => x.name === c.name);
    const requests: Record<string, string> = {};
    const limits: Record<string, string> = {};
    for (const [k, v] of Object.entries(c.resources?.requests ?? {}))
      if (String(old?.resources?.requests?.[k] ?? '') !== String(v)) requests[k] = String(v);
    for (const [k, v] of Object.entries(c.resources?.limits ?? {}))
      if (String(old?.resources?.limits?.[k] ?? '') !== String(v)) limits[k] = String(v);
    if (Object.keys(requests).length || Object.keys(limits).length) out.push({ container: c.name, requests, limits });
  }
  return out;
}

/** The changes that turn the subject's pod into `after`: one `set resources` per changed container. */
export function resourceChanges(subject: FixSubject, before: Pod, after: Pod): Change[] | null {
  const out: Change[] = [];
  for (const d of resourceDiff(before, after)) {
    const c = resourcesChange(subject, d.container, d.requests, d.limits);
    if (!c) return subject.kind === 'object' ? [] : null;
    out.push(c);
  }
  // A bare Pod is re-created once: several containers cannot be set in one `recreatePod`.
  if (subject.kind === 'pod' && out.length > 1) return null;
  return out;
}

/** Jobs' pod templates are immutable (batch validation): their resources cannot be set in place. */
export function templateMutable(subject: FixSubject): boolean {
  return subject.kind !== 'workload' || subject.ref.kind !== 'Job';
}
