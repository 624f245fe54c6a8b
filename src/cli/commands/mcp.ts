/**
 * `quota-doctor mcp`: a Model Context Protocol server over stdio (src/mcp/server.ts): the tools `diagnose`,
 * `simulate`, `check`, `quota`, `whatif`, reading the cluster as the other commands do (`--state`, or the
 * kubeconfig), limited to `--namespaces` when given. stdout carries the protocol only.
 *
 * Registration only (name, flags, help) and the `--namespaces` check: the server is started by mcp.core.ts,
 * imported when the command runs.
 */
import type { Command } from 'commander';
import { UsageError } from '../../answer/errors.ts';
import type { Io, SetCode } from '../io.ts';
import { addSourceOptions, type Flags } from '../options.ts';

const NAMESPACE = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** `--namespaces a,b`: the allow-list (undefined = every namespace; `*` also means every namespace). */
export function parseNamespaces(list: string | undefined): string[] | undefined {
  if (list === undefined) return undefined;
  const names = [
    ...new Set(
      list
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    ),
  ];
  if (names.length === 0)
    throw new UsageError('--namespaces: no namespace given (leave it out to allow every namespace)');
  const bad = names.find((n) => n !== '*' && !NAMESPACE.test(n));
  if (bad !== undefined)
    throw new UsageError(`--namespaces: ${bad} is not a namespace name (lowercase letters, digits and -)`);
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
    const { runMcp } = await import('./mcp.core.ts');
    setCode(await runMcp(flags, allowedNamespaces, io));
  });
}
