/**
 * Every `quota-doctor …` command the README shows runs, against the files it names, and exits as the
 * README says (0, or 1 for a `check` that would fail) — the README stays true.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { main } from '../src/cli/program.ts';
import { capture } from './support/capture.ts';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
const commands = blocks
  .flatMap((b) => b.split('\n'))
  .map((l) => l.replace(/\s+#.*$/, '').trim())
  .filter((l) => l.startsWith('quota-doctor '));

/** Splits a shell line into words, honouring double quotes. */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

describe('README commands', () => {
  it('shows the CLI', () => {
    expect(commands.length).toBeGreaterThanOrEqual(5);
  });

  it.each(commands.map((c) => [c]))('%s', async (line) => {
    const io = capture();
    const argv = words(line).slice(1);
    const code = await main(argv, io);
    expect(io.err.join('')).toBe('');
    expect(argv[0] === 'check' ? [0, 1] : [0]).toContain(code);
    expect(io.out.join('').length).toBeGreaterThan(0);
  });
});
