/**
 * `quota-doctor mcp`: a Model Context Protocol server over stdio (src/mcp/server.ts): the tools `diagnose`,
 * `simulate`, `check`, `quota`, `whatif`, reading the cluster as the other commands do (`--state`, or the
 * kubeconfig), limited to `--namespaces` when given. stdout carries the protocol only.
 */
import type { Command } from 'commander';
import { openSource, type ClusterSource } from '../../answer/sources.ts';
import { UsageError } from '../../answer/errors.ts';
import { serveStdio } from '../../mcp/server.ts';
import type { Io, SetCode } from '../io.ts';
import { addSourceOptions, failOnUnreadableState, type Flags } from '../options.ts';

const NAMESPACE = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** `--namespaces a,b`: the allow-list (undefined = every namespace; `*` also means every namespace). */
export function parseNamespaces(list: string | undefined): string[] | undefined {
  if (list === undefined) return undefined;
  const names = [...new Set(list.split(',').map((s) => s.trim()).filter((s) => s !== ''))];
  if (names.length === 0) throw new UsageError('--namespaces: no namespace given (leave it out to allow every namespace)');
  const bad = names.find((n) => n !== '*' && !NAMESPACE.test(n));
  if (bad !== undefined) throw new UsageError(`--namespaces: ${bad} is not a namespace name (lowercase letters, digits and -)`);
  return names.includes('*') ? undefined : names.sort();
}

export function register(program: Command, io: Io, setCode: SetCode): void {
  addSourceOptions(
    program
      .command('mcp')
      .description('serve the tools diagnose, simulate, check, quota, whatif to an MCP client (AI agent) over stdio')
      .option('--namespaces <list>', 'comma-separated namespaces the tools may see (default: every namespace)'),
  ).action(async (flags: Flags & { namespaces?: string }) => {
    const allowedNamespaces = parseNamespaces(flags.namespaces);
    // As `diagnose`: a named cluster must open (exit 2 otherwise); with none named, diagnose answers from the text.
    const explicit = !!(flags.state || process.env.QUOTA_DOCTOR_STATE || flags.kubeconfig || flags.context);
    let source: ClusterSource | undefined;
    let noSource: string | undefined;
    try {
      source = await openSource(flags);
    } catch (e) {
      if (explicit || !(e instanceof UsageError)) throw e;
      noSource = `no cluster: ${e.message}`;
    }
    // A --state that cannot be read is bad usage at start (exit 2), as for every command, not an error per call.
    if (source?.kind === 'file') {
      try {
        failOnUnreadableState((await source.load()).errors);
      } catch (e) {
        await source.close();
        throw e;
      }
    }
    io.stderr(`quota-doctor mcp: serving on stdio (${source ? source.describe() : 'no cluster: diagnose answers from the text alone'}${allowedNamespaces ? `; namespaces ${allowedNamespaces.join(', ')}` : ''})\n`);
    await serveStdio({ source, noSource, allowedNamespaces, k8sVersion: flags.k8sVersion });
    setCode(0);
  });
}
