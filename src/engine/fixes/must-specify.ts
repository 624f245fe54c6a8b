/**
 * Fixes for `must specify`: set the missing values on the named containers (one `set resources` per
 * container: requests and limits of every resource together), or, for the platform team, a LimitRange
 * that defaults them — which every later pod of the namespace gets too, so pods that were BestEffort
 * stop being so and move to the quotas that count the others (said as a side effect).
 */
import type { Pod, ResourceQuota } from '../../k8s/objects.ts';
import type { KObject, Snapshot } from '../../k8s/snapshot.ts';
import { Quantity } from '../../quantity.ts';
import { scopeRequirements } from '../admission/scopes.ts';
import { resourceChanges } from './changes.ts';
import { ownerOf, refOf } from './owners.ts';
import { containerNames, setContainerValue } from './pod-edit.ts';
import type { FixContext, Plan } from './types.ts';

const FALLBACK_REQUEST: Record<string, string> = { cpu: '100m', memory: '128Mi' };
const FALLBACK_LIMIT: Record<string, string> = { cpu: '500m', memory: '512Mi' };

function defaultsOf(
  state: Snapshot,
  ns: string,
): { default: Record<string, string>; defaultRequest: Record<string, string> } {
  const out = { default: {} as Record<string, string>, defaultRequest: {} as Record<string, string> };
  for (const lr of state.list('LimitRange', ns)) {
    for (const item of lr.spec.limits) {
      if (item.type !== 'Container') continue;
      for (const [k, v] of Object.entries(item.default ?? {})) out.default[k] ??= String(v);
      for (const [k, v] of Object.entries(item.defaultRequest ?? {})) out.defaultRequest[k] ??= String(v);
    }
  }
  return out;
}

/** Whether a pod is BestEffort: no container requests or limits cpu or memory. */
function bestEffort(p: Pod): boolean {
  return [...p.spec.containers, ...(p.spec.initContainers ?? [])].every((c) => {
    const r = c.resources ?? {};
    return !['cpu', 'memory'].some((k) => r.requests?.[k] !== undefined || r.limits?.[k] !== undefined);
  });
}

/**
 * What a new container-defaults LimitRange moves: the workloads whose pods are BestEffort now get the
 * defaults on their next pods, so they leave the BestEffort-scoped quotas for the NotBestEffort ones.
 */
export function bestEffortMoves(state: Snapshot, ns: string): string[] {
  const quotas = state.list('ResourceQuota', ns) as ResourceQuota[];
  const scoped = (scope: string) =>
    quotas.filter((q) => scopeRequirements(q).some((r) => r.scopeName === scope && r.operator !== 'DoesNotExist'));
  const from = scoped('BestEffort').map((q) => q.metadata.name ?? '');
  const to = scoped('NotBestEffort').map((q) => q.metadata.name ?? '');
  const owners = new Map<string, number>();
  for (const p of state.iterate('Pod', ns)) {
    if (p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed' || !bestEffort(p)) continue;
    const o = ownerOf(state, p);
    const ref = o ? refOf(o.kind, o.name) : `pod/${p.metadata.name ?? ''}`;
    owners.set(ref, (owners.get(ref) ?? 0) + 1);
  }
  if (owners.size === 0) return [];
  const where = from.length
    ? ` and count against ${to.length ? to.join(', ') : 'the quotas of non-BestEffort pods'} instead of ${from.join(', ')}`
    : '';
  return [...owners].map(
    ([ref, n]) =>
      `${ref} (${n} BestEffort pod${n === 1 ? '' : 's'} now): its next pods get these defaults, stop being BestEffort${where}`,
  );
}

/** `must specify limits.cpu for: app; …` → the missing values, set on the subject. */
export function mustSpecifyPlans(ctx: FixContext, missing: Record<string, string[]>): Plan[] {
  const { state, ns, pod } = ctx;
  const lrDefaults = defaultsOf(state, ns);
  let fixed = pod;
  const parts: string[] = [];
  for (const [res, containers] of Object.entries(missing)) {
    const m = /^(requests\.|limits\.)?(cpu|memory)$/.exec(res);
    if (!m) continue;
    const which = m[1] === 'limits.' ? 'limits' : 'requests';
    const base = m[2]!;
    const preset = (
      which === 'limits'
        ? (lrDefaults.default[base] ?? FALLBACK_LIMIT[base])
        : (lrDefaults.defaultRequest[base] ?? FALLBACK_REQUEST[base])
    )!;
    for (const c of containers.length ? containers : containerNames(pod)) {
      // A limit below the container's own request is invalid (422): never set one lower than the request.
      const req =
        which === 'limits'
          ? Quantity.tryParse(fixed.spec.containers.find((x) => x.name === c)?.resources?.requests?.[base])
          : null;
      const value = req && req.cmp(Quantity.parse(preset)) > 0 ? req.toString() : preset;
      fixed = setContainerValue(fixed, c, which, base, value);
      // A limit below the request is invalid: raise the limit with it when needed.
      if (which === 'requests') {
        const lim = Quantity.tryParse(fixed.spec.containers.find((x) => x.name === c)?.resources?.limits?.[base]);
        if (lim && lim.cmp(Quantity.parse(value)) < 0) fixed = setContainerValue(fixed, c, 'limits', base, value);
      }
      parts.push(`${which}.${base}=${value} on ${c}`);
    }
  }
  const out: Plan[] = [];
  const changes = resourceChanges(ctx.subject, pod, fixed);
  if (parts.length && changes)
    out.push({ who: 'app-team', summary: `set ${parts.join(', ')}`, changes, cost: 1, obvious: true, pod: fixed });
  // For everyone: a LimitRange that defaults the missing values.
  const lrDefault: Record<string, string> = {};
  const lrDefaultRequest: Record<string, string> = {};
  for (const res of Object.keys(missing)) {
    const m = /^(requests\.|limits\.)?(cpu|memory)$/.exec(res);
    if (!m) continue;
    if (m[1] === 'limits.') lrDefault[m[2]!] = FALLBACK_LIMIT[m[2]!]!;
    else lrDefaultRequest[m[2]!] = FALLBACK_REQUEST[m[2]!]!;
  }
  for (const k of Object.keys(lrDefaultRequest)) lrDefault[k] ??= FALLBACK_LIMIT[k]!;
  if (Object.keys(lrDefault).length === 0) return out;
  const lr: KObject = {
    apiVersion: 'v1',
    kind: 'LimitRange',
    metadata: { name: 'quota-doctor-defaults', namespace: ns },
    spec: {
      limits: [
        {
          type: 'Container',
          default: lrDefault,
          ...(Object.keys(lrDefaultRequest).length ? { defaultRequest: lrDefaultRequest } : {}),
        },
      ],
    },
  };
  out.push({
    who: 'platform',
    summary: `add a LimitRange with container defaults (${Object.entries(lrDefaultRequest)
      .map(([k, v]) => `${k} request ${v}`)
      .concat(Object.entries(lrDefault).map(([k, v]) => `${k} limit ${v}`))
      .join(', ')}) so every pod of ${ns} gets them`,
    changes: [{ kind: 'apply', objects: [lr] }],
    cost: 2,
    sideEffects: bestEffortMoves(state, ns),
  });
  return out;
}
