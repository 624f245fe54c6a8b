/**
 * The CLI's layout: `src/cli/program.ts` holds the program, each command lives in its own
 * `src/cli/commands/<command>.ts`, and the program lists them in help order. A `<command>.core.ts` beside
 * it is that command's implementation, loaded when it runs (not a command of its own).
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.ts';
import { demoStatePath } from '../../src/cli/commands/start.ts';
import { ROOT, run } from './harness.ts';

const quiet = { stdout: () => {}, stderr: () => {}, readStdin: async () => '', isTTY: false };
const commandFiles = readdirSync(`${ROOT}/src/cli/commands`)
  .filter((f) => !f.endsWith('.core.ts'))
  .map((f) => f.replace(/\.ts$/, ''));

describe('one file per command', () => {
  it('the program has exactly the commands of src/cli/commands/, in help order', () => {
    const names = buildProgram(quiet, () => {}).commands.map((c) => c.name());
    expect(names).toEqual([
      'simulate',
      'check',
      'diagnose',
      'quota',
      'whatif',
      'console',
      'start',
      'serve',
      'mcp',
      'completion',
    ]);
    expect([...names].sort()).toEqual([...commandFiles].sort());
  });

  it('the demo cluster is found from commands/start.ts', () => {
    expect(demoStatePath()).toBe(`${ROOT}manifests/demo`);
  });

  it.each([
    ['simulate', 'Usage: quota-doctor simulate [options]'],
    ['check', 'Usage: quota-doctor check [options]'],
    ['diagnose', 'Usage: quota-doctor diagnose [options] [file]'],
    ['quota', 'Usage: quota-doctor quota [options] [namespace]'],
    ['whatif', 'Usage: quota-doctor whatif [options] <question...>'],
    ['console', 'Usage: quota-doctor console [options]'],
    ['start', 'Usage: quota-doctor start [options]'],
    ['serve', 'Usage: quota-doctor serve [options]'],
    ['mcp', 'Usage: quota-doctor mcp [options]'],
    ['completion', 'Usage: quota-doctor completion [options] <shell>'],
  ])('%s --help: exit 0, its usage line first', async (command, usage) => {
    const r = await run([command, '--help']);
    expect([r.code, r.stdout.split('\n')[0], r.stderr]).toEqual([0, usage, '']);
  });
});
