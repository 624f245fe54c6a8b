/**
 * Where the cluster state comes from: a state path (FileSource) or the live API (LiveSource).
 * Errors are values next to the data that did arrive (the Backstage fetcher model).
 */
import type { Snapshot } from '../k8s/snapshot.ts';

/**
 * Why a resource could not be read, as a value an answer decides on (never on the wording):
 * - `Forbidden` 403, `Unauthorized` 401 (a bad or expired token);
 * - `TLS` the server's certificate did not verify (wrong CA, name mismatch) or the handshake failed;
 * - `Unreachable` refused, reset, no route, DNS;
 * - `TooManyRequests` 429 still after the retries (API Priority and Fairness);
 * - `ServerError` 5xx still after the retries, or an answer that is not a Kubernetes list;
 * - `Timeout` no answer within the deadline;
 * - `Credentials` the exec credential plugin or the token file failed (no request was sent).
 */
export type SourceErrorCause =
  | 'Forbidden'
  | 'Unauthorized'
  | 'TLS'
  | 'Unreachable'
  | 'TooManyRequests'
  | 'ServerError'
  | 'Timeout'
  | 'Credentials';

/**
 * One resource a load needed and could not read (one value per resource and namespace). A resource the
 * server does not serve (404 on its API group) is not an error: it is absent.
 */
export interface SourceError {
  /** The resource that could not be read (`nodes`, `pods`, `state` …). */
  resource: string;
  namespace?: string;
  /** Text for humans: the StatusReason (`Forbidden`, `Expired` …) or our word (`Unreachable`, `TLS`). */
  reason?: string;
  /** Set by the live source for every cluster read that failed; absent for a state file's error. */
  cause?: SourceErrorCause;
  /** The API server's own words when it answered (`nodes is forbidden: User "alice" cannot list …`). */
  message: string;
}

/**
 * What a source read that qualifies its data, as values: which of them a Slack channel may see, and with
 * which fields, is decided on `kind` (answer/gaps.ts), never on the wording of a sentence.
 */
export type SourceWarning =
  /** The cache holds the resource but it has not been updated since `since`: its watch is down or silent. */
  | {
      kind: 'stale';
      /** The API resource (`pods`, `resourcequotas` …). */
      resource: string;
      /** Set for a resource read in one namespace (RBAC per namespace). */
      namespace?: string;
      /** ISO 8601, when the data was last known current. */
      since: string;
      /** A StatusReason (`Forbidden`, `Timeout`), our own word (`Unreachable`), or `Stale` for a silent watch. */
      reason: string;
      /** The API server's (or our) message: free text that may name objects of any namespace. */
      message: string;
      /** What the reflector does about it: reconnect a watch that failed, or relist a silent one. */
      next: 'reconnecting' | 'relisting';
    }
  /** Objects of a resource the cache skipped because their shape was not readable. */
  | { kind: 'skipped'; resource: string; namespace?: string; count: number }
  /** A quota the controller had not reconciled: its status.used was computed from the state's objects. */
  | { kind: 'reconciled'; namespace?: string; quota: string }
  /** An object of a state file that was not read: its kind is not one quota-doctor reads. */
  | { kind: 'unread'; source: string; object: string };

/** The one text of a warning, as the operator (CLI, logs, console) reads it. */
export function warningText(w: SourceWarning): string {
  switch (w.kind) {
    case 'stale':
      return `${labelOf(w.resource, w.namespace)}: not being updated since ${w.since} (${w.reason}: ${w.message}); answering from the cache, ${w.next}`;
    case 'skipped':
      return `${labelOf(w.resource, w.namespace)}: ${w.count} object(s) skipped, their shape was not readable`;
    case 'reconciled':
      return `ResourceQuota ${w.namespace}/${w.quota}: status.used computed from the objects in the state`;
    case 'unread':
      return `${w.source}: skipped ${w.object}: kind not read by quota-doctor`;
  }
}

/** `pods`, or `pods in team-a` for a resource read in one namespace. */
export function labelOf(resource: string, namespace: string | undefined): string {
  return namespace ? `${resource} in ${namespace}` : resource;
}

/** Quotas a `Reconcile` filled in (their status.used computed), by namespace and name. */
export type ReconciledQuota = { namespace?: string; name: string };

/** Fills what the quota controller would (status.used of unreconciled quotas); injected by answer/ (cluster/ never imports the engine). */
export type Reconcile = (snapshot: Snapshot) => ReconciledQuota[];

export function reconciledWarnings(quotas: readonly ReconciledQuota[]): SourceWarning[] {
  return quotas.map((q) => ({ kind: 'reconciled', namespace: q.namespace, quota: q.name }));
}

/**
 * One resource of a watched cache, as an answer read it (LiveSource in watch mode): whether its data is
 * current, and since when not. Values only: the reply's wording is answer/staleness.ts's.
 */
export interface ResourceHealth {
  resource: string;
  namespace?: string;
  /** A watch is open and no failure stands. */
  watchUp: boolean;
  /** Epoch ms the server was last heard for it (a list, an event, a BOOKMARK); absent = never listed. */
  lastSyncAt?: number;
  /** Epoch ms since which the data may be behind (the watch failed, or went silent); absent = current. */
  behindSince?: number;
  /** Why it is behind: the HTTP status (`503`) when there was one, else the reason (`Unreachable`, `Stale`). */
  why?: string;
}

/** The health of the cache an answer was read from: which cluster, and each resource the answer read. */
export interface CacheHealthReport {
  /** The kube context (cluster) the source reads: a reply names it ("cluster prod: …"). */
  cluster: string;
  resources: ResourceHealth[];
}

export interface SourceResult {
  snapshot: Snapshot;
  errors: SourceError[];
  warnings: SourceWarning[];
  /** Live sources with watches (the bot): per-resource health of the cache, for the reply (answer/staleness.ts). */
  health?: CacheHealthReport;
  /** `major.minor` of the API server (GET /version, once per cluster), e.g. `1.24`; absent for files or when unread. */
  serverVersion?: string;
  /** The kubeconfig context's namespace (`kubens`, `oc project`): a manifest without one goes there, unless `-n`. */
  contextNamespace?: string;
}

export interface LoadOptions {
  /** The namespaces the question is about (their objects are read even without a cluster-wide grant). */
  namespaces?: string[];
  signal?: AbortSignal;
  /**
   * Whether the answer places pods on nodes (default true): then nodes and every namespace's pods are
   * needed. false (quota and LimitRange verdicts, headroom without placement): only the namespaced
   * lists of `namespaces` are read, and nothing cluster-wide is an error.
   */
  placement?: boolean;
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
  load(opts?: LoadOptions): Promise<SourceResult>;
  /** The kubeconfig context's namespace (live sources): the fallback after `-n`, before `default`. */
  contextNamespace?(): string | undefined;
  /** Whether the source can answer now (readiness). */
  ready(): Promise<boolean>;
  /** Liveness (live sources); a source without it is never wedged. */
  health?(): SourceHealth;
  close(): Promise<void>;
}
