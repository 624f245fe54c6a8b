/** `quota-doctor serve` (the container's entrypoint): run the Slack app, HTTP or Socket Mode from the environment. */
import type { Command } from 'commander';
import type { Io, SetCode } from '../io.ts';

export function register(program: Command, io: Io, setCode: SetCode): void {
  program
    .command('serve')
    .description('run the Slack app (HTTP or Socket Mode, from the environment)')
    .action(async () => {
      // Loaded only when needed: the other commands never load Bolt.
      const { serve } = await import('../../serve.ts');
      setCode(await serve(io));
    });
}
