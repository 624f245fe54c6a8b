/**
 * `mcp`'s implementation (the command's registration, cheap, is in mcp.ts): opens the source and serves the
 * tools over stdio. Loaded by the action with a dynamic import, so no other command loads the MCP SDK.
 */
import { openSource, type ClusterSource } from '../../answer/sources.ts';
import { UsageError } from '../../answer/errors.ts';
import { serveStdio } from '../../mcp/server.ts';
import type { Io } from '../io.ts';
import { failOnUnreadableState, type Flags } from '../options.ts';

/** The `mcp` command's run (until the client goes away): its exit code. */
export async function runMcp(flags: Flags, allowedNamespaces: string[] | undefined, io: Io): Promise<number> {
  // As `diagnose`: a named cluster must open (exit 2 otherwise); with none named, diagnose answers from the text.
  const explicit = !!(flags.state || process.env.QUOTA_DOCTOR_STATE || flags.kubeconfig || flags.context);
  let source: ClusterSource | undefined;
  let noSource: string | undefined;
  try {
    source = await openSource({ ...flags, watch: true });
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
  io.stderr(
    `quota-doctor mcp: serving on stdio (${source ? source.describe() : 'no cluster: diagnose answers from the text alone'}${allowedNamespaces ? `; namespaces ${allowedNamespaces.join(', ')}` : ''})\n`,
  );
  await serveStdio({ source, noSource, allowedNamespaces, k8sVersion: flags.k8sVersion });
  return 0;
}
