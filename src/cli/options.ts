/**
 * Flags shared by the commands that read a cluster (`--state`, `--kubeconfig`, `--context`,
 * `--k8s-version`), and the one error of a source that is bad usage rather than a gap: an unreadable
 * `--state`.
 */
import { Option, type Command } from 'commander';
import type { SourceFlags } from '../answer/sources.ts';
import { UsageError } from '../answer/errors.ts';

export type Flags = SourceFlags & { namespace?: string; json?: boolean; k8sVersion?: string };

export function addSourceOptions(cmd: Command): Command {
  return cmd
    .option('--state <path>', 'a file or folder of Kubernetes objects instead of the live cluster')
    .option('--kubeconfig <path>', 'kubeconfig file (live cluster)')
    .option('--context <name>', 'kubeconfig context (live cluster)')
    .addOption(new Option('--k8s-version <version>', 'Kubernetes version whose wording to use').default('1.35'));
}

/** A `--state` that could not be read is exit 2 with its message, not a warning under an answer. */
export function failOnUnreadableState(errors: readonly { resource: string; message: string }[]): void {
  const state = errors.find((e) => e.resource === 'state');
  if (state) throw new UsageError(state.message);
}
