/** `quota-doctor whatif <question...>`: "what if web scales to 8", "what if node-3 goes down", … */
import type { Command } from 'commander';
import { openSource, type ClusterSource } from '../../answer/sources.ts';
import type { Answer } from '../../answer/types.ts';
import { createAnswerer } from '../../answer/index.ts';
import { renderAnswer } from '../../render/text.ts';
import type { Io, SetCode } from '../io.ts';
import { addOutputOptions, addSourceOptions, outputFormat, printData, type Flags } from '../options.ts';

/**
 * The command's core, shared with the MCP `whatif` tool: the question answered by the Answerer, which applies
 * the access policy itself (`allowedNamespaces`; the CLI passes none: it sees everything).
 */
export function whatifWith(source: ClusterSource, input: { question: string; namespace?: string; allowedNamespaces?: readonly string[]; audience?: 'channel' | 'operator' }): Promise<Answer> {
  return createAnswerer().question(input.question, { source, defaultNamespace: input.namespace, now: Date.now(), allowedNamespaces: input.allowedNamespaces, audience: input.audience });
}

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
      const answer = await whatifWith(source, { question: words.join(' '), namespace: flags.namespace });
      if (format) printData(io, format, { replies: answer.replies });
      else io.stdout(renderAnswer(answer) + '\n');
      setCode(0);
    } finally {
      await source.close();
    }
  });
}
