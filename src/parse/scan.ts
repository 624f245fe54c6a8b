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
  for (
    let k = lower.indexOf(needle);
    k >= 0 && n < MAX_PER_KEYWORD;
    k = lower.indexOf(needle, k + needle.length), n++
  ) {
    const m = f(k);
    if (m !== undefined) out.push(m);
  }
}

/**
 * The run of characters matching `cls` (a one-character class) that ends at `end`, at most `max` long and
 * starting with a letter or digit as `first` requires; a backwards scan instead of a `…$` regex so that
 * the look-back costs O(max).
 */
export function wordBefore(
  s: string,
  end: number,
  cls: RegExp,
  max: number,
  first: RegExp = /[A-Za-z0-9]/,
): string | undefined {
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

/** A compiled multi-needle search: one regular expression (an alternation of literals) per needle set. */
interface NeedleSet {
  needles: readonly string[];
  /** Needle indexes by first character, to test every needle that starts where the expression matched. */
  byFirst: Map<string, number[]>;
  /** The alternation of all needles. */
  all: RegExp;
}

const NEEDLE_SETS = new Map<string, NeedleSet>();

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function needleSet(needles: readonly string[]): NeedleSet {
  const key = needles.join('\u0000');
  let set = NEEDLE_SETS.get(key);
  if (!set) {
    const byFirst = new Map<string, number[]>();
    needles.forEach((n, i) => {
      const list = byFirst.get(n[0]!);
      if (list) list.push(i);
      else byFirst.set(n[0]!, [i]);
    });
    set = { needles, byFirst, all: new RegExp(needles.map(escapeRe).join('|'), 'g') };
    NEEDLE_SETS.set(key, set);
  }
  return set;
}

function alternation(needles: readonly string[], active: boolean[]): RegExp | undefined {
  const parts = needles.filter((_n, i) => active[i]).map(escapeRe);
  return parts.length > 0 ? new RegExp(parts.join('|'), 'g') : undefined;
}

/**
 * The occurrences of every needle in `lower`, per needle in text order: exactly what one `indexOf` loop
 * per needle would find (non-overlapping occurrences of one needle, at most MAX_PER_KEYWORD each), in a
 * single pass of one alternation (a few times faster than one pass per needle on a 1 MB paste).
 */
function scanNeedles(lower: string, needles: readonly string[]): number[][] {
  if (needles.length === 0) return [];
  const set = needleSet(needles);
  const hits: number[][] = needles.map(() => []);
  const nextAllowed = needles.map(() => 0);
  const active = needles.map(() => true);
  let left = needles.length;
  let re: RegExp | undefined = set.all;
  let pos = 0;
  while (re) {
    re.lastIndex = pos;
    const m = re.exec(lower);
    if (!m) break;
    const p = m.index;
    let capped = false;
    for (const i of set.byFirst.get(lower[p]!) ?? []) {
      if (!active[i] || p < nextAllowed[i]! || !lower.startsWith(needles[i]!, p)) continue;
      hits[i]!.push(p);
      nextAllowed[i] = p + needles[i]!.length;
      if (hits[i]!.length >= MAX_PER_KEYWORD) {
        active[i] = false;
        left--;
        capped = true;
      }
    }
    pos = p + 1;
    if (capped) re = left > 0 ? alternation(needles, active) : undefined;
  }
  return hits;
}

/**
 * Every needle any parser has asked for (its first call adds it): a paste is scanned once for all of them,
 * which costs well under the sum of one scan per parser (irregexp tries the alternatives together).
 */
const KNOWN_NEEDLES: string[] = [];
const KNOWN = new Set<string>();
/** Bound on KNOWN_NEEDLES (the parsers' needles are literals of their source: about 130 today). */
const MAX_KNOWN = 1024;

/** The paste `scanPaste` is running over, and the occurrences found in it so far, per needle. */
let session: { lower: string; hits: Map<string, number[]> | undefined } | undefined;

/**
 * Run `f` (the layer parsers) over one paste: the `findAllNeedles` calls on `lower` inside it share one
 * scan of `lower` for every known needle. Nothing is kept after `f` returns.
 */
export function scanPaste<T>(lower: string, f: () => T): T {
  const outer = session;
  session = { lower, hits: undefined };
  try {
    return f();
  } finally {
    session = outer;
  }
}

/**
 * The occurrences of every needle in `lower`, per needle in text order: exactly what one `indexOf` loop
 * per needle would find (non-overlapping occurrences of one needle, at most MAX_PER_KEYWORD each).
 */
export function findAllNeedles(lower: string, needles: readonly string[]): number[][] {
  if (needles.length === 0) return [];
  const s = session;
  if (s === undefined || s.lower !== lower) return scanNeedles(lower, needles);
  if (s.hits === undefined) {
    const known = KNOWN_NEEDLES.slice();
    const all = scanNeedles(lower, known);
    s.hits = new Map(known.map((n, i) => [n, all[i]!]));
  }
  const hits = s.hits;
  const missing = [...new Set(needles.filter((n) => !hits.has(n)))];
  if (missing.length > 0) {
    // A needle not seen before (the first paste of a process): scanned now, and with the others from now on.
    const found = scanNeedles(lower, missing);
    missing.forEach((n, i) => {
      hits.set(n, found[i]!);
      if (!KNOWN.has(n) && KNOWN_NEEDLES.length < MAX_KNOWN) {
        KNOWN.add(n);
        KNOWN_NEEDLES.push(n);
      }
    });
  }
  return needles.map((n) => hits.get(n)!.slice());
}

/**
 * `scanAll` for several needles at once: `f` of each needle is called at its occurrences, needle after
 * needle in the order given (the order separate `scanAll` calls would produce).
 */
export function scanMany<T>(
  lower: string,
  table: readonly (readonly [string, (k: number) => T | undefined])[],
  out: T[],
): void {
  const hits = findAllNeedles(
    lower,
    table.map(([n]) => n),
  );
  table.forEach(([, f], i) => {
    for (const k of hits[i]!) {
      const m = f(k);
      if (m !== undefined) out.push(m);
    }
  });
}

/**
 * A table row of prose around the name (`| CPU request over capacity | the kubelet — \`OutOfcpu\` | a \`Failed\` Pod,
 * still in the API |`): another cell of three words or more says what it means, and none is a time. A state table (`| web-1 | 0/1 |
 * OOMKilled | 3 |`) has one word a cell; a timeline's row has its time.
 */
export function proseRow(line: string, at: number): boolean {
  const cells: { text: string; from: number }[] = [];
  let from = line.indexOf('|') + 1;
  for (let bar = line.indexOf('|', from); bar >= 0; from = bar + 1, bar = line.indexOf('|', from))
    cells.push({ text: line.slice(from, bar), from });
  // The normalizer takes the closing border off (normalize.ts tableRowEnd).
  if (line.slice(from).trim() !== '') cells.push({ text: line.slice(from), from });
  if (cells.length < 3 || cells.some((c) => /\b\d{1,2}:\d{2}\b/.test(c.text))) return false;
  const others = cells.filter((c) => !(c.from <= at && at <= c.from + c.text.length));
  return others.some((c) => /\b[a-z]{2,}\b[^|]*\b[a-z]{2,}\b[^|]*\b[a-z]{2,}\b/.test(c.text));
}
