/**
 * A policy engine's own words keep their backticks. The normalizer drops backticks as Markdown code spans
 * (normalize.ts), but a Gatekeeper or Kyverno message may hold them as printed (`Creating services of type
 * \`LoadBalancer\` without Internal annotation is not allowed`, `The label \`app\` is required`). A look-alike's
 * quoted message is put back as the paste has it: the raw line that, without its backticks, holds the message.
 * A backtick just after the message is kept only when one inside it is left open (a code span around the whole
 * message is Markdown's, not the engine's).
 */
import { type Match, writableFacts } from './finding.ts';

/**
 * Restore backticks in the quoted words (`message`, `reason`, each violation's `message`) of look-alikes, or cut them
 * at the close of the code span they start in. Whether any words changed.
 */
export function withBackticks(matches: Match[], raw: string): boolean {
  if (!raw.includes('`')) return false;
  let changed = false;
  let lines: Candidate[] | undefined;
  // The first 20 look-alikes: a paste of thousands is a log of the same few.
  let budget = 20;
  for (const m of matches) {
    if (m.layer !== 'other' || budget-- <= 0) continue;
    const facts = writableFacts(m);
    lines ??= candidateLines(raw);
    if (lines.length === 0) return changed;
    for (const key of ['message', 'reason'] as const) {
      const v = facts[key];
      if (typeof v !== 'string') continue;
      facts[key] = restored(v, lines);
      changed ||= facts[key] !== v;
    }
    const violations = facts.violations;
    if (Array.isArray(violations))
      for (const x of violations as Array<Record<string, unknown>>)
        if (typeof x.message === 'string') {
          const v = x.message;
          x.message = restored(v, lines);
          changed ||= x.message !== v;
        }
  }
  return changed;
}

/**
 * The raw lines holding a backtick, and each such line joined with its neighbours (a terminal's hard wrap cuts a
 * message over lines: joined with nothing between, or a blank for a soft wrap).
 */
/** A raw line and the same line without its backticks (computed once: every look-alike's words are sought in it). */
interface Candidate {
  line: string;
  bare: string;
}

function candidateLines(raw: string): Candidate[] {
  const all = raw.split(/\r\n|\r|\n/);
  const texts: string[] = [];
  for (let i = 0; i < all.length && texts.length < 600; i++) {
    if (!all[i]!.includes('`')) continue;
    texts.push(all[i]!);
    const from = Math.max(0, i - 2);
    const to = Math.min(all.length, i + 3);
    if (to - from > 1) {
      const piece = all.slice(from, to);
      texts.push(piece.join(''), piece.map((l) => l.trim()).join(' '));
    }
  }
  return texts.filter((line) => line.length <= 8192).map((line) => ({ line, bare: line.replace(/`/g, '') }));
}

function restored(words: string, lines: readonly Candidate[]): string {
  if (words.length < 8 || words.includes('`')) return words;
  for (const { line, bare } of lines) {
    const at = bare.indexOf(words);
    if (at < 0) continue;
    // Where each character of the bare line came from in the raw one.
    const from: number[] = [];
    for (let i = 0; i < line.length; i++) if (line[i] !== '`') from.push(i);
    const start = from[at]!;
    const last = from[at + words.length - 1]!;
    let out = line.slice(start, last + 1);
    // The words start inside a code span that closes within them (`` I got `admission webhook "x" denied the request:
    // bad pod`, and then it retried ``): the message is the span's, the rest the prose's.
    const close = out.indexOf('`');
    if (close > 0 && (line.slice(0, start).match(/`/g) ?? []).length % 2 === 1 && !out.startsWith('``', close)) {
      const cut = out.slice(0, close).trimEnd();
      if (cut.length >= 1) return cut;
    }
    const open = (out.match(/`/g) ?? []).length % 2 === 1;
    if (open && line[last + 1] === '`') out += '`';
    // A code span closed before the sentence's stop (`… are not allowed\`.`): the stop is the prose's.
    const stop = /`([.,;:!?]+)$/.exec(out);
    if (open && stop) return words.slice(0, words.length - stop[1]!.length);
    if (out === words) return words;
    // Only backticks may differ: the words must come back without them.
    return out.replace(/`/g, '') === words && (out.match(/`/g) ?? []).length % 2 === 0 ? out : words;
  }
  return words;
}
