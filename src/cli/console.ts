/**
 * `npm start` without Slack tokens: the same bot in a terminal. Interactive on a TTY (a greeting with
 * three things to try from the demo's own troubles); piped stdin is read whole as one message,
 * answered, and the process exits (`kubectl describe pod web | npm start -s`).
 */
import { createInterface } from 'node:readline';
import { createAnswerer } from '../answer/index.ts';
import { openSource, type SourceFlags } from '../answer/sources.ts';
import { renderAnswer } from '../render/text.ts';
import type { Io } from './main.ts';
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
  const source = await openSource(flags);
  const ctx: AskContext = { source, defaultNamespace: flags.namespace, now: Date.now() };
  try {
    if (!io.isTTY) {
      const text = await io.readStdin();
      if (!text.trim()) {
        io.stdout('Nothing to answer: paste an error, an event, a manifest, or ask a question.\n');
        return 0;
      }
      io.stdout(renderAnswer(await answerLine(text, { ...ctx, now: Date.now() })) + '\n');
      return 0;
    }
    io.stdout(`quota-doctor console — ${source.describe()}\nPaste an error or a manifest, or ask. Try:\n${GREETING_EXAMPLES.map((e) => `  ${e}`).join('\n')}\nA blank line sends a multi-line paste; Ctrl-D quits.\n\n`);
    const rl = createInterface({ input: process.stdin, output: process.stdout, prompt: 'quota-doctor> ' });
    let buffer: string[] = [];
    rl.prompt();
    for await (const line of rl) {
      if (line.trim() === '' && buffer.length === 0) {
        rl.prompt();
        continue;
      }
      buffer.push(line);
      // Single-line questions answer at once; pastes (several lines) wait for a blank line.
      if (line.trim() !== '' && buffer.length === 1 && !/[:{]\s*$/.test(line) && !/^\s*(apiVersion|kind|---)/.test(line)) {
        // fall through to answer
      } else if (line.trim() !== '') {
        continue;
      }
      const text = buffer.join('\n');
      buffer = [];
      if (/^(quit|exit)$/i.test(text.trim())) break;
      try {
        io.stdout(renderAnswer(await answerLine(text, { ...ctx, now: Date.now() })) + '\n\n');
      } catch (e) {
        io.stdout(`⚠️ ${e instanceof Error ? e.message : String(e)}\n\n`);
      }
      rl.prompt();
    }
    return 0;
  } finally {
    await source.close();
  }
}
