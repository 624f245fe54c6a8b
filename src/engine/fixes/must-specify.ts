/** Fixes for `must specify`: set the missing values, or a LimitRange that defaults them. */
import type { Pod } from '../../k8s/objects.ts';
import type { KObject, Snapshot } from '../../k8s/snapshot.ts';
import { Quantity } from '../../quantity.ts';
import type { SimOptions } from '../simulate.ts';
import { kubectlSetResources } from './commands.ts';
import { containerNames, setContainerValue } from './pod-edit.ts';
import type { Candidate, PodOrigin, VerifiedFix } from './types.ts';
import { verifyCandidates } from './verify.ts';

/** Fixes for `must specify`: give the named containers the missing values (the LimitRange defaults when any). */
export function mustSpecifyFixes(
  state: Snapshot,
  pod: Pod,
  missing: Record<string, string[]>,
  origin: PodOrigin,
  opts: SimOptions,
): VerifiedFix[] {
  const ns = pod.metadata.namespace ?? 'default';
  const lrDefaults = defaultsOf(state, ns);
  let fixed = pod;
  const parts: string[] = [];
  const cmds: string[] = [];
  const fallback: Record<string, string> = { cpu: '100m', memory: '128Mi' };
  const fallbackLimit: Record<string, string> = { cpu: '500m', memory: '512Mi' };
  for (const [res, containers] of Object.entries(missing)) {
    const m = /^(requests\.|limits\.)?(cpu|memory)$/.exec(res);
    if (!m) continue;
    const which = m[1] === 'limits.' ? 'limits' : 'requests';
    const base = m[2]!;
    const preset = (
      which === 'limits'
        ? (lrDefaults.default[base] ?? fallbackLimit[base])
        : (lrDefaults.defaultRequest[base] ?? fallback[base])
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
      const cmd = kubectlSetResources(ns, origin.ref, c, which, base, value);
      if (cmd) cmds.push(cmd);
    }
  }
  const candidates: Candidate[] = [];
  if (parts.length)
    candidates.push({
      who: 'app-team',
      summary: `set ${parts.join(', ')}`,
      change: cmds.join('\n') || undefined,
      apply: (s) => ({ state: s, object: fixed }),
      needSchedule: false,
      fixes: 'quota',
    });
  // For everyone: a LimitRange that defaults the missing values.
  const lrDefault: Record<string, string> = {};
  const lrDefaultRequest: Record<string, string> = {};
  for (const res of Object.keys(missing)) {
    const m = /^(requests\.|limits\.)?(cpu|memory)$/.exec(res);
    if (!m) continue;
    if (m[1] === 'limits.') lrDefault[m[2]!] = fallback[m[2]!] === '100m' ? '500m' : '512Mi';
    else lrDefaultRequest[m[2]!] = fallback[m[2]!]!;
  }
  for (const [k, v] of Object.entries(lrDefaultRequest))
    if (!(k in lrDefault)) lrDefault[k] = v === '100m' ? '500m' : '512Mi';
  const lr: KObject = {
    apiVersion: 'v1',
    kind: 'LimitRange',
    metadata: { name: 'quota-doctor-defaults', namespace: ns },
    spec: { limits: [{ type: 'Container', default: lrDefault, defaultRequest: lrDefaultRequest }] },
  };
  candidates.push({
    who: 'platform',
    summary: `add a LimitRange with container defaults (${Object.entries(lrDefaultRequest)
      .map(([k, v]) => `${k} request ${v}`)
      .concat(Object.entries(lrDefault).map(([k, v]) => `${k} limit ${v}`))
      .join(', ')}) so every pod gets them`,
    change: `kubectl -n ${ns} apply -f - <<'EOF'\napiVersion: v1\nkind: LimitRange\nmetadata: {name: quota-doctor-defaults}\nspec:\n  limits:\n  - type: Container\n    default: ${JSON.stringify(lrDefault)}\n    defaultRequest: ${JSON.stringify(lrDefaultRequest)}\nEOF`,
    apply: (s) => {
      s.put(lr);
      return { state: s, object: pod };
    },
    needSchedule: false,
  });
  return verifyCandidates(state, candidates, opts);
}

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
