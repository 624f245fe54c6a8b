/**
 * Picks the cluster source for a command: `--state PATH` (or QUOTA_DOCTOR_STATE) reads files; otherwise
 * the live cluster from kubeconfig.
 */
import { FileSource } from '../cluster/file-source.ts';
import type { ClusterSource } from '../cluster/source.ts';
import { UsageError } from './errors.ts';

export interface SourceFlags {
  state?: string;
  kubeconfig?: string;
  context?: string;
}

export async function openSource(flags: SourceFlags, env: NodeJS.ProcessEnv = process.env): Promise<ClusterSource> {
  const state = flags.state ?? env.QUOTA_DOCTOR_STATE;
  if (state) return new FileSource(state);
  const { createLiveSource } = await import('../cluster/live-source.ts');
  try {
    return createLiveSource({ kubeconfig: flags.kubeconfig, context: flags.context, env });
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
}
