/**
 * API validation (HTTP 422) field errors about resources, from `ValidateResourceRequirements` in
 * pkg/apis/core/validation/validation.go (docs/kubernetes-semantics.md §2.4):
 *   `<path>: Invalid value: "<request>": must be less than or equal to <res> limit of <limit>`
 *   (before 1.27, PR #112925: `… <res> limit` with no value);
 *   `<path>: Invalid value: "<request>": must be equal to <res> limit of <limit>` (extended resources);
 *   `<path>.limits: Required value: Limit must be set for non overcommitable resources`.
 * The envelope is `The Pod "<name>" is invalid: ` (a Kind, not a resource), several errors as `[e1, e2]`.
 */

import type { Match } from './finding.ts';
import { lowerAscii } from './normalize.ts';
import { bare, scanMany, wordBefore } from './scan.ts';
import { envelopeBefore, subjectBefore } from './subject.ts';

/** The field path that ends at `end` of `s` (`spec.containers[0].resources.requests`). */
function fieldBefore(s: string, end: number): string | undefined {
  return wordBefore(s, end, /[\w.[\]{}/-]/, 300, /[A-Za-z]/);
}

/**
 * `<field>: Invalid value: "<v>": ` (or `Required value: `) ending exactly at the end of `w`; found
 * with string scans so the look-back is linear.
 */
function fieldErrorBefore(
  w: string,
  label: ': Invalid value: ' | ': Required value: ',
): { field: string; value: string | null; length: number } | undefined {
  if (label === ': Required value: ') {
    if (!w.endsWith(label)) return undefined;
    const field = fieldBefore(w, w.length - label.length);
    return field ? { field, value: null, length: field.length + label.length } : undefined;
  }
  if (!w.endsWith(': ')) return undefined;
  const at = w.lastIndexOf(label);
  if (at < 0) return undefined;
  let value = w.slice(at + label.length, w.length - 2);
  if (value.length > 100 || value.includes('\n')) return undefined;
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
  const field = fieldBefore(w, at);
  return field ? { field, value, length: w.length - at + field.length } : undefined;
}
const DETAIL_RE =
  /must be (?:less than or ?equal to|equal to) ([A-Za-z0-9][A-Za-z0-9./_-]{0,252}) limit(?: of ([^\s,\]'"`]{1,64}))?/iy;

/** The envelope (`The Pod "x" is invalid: [`) of a field error that starts at `fieldStart`, skipping earlier errors of a list. */
function envelopeOf(text: string, fieldStart: number): ReturnType<typeof envelopeBefore> {
  const direct = envelopeBefore(text, fieldStart);
  if (direct.object) return direct;
  // Inside `[e1, e2]`: find the `is invalid: [` that opens the list on this line (bounded look-back).
  const from = Math.max(0, fieldStart - 4096);
  const window = text.slice(from, fieldStart);
  const nl = window.lastIndexOf('\n');
  const open = window.lastIndexOf(' is invalid: [');
  if (open > nl) {
    const subj = subjectBefore(text, from + open + ' is invalid: ['.length);
    if (subj)
      return {
        start: subj.start,
        object: { ...(subj.resource ? { resource: subj.resource } : {}), ...(subj.name ? { name: subj.name } : {}) },
      };
  }
  return direct;
}

function lessOrEqual(text: string, k: number): Match | undefined {
  const before = fieldErrorBefore(text.slice(Math.max(0, k - 420), k), ': Invalid value: ');
  DETAIL_RE.lastIndex = k;
  const d = DETAIL_RE.exec(text);
  if (!d) return undefined;
  const end = DETAIL_RE.lastIndex;
  const fieldStart = before ? k - before.length : k;
  const { start, object } = envelopeOf(text, fieldStart);
  const limit = d[2] !== undefined ? bare(d[2]) : null;
  const value = before ? before.value : null;
  const m: Match = {
    layer: 'api-validation',
    kind: 'api-validation',
    facts: { resource: d[1]!, value, limit: limit === '' ? null : limit, field: before ? before.field : null },
    message: start === fieldStart ? text.slice(fieldStart, end).trim() : text.slice(start, end).trim(),
    start,
    end,
  };
  if (object) m.object = object;
  if (/^must be less/i.test(d[0])) m.version = d[2] !== undefined ? '>=1.27' : '<1.27';
  return m;
}

function limitMustBeSet(text: string, k: number): Match | undefined {
  const before = fieldErrorBefore(text.slice(Math.max(0, k - 340), k), ': Required value: ');
  const end = k + 'Limit must be set for non overcommitable resources'.length;
  const fieldStart = before ? k - before.length : k;
  const { start, object } = envelopeOf(text, fieldStart);
  const m: Match = {
    layer: 'api-validation',
    kind: 'api-validation',
    facts: { resource: null, value: null, limit: null, field: before ? before.field : null },
    message: text.slice(start, end).trim(),
    start,
    end,
  };
  if (object) m.object = object;
  return m;
}

/** All resource field errors in normalized `text`. */
export function findValidation(text: string, lowerText?: string): Match[] {
  const lower = lowerText ?? lowerAscii(text);
  const out: Match[] = [];
  scanMany(
    lower,
    [
      ['must be less than or', (k) => lessOrEqual(text, k)],
      ['must be equal to ', (k) => lessOrEqual(text, k)],
      ['limit must be set for non overcommitable resources', (k) => limitMustBeSet(text, k)],
    ],
    out,
  );
  return out.sort((a, b) => a.start - b.start);
}
