/**
 * `assertWithinSlackLimits(payload)`: the one check every test that produces a Slack payload runs.
 * Limits from docs.slack.dev/reference/block-kit/blocks (and docs/slack-and-client-node.md §A1):
 * ≤ 50 blocks; text objects 1–3000 characters (an empty one is invalid); header ≤ 150 plain_text;
 * section fields ≤ 10 × 2000; context ≤ 10 elements; message text truncated past 40,000; and a total
 * kept under 12,000 characters (`msg_blocks_too_long` has been seen near 13k, bolt-js#2509).
 * It also checks mrkdwn escaping: outside Slack's own `<@U…>`, `<#C…>`, `<!…>` and `<http…>` tokens
 * there is no bare `<` or `>`, and every `&` starts `&amp;`, `&lt;` or `&gt;`.
 */

export interface SlackLimitOptions {
  /** Total characters over all text in blocks (default 12,000). */
  maxTotalChars?: number;
}

const SLACK_TOKEN =
  /<(?:@[UW][A-Z0-9]+|#[CG][A-Z0-9]+(?:\|[^<>]*)?|![a-z^][^<>]*|(?:https?|mailto):[^<>\s]+(?:\|[^<>]*)?)>/g;

function fail(where: string, msg: string): never {
  throw new Error(`Slack limit: ${where}: ${msg}`);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function checkMrkdwn(where: string, text: string): void {
  const stripped = text.replace(SLACK_TOKEN, '');
  if (/[<>]/.test(stripped)) fail(where, `unescaped < or > in mrkdwn: ${JSON.stringify(text.slice(0, 200))}`);
  const amp = /&(?!amp;|lt;|gt;)/.exec(text);
  if (amp)
    fail(
      where,
      `unescaped & in mrkdwn at ${amp.index}: ${JSON.stringify(text.slice(Math.max(0, amp.index - 40), amp.index + 40))}`,
    );
}

function checkTextObject(where: string, t: unknown, max: number, types: string[] = ['plain_text', 'mrkdwn']): number {
  if (!isRecord(t)) fail(where, 'text object missing');
  if (typeof t.type !== 'string' || !types.includes(t.type))
    fail(where, `text type ${String(t.type)} not in ${types.join('|')}`);
  if (typeof t.text !== 'string') fail(where, 'text is not a string');
  if (t.text.length === 0) fail(where, 'empty text (invalid in Block Kit)');
  if (t.text.trim().length === 0) fail(where, 'whitespace-only text');
  if (t.text.length > max) fail(where, `text is ${t.text.length} characters, limit ${max}`);
  if (t.type === 'mrkdwn') checkMrkdwn(where, t.text);
  return t.text.length;
}

/** Throws an Error naming the first limit broken; returns the total characters in blocks. */
export function assertWithinSlackLimits(payload: unknown, opts: SlackLimitOptions = {}): number {
  const maxTotal = opts.maxTotalChars ?? 12_000;
  if (!isRecord(payload)) fail('payload', 'not an object');
  if (typeof payload.text !== 'string' || payload.text.trim() === '')
    fail('text', 'a non-empty fallback text is required');
  if (payload.text.length > 40_000) fail('text', `${payload.text.length} characters, Slack truncates past 40,000`);
  checkMrkdwn('text', payload.text);
  let blocks: unknown = payload.blocks;
  if (blocks === undefined) return 0;
  if (typeof blocks === 'string') blocks = JSON.parse(blocks) as unknown;
  if (!Array.isArray(blocks)) fail('blocks', 'not an array');
  if (blocks.length === 0) fail('blocks', 'empty list (send no blocks instead)');
  if (blocks.length > 50) fail('blocks', `${blocks.length} blocks, limit 50`);
  let total = 0;
  blocks.forEach((b: unknown, i: number) => {
    const where = `blocks[${i}]`;
    if (!isRecord(b)) fail(where, 'not an object');
    switch (b.type) {
      case 'header':
        total += checkTextObject(`${where}.text`, b.text, 150, ['plain_text']);
        break;
      case 'section': {
        if (b.text === undefined && b.fields === undefined) fail(where, 'a section needs text or fields');
        if (b.text !== undefined) total += checkTextObject(`${where}.text`, b.text, 3000);
        if (b.fields !== undefined) {
          if (!Array.isArray(b.fields) || b.fields.length > 10) fail(`${where}.fields`, 'at most 10 fields');
          b.fields.forEach((f: unknown, k: number) => {
            total += checkTextObject(`${where}.fields[${k}]`, f, 2000);
          });
        }
        break;
      }
      case 'context': {
        if (!Array.isArray(b.elements) || b.elements.length === 0 || b.elements.length > 10)
          fail(`${where}.elements`, '1 to 10 elements');
        b.elements.forEach((e: unknown, k: number) => {
          total += checkTextObject(`${where}.elements[${k}]`, e, 3000);
        });
        break;
      }
      case 'divider':
        break;
      case 'actions': {
        // Block Kit reference (actions block, button element): ≤ 25 elements; a button's text ≤ 75
        // characters of plain_text, action_id ≤ 255, value ≤ 2000.
        if (!Array.isArray(b.elements) || b.elements.length === 0 || b.elements.length > 25)
          fail(`${where}.elements`, '1 to 25 elements');
        b.elements.forEach((e: unknown, k: number) => {
          const at = `${where}.elements[${k}]`;
          if (!isRecord(e) || e.type !== 'button') fail(at, 'only buttons are used');
          checkTextObject(`${at}.text`, e.text, 75, ['plain_text']);
          if (typeof e.action_id !== 'string' || e.action_id.length > 255)
            fail(`${at}.action_id`, 'at most 255 characters');
          if (e.value !== undefined && (typeof e.value !== 'string' || e.value.length > 2000))
            fail(`${at}.value`, 'at most 2000 characters');
        });
        break;
      }
      default:
        fail(where, `unexpected block type ${String(b.type)}`);
    }
  });
  if (total > maxTotal) fail('blocks', `${total} characters in total, budget ${maxTotal}`);
  return total;
}
