/**
 * The one interface every entry point calls (docs/architecture.md: slack/ and cli/ stay thin).
 */
import type { ClusterSource } from '../cluster/source.ts';
import type { Answer } from './types.ts';

export interface AskContext {
  source: ClusterSource;
  /** Namespaces this asker may see (the channel's policy); undefined = every namespace. */
  allowedNamespaces?: readonly string[];
  /** Namespace assumed when the text names none (the channel's default). */
  defaultNamespace?: string;
  /** Epoch ms; the engine has no clock. */
  now?: number;
  /**
   * Who reads the answer. `channel` (every Slack entry point): API server and exception text is reduced to
   * its reason and resource, since a message may name objects of namespaces the channel may not see.
   * `operator` (default: the CLI and the console, run with the user's own kubeconfig): shown as is.
   */
  audience?: 'channel' | 'operator';
  /** Cancels a slow cluster read (the Slack path gives up after its deadline). */
  signal?: AbortSignal;
}

export interface Answerer {
  /** A channel message: null when it holds nothing we recognise (stay silent). */
  message(text: string, ctx: AskContext): Promise<Answer | null>;
  /** An @mention question or a console line: always answers (help when not understood). */
  question(text: string, ctx: AskContext): Promise<Answer>;
  /** `/quota NAMESPACE` headroom. */
  quota(namespace: string | undefined, ctx: AskContext): Promise<Answer>;
}
