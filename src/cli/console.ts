/**
 * `npm start` without Slack tokens: the same bot in a terminal. Interactive on a TTY (a greeting with
 * three things to try from the demo's own troubles); piped stdin is read whole as one message,
 * answered, and the process exits (`kubectl describe pod web | npm start -s`).
 */
import { createInterface } from 'node:readline';
import { createAnswerer } from '../answer/index.ts';
import { openSource, type SourceFlags } from '../answer/sources.ts';
import { renderAnswer } from '../render/text.ts';
import type { Io } from './io.ts';
import type { AskContext } from '../answer/answerer.ts';
import type { Answer } from '../answer/types.ts';

const GREETING_EXAMPLES = [
  'Error creating: pods "worker-5d8c7b9f4-glpms" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10',
  '/quota team-a',
  'what if web scales to 8 in team-a?',
];

/** A console line: `/quota NS` is the slash command; anything else is a question or a paste. */
export async function answerLine(line: string, ctx: AskContext): Promise<Answer> {
  const answerer = createAnswerer();
  const m = /^\/quota(?:\s+(\S+))?\s*$/.exec(line.trim());
  if (m) return answerer.quota(m[1], ctx);
  const asMessage = await answerer.message(line, ctx);
  return asMessage ?? answerer.question(line, ctx);
}

export async function runConsole(io: Io, flags: SourceFlags & { namespace?: string }): Promise<number> {
  const source = await openSource({ ...flags, watch: io.isTTY });
  const ctx: AskContext = {
    source,
    defaultNamespace: flags.namespace ?? source.contextNamespace?.(),
    now: Date.now(),
  };
  try {
    if (!io.isTTY) {
      const text = await io.readStdin();
      if (!text.trim()) {
        io.stdout('Nothing to answer: paste an error, an event, a manifest, or ask a question.\n');
        return 0;
      }
      io.stdout(`${renderAnswer(await answerLine(text, { ...ctx, now: Date.now() }))}\n`);
      return 0;
    }
    io.stdout(
      `quota-doctor console — ${source.describe()}\nPaste an error or a manifest, or ask. Try:\n${GREETING_EXAMPLES.map((e) => `  ${e}`).join('\n')}\nA paste of many lines is one message (a manifest ends with a blank line); Ctrl-D quits.\n\n`,
    );
    const rl = createInterface({ input: process.stdin, output: process.stdout, prompt: 'quota-doctor> ' });
    // A terminal paste arrives as many lines within milliseconds: lines that come in one burst are one
    // message. A YAML manifest or a line ending in ':' waits for a blank line (pastes may pause).
    const BURST_MS = 60;
    let buffer: string[] = [];
    let timer: NodeJS.Timeout | undefined;
    let busy = Promise.resolve();
    let closed = false;
    const incomplete = () =>
      buffer.length > 0 &&
      (/^\s*(apiVersion|kind|---)/.test(buffer[0]!) || /[:{]\s*$/.test(buffer[buffer.length - 1]!));
    const send = () => {
      timer = undefined;
      const text = buffer.join('\n').trim();
      buffer = [];
      if (!text) return;
      if (/^(quit|exit)$/i.test(text)) {
        rl.close();
        return;
      }
      busy = busy.then(async () => {
        try {
          io.stdout(`${renderAnswer(await answerLine(text, { ...ctx, now: Date.now() }))}\n\n`);
        } catch (e) {
          io.stdout(`⚠️ ${e instanceof Error ? e.message : String(e)}\n\n`);
        }
        if (!closed) rl.prompt();
      });
    };
    rl.on('line', (line) => {
      if (timer) clearTimeout(timer);
      if (line.trim() === '') {
        if (buffer.length > 0) send();
        else rl.prompt();
        return;
      }
      buffer.push(line);
      if (!incomplete()) timer = setTimeout(send, BURST_MS);
    });
    rl.prompt();
    await new Promise<void>((resolve) => rl.once('close', () => resolve()));
    closed = true;
    if (timer) clearTimeout(timer);
    if (buffer.length) send();
    await busy;
    return 0;
  } finally {
    await source.close();
  }
}
