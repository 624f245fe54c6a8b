/**
 * `quota-doctor whatif <question...>`: "what if web scales to 8", "what if node-3 goes down", …
 *
 * Registration only (name, flags, help): the run is in whatif.core.ts, imported when the command runs.
 */
import type { Command } from 'commander';
import type { Io, SetCode } from '../io.ts';
import { addOutputOptions, addSourceOptions, type Flags } from '../options.ts';

export function register(program: Command, io: Io, setCode: SetCode): void {
  const cmd = addSourceOptions(
    program
      .command('whatif')
      .description('answer a what-if: "what if web scales to 8", "what if node-3 goes down", …')
      .argument('<question...>')
      .option('-n, --namespace <ns>', 'namespace when the question names none'),
  );
  addOutputOptions(cmd).action(async (words: string[], flags: Flags) => {
    const { runWhatif } = await import('./whatif.core.ts');
    setCode(await runWhatif(words, flags, io));
  });
}
