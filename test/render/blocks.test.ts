import type { KnownBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import { emptyReply, type Answer, type Fix, type Reply } from '../../src/answer/types.ts';
import { barGlyphs, clip, escapeMrkdwn, LIMITS, pathLine, renderBlocks, type Block } from '../../src/render/blocks.ts';
import { assertWithinSlackLimits } from '../support/slack-limits.ts';

function reply(kind: Reply['kind'], icon: string, headline: string, extra: Partial<Reply> = {}): Reply {
  return { ...emptyReply(kind, icon, headline), ...extra };
}

function answer(...replies: Reply[]): Answer {
  return { replies, namespaces: ['team-a'] };
}

function texts(blocks: Block[]): string[] {
  return blocks.map((b) => {
    switch (b.type) {
      case 'header':
      case 'section':
        return `${b.type}: ${b.text.text}`;
      case 'context':
        return `context: ${b.elements.map((e) => e.text).join(' | ')}`;
      default:
        return b.type;
    }
  });
}

const fix = (who: Fix['who'], summary: string, extra: Partial<Fix> = {}): Fix => ({
  who,
  summary,
  verified: true,
  ...extra,
});

const exceeded = reply('diagnosis', '🚫', 'Rejected at admission — ResourceQuota team-quota (team-a)', {
  path: [
    { layer: 'LimitRange', state: 'pass' },
    { layer: 'ResourceQuota', state: 'fail' },
    { layer: 'Scheduler', state: 'unknown' },
  ],
  table: { columns: ['resource', 'requested', 'used', 'hard', 'free'], rows: [['requests.cpu', '2', '9', '10', '1']] },
  lines: [
    'Now: used 9500m (+500m since the error).',
    'Holding it: deploy/batch-worker 6 × 1 = 6 · deploy/api 3 × 1 = 3',
  ],
  fixes: [
    fix('app-team', 'lower requests.cpu of container app to ≤ 500m', {
      change: 'kubectl -n team-a set resources deploy/web -c app --requests=cpu=500m',
      outcome: 'admitted, fits node pool-a-3',
    }),
    fix('platform', 'raise team-quota requests.cpu to 11', { outcome: 'admitted' }),
    fix('app-team', 'an unverified idea', { verified: false }),
  ],
  why: 'Quota counts requests, not usage: idle pods hold it too.',
  raw: 'pods "web-7c5d-abcde" is forbidden: exceeded quota: team-quota, requested: requests.cpu=2, used: requests.cpu=9, limited: requests.cpu=10',
  gaps: ["couldn't read nodes (RBAC)"],
});

describe('renderBlocks', () => {
  it('renders a diagnosis in the order of docs/replies.md: layer, path, numbers, body, fixes, why, raw, gaps', () => {
    const p = renderBlocks(answer(exceeded));
    expect(texts(p.blocks)).toEqual([
      'header: 🚫 Rejected at admission — ResourceQuota team-quota (team-a)',
      'context: LimitRange ✓ → ResourceQuota ✗ → Scheduler ·',
      'section: ```\nresource      requested  used  hard  free\nrequests.cpu  2          9     10    1\n```',
      'section: Now: used 9500m (+500m since the error).\nHolding it: deploy/batch-worker 6 × 1 = 6 · deploy/api 3 × 1 = 3',
      'section: *Fixes*\n*1. App team* · lower requests.cpu of container app to ≤ 500m\n✓ verified — admitted, fits node pool-a-3\n```\nkubectl -n team-a set resources deploy/web -c app --requests=cpu=500m\n```\n\n*2. Platform* · raise team-quota requests.cpu to 11\n✓ verified — admitted',
      'section: *Why:* Quota counts requests, not usage: idle pods hold it too.',
      'context: Kubernetes said: pods "web-7c5d-abcde" is forbidden: exceeded quota: team-quota, requested: requests.cpu=2, used: requests.cpu=9, limited: requests.cpu=10',
      "context: ⚠ couldn't read nodes (RBAC)",
    ]);
    expect(p.blocks[0]).toEqual({
      type: 'header',
      text: { type: 'plain_text', text: '🚫 Rejected at admission — ResourceQuota team-quota (team-a)', emoji: true },
    });
    expect(p.text).toBe(
      '🚫 Rejected at admission — ResourceQuota team-quota (team-a)\nLimitRange ✓ → ResourceQuota ✗ → Scheduler ·\nNow: used 9500m (+500m since the error).\nHolding it: deploy/batch-worker 6 × 1 = 6 · deploy/api 3 × 1 = 3',
    );
    assertWithinSlackLimits(p);
  });

  it('renders headroom bars (▰▱) aligned in a monospace section', () => {
    const r = reply('headroom', '📊', 'team-a — 2 ResourceQuotas, 1 LimitRange', {
      bars: [
        { label: 'requests.cpu', used: '8', hard: '10', free: '2', fraction: 0.8 },
        { label: 'limits.memory', used: '16Gi', hard: '40Gi', free: '24Gi', fraction: 0.4 },
        { label: 'pods', used: '47', hard: '50', free: '3', fraction: 0.94, note: '← tightest' },
      ],
      lines: ['Largest pod that schedules now: 3500m / 12Gi, on node-7.'],
    });
    const p = renderBlocks(answer(r));
    expect(texts(p.blocks)).toEqual([
      'header: 📊 team-a — 2 ResourceQuotas, 1 LimitRange',
      'section: ```\nrequests.cpu   ▰▰▰▰▰▰▰▰▱▱  8 / 10       2 free\nlimits.memory  ▰▰▰▰▱▱▱▱▱▱  16Gi / 40Gi  24Gi free\npods           ▰▰▰▰▰▰▰▰▰▱  47 / 50      3 free   ← tightest\n```',
      'section: Largest pod that schedules now: 3500m / 12Gi, on node-7.',
    ]);
    assertWithinSlackLimits(p);
  });

  it.each([
    ['help', '❓', 'I can explain pasted Kubernetes errors and /quota NAMESPACE'],
    ['refusal', '🔒', "Sorry — this channel isn't set up to see that"],
    ['error', '⚠️', 'The cluster did not answer in time'],
    ['info', 'ℹ️', 'Nothing in team-a is Pending'],
    ['whatif', '🔮', 'web 4 → 8 replicas in team-a'],
    ['simulation', '🧪', 'Pod web would be admitted'],
  ] as const)('renders a %s reply with a header and a plain fallback', (kind, icon, headline) => {
    const p = renderBlocks(answer(reply(kind, icon, headline, { lines: ['one line'] })));
    expect(texts(p.blocks)).toEqual([`header: ${icon} ${headline}`, 'section: one line']);
    expect(p.text).toBe(`${escapeMrkdwn(`${icon} ${headline}`)}\none line`);
    assertWithinSlackLimits(p);
  });

  it('escapes & < > in user-derived text and nothing else', () => {
    const r = reply('diagnosis', '🚫', 'Rejected <script> & co', {
      lines: ['image <none> & tag > 3 *bold* _it_ `code`'],
      table: { columns: ['a<b'], rows: [['x&y']] },
      fixes: [fix('app-team', 'set a < b', { change: 'echo "a" > /tmp/x && true', outcome: 'fits <node-1>' })],
      raw: 'error: <@U123> & <http://x|y>',
    });
    const p = renderBlocks(answer(r));
    expect(texts(p.blocks)).toEqual([
      'header: 🚫 Rejected <script> & co',
      'section: ```\na&lt;b\nx&amp;y\n```',
      'section: image &lt;none&gt; &amp; tag &gt; 3 *bold* _it_ `code`',
      'section: *Fixes*\n*1. App team* · set a &lt; b\n✓ verified — fits &lt;node-1&gt;\n```\necho "a" &gt; /tmp/x &amp;&amp; true\n```',
      'context: Kubernetes said: error: &lt;@U123&gt; &amp; &lt;http://x|y&gt;',
    ]);
    expect(p.text).toBe('🚫 Rejected &lt;script&gt; &amp; co\nimage &lt;none&gt; &amp; tag &gt; 3 *bold* _it_ `code`');
    assertWithinSlackLimits(p);
  });

  it('cuts long lists with "and N more"', () => {
    const r = reply('headroom', '📊', 'big', {
      table: { columns: ['pod', 'cpu'], rows: Array.from({ length: 30 }, (_, i) => [`pod-${i}`, '1']) },
      lines: Array.from({ length: 40 }, (_, i) => `line ${i}`),
      fixes: Array.from({ length: 8 }, (_, i) => fix('app-team', `fix ${i}`)),
      gaps: Array.from({ length: 7 }, (_, i) => `gap ${i}`),
    });
    const p = renderBlocks(answer(r));
    const t = texts(p.blocks);
    expect(t[1]).toContain(`pod-${LIMITS.tableRows - 1}  1\nand 18 more rows\n\`\`\``);
    expect(t[1]).not.toContain(`pod-${LIMITS.tableRows} `);
    expect(t[2]).toMatch(/line 14\n_and 25 more lines_$/);
    expect(t[3]).toMatch(/\*5\. App team\* · fix 4\n✓ verified\n\n_and 3 more fixes_$/);
    expect(t[4]).toBe('context: ⚠ gap 0 · gap 1 · gap 2 · gap 3 · gap 4 · and 2 more gaps');
    assertWithinSlackLimits(p);
  });

  it('never shows an unverified fix', () => {
    const r = reply('diagnosis', '🚫', 'x', { fixes: [fix('platform', 'guess', { verified: false })] });
    expect(texts(renderBlocks(answer(r)).blocks)).toEqual(['header: 🚫 x']);
  });

  it('keeps 60 findings within 50 blocks and the character budget, saying how many were cut', () => {
    const many = Array.from({ length: 60 }, (_, i) => ({ ...exceeded, headline: `finding ${i}` }));
    const p = renderBlocks(answer(...many));
    expect(p.blocks.length).toBeLessThanOrEqual(50);
    const last = p.blocks[p.blocks.length - 1]!;
    expect(last.type).toBe('context');
    const shownHeaders = p.blocks.filter((b) => b.type === 'header').length;
    const note = texts([last])[0]!;
    const m = /and (\d+) more findings/.exec(note);
    expect(m).not.toBeNull();
    // a shortened finding is shown (its header counts) and not among the "more"
    expect(shownHeaders + Number(m![1])).toBe(60);
    expect(note).toBe(
      `context: ✂️ Cut to fit Slack: the last finding was shortened, and ${60 - shownHeaders} more findings. The CLI (\`quota-doctor diagnose\`) shows everything.`,
    );
    expect(p.text.split('\n')).toEqual([
      '🚫 finding 0',
      '🚫 finding 1',
      '🚫 finding 2',
      '🚫 finding 3',
      '🚫 finding 4',
      'and 55 more findings',
    ]);
    assertWithinSlackLimits(p, { maxTotalChars: LIMITS.totalChars });
  });

  it('clips huge single values: header ≤ 150, sections ≤ 3000, total within budget', () => {
    const huge = 'x'.repeat(20_000);
    const r = reply('diagnosis', '🚫', huge, {
      lines: [huge, huge],
      why: huge,
      raw: '<&>'.repeat(5000),
      fixes: [fix('platform', huge, { change: huge, outcome: huge })],
      table: { columns: ['c'], rows: [[huge]] },
    });
    const p = renderBlocks(answer(r, r));
    const total = assertWithinSlackLimits(p, { maxTotalChars: LIMITS.totalChars });
    expect(total).toBeLessThanOrEqual(LIMITS.totalChars);
    expect((p.blocks[0] as { text: { text: string } }).text.text.length).toBe(150);
    expect(p.text.length).toBeLessThanOrEqual(LIMITS.fallbackText);
  });

  it('always has a fallback text, even for an empty answer', () => {
    const p = renderBlocks({ replies: [], namespaces: [] });
    expect(p).toEqual({
      text: 'ℹ️ Nothing to report.',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'ℹ️ Nothing to report.' } }],
    });
    assertWithinSlackLimits(p);
  });

  it('keeps triple backticks in a change from closing the code block', () => {
    const r = reply('diagnosis', '🚫', 'x', { fixes: [fix('app-team', 's', { change: 'a ``` b' })] });
    expect(texts(renderBlocks(answer(r)).blocks)[1]).toBe(
      'section: *Fixes*\n*1. App team* · s\n✓ verified\n```\na `\u200b`` b\n```',
    );
  });
});

describe('pieces', () => {
  it.each([
    [0, '▱▱▱▱▱▱▱▱▱▱'],
    [0.04, '▱▱▱▱▱▱▱▱▱▱'],
    [0.05, '▰▱▱▱▱▱▱▱▱▱'],
    [0.8, '▰▰▰▰▰▰▰▰▱▱'],
    [1, '▰▰▰▰▰▰▰▰▰▰'],
    [1.7, '▰▰▰▰▰▰▰▰▰▰'],
    [-1, '▱▱▱▱▱▱▱▱▱▱'],
    [Number.NaN, '▱▱▱▱▱▱▱▱▱▱'],
  ])('barGlyphs(%s) = %s', (f, s) => expect(barGlyphs(f)).toBe(s));

  it('pathLine marks pass ✓, fail ✗, unknown ·', () => {
    expect(
      pathLine([
        { layer: 'LimitRange', state: 'pass' },
        { layer: 'ResourceQuota', state: 'pass' },
        { layer: 'Scheduler', state: 'fail' },
      ]),
    ).toBe('LimitRange ✓ → ResourceQuota ✓ → Scheduler ✗');
  });

  it.each([
    ['abc', 3, 'abc'],
    ['abcd', 3, 'ab…'],
    ['a&amp;b', 4, 'a…'],
    ['😀😀😀', 4, '😀…'],
  ])('clip(%j, %i) = %j', (s, n, out) => expect(clip(s, n)).toBe(out));
});

describe('Block Kit types', () => {
  it('every block renderBlocks builds is a @slack/types KnownBlock (the assignment is checked by tsc)', () => {
    const r = emptyReply('info', 'ℹ️', 'headline');
    r.lines.push('a line');
    const blocks: KnownBlock[] = renderBlocks({ replies: [r], namespaces: [] }).blocks;
    expect(blocks.map((b) => b.type)).toEqual(
      blocks.map((b) => b.type).filter((t) => ['header', 'section', 'context', 'divider'].includes(t)),
    );
    expect(blocks[0]?.type).toBe('header');
  });
});
