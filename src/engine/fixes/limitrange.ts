/** Fixes for LimitRange violations: the exact value to set, both ways for a ratio. */
import type { Pod } from '../../k8s/objects.ts';
import { Quantity } from '../../quantity.ts';
import type { LimitViolation } from '../admission/limitranger.ts';
import type { FieldError } from '../admission/validation.ts';
import { resourceChanges } from './changes.ts';
import { ceilDiv, setContainerValue } from './pod-edit.ts';
import type { FixContext, Plan } from './types.ts';

/** Fixes for LimitRange violations: the exact value to set, both ways for a ratio. */
export function limitRangePlans(ctx: FixContext, violations: LimitViolation[]): Plan[] {
  const pod = ctx.pod;
  const ways: { parts: string[]; pod: Pod }[] = [
    { parts: [], pod },
    { parts: [], pod },
  ];
  const set = (w: (typeof ways)[number], c: string, which: 'requests' | 'limits', res: string, v: Quantity) => {
    w.pod = setContainerValue(w.pod, c, which, res, v.toString());
    w.parts.push(`${which}.${res} of ${c} to ${v}`);
  };
  for (const v of violations) {
    if (v.scope !== 'Container' || !v.container) continue;
    if (v.bound === 'max') {
      for (const w of ways) {
        set(w, v.container, 'limits', v.resource, v.limit);
        const req = Quantity.tryParse(
          w.pod.spec.containers.find((c) => c.name === v.container)?.resources?.requests?.[v.resource],
        );
        if (req && req.cmp(v.limit) > 0) set(w, v.container, 'requests', v.resource, v.limit);
      }
    } else if (v.bound === 'min') {
      for (const w of ways) {
        set(w, v.container, 'requests', v.resource, v.limit);
        const lim = Quantity.tryParse(
          w.pod.spec.containers.find((c) => c.name === v.container)?.resources?.limits?.[v.resource],
        );
        if (lim && lim.cmp(v.limit) < 0) set(w, v.container, 'limits', v.resource, v.limit);
      }
    } else if (v.bound === 'ratio' && v.request && v.limitValue) {
      // Raise the request to ≥ limit / ratio (rounded up to a milli), or lower the limit to ≤ request × ratio.
      const needReq = Quantity.fromNanos(ceilDiv(v.limitValue.nanos * 1_000_000_000n, v.limit.nanos), v.request.format);
      const milli = Quantity.fromMilli(needReq.exactMilliCeil(), v.request.format);
      set(
        ways[0]!,
        v.container,
        'requests',
        v.resource,
        v.resource === 'cpu' ? milli : Quantity.fromInt(needReq.value(), v.request.format),
      );
      const maxLim = Quantity.fromNanos((v.request.nanos * v.limit.nanos) / 1_000_000_000n, v.limitValue.format);
      set(
        ways[1]!,
        v.container,
        'limits',
        v.resource,
        v.resource === 'cpu'
          ? Quantity.fromMilli(
              maxLim.exactMilliCeil() - (maxLim.nanos % 1_000_000n === 0n ? 0n : 1n),
              v.limitValue.format,
            )
          : Quantity.fromInt(maxLim.nanos / 1_000_000_000n, v.limitValue.format),
      );
    }
  }
  const out: Plan[] = [];
  const seen = new Set<string>();
  for (const w of ways) {
    const key = w.parts.join(', ');
    if (!w.parts.length || seen.has(key)) continue;
    seen.add(key);
    const changes = resourceChanges(ctx.subject, pod, w.pod);
    if (!changes) continue;
    out.push({ who: 'app-team', summary: `set ${key}`, changes, cost: 1, obvious: true, pod: w.pod });
  }
  return out;
}

/**
 * Fixes for a request above its limit (API validation, pkg/apis/core/validation ValidateResourceRequirements:
 * "must be less than or equal to cpu limit of 250m") — often a LimitRange default limit below what the
 * template requests: set the limit to the request (where the LimitRange max allows it), or lower the
 * request to the limit.
 */
export function validationPlans(ctx: FixContext, errors: readonly FieldError[]): Plan[] {
  const ways: { parts: string[]; pod: Pod; ok: boolean }[] = [
    { parts: [], pod: ctx.pod, ok: true },
    { parts: [], pod: ctx.pod, ok: true },
  ];
  for (const e of errors) {
    const m = /^spec\.(containers|initContainers)\[(\d+)\]\.resources\.requests$/.exec(e.field);
    const value = Quantity.tryParse(e.value);
    const limit = Quantity.tryParse(e.limit);
    if (!m || !value || !limit || !/^(cpu|memory|ephemeral-storage)$/.test(e.resource)) return [];
    const list = m[1] === 'containers' ? ctx.admitted.spec.containers : (ctx.admitted.spec.initContainers ?? []);
    const c = list[Number(m[2])]?.name;
    if (!c) return [];
    const max = containerMax(ctx, e.resource);
    if (max && max.cmp(value) < 0) ways[0]!.ok = false;
    ways[0]!.pod = setContainerValue(ways[0]!.pod, c, 'limits', e.resource, value.toString());
    ways[0]!.parts.push(`limits.${e.resource} of ${c} to ${value}`);
    ways[1]!.pod = setContainerValue(ways[1]!.pod, c, 'requests', e.resource, limit.toString());
    ways[1]!.parts.push(`requests.${e.resource} of ${c} to ${limit}`);
  }
  const out: Plan[] = [];
  for (const w of ways) {
    if (!w.ok || !w.parts.length) continue;
    const changes = resourceChanges(ctx.subject, ctx.pod, w.pod);
    if (!changes) continue;
    out.push({ who: 'app-team', summary: `set ${w.parts.join(', ')}`, changes, cost: 1, obvious: true, pod: w.pod });
  }
  return out;
}

/** The lowest Container `max` of the namespace's LimitRanges for a resource. */
function containerMax(ctx: FixContext, resource: string): Quantity | null {
  let best: Quantity | null = null;
  for (const lr of ctx.base.list('LimitRange', ctx.ns))
    for (const item of lr.spec.limits) {
      if (item.type !== 'Container') continue;
      const v = Quantity.tryParse(item.max?.[resource]);
      if (v && (!best || v.cmp(best) < 0)) best = v;
    }
  return best;
}
