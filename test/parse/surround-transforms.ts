/**
 * What a person's paste plausibly adds around a Kubernetes message, as transformations of a labelled
 * paste that keep its labels true (test/parse/surround.test.ts, bench/surround.ts): the parser must read
 * the transformed text as it reads the original.
 *
 * Two subjects: the whole item text (`text`: fences, quoting, line ends, prose around it, escaping, wrapping),
 * and the message core (`core`: the logical lines holding the findings, each line dressed whole as one list
 * item, code span, bold run, log record or table cell).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { type BlindItem, judge, readSet } from '../../bench/blind-measure.ts';
import type { Finding } from '../../src/parse/index.ts';
import { normalizePaste } from '../../src/parse/index.ts';

export interface Transform {
  name: string;
  /** What it applies to: the whole item text, or each logical line of the message core. */
  on: 'text' | 'core';
  /** The transformed text, or undefined where it does not apply (nothing it would change, or a text it cannot keep true). */
  apply: (text: string) => string | undefined;
}

/** An entity already in the text: escaping it again would not decode back to the same text. */
const ENTITY_RE = /&(?:gt|lt|amp|quot|apos|#\d{1,4}|#x[0-9a-f]{1,4});/i;

const LEAD: Record<string, string> = {
  en: 'I got this error when deploying:',
  de: 'Beim Deployment bekomme ich diesen Fehler:',
  es: 'Al desplegar me sale este error:',
  zh: '部署时出现这个错误：',
};
const TRAIL: Record<string, string> = {
  en: 'Any idea why?',
  fr: 'Une idée de la cause ?',
  ru: 'Есть идеи, в чём дело?',
  ja: '原因が分かりません。',
};

function lines(t: string): string[] {
  return t.split('\n');
}

/** Every non-blank line through `f` (blank lines stay). */
function eachLine(t: string, f: (l: string) => string | undefined): string | undefined {
  const out: string[] = [];
  for (const l of lines(t)) {
    if (l.trim() === '') {
      out.push(l);
      continue;
    }
    const m = f(l);
    if (m === undefined) return undefined;
    out.push(m);
  }
  return out.join('\n');
}

/** The first (or last) non-blank line through `f`. */
function edgeLine(t: string, last: boolean, f: (l: string) => string): string {
  const ls = lines(t);
  const order = ls.map((_l, i) => i);
  if (last) order.reverse();
  const i = order.find((k) => ls[k]!.trim() !== '');
  if (i === undefined) return t;
  ls[i] = f(ls[i]!);
  return ls.join('\n');
}

/** A sentence after a line: after its own end punctuation, else after a period. */
function after(l: string, s: string): string {
  const t = l.trimEnd();
  return /[.!?:;。！？]$/.test(t) ? `${t} ${s}` : `${t}. ${s}`;
}

/** Break lines longer than `w` at the last blank before column `w` (a mail client's or an editor's rewrap). */
function wordWrap(t: string, w: number): string {
  return lines(t)
    .map((l) => {
      const out: string[] = [];
      let rest = l;
      while (rest.length > w) {
        const cut = rest.lastIndexOf(' ', w);
        if (cut <= 0) break;
        out.push(rest.slice(0, cut));
        rest = rest.slice(cut + 1);
      }
      out.push(rest);
      return out.join('\n');
    })
    .join('\n');
}

/** Cut lines longer than `w` every `w` characters (a terminal's hard wrap copied as is). */
function hardWrap(t: string, w: number): string {
  return lines(t)
    .map((l) => {
      const out: string[] = [];
      for (let i = 0; i < l.length; i += w) out.push(l.slice(i, i + w));
      return out.length === 0 ? l : out.join('\n');
    })
    .join('\n');
}

/** Straight quotes as an autocorrecting editor writes them: `"x"` → `“x”`, `it's` → `it’s`, `'x'` → `‘x’`. */
function smartQuotes(t: string): string {
  return lines(t)
    .map((l) => {
      let open = true;
      let s = l.replace(/"/g, () => {
        const q = open ? '\u201c' : '\u201d';
        open = !open;
        return q;
      });
      s = s.replace(/(?<=[A-Za-z])'(?=[A-Za-z])/g, '\u2019');
      let sOpen = true;
      s = s.replace(/'/g, () => {
        const q = sOpen ? '\u2018' : '\u2019';
        sOpen = !sOpen;
        return q;
      });
      return s;
    })
    .join('\n');
}

export const TRANSFORMS: Transform[] = [
  { name: 'fence', on: 'text', apply: (t) => `\`\`\`\n${t}\n\`\`\`` },
  { name: 'fence-lang', on: 'text', apply: (t) => `\`\`\`console\n${t}\n\`\`\`` },
  {
    name: 'blockquote',
    on: 'text',
    apply: (t) =>
      lines(t)
        .map((l) => (l === '' ? '>' : `> ${l}`))
        .join('\n'),
  },
  { name: 'crlf', on: 'text', apply: (t) => (t.includes('\n') ? t.replace(/\n/g, '\r\n') : undefined) },
  {
    name: 'tabs',
    on: 'text',
    apply: (t) => {
      if (!/^ {4}/m.test(t)) return undefined;
      return t.replace(/^( {4})+/gm, (m) => '\t'.repeat(m.length / 4));
    },
  },
  {
    name: 'slack-escape',
    on: 'text',
    apply: (t) =>
      ENTITY_RE.test(t) || !/[<>&]/.test(t)
        ? undefined
        : t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'),
  },
  ...Object.entries(LEAD).map(
    ([lang, s]): Transform => ({
      name: `prose-before-same-line-${lang}`,
      on: 'text',
      apply: (t) => edgeLine(t, false, (l) => `${s} ${l.trimStart()}`),
    }),
  ),
  ...Object.entries(LEAD).map(
    ([lang, s]): Transform => ({ name: `prose-before-next-line-${lang}`, on: 'text', apply: (t) => `${s}\n${t}` }),
  ),
  ...Object.entries(TRAIL).map(
    ([lang, s]): Transform => ({
      name: `prose-after-same-line-${lang}`,
      on: 'text',
      apply: (t) => edgeLine(t, true, (l) => after(l, s)),
    }),
  ),
  ...Object.entries(TRAIL).map(
    ([lang, s]): Transform => ({ name: `prose-after-next-line-${lang}`, on: 'text', apply: (t) => `${t}\n${s}` }),
  ),
  // One logical line only: a JSON string holds its line breaks as `\n` escapes, which a multi-line paste's
  // messages then run together through (excluded: see surround.test.ts).
  {
    name: 'json-message',
    on: 'core',
    apply: (t) => (t.includes('\n') ? undefined : `{"message":${JSON.stringify(t)}}`),
  },
  {
    name: 'wrap-80-words',
    on: 'text',
    apply: (t) => {
      const w = wordWrap(t, 80);
      return w === t ? undefined : w;
    },
  },
  {
    name: 'wrap-80-hard',
    on: 'text',
    apply: (t) => {
      const w = hardWrap(t, 80);
      return w === t ? undefined : w;
    },
  },
  // A page's text extraction: the blocks (one finding's line each) glued with nothing between them.
  {
    name: 'html-flattened',
    on: 'core',
    apply: (t) => (t.includes('\n') ? t.replace(/\n+/g, '') : undefined),
  },
  {
    name: 'smart-quotes',
    on: 'text',
    apply: (t) => {
      const s = smartQuotes(t);
      return s === t ? undefined : s;
    },
  },
  { name: 'bullet-dash', on: 'core', apply: (t) => eachLine(t, (l) => `- ${l.trimStart()}`) },
  { name: 'bullet-star', on: 'core', apply: (t) => eachLine(t, (l) => `* ${l.trimStart()}`) },
  { name: 'bullet-number', on: 'core', apply: (t) => eachLine(t, (l) => `1. ${l.trimStart()}`) },
  {
    name: 'inline-code',
    on: 'core',
    apply: (t) => eachLine(t, (l) => (l.includes('`') ? undefined : `\`${l.trim()}\``)),
  },
  {
    name: 'bold',
    on: 'core',
    apply: (t) => eachLine(t, (l) => (l.includes('*') ? undefined : `**${l.trim()}**`)),
  },
  { name: 'log-iso', on: 'core', apply: (t) => eachLine(t, (l) => `2026-01-02T03:04:05.678Z ERROR ${l.trimStart()}`) },
  {
    name: 'log-klog',
    on: 'core',
    apply: (t) => eachLine(t, (l) => `E0102 03:04:05.678901   12345 file.go:123] ${l.trimStart()}`),
  },
  {
    name: 'table-cell',
    on: 'core',
    apply: (t) => {
      const rows = eachLine(t, (l) => (l.includes('|') ? undefined : `| ${l.trim()} |`));
      return rows === undefined ? undefined : `| Message |\n| --- |\n${rows}`;
    },
  },
];

export interface Subject {
  set: string;
  id: string;
  item: BlindItem;
  /** The logical lines of the normalized text that hold the findings, when they alone read right; else undefined. */
  core: string | undefined;
}

/** Every item of the paste-wild sets that reads right now (judge gives no diffs), with its message core. */
export function subjects(): Subject[] {
  const dir = join(import.meta.dirname, '..', 'fixtures', 'paste-wild');
  const out: Subject[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()) {
    const set = file.replace(/\.jsonl$/, '');
    for (const item of readSet(join(dir, file))) {
      const r = judge(item);
      if (!r.factsRight) continue;
      out.push({ set, id: `${set}/${item.id}`, item, core: coreOf(item, r.got) });
    }
  }
  return out;
}

function coreOf(item: BlindItem, got: Finding[]): string | undefined {
  if (item.expect.length === 0) return item.text;
  const ls = normalizePaste(item.text).split('\n');
  const keep = ls.filter((l) => got.some((f) => f.message !== '' && l.includes(f.message)));
  if (keep.length === 0) return undefined;
  const core = keep.join('\n');
  return judge({ ...item, text: core }).factsRight ? core : undefined;
}

/** Does the transformed text read as the labels say? Undefined where the transformation does not apply. */
export function holds(s: Subject, t: Transform): boolean | undefined {
  const base = t.on === 'core' ? s.core : s.item.text;
  if (base === undefined) return undefined;
  // A negative's per-line dressing rewrites the code or table it is a negative for: only a one-line negative.
  if (t.on === 'core' && s.item.expect.length === 0 && base.trim().includes('\n')) return undefined;
  const text = t.apply(base);
  if (text === undefined) return undefined;
  return judge({ ...s.item, text }).factsRight;
}
