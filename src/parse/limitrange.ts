/**
 * LimitRanger admission messages (plugin/pkg/admission/limitranger/admission.go; docs/kubernetes-semantics.md §3.5, §7).
 *
 * v1.35 formats, each possibly followed by a `.` in releases before ~1.20:
 *   `minimum|maximum <res> usage per <Container|Pod|PersistentVolumeClaim> is <q>, but request|limit is <q>`
 *   `minimum|maximum <res> usage per <T> is <q>.  No request|limit is specified`
 *   `<res> max limit to request ratio per <T> is <q>, but provided ratio is <%f>`
 *   `<res> max limit to request ratio per <T> is <q>, but no request|limit is specified or request|limit is 0`
 * Several violations of one LimitRange are aggregated as `[m1, m2]` (1.3+; with trailing periods this
 * gives `2400m., maximum …`) and as `m1. m2` inside brackets in 1.1/1.2, where the words were capitalised.
 * Messages inside brackets come in Go map order, so their order carries no meaning (§9).
 */

import type { LimitViolation, Match } from './finding.ts';
import { lowerAscii } from './normalize.ts';
import { bare, lineEnd, lineStart, scanMany, wordBefore } from './scan.ts';
import { envelopeBefore } from './subject.ts';

/** One LimitRanger violation (the `violations` of a `limitrange` finding). */
export type Violation = LimitViolation;

interface Item {
  v: Violation;
  start: number;
  end: number;
  trailingPeriod: boolean;
  capital: boolean;
}

const SCOPES: Record<string, Violation['scope']> = {
  container: 'Container',
  pod: 'Pod',
  persistentvolumeclaim: 'PersistentVolumeClaim',
};

/** `minimum cpu ` (a web page's copy may double a blank), and the `min`/`max` of a retyped or second violation (`…, but request is 0; max memory usage per Container …`). */
const RES_BEFORE_RE = /(?<![A-Za-z])(minimum|maximum|min|max) {1,3}([A-Za-z0-9][A-Za-z0-9./_-]{0,99}) {1,3}$/i;
/** After `per <scope> is <q>`: upstream's `, but request|limit is <q>` (retyped without the comma too). */
const MINMAX_RE =
  /(container|pod|persistentvolumeclaim) is ([^\s,\]]{1,64}?)(?:(\.?\s{1,4}no (?:request|limit) is specified)|,? but (?:(?:request|limit) is|requested) ([^\s,\]"'`#]{1,64})|(?=[.,;\]"']?(?:\s|$))(?<=is \d[^\s,\]]{0,63}))/iy;
const RATIO_RE =
  /(container|pod|persistentvolumeclaim) is ([^\s,\]]{1,64}?)(?:,? but (?:provided ratio is ([0-9][0-9.]{0,39})|(no (?:request|limit) is specified or (?:request|limit) is 0))|(?=[.,;\]"']?(?:\s|$))(?<=is \d[^\s,\]]{0,63}))/iy;

const CELL_ACTUAL_RE = /[ \t]*\|?[ \t]*\r?\n[ \t]*\|[ \t]*(?:but )?(?:request|limit) is ([^\s,\]"'`#|]{1,64})/iy;

/**
 * The resource as LimitRanger names it: 1.1/1.2 capitalised the message's words (`Minimum CPU usage per
 * pod is 250m`, plugin/pkg/admission/limitranger/admission.go of that era), and a retyped copy writes
 * `Memory`; the resource itself is the lowercase `cpu`/`memory`. Other names (extended resources) keep their case.
 */
function resourceName(r: string): string {
  return /^(?:cpu|memory|storage|ephemeral-storage)$/i.test(r) ? r.toLowerCase() : r;
}

function minMax(text: string, k: number): Item | undefined {
  // `k` is the offset of `usage per `.
  const before = RES_BEFORE_RE.exec(text.slice(Math.max(0, k - 120), k));
  if (!before) return undefined;
  MINMAX_RE.lastIndex = k + 'usage per '.length;
  const m = MINMAX_RE.exec(text);
  if (!m) return undefined;
  let end = MINMAX_RE.lastIndex;
  let actual = m[4];
  // A table that printed the message one clause a cell (`| maximum storage usage per PersistentVolumeClaim
  // is 1Gi |` ⏎ `| request is 5Gi |`): the next cell is the `, but request is` clause.
  if (actual === undefined && m[3] === undefined) {
    CELL_ACTUAL_RE.lastIndex = end;
    const c = CELL_ACTUAL_RE.exec(text);
    if (c) {
      actual = c[1]!;
      end = CELL_ACTUAL_RE.lastIndex;
    }
  }
  const trailingPeriod = text[end] === '.' || actual?.endsWith('.');
  if (m[3] !== undefined && text[end] === '.') end++;
  const word = before[1]!;
  return {
    v: {
      scope: SCOPES[m[1]!.toLowerCase()]!,
      resource: resourceName(before[2]!),
      bound: word.toLowerCase().startsWith('min') ? 'min' : 'max',
      limit: bare(m[2]!),
      actual: actual !== undefined ? bare(actual) : null,
    },
    start: k - before[0].length,
    end,
    trailingPeriod,
    capital: word[0] === 'M',
  };
}

/** `maximum cpu` right before ` limit to request ratio per `: how docs retype upstream's `cpu max`. */
const RETYPED_RATIO_RE = /(?:^|[\s[(,"'])maximum ([A-Za-z0-9][A-Za-z0-9./_-]{0,99})$/i;

function ratio(text: string, k: number): Item | undefined {
  // `k` is the offset of ` limit to request ratio per `: upstream prints `<resource> max limit to request
  // ratio per <scope> is …` (plugin/pkg/admission/limitranger, limitRequestRatioConstraint); a retyped
  // copy says `maximum <resource> limit to request ratio …`.
  let resource: string | undefined;
  let start: number;
  if (text.slice(Math.max(0, k - 4), k).toLowerCase() === ' max') {
    resource = wordBefore(text, k - 4, /[A-Za-z0-9./_-]/, 100);
    start = k - 4 - (resource?.length ?? 0);
  } else {
    const m = RETYPED_RATIO_RE.exec(text.slice(Math.max(0, k - 120), k));
    resource = m?.[1];
    start = k - (m ? m[0].length - (/^[\s[(,"']/.test(m[0]) ? 1 : 0) : 0);
  }
  if (!resource) return undefined;
  RATIO_RE.lastIndex = k + ' limit to request ratio per '.length;
  const m = RATIO_RE.exec(text);
  if (!m) return undefined;
  const end = RATIO_RE.lastIndex;
  return {
    v: {
      scope: SCOPES[m[1]!.toLowerCase()]!,
      resource,
      bound: 'ratio',
      limit: bare(m[2]!),
      actual: m[3] !== undefined ? bare(m[3]) : null,
    },
    start,
    end,
    trailingPeriod: text[end] === '.' || m[3]?.endsWith('.'),
    capital: false,
  };
}

/**
 * Items that belong to one aggregated message: separated only by `, `, `. `, `., `, `; ` on one line — or
 * one a line under a single envelope that ends its own line (`pods "x" is forbidden:` ⏎ `[maximum cpu …]` ⏎
 * `[maximum memory …]`, `Error from server (Forbidden):` ⏎ `minimum cpu …` ⏎ `minimum memory …`): LimitRanger
 * returns one aggregate error per object (plugin/pkg/admission/limitranger/admission.go, utilerrors.NewAggregate),
 * which a page then printed one violation a line.
 */
function group(text: string, items: Item[]): Item[][] {
  const groups: Item[][] = [];
  let underEnvelope = false;
  for (const it of items) {
    const last = groups.at(-1)?.at(-1);
    const gap = last ? text.slice(last.end, it.start) : '';
    if (last && it.start >= last.end && it.start - last.end <= 8 && /^[.,;\s]*$/.test(gap) && !gap.includes('\n')) {
      groups.at(-1)!.push(it);
    } else if (last && underEnvelope && /^[.,;\]]*[ \t]*\n[ \t]*\[?$/.test(gap)) {
      groups.at(-1)!.push(it);
    } else {
      groups.push([it]);
      underEnvelope = ownLineAfterEnvelope(text, it.start);
    }
  }
  return groups;
}

/** Does an envelope end right before the item at `start`, or the line above when the item opens its line? */
function ownLineAfterEnvelope(text: string, start: number): boolean {
  const ls = lineStart(text, start);
  const lead = text.slice(ls, start);
  if (ENVELOPE_END_RE.test(lead)) return true;
  if (!/^[ \t]*\[?$/.test(lead) || ls === 0) return false;
  const prev = text.slice(lineStart(text, ls - 1), ls - 1);
  return ENVELOPE_END_RE.test(prev);
}

const ENVELOPE_END_RE = /(?:\bis forbidden|\(Forbidden\)):[ \t]*\[?$/;

function versionOf(text: string, g: Item[]): string | undefined {
  if (g.some((i) => i.capital)) return '1.1-1.2';
  for (let i = 1; i < g.length; i++) {
    const gap = text.slice(g[i - 1]!.end, g[i]!.start);
    if (!gap.includes(',')) return '1.1-1.2';
  }
  if (g.some((i) => i.trailingPeriod)) return '<1.20';
  return undefined;
}

/** All LimitRange findings in normalized `text`, one per aggregated message. */
export function findLimitRange(text: string, lowerText?: string): Match[] {
  const lower = lowerText ?? lowerAscii(text);
  const items: Item[] = [];
  scanMany(
    lower,
    [
      ['usage per ', (k) => minMax(text, k)],
      [' limit to request ratio per ', (k) => ratio(text, k)],
    ],
    items,
  );
  items.sort((a, b) => a.start - b.start);
  const out: Match[] = [];
  for (const g of group(text, items)) {
    const first = g[0]!;
    const { start, object } = envelopeBefore(text, first.start);
    let end = g.at(-1)!.end;
    const close = /^\.?\]/.exec(text.slice(end, end + 2));
    if (close) end += close[0].length;
    const m: Match = {
      layer: 'limitrange',
      kind: 'limitrange',
      facts: { violations: g.map((i) => i.v) },
      message: text.slice(start, Math.min(end, lineEnd(text, start))).trim(),
      start,
      end,
    };
    if (object) m.object = object;
    const version = versionOf(text, g);
    if (version) m.version = version;
    out.push(m);
  }
  return out;
}
