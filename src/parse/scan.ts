/**
 * Bounded text-scanning primitives shared by the layer parsers. Every search is limited to a window so
 * that a paste with thousands of keywords still costs time linear in its size.
 */

import { MAX_MESSAGE } from './finding.ts';

/** End of the logical line that contains `i`, looking at most `max` characters ahead. */
export function lineEnd(text: string, i: number, max = MAX_MESSAGE): number {
  const e = findWithin(text, '\n', i, i + max);
  return e < 0 ? Math.min(text.length, i + max) : e;
}

/** `hay.indexOf(needle, from)` restricted to [from, to): bounded work per call. */
export function findWithin(hay: string, needle: string, from: number, to: number): number {
  const i = hay.slice(from, Math.min(to, hay.length)).indexOf(needle);
  return i < 0 ? -1 : from + i;
}

/** Strip the sentence punctuation that is never part of a quantity (`1500m.`, `services=5..`). */
export function bare(v: string): string {
  return trimEndOf(v, '.,;:\'"`)]}');
}

/** `s` without trailing characters from `chars` (a loop: `/[…]+$/` is quadratic on long runs). */
export function trimEndOf(s: string, chars: string): string {
  let e = s.length;
  while (e > 0 && chars.includes(s[e - 1]!)) e--;
  return s.slice(0, e);
}


/**
 * Most occurrences of one keyword we examine in a paste. Repeats beyond this are the same event again
 * (they would be deduped) or an attack on our time budget.
 */
export const MAX_PER_KEYWORD = 500;

/** Call `f` at each occurrence of `needle` in `lower` (at most MAX_PER_KEYWORD), collecting what it returns. */
export function scanAll<T>(lower: string, needle: string, f: (k: number) => T | undefined, out: T[]): void {
  let n = 0;
  for (let k = lower.indexOf(needle); k >= 0 && n < MAX_PER_KEYWORD; k = lower.indexOf(needle, k + needle.length), n++) {
    const m = f(k);
    if (m !== undefined) out.push(m);
  }
}

/**
 * The run of characters matching `cls` (a one-character class) that ends at `end`, at most `max` long and
 * starting with a letter or digit as `first` requires; a backwards scan instead of a `…$` regex so that
 * the look-back costs O(max).
 */
export function wordBefore(s: string, end: number, cls: RegExp, max: number, first: RegExp = /[A-Za-z0-9]/): string | undefined {
  let i = end;
  while (i > 0 && end - i < max && cls.test(s[i - 1]!)) i--;
  while (i < end && !first.test(s[i]!)) i++;
  return i < end ? s.slice(i, end) : undefined;
}

/** Start of the logical line containing `i`, looking at most `max` characters back. */
export function lineStart(text: string, i: number, max = 2048): number {
  const from = Math.max(0, i - max);
  const nl = text.slice(from, i).lastIndexOf('\n');
  return nl < 0 ? from : from + nl + 1;
}
