/**
 * Answer → Slack Block Kit, in the order of docs/replies.md: which layer stopped it (header
 * and path), the numbers (table, headroom bars), what to change (fixes: who, change, verified outcome),
 * then why, the exact Kubernetes text (a context block: one glance away, never the headline) and what
 * could not be seen. Pure: an Answer in, a payload out; it never computes a verdict.
 *
 * Slack limits (docs.slack.dev/reference/block-kit/blocks; docs/slack-and-client-node.md §A1): ≤ 50 blocks,
 * section text ≤ 3000, header ≤ 150, and `msg_blocks_too_long` has been seen near 13k characters in
 * total (bolt-js#2509), so the whole payload is budgeted well below that. Long lists are cut with
 * "and N more". User-derived text is escaped for mrkdwn: only & < > (anything more breaks links).
 */
import type {
  ContextBlock,
  DividerBlock,
  HeaderBlock,
  MrkdwnElement,
  PlainTextElement,
  SectionBlock,
} from '@slack/types';
import type { Answer, Bar, Fix, Reply } from '../answer/types.ts';
import { barLines, pathLine, tableLines, WHO_WORDS } from './layout.ts';

export { barGlyphs, pathLine } from './layout.ts';

export type PlainText = PlainTextElement;
export type Mrkdwn = MrkdwnElement;

/**
 * The four Block Kit blocks used, as @slack/types defines them (types only: nothing of Slack runs in
 * render/), narrowed to the text kinds we build so that `elements[i].text` reads without a guard.
 */
export type Block =
  | (Omit<HeaderBlock, 'text'> & { text: PlainTextElement })
  | (Omit<SectionBlock, 'text'> & { text: MrkdwnElement })
  | (Omit<ContextBlock, 'elements'> & { elements: MrkdwnElement[] })
  | DividerBlock;

export interface BlocksPayload {
  /** Plain fallback: notifications, screen readers, clients without blocks. Never empty. */
  text: string;
  blocks: Block[];
}

export const LIMITS = {
  blocks: 50,
  sectionText: 3000,
  headerText: 150,
  contextElements: 10,
  /** Our own budget for all text in the blocks (Slack fails near 13k; see the file comment). */
  totalChars: 10_000,
  /** The fallback `text` (Slack truncates at 40k; a notification needs far less). */
  fallbackText: 2000,
  tableRows: 12,
  bars: 12,
  lines: 15,
  fixes: 5,
  gaps: 5,
  lineChars: 500,
  changeChars: 1200,
  rawChars: 1500,
} as const;

/** Escapes user-derived text for mrkdwn: & < > and nothing else (Slack formatting reference). */
export function escapeMrkdwn(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Cuts to at most `max` UTF-16 units, on a code point, never inside an entity, ending in "…". */
export function clip(s: string, max: number): string {
  if (s.length <= max) return s;
  let out = '';
  for (const cp of s) {
    if (out.length + cp.length + 1 > max) break;
    out += cp;
  }
  out = out.replace(/&[a-z]{0,4}$/, '');
  return `${out}…`;
}

function more(n: number, what: string): string {
  return `and ${n} more ${what}`;
}

/** Triple backticks would close a code block early; a zero-width space keeps them literal. */
function codeSafe(s: string): string {
  return s.replace(/```/g, '`\u200b``');
}

/** The rows Slack shows (at most LIMITS.tableRows), aligned and clipped, then how many were left out. */
function shownTableLines(columns: string[], rows: string[][]): string[] {
  const shown = rows.slice(0, LIMITS.tableRows);
  const out = tableLines(columns, shown).map((l) => clip(l, LIMITS.lineChars));
  if (rows.length > shown.length)
    out.push(more(rows.length - shown.length, rows.length - shown.length === 1 ? 'row' : 'rows'));
  return out;
}

/** The bars Slack shows (at most LIMITS.bars), aligned and clipped, then how many were left out. */
function shownBarLines(bars: Bar[]): string[] {
  const shown = bars.slice(0, LIMITS.bars);
  const out = barLines(shown).map((l) => clip(l, LIMITS.lineChars));
  if (bars.length > shown.length) out.push(more(bars.length - shown.length, 'resources'));
  return out;
}

/**
 * Packs lines into as few section texts as fit in `limit` each (a code block when `code`), so a long
 * list becomes several sections instead of one over the limit.
 */
function packSections(lines: string[], code: boolean, limit: number = LIMITS.sectionText): string[] {
  const wrapLen = code ? 8 : 0;
  const texts: string[] = [];
  let cur: string[] = [];
  let len = 0;
  const flush = () => {
    if (cur.length === 0) return;
    const body = cur.join('\n');
    texts.push(code ? `\`\`\`\n${body}\n\`\`\`` : body);
    cur = [];
    len = 0;
  };
  for (const raw of lines) {
    const l = clip(code ? codeSafe(escapeMrkdwn(raw)) : raw, limit - wrapLen);
    const add = l.length + (cur.length ? 1 : 0);
    if (len + add + wrapLen > limit) flush();
    cur.push(l);
    len += l.length + (cur.length > 1 ? 1 : 0);
  }
  flush();
  return texts;
}

function section(text: string): Block {
  return { type: 'section', text: { type: 'mrkdwn', text } };
}

function context(text: string): Block {
  return { type: 'context', elements: [{ type: 'mrkdwn', text }] };
}

function fixText(f: Fix, i: number): string {
  const head = `*${i + 1}. ${WHO_WORDS[f.who]}* · ${clip(escapeMrkdwn(f.summary), LIMITS.lineChars)}`;
  const verdict = `✓ verified${f.outcome ? ` — ${clip(escapeMrkdwn(f.outcome), LIMITS.lineChars)}` : ''}`;
  const change = f.change ? `\n\`\`\`\n${clip(codeSafe(escapeMrkdwn(f.change)), LIMITS.changeChars)}\n\`\`\`` : '';
  const also = f.sideEffects?.length ? `\nalso: ${clip(escapeMrkdwn(f.sideEffects.join('; ')), LIMITS.lineChars)}` : '';
  return `${head}\n${verdict}${also}${change}`;
}

/** The blocks of one reply, in reading order. */
function replyBlocks(r: Reply): Block[] {
  const blocks: Block[] = [];
  blocks.push({
    type: 'header',
    text: {
      type: 'plain_text',
      text: clip(`${r.icon} ${r.headline}`.trim() || r.icon || 'quota-doctor', LIMITS.headerText),
      emoji: true,
    },
  });
  if (r.path && r.path.length > 0) blocks.push(context(pathLine(r.path)));
  if (r.table && r.table.rows.length > 0)
    for (const t of packSections(shownTableLines(r.table.columns, r.table.rows), true)) blocks.push(section(t));
  if (r.bars && r.bars.length > 0) for (const t of packSections(shownBarLines(r.bars), true)) blocks.push(section(t));
  if (r.lines.length > 0) {
    const shown = r.lines.slice(0, LIMITS.lines).map((l) => clip(escapeMrkdwn(l), LIMITS.lineChars));
    if (r.lines.length > shown.length) shown.push(`_${more(r.lines.length - shown.length, 'lines')}_`);
    for (const t of packSections(
      shown.filter((l) => l.trim() !== ''),
      false,
    ))
      blocks.push(section(t));
  }
  // Only re-simulated, passing fixes are ever offered (types.ts: unverified ones are never shown).
  const fixes = r.fixes.filter((f) => f.verified);
  if (fixes.length > 0) {
    const shown = fixes.slice(0, LIMITS.fixes).map(fixText);
    shown[0] = `*Fixes*\n${shown[0]}`;
    if (fixes.length > shown.length)
      shown.push(`_${more(fixes.length - shown.length, fixes.length - shown.length === 1 ? 'fix' : 'fixes')}_`);
    for (const t of packSectionsRaw(shown)) blocks.push(section(t));
  }
  if (r.why && r.why.trim() !== '') blocks.push(section(`*Why:* ${clip(escapeMrkdwn(r.why), LIMITS.sectionText - 8)}`));
  if (r.raw && r.raw.trim() !== '')
    blocks.push(context(`Kubernetes said: ${clip(escapeMrkdwn(r.raw.trim()), LIMITS.rawChars)}`));
  if (r.gaps.length > 0) {
    const shown = r.gaps.slice(0, LIMITS.gaps).map((g) => clip(escapeMrkdwn(g), LIMITS.lineChars));
    if (r.gaps.length > shown.length) shown.push(more(r.gaps.length - shown.length, 'gaps'));
    blocks.push(context(`⚠ ${shown.join(' · ')}`));
  }
  return blocks;
}

/** Packs already-formatted chunks (each ≤ 3000) into sections, joined by blank lines. */
function packSectionsRaw(chunks: string[]): string[] {
  const out: string[] = [];
  let cur = '';
  for (const c of chunks) {
    const chunk = clip(c, LIMITS.sectionText);
    if (cur && cur.length + 2 + chunk.length > LIMITS.sectionText) {
      out.push(cur);
      cur = '';
    }
    cur = cur ? `${cur}\n\n${chunk}` : chunk;
  }
  if (cur) out.push(cur);
  return out;
}

/** Characters a block contributes to the payload total. */
export function blockChars(b: Block): number {
  switch (b.type) {
    case 'header':
    case 'section':
      return b.text.text.length;
    case 'context':
      return b.elements.reduce((n, e) => n + e.text.length, 0);
    case 'divider':
      return 0;
  }
}

function fallbackText(answer: Answer): string {
  if (answer.replies.length === 0) return 'ℹ️ Nothing to report.';
  const heads = answer.replies.slice(0, 5).map((r) => escapeMrkdwn(`${r.icon} ${r.headline}`.trim()));
  if (answer.replies.length > 5) heads.push(more(answer.replies.length - 5, 'findings'));
  const first = answer.replies[0]!;
  const detail: string[] = [];
  if (answer.replies.length === 1) {
    if (first.path?.length) detail.push(pathLine(first.path));
    detail.push(...first.lines.slice(0, 3).map(escapeMrkdwn));
  }
  return clip([...heads, ...detail].join('\n'), LIMITS.fallbackText);
}

/**
 * Renders an answer. Replies are separated by dividers; when the next block would pass the block or
 * character budget, the rest is cut and a last context block says how much ("and N more findings").
 */
export function renderBlocks(answer: Answer): BlocksPayload {
  const text = fallbackText(answer);
  if (answer.replies.length === 0) return { text, blocks: [section(text)] };
  const blocks: Block[] = [];
  let chars = 0;
  // Room kept for the closing "cut" note: one block and a short line.
  const maxBlocks = LIMITS.blocks - 1;
  const maxChars = LIMITS.totalChars - 120;
  let cutAt = -1;
  let partial = false;
  for (let i = 0; i < answer.replies.length && cutAt < 0; i++) {
    const rb = replyBlocks(answer.replies[i]!);
    if (i > 0) rb.unshift({ type: 'divider' });
    for (let j = 0; j < rb.length; j++) {
      const b = rb[j]!;
      const n = blockChars(b);
      if (blocks.length + 1 > maxBlocks || chars + n > maxChars) {
        cutAt = i;
        partial = j > (i > 0 ? 1 : 0);
        break;
      }
      blocks.push(b);
      chars += n;
    }
  }
  if (cutAt >= 0) {
    const rest = answer.replies.length - cutAt - (partial ? 1 : 0);
    const notes: string[] = [];
    if (partial) notes.push('the last finding was shortened');
    if (rest > 0) notes.push(more(rest, rest === 1 ? 'finding' : 'findings'));
    // A divider that ends up last would separate nothing.
    if (blocks.length > 0 && blocks[blocks.length - 1]!.type === 'divider') blocks.pop();
    blocks.push(
      context(`✂️ Cut to fit Slack: ${notes.join(', ')}. The CLI (\`quota-doctor diagnose\`) shows everything.`),
    );
  }
  return { text, blocks };
}
