/**
 * The formatting both renderers share (render/text.ts for the terminal, render/blocks.ts for Slack): the
 * admission path, headroom bars, aligned tables, and the words for who applies a fix. Plain strings in and
 * out; each renderer adds its own escaping, clipping and wrapping around them.
 */
import type { Bar, Fix, PathLayer, PathState } from '../answer/types.ts';

/** ✓ passed, ✗ stopped it, · not reached or not known. */
export const PATH_MARK: Record<PathState, string> = { pass: '✓', fail: '✗', unknown: '·' };

/** Who applies a fix, as the reply says it. */
export const WHO_WORDS: Record<Fix['who'], string> = { 'app-team': 'App team', platform: 'Platform' };

/** `LimitRange ✓ → ResourceQuota ✗ → Scheduler ·` */
export function pathLine(path: readonly { layer: PathLayer; state: PathState }[]): string {
  return path.map((p) => `${p.layer} ${PATH_MARK[p.state]}`).join(' → ');
}

/** `▰▰▰▱▱▱▱▱▱▱` for 0.3: `fraction` clamped to [0, 1] (not a number: empty), rounded to `width` cells. */
export function barGlyphs(fraction: number, width = 10): string {
  const f = Math.max(0, Math.min(1, Number.isFinite(fraction) ? fraction : 0));
  const full = Math.round(f * width);
  return '▰'.repeat(full) + '▱'.repeat(width - full);
}

/** Width in code points (what a monospace column counts for the text we print). */
export function textWidth(s: string): number {
  return [...s].length;
}

/** `s` padded with spaces to `n` code points (never cut). */
export function padEnd(s: string, n: number): string {
  const w = textWidth(s);
  return w >= n ? s : s + ' '.repeat(n - w);
}

/** The header and rows as aligned lines: columns two spaces apart, the last one unpadded, no trailing spaces. */
export function tableLines(columns: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = columns.map((c, i) => Math.max(textWidth(c), ...rows.map((r) => textWidth(r[i] ?? ''))));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : padEnd(c, widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(columns), ...rows.map(line)];
}

/** One line per bar: `label  ▰▰▱▱▱▱▱▱▱▱  used / hard  free free   note`, labels and amounts aligned. */
export function barLines(bars: readonly Bar[]): string[] {
  const lw = Math.max(...bars.map((b) => textWidth(b.label)));
  const uw = Math.max(...bars.map((b) => textWidth(`${b.used} / ${b.hard}`)));
  return bars.map(
    (b) =>
      `${padEnd(b.label, lw)}  ${barGlyphs(b.fraction)}  ${padEnd(`${b.used} / ${b.hard}`, uw)}  ${b.free} free${b.note ? `   ${b.note}` : ''}`,
  );
}
