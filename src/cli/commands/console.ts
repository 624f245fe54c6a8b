/** `quota-doctor console`: chat with the bot in the terminal (the chat itself is in ../console.ts). */
import type { Command } from 'commander';
import type { Io, SetCode } from '../io.ts';
import { addSourceOptions, type Flags } from '../options.ts';

export function register(program: Command, io: Io, setCode: SetCode): void {
  addSourceOptions(
    program
      .command('console')
      .description('chat with the bot in the terminal (the demo cluster unless --state or a kubeconfig is given)')
      .option('-n, --namespace <ns>', 'default namespace'),
  ).action(async (flags: Flags) => {
    // Loaded only when it runs: the chat pulls the whole answerer.
    const { runConsole } = await import('../console.ts');
    setCode(await runConsole(io, flags));
  });
}
