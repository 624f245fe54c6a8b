/** "what if the limitrange … max cpu is 2": the default pod before and after, workloads newly refused or mended. */
import type { LimitRangeChangeAnswer, PodShapeFit } from '../../engine/whatif/index.ts';
import { emptyReply, type Reply } from '../types.ts';
import { perPodText } from './pod-words.ts';

function shapeText(p: PodShapeFit): string {
  const list = (x: Record<string, string>) =>
    Object.entries(x)
      .map(([k, v]) => `${v} ${k}`)
      .join(' / ');
  return `${list(p.requests) || 'no requests'} → limits ${list(p.limits) || 'none'}`;
}

function fitText(p: PodShapeFit): string {
  return p.message
    ? 'refused'
    : `${p.fits}${p.limitedBy ? ` (${p.limitedBy === 'nodes' ? 'node capacity' : p.limitedBy})` : ''}`;
}

/** A LimitRange change: what the default pod gets and how many fit, which workloads' next pods still pass. */
export function limitRangeReply(a: LimitRangeChangeAnswer): Reply {
  const r = emptyReply(
    'whatif',
    '🔮',
    `LimitRange ${a.limitRange}${a.created ? ' (new)' : ''} in ${a.namespace}: ${a.type} ${a.field} ${a.resource} ${a.from ?? 'unset'} → ${a.to}`,
  );
  if (a.invalid.length) {
    r.lines.push('✗ The API server would refuse this LimitRange (422 Invalid):', ...a.invalid.map((p) => `   ${p}`));
    return r;
  }
  if (a.filled.length) r.lines.push(`Stored with ${a.filled.join(', ')} filled in by the API server's defaulting.`);
  const b = a.defaultPodBefore;
  const f = a.defaultPodAfter;
  if (f.message)
    r.lines.push(
      `✗ A pod with no resources would be refused: ${f.message.replace(/^pods "[^"]*" is forbidden: /, '')}`,
    );
  else
    r.lines.push(
      `A pod with no resources gets ${shapeText(f)}${shapeText(b) === shapeText(f) ? ' (unchanged)' : ` (was ${shapeText(b)})`}: ${fitText(b)} → ${fitText(f)} more fit.`,
    );
  const broken = a.workloads.filter((w) => w.before.limitRange === 'pass' && w.after.limitRange === 'fail');
  const mended = a.workloads.filter((w) => w.before.limitRange === 'fail' && w.after.limitRange === 'pass');
  const still = a.workloads.filter((w) => w.before.limitRange === 'fail' && w.after.limitRange === 'fail');
  const fine = a.workloads.filter((w) => w.after.limitRange === 'pass' && w.before.limitRange === 'pass');
  for (const w of broken.slice(0, 5)) r.lines.push(`✗ New pods of ${w.ref} would be refused: ${w.after.message}`);
  if (broken.length > 5) r.lines.push(`   … and ${broken.length - 5} more`);
  for (const w of mended.slice(0, 5))
    r.lines.push(`✓ New pods of ${w.ref} would pass again (refused now: ${w.before.message})`);
  for (const w of still.slice(0, 5)) r.lines.push(`✗ ${w.ref} is refused either way: ${w.after.message}`);
  if (fine.length) {
    const parts = fine
      .slice(0, 8)
      .map(
        (w) =>
          `${w.ref}${perPodText(w.perPodBefore) !== perPodText(w.perPodAfter) ? ` (${perPodText(w.perPodBefore)} → ${perPodText(w.perPodAfter)} per pod)` : ''}`,
      );
    r.lines.push(
      `✓ Still admitted by the LimitRange: ${parts.join(', ')}${fine.length > 8 ? ` and ${fine.length - 8} more` : ''}.`,
    );
    for (const quota of new Set(fine.map((w) => w.after.quota).filter((x): x is string => !!x))) {
      const held = fine.filter((w) => w.after.quota === quota);
      r.lines.push(
        `   (${quota} is full: the next pod of ${held.length === fine.length && held.length > 1 ? 'each' : held.map((w) => w.ref).join(', ')} is refused by quota either way, not by the LimitRange.)`,
      );
    }
  }
  for (const e of a.sideEffects.slice(0, 5)) r.lines.push(`Side effect: ${e}.`);
  r.lines.push(
    `Existing pods are untouched: LimitRanger checks pods only when they are created — the ${a.existingPods} running in ${a.namespace} keep running${broken.length ? '; a refused workload fails at its next pod (rollout, rescale, eviction)' : ''}.`,
  );
  if (!broken.length && !(f.message && !b.message)) {
    r.fixes.push({
      who: 'platform',
      summary: `${a.created ? 'create' : 'set'} LimitRange ${a.limitRange} ${a.type} ${a.field}.${a.resource} ${a.created ? '=' : 'to'} ${a.to}`,
      change: a.patch,
      verified: true,
      outcome: `${f.fits} default pods fit; no workload's next pod newly refused`,
      sideEffects: a.sideEffects,
    });
  }
  return r;
}
