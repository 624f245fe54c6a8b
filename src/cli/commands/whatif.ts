/** `quota-doctor whatif <question...>`: "what if web scales to 8", "what if node-3 goes down", … */
import type { Command } from 'commander';
import { openSource } from '../../answer/sources.ts';
import { createAnswerer } from '../../answer/index.ts';
import { renderAnswer } from '../../render/text.ts';
import type { Io, SetCode } from '../io.ts';
import { addOutputOptions, addSourceOptions, outputFormat, printData, type Flags } from '../options.ts';

export function register(program: Command, io: Io, setCode: SetCode): void {
  const cmd = addSourceOptions(
    program
      .command('whatif')
      .description('answer a what-if: "what if web scales to 8", "what if node-3 goes down", …')
      .argument('<question...>')
      .option('-n, --namespace <ns>', 'namespace when the question names none'),
  );
  addOutputOptions(cmd).action(async (words: string[], flags: Flags) => {
    const format = outputFormat(flags);
    const source = await openSource(flags);
    try {
      const answer = await createAnswerer().question(words.join(' '), { source, defaultNamespace: flags.namespace, now: Date.now() });
      if (format) printData(io, format, { replies: answer.replies });
      else io.stdout(renderAnswer(answer) + '\n');
      setCode(0);
    } finally {
      await source.close();
    }
  });
}
