/**
 * `quota-doctor quota <namespace>` (or `quota -n <namespace>`, as kubectl names a namespace): headroom of a
 * namespace — quotas, LimitRange defaults, how many more pods fit.
 *
 * Registration only (name, flags, help): the run is in quota.core.ts, imported when the command runs.
 */
import type { Command } from 'commander';
import type { Io, SetCode } from '../io.ts';
import { addOutputOptions, addSourceOptions, type Flags } from '../options.ts';

export function register(program: Command, io: Io, setCode: SetCode): void {
  const cmd = addSourceOptions(
    program
      .command('quota')
      .description('headroom of a namespace: quotas, LimitRange defaults, how many more pods fit')
      .argument('[namespace]', 'the namespace (or -n)')
      .option('-n, --namespace <ns>', 'the namespace (same as the argument)'),
  );
  addOutputOptions(cmd).action(async (arg: string | undefined, flags: Flags) => {
    const { runQuota } = await import('./quota.core.ts');
    setCode(await runQuota(arg, flags, io));
  });
}
