/** `quota-doctor quota <namespace>`: headroom of a namespace — quotas, LimitRange defaults, how many more pods fit. */
import type { Command } from 'commander';
import { openSource, type ClusterSource } from '../../answer/sources.ts';
import type { Answer } from '../../answer/types.ts';
import { UsageError } from '../../answer/errors.ts';
import { quotaAnswer } from '../../answer/index.ts';
import { headroomJson, type Headroom } from '../../answer/simulation.ts';
import { renderAnswer } from '../../render/text.ts';
import type { Io, SetCode } from '../io.ts';
import { addSourceOptions, failOnUnreadableState, type Flags } from '../options.ts';

/** The command's core, shared with the MCP `quota` tool: the namespace's headroom (its `json` is a Headroom). */
export async function quotaWith(source: ClusterSource, ns: string): Promise<Answer> {
  const loaded = await source.load({ namespaces: [ns] });
  failOnUnreadableState(loaded.errors);
  if (!loaded.snapshot.hasNamespace(ns)) throw new UsageError(`namespace ${ns} not found`);
  return quotaAnswer(loaded.snapshot, ns, Date.now());
}

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
      const a = await quotaWith(source, ns);
      if (flags.json) io.stdout(JSON.stringify(headroomJson(a.json as Headroom), null, 2) + '\n');
      else io.stdout(renderAnswer(a) + '\n');
      setCode(0);
    } finally {
      await source.close();
    }
  });
}
