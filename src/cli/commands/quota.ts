/** `quota-doctor quota <namespace>`: headroom of a namespace — quotas, LimitRange defaults, how many more pods fit. */
import type { Command } from 'commander';
import { openSource } from '../../answer/sources.ts';
import { UsageError } from '../../answer/errors.ts';
import { quotaAnswer } from '../../answer/index.ts';
import { headroomJson, type Headroom } from '../../answer/simulation.ts';
import { renderAnswer } from '../../render/text.ts';
import type { Io, SetCode } from '../io.ts';
import { addSourceOptions, failOnUnreadableState, type Flags } from '../options.ts';

export function register(program: Command, io: Io, setCode: SetCode): void {
  addSourceOptions(
    program
      .command('quota')
      .description('headroom of a namespace: quotas, LimitRange defaults, how many more pods fit')
      .argument('<namespace>')
      .option('--json', 'print JSON (docs/contract.md)'),
  ).action(async (ns: string, flags: Flags) => {
    const source = await openSource(flags);
    try {
      const loaded = await source.load({ namespaces: [ns] });
      failOnUnreadableState(loaded.errors);
      if (!loaded.snapshot.hasNamespace(ns)) throw new UsageError(`namespace ${ns} not found`);
      const a = quotaAnswer(loaded.snapshot, ns, Date.now());
      if (flags.json) io.stdout(JSON.stringify(headroomJson(a.json as Headroom), null, 2) + '\n');
      else io.stdout(renderAnswer(a) + '\n');
      setCode(0);
    } finally {
      await source.close();
    }
  });
}
