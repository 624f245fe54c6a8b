/**
 * Picks the cluster source for a command: `--state PATH` (or QUOTA_DOCTOR_STATE) reads files; otherwise
 * the live cluster from kubeconfig. The engine's pieces the sources need are injected here (cluster/
 * never imports the engine): quota status reconciliation, and the node index primed on the cache so
 * every answer's fork inherits it instead of rebuilding it.
 */
import { FileSource } from '../cluster/file-source.ts';
import type { ClusterSource } from '../cluster/source.ts';
import type { Snapshot } from '../k8s/snapshot.ts';
import { reconcileQuotaStatus } from '../engine/quota-ledger.ts';
import { nodeInfoIndex } from '../engine/scheduler/node-info.ts';
import { forgetFixMemo } from '../engine/fixes/settle.ts';
import { UsageError } from './errors.ts';

export type { ClusterSource, SourceWarning } from '../cluster/source.ts';
/** A source warning as the operator reads it (the CLI prints these); a channel's reply goes through gaps.ts. */
export { warningText } from '../cluster/source.ts';

export interface SourceFlags {
  state?: string;
  kubeconfig?: string;
  context?: string;
  /** Keep a live cluster's cache current with watches (long-running: serve, console, mcp); a one-shot run lists only. */
  watch?: boolean;
}

const reconcile = (s: Snapshot) => reconcileQuotaStatus(s, Date.now());
const prime = (s: Snapshot) => void nodeInfoIndex(s);
// A superseded cache generation lets its settled state go (engine/fixes/settle.ts, ~4.5 MB at 5,000 nodes).
const supersede = (s: Snapshot) => forgetFixMemo(s);

export async function openSource(flags: SourceFlags, env: NodeJS.ProcessEnv = process.env): Promise<ClusterSource> {
  const state = flags.state ?? env.QUOTA_DOCTOR_STATE;
  if (state) return new FileSource(state, { reconcile, prime });
  const { createLiveSource } = await import('../cluster/live-source.ts');
  // QUOTA_DOCTOR_REQUEST_TIMEOUT_MS: one request's deadline (default 15 s); retries of 429/5xx stay within twice it.
  const timeout = Number(env.QUOTA_DOCTOR_REQUEST_TIMEOUT_MS);
  try {
    return createLiveSource({
      kubeconfig: flags.kubeconfig,
      context: flags.context,
      env,
      reconcile,
      prime,
      supersede,
      watch: flags.watch ?? false,
      ...(Number.isInteger(timeout) && timeout > 0 ? { requestTimeoutMs: timeout } : {}),
    });
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
}
