import { describe, expect, it } from 'vitest';
import {
  barGlyphs,
  barLines,
  padEnd,
  pathLine,
  PATH_MARK,
  tableLines,
  textWidth,
  WHO_WORDS,
} from '../../src/render/layout.ts';
import type { Bar } from '../../src/answer/types.ts';

describe('layout: the formatting both renderers share', () => {
  it.each([
    [[], ''],
    [[{ layer: 'LimitRange', state: 'pass' }], 'LimitRange ✓'],
    [
      [
        { layer: 'LimitRange', state: 'pass' },
        { layer: 'ResourceQuota', state: 'fail' },
        { layer: 'Scheduler', state: 'unknown' },
      ],
      'LimitRange ✓ → ResourceQuota ✗ → Scheduler ·',
    ],
  ] as const)('pathLine %#', (path, want) => expect(pathLine(path)).toBe(want));

  it('marks and who-words', () => {
    expect(PATH_MARK).toEqual({ pass: '✓', fail: '✗', unknown: '·' });
    expect(WHO_WORDS).toEqual({ 'app-team': 'App team', platform: 'Platform' });
  });

  it.each([
    [0, 10, '▱▱▱▱▱▱▱▱▱▱'],
    [0.04, 10, '▱▱▱▱▱▱▱▱▱▱'],
    [0.05, 10, '▰▱▱▱▱▱▱▱▱▱'],
    [0.5, 10, '▰▰▰▰▰▱▱▱▱▱'],
    [1, 10, '▰▰▰▰▰▰▰▰▰▰'],
    [7, 10, '▰▰▰▰▰▰▰▰▰▰'],
    [-1, 10, '▱▱▱▱▱▱▱▱▱▱'],
    [Number.NaN, 10, '▱▱▱▱▱▱▱▱▱▱'],
    [Number.POSITIVE_INFINITY, 10, '▱▱▱▱▱▱▱▱▱▱'],
    [0.5, 4, '▰▰▱▱'],
  ])('barGlyphs(%s, %s) = %s', (f, w, want) => expect(barGlyphs(f, w)).toBe(want));

  it.each([
    ['abc', 3, 5, 'abc  '],
    ['abcdef', 6, 3, 'abcdef'],
    ['✓x', 2, 4, '✓x  '],
    ['😀', 1, 3, '😀  '],
    ['', 0, 2, '  '],
  ])('textWidth(%j) = %s, padEnd to %s = %j', (s, w, n, want) => {
    expect(textWidth(s)).toBe(w);
    expect(padEnd(s, n)).toBe(want);
  });

  it('tableLines aligns every column but the last, two spaces apart, without trailing spaces', () => {
    expect(
      tableLines(
        ['Resource', 'Used', 'Hard'],
        [
          ['requests.cpu', '900m', '1'],
          ['pods', '10', '10'],
          ['x', '', ''],
        ],
      ),
    ).toEqual(['Resource      Used  Hard', 'requests.cpu  900m  1', 'pods          10    10', 'x']);
    expect(tableLines(['A'], [])).toEqual(['A']);
    expect(tableLines(['Name', 'Note'], [['é😀', 'z'], ['ab']])).toEqual(['Name  Note', 'é😀    z', 'ab']);
  });

  it('barLines aligns labels and amounts, and adds the note', () => {
    const bars: Bar[] = [
      { label: 'requests.cpu', used: '900m', hard: '1', free: '100m', fraction: 0.9, note: '← tightest' },
      { label: 'pods', used: '3', hard: '10', free: '7', fraction: 0.3 },
    ];
    expect(barLines(bars)).toEqual([
      'requests.cpu  ▰▰▰▰▰▰▰▰▰▱  900m / 1  100m free   ← tightest',
      'pods          ▰▰▰▱▱▱▱▱▱▱  3 / 10    7 free',
    ]);
    expect(barLines([])).toEqual([]);
  });
});
