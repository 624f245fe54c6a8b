/**
 * `quota`'s implementation (the command's registration, cheap, is in quota.ts): loaded by its action with a
 * dynamic import, and by the MCP `quota` tool.
 */
import { openSource, type ClusterSource } from '../../answer/sources.ts';
import type { Answer } from '../../answer/types.ts';
import { UsageError } from '../../answer/errors.ts';
import { qualifiedHeadroom, readsOf, type Incomplete } from '../../answer/verdicts.ts';
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
 * The command's core, shared with the MCP `quota` tool: the namespace's headroom (the answer's `json` is a
 * Headroom; `data` is `quota --json`), qualified by what was read (answer/verdicts.ts): "not found" only when
 * the namespace list was read, no numbers when its quotas were not, placement's numbers unknown without nodes.
 * With `nodes`, a second reply holds the full per-node table.
 */
export async function quotaWith(
  source: ClusterSource,
  ns: string,
  opts: { nodes?: boolean } = {},
): Promise<Answer & { data: Record<string, unknown>; incomplete: Incomplete[]; undecided: boolean }> {
  const loaded = await source.load({ namespaces: [ns] });
  failOnUnreadableState(loaded.errors);
  const q = qualifiedHeadroom(loaded.snapshot, ns, readsOf(loaded.errors, [ns]), {
    now: Date.now(),
    nodes: opts.nodes,
  });
  if (q.absent) throw new UsageError(`namespace ${ns} not found`);
  // Undecided (exit 3): the namespace and what could not be read, no numbers.
  const data = q.json ?? { namespace: ns, incomplete: q.incomplete };
  return { ...q.answer, data, incomplete: q.incomplete, undecided: q.undecided };
}

/** The `quota` command's run: its exit code. */
export async function runQuota(arg: string | undefined, flags: QuotaFlags, io: Io): Promise<number> {
  const format = outputFormat(flags);
  const ns = namespaceOf(arg, flags.namespace);
  const source = await openSource(flags);
  try {
    const a = await quotaWith(source, ns, { nodes: flags.nodes === true });
    if (format) await printData(io, format, a.data);
    else io.stdout(`${renderAnswer(a)}\n`);
    return a.undecided ? 3 : 0;
  } finally {
    await source.close();
  }
}
