/**
 * `quota-doctor quota <namespace>` (or `quota -n <namespace>`, as kubectl names a namespace): headroom of a
 * namespace — quotas, LimitRange defaults, how many more pods fit; `--nodes` adds the per-node table.
 *
 * Registration only (name, flags, help): the run is in quota.core.ts, imported when the command runs.
 */
import type { Command } from 'commander';
import type { Io, SetCode } from '../io.ts';
import { addOutputOptions, addSourceOptions } from '../options.ts';
import type { QuotaFlags } from './quota.core.ts';

export function register(program: Command, io: Io, setCode: SetCode): void {
  const cmd = addSourceOptions(
    program
      .command('quota')
      .description('headroom of a namespace: quotas, LimitRange defaults, how many more pods fit')
      .argument('[namespace]', 'the namespace (or -n)')
      .option('-n, --namespace <ns>', 'the namespace (same as the argument)')
      .option(
        '--nodes',
        'also print every node: allocatable / requested / free of what the namespace uses, and taints',
      ),
  );
  addOutputOptions(cmd).action(async (arg: string | undefined, flags: QuotaFlags) => {
    const { runQuota } = await import('./quota.core.ts');
    setCode(await runQuota(arg, flags, io));
  });
}
