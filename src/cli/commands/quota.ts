/**
 * `quota-doctor quota <namespace>` (or `quota -n <namespace>`, as kubectl names a namespace): headroom of a
 * namespace — quotas, LimitRange defaults, how many more pods fit.
 */
import type { Command } from 'commander';
import { openSource } from '../../answer/sources.ts';
import { UsageError } from '../../answer/errors.ts';
import { quotaAnswer } from '../../answer/index.ts';
import { headroomJson, type Headroom } from '../../answer/simulation.ts';
import { renderAnswer } from '../../render/text.ts';
import type { Io, SetCode } from '../io.ts';
import { addOutputOptions, addSourceOptions, failOnUnreadableState, outputFormat, printData, type Flags } from '../options.ts';

/** The namespace from the argument or `-n`; both is fine when they agree. */
function namespaceOf(arg: string | undefined, flag: string | undefined): string {
  if (arg !== undefined && flag !== undefined && arg !== flag) throw new UsageError(`two namespaces: ${arg} and -n ${flag}`);
  const ns = arg ?? flag;
  if (ns === undefined) throw new UsageError('quota needs a namespace: quota-doctor quota NAMESPACE (or -n NAMESPACE)');
  return ns;
}

export function register(program: Command, io: Io, setCode: SetCode): void {
  const cmd = addSourceOptions(
    program
      .command('quota')
      .description('headroom of a namespace: quotas, LimitRange defaults, how many more pods fit')
      .argument('[namespace]', 'the namespace (or -n)')
      .option('-n, --namespace <ns>', 'the namespace (same as the argument)'),
  );
  addOutputOptions(cmd).action(async (arg: string | undefined, flags: Flags) => {
    const format = outputFormat(flags);
    const ns = namespaceOf(arg, flags.namespace);
    const source = await openSource(flags);
    try {
      const loaded = await source.load({ namespaces: [ns] });
      failOnUnreadableState(loaded.errors);
      if (!loaded.snapshot.hasNamespace(ns)) throw new UsageError(`namespace ${ns} not found`);
      const a = quotaAnswer(loaded.snapshot, ns, Date.now());
      if (format) printData(io, format, headroomJson(a.json as Headroom));
      else io.stdout(renderAnswer(a) + '\n');
      setCode(0);
    } finally {
      await source.close();
    }
  });
}
