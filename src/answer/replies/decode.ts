/**
 * Decode-time quantity errors: the request body did not even decode, before any validation, admission or
 * scheduling (apimachinery pkg/api/resource ParseQuantity: ErrFormatWrong "quantities must match the
 * regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'", ErrSuffix "unable to parse quantity's
 * suffix"). The reply quotes the bad value when the paste shows it and gives its valid spelling.
 */
import type { Finding } from '../../parse/index.ts';
import { Quantity } from '../../quantity.ts';
import type { LookalikeText } from './lookalike.ts';

type ValidationFinding = Extract<Finding, { kind: 'api-validation' }>;

/** Whether an api-validation finding is a decode-time quantity error (not a field validation). */
export function isDecodeError(f: Finding): boolean {
  return f.kind === 'api-validation' && /quantities must match|unable to parse quantity's suffix/i.test(f.message);
}

/** Suffixes people write → the Kubernetes one (`GB` → `G`, `gib` → `Gi`, `mb` → `M`). */
const SUFFIX: Record<string, string> = {
  '': '',
  m: 'm',
  k: 'k',
  kb: 'k',
  ki: 'Ki',
  kib: 'Ki',
  mb: 'M',
  mi: 'Mi',
  mib: 'Mi',
  g: 'G',
  gb: 'G',
  gi: 'Gi',
  gib: 'Gi',
  t: 'T',
  tb: 'T',
  ti: 'Ti',
  tib: 'Ti',
  p: 'P',
  pb: 'P',
  pi: 'Pi',
  pib: 'Pi',
  b: '',
};

/**
 * The valid spelling of a bad quantity, when it is a number and a unit people write (`1.5 GB` → `1.5G`,
 * `512mb` → `512M`, `2 Gi` → `2Gi`); undefined when it is not one.
 */
export function respell(value: string): string | undefined {
  const m = /^\s*([+-]?[0-9]+(?:\.[0-9]+)?)\s*([A-Za-z]{0,3})\s*$/.exec(value);
  if (!m) return undefined;
  const raw = m[2]!;
  // `M` alone is mega and `m` milli: case matters for one-letter suffixes that exist as written.
  const exact = ['m', 'k', 'M', 'G', 'T', 'P', 'E', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'].includes(raw) ? raw : undefined;
  const suffix = exact ?? SUFFIX[raw.toLowerCase()];
  if (suffix === undefined) return undefined;
  const out = `${m[1]}${suffix}`;
  return Quantity.tryParse(out) && out !== value ? out : undefined;
}

export function decodeText(f: ValidationFinding): LookalikeText {
  const facts = f.facts;
  const where = [facts.field, facts.resource].filter(Boolean).join(' ');
  const lines: string[] = [];
  if (facts.value !== null) {
    const fixed = respell(facts.value);
    lines.push(
      `"${facts.value}"${where ? ` (${where})` : ''} is not a Kubernetes quantity: the API server could not decode the object, so nothing was validated or admitted.`,
    );
    lines.push(
      fixed
        ? `Write it ${fixed} — a number, no space, then one of m k M G T P E (powers of 1000) or Ki Mi Gi Ti Pi Ei (powers of 1024): "1.5Gi" is valid, "1.5 GB" is not.`
        : 'A quantity is a number, no space, then one of m k M G T P E (powers of 1000) or Ki Mi Gi Ti Pi Ei (powers of 1024): "1.5Gi" is valid, "1.5 GB" is not.',
    );
  } else {
    lines.push(
      `A quantity${where ? ` in ${where}` : ''} is not valid: the API server could not decode the object, so nothing was validated or admitted. The paste does not show which value.`,
    );
    lines.push(
      'Look for a space before the unit, a unit like GB/MB/gb/gib, or a unit alone: a quantity is a number then one of m k M G T P E or Ki Mi Gi Ti Pi Ei ("1.5Gi" is valid, "1.5 GB" is not).',
    );
  }
  lines.push(
    'Not quota, LimitRange or scheduling: fix the manifest (app team); `kubectl apply --dry-run=server -f FILE` checks it.',
  );
  return { headline: 'Rejected by API decoding: not a valid quantity', lines };
}
