/**
 * `quota`'s implementation (the command's registration, cheap, is in quota.ts): loaded by its action with a
 * dynamic import, and by the MCP `quota` tool.
 */
import { openSource, type ClusterSource } from '../../answer/sources.ts';
import type { Answer } from '../../answer/types.ts';
import { UsageError } from '../../answer/errors.ts';
import { quotaAnswer } from '../../answer/index.ts';
import { headroomJson, type Headroom } from '../../answer/simulation.ts';
import { renderAnswer } from '../../render/text.ts';
import type { Io } from '../io.ts';
import { failOnUnreadableState, outputFormat, printData, type Flags } from '../options.ts';

/** The namespace from the argument or `-n`; both is fine when they agree. */
function namespaceOf(arg: string | undefined, flag: string | undefined): string {
  if (arg !== undefined && flag !== undefined && arg !== flag)
    throw new UsageError(`two namespaces: ${arg} and -n ${flag}`);
  const ns = arg ?? flag;
  if (ns === undefined) throw new UsageError('quota needs a namespace: quota-doctor quota NAMESPACE (or -n NAMESPACE)');
  return ns;
}

export type QuotaFlags = Flags & { nodes?: boolean };

/**
 * The command's core, shared with the MCP `quota` tool: the namespace's headroom (its `json` is a Headroom);
 * with `nodes`, a second reply holds the full per-node table.
 */
export async function quotaWith(source: ClusterSource, ns: string, opts: { nodes?: boolean } = {}): Promise<Answer> {
  const loaded = await source.load({ namespaces: [ns] });
  failOnUnreadableState(loaded.errors);
  if (!loaded.snapshot.hasNamespace(ns)) throw new UsageError(`namespace ${ns} not found`);
  return quotaAnswer(loaded.snapshot, ns, Date.now(), opts);
}

/** The `quota` command's run: its exit code. */
export async function runQuota(arg: string | undefined, flags: QuotaFlags, io: Io): Promise<number> {
  const format = outputFormat(flags);
  const ns = namespaceOf(arg, flags.namespace);
  const source = await openSource(flags);
  try {
    const a = await quotaWith(source, ns, { nodes: flags.nodes === true });
    if (format) await printData(io, format, headroomJson(a.json as Headroom));
    else io.stdout(`${renderAnswer(a)}\n`);
    return 0;
  } finally {
    await source.close();
  }
}
