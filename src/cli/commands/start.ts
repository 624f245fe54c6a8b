/**
 * `quota-doctor start` (`npm start`): the Slack app when SLACK_BOT_TOKEN is set, else the local console on
 * QUOTA_DOCTOR_STATE or the bundled demo cluster.
 */
import type { Command } from 'commander';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import type { Io, SetCode } from '../io.ts';

/** The bundled demo cluster (manifests/demo), for the console without a cluster. */
export function demoStatePath(): string {
  return fileURLToPath(new URL('../../../manifests/demo', import.meta.url));
}

export function register(program: Command, io: Io, setCode: SetCode): void {
  program
    .command('start')
    .description('Slack app when SLACK_BOT_TOKEN is set, else the local console on the demo cluster')
    .option('-n, --namespace <ns>', 'default namespace of the console')
    .action(async (flags: { namespace?: string }) => {
      if (process.env.SLACK_BOT_TOKEN) {
        // Loaded only when needed: the other commands never load Bolt.
        const { serve } = await import('../../serve.ts');
        setCode(await serve(io));
      } else {
        const state = process.env.QUOTA_DOCTOR_STATE ?? (existsSync(demoStatePath()) ? demoStatePath() : undefined);
        const { runConsole } = await import('../console.ts');
        setCode(await runConsole(io, { state, namespace: flags.namespace }));
      }
    });
}
