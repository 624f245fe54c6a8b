/**
 * Where the cluster state comes from: a state path (FileSource) or the live API (LiveSource).
 * Errors are values next to the data that did arrive (the Backstage fetcher model).
 */
import type { Snapshot } from '../k8s/snapshot.ts';

export interface SourceError {
  /** The resource that could not be read (`nodes`, `pods`, `state` …). */
  resource: string;
  namespace?: string;
  /** e.g. 403 Forbidden, 'timeout', 'unreachable'. */
  reason?: string;
  message: string;
}

export interface SourceResult {
  snapshot: Snapshot;
  errors: SourceError[];
  warnings: string[];
}

/** Liveness of a source (/healthz): wedged means only a restart of the process will help. */
export interface SourceHealth {
  wedged: boolean;
  /** One line per wedged part, for the /healthz body and logs. */
  reasons: string[];
}

export interface ClusterSource {
  readonly kind: 'file' | 'live';
  describe(): string;
  /** The current state; never throws for cluster faults (they are errors in the result). */
  load(opts?: { namespaces?: string[]; signal?: AbortSignal }): Promise<SourceResult>;
  /** Whether the source can answer now (readiness). */
  ready(): Promise<boolean>;
  /** Liveness (live sources); a source without it is never wedged. */
  health?(): SourceHealth;
  close(): Promise<void>;
}
