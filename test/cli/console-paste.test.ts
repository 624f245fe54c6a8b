/**
 * The console reads a paste as one message whatever blank lines it holds (issue #17, deliver 7): lines
 * are gathered until the input idles (src/cli/console.ts `PasteReader`). Three ways in: the rule itself on
 * a fake clock, a terminal-like stream through the real readline (chunks as a pty delivers them), and
 * piped stdin (read whole).
 */
import { PassThrough } from 'node:stream';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PasteReader, runConsole } from '../../src/cli/console.ts';

const DEMO = fileURLToPath(new URL('../../manifests/demo', import.meta.url));

describe('PasteReader on a fake clock', () => {
  let t = 0;
  beforeEach(() => {
    vi.useFakeTimers();
    t = 0;
  });
  afterEach(() => vi.useRealTimers());

  /** Feeds [ms since the previous line, line] pairs, letting time pass between them; then idles 1 s. */
  function feed(steps: [number, string][]): { messages: string[]; prompts: number } {
    const messages: string[] = [];
    let prompts = 0;
    const r = new PasteReader(
      (m) => messages.push(m),
      () => prompts++,
      60,
      () => t,
    );
    for (const [gap, line] of steps) {
      t += gap;
      vi.advanceTimersByTime(gap);
      r.line(line);
    }
    t += 1000;
    vi.advanceTimersByTime(1000);
    return { messages, prompts };
  }

  const cases: { name: string; steps: [number, string][]; messages: string[]; prompts?: number }[] = [
    {
      name: 'describe output with blank lines, pasted in one burst: one message',
      steps: [
        [1000, 'Events:'],
        [1, '  Type     Reason            Age   From               Message'],
        [1, ''],
        [1, '  Warning  FailedScheduling  2m    default-scheduler  0/3 nodes are available: 3 Insufficient cpu.'],
        [1, ''],
        [1, ''],
        [1, 'Name: web-1'],
      ],
      messages: [
        'Events:\n  Type     Reason            Age   From               Message\n\n  Warning  FailedScheduling  2m    default-scheduler  0/3 nodes are available: 3 Insufficient cpu.\n\n\nName: web-1',
      ],
    },
    {
      name: 'two questions typed with a pause between: two messages',
      steps: [
        [1000, '/quota team-a'],
        [2000, 'why is web pending?'],
      ],
      messages: ['/quota team-a', 'why is web pending?'],
    },
    {
      name: 'a manifest waits through the idle for a blank line typed after a pause',
      steps: [
        [1000, 'apiVersion: v1'],
        [1, 'kind: Pod'],
        [1, ''],
        [1, 'metadata: {name: a}'],
        [500, 'spec:'],
        [1, '  containers: [{name: c, image: x}]'],
        [800, ''],
      ],
      messages: ['apiVersion: v1\nkind: Pod\n\nmetadata: {name: a}\nspec:\n  containers: [{name: c, image: x}]'],
    },
    {
      name: 'Enter with nothing gathered re-prompts and sends nothing',
      steps: [
        [1000, ''],
        [1000, '   '],
      ],
      messages: [],
      prompts: 2,
    },
    {
      name: 'trailing blank lines of a burst are not a second message',
      steps: [
        [1000, 'Error from server (Forbidden): exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1'],
        [1, ''],
        [1, ''],
        [900, ''],
      ],
      messages: ['Error from server (Forbidden): exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1'],
      prompts: 1,
    },
  ];
  it.each(cases)('$name', ({ steps, messages, prompts }) => {
    const got = feed(steps);
    expect(got.messages).toEqual(messages);
    if (prompts !== undefined) expect(got.prompts).toBe(prompts);
  });

  it('end() sends what was gathered (Ctrl-D before the idle)', () => {
    const messages: string[] = [];
    const r = new PasteReader(
      (m) => messages.push(m),
      undefined,
      60,
      () => t,
    );
    r.line('apiVersion: v1');
    r.line('');
    r.line('kind: Pod');
    r.end();
    expect(messages).toEqual(['apiVersion: v1\n\nkind: Pod']);
  });
});

describe('a terminal-like stream through readline', () => {
  it('a paste written in chunks (blank lines inside) is one message; a line typed later is another', async () => {
    const input = new PassThrough();
    const rl = createInterface({ input, terminal: false });
    const messages: string[] = [];
    const r = new PasteReader((m) => messages.push(m));
    rl.on('line', (l) => r.line(l));
    // A pty hands a paste over in a few chunks, split anywhere (here inside a line and across "\n\n").
    input.write('0/10 nodes are available: 1 node(s) were unschedulable,');
    input.write(' 6 Insufficient cpu.\n\n');
    input.write('\nEvents:\n  Warning  FailedScheduling  default-scheduler  (same)\n');
    await new Promise((res) => setTimeout(res, 250));
    input.write('/quota team-a\n');
    await new Promise((res) => setTimeout(res, 250));
    rl.close();
    r.end();
    expect(messages).toEqual([
      '0/10 nodes are available: 1 node(s) were unschedulable, 6 Insufficient cpu.\n\n\nEvents:\n  Warning  FailedScheduling  default-scheduler  (same)',
      '/quota team-a',
    ]);
  });
});

describe('piped stdin', () => {
  it('is read whole: a paste with blank lines gets one answer', async () => {
    const out: string[] = [];
    const text =
      'Events:\n\n  Warning  FailedCreate  replicaset/worker-5d8c7b9f4  Error creating: pods "worker-5d8c7b9f4-glpms" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10\n\n\n';
    const code = await runConsole(
      { stdout: (s) => out.push(s), stderr: () => {}, readStdin: async () => text, isTTY: false },
      { state: DEMO },
    );
    expect(code).toBe(0);
    expect(out).toHaveLength(1);
    expect(out[0]!.split('\n')[0]).toBe(
      '🚫 Rejected at admission — ResourceQuota team-quota — pod worker-5d8c7b9f4-glpms (team-a)',
    );
  });
});
