/**
 * The live cluster as a ClusterSource: every resource quota-doctor reads is listed once (paged) and then
 * kept current by a watch (./reflector.ts), into one Snapshot of compact projections
 * (./projection.ts). `load()` makes no API request once the cache is warm: it hands out a
 * copy-on-write fork of the cache. Faults are values next to the data (the Backstage fetcher model):
 * a 403 on nodes, a list that timed out, a watch that is down, each is named in the result while
 * everything else still answers; reflectors retry with backoff, so the source heals by itself.
 * Data that may be behind (a watch down, or silent past `staleAfterMs`) is answered with a warning
 * saying since when; a reflector the watchdog cannot unstick makes `health()` wedged (/healthz).
 */
import { setMaxListeners } from 'node:events';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { isIPv6 } from 'node:net';
import {
  type KubeConfig,
  Observable,
  VersionApi,
  type Cluster,
  type RequestContext,
  type ResponseContext,
} from '@kubernetes/client-node';
import { Snapshot, type KObject } from '../k8s/snapshot.ts';
import {
  reconciledWarnings,
  type ClusterSource,
  type LoadOptions,
  type Reconcile,
  type ResourceHealth,
  type SourceError,
  type SourceHealth,
  type SourceResult,
  type SourceWarning,
} from './source.ts';
import { sameProjection } from './projection.ts';
import { Deadline, Reflector, type BackoffOptions, type ReflectorSink, type WatchdogOptions } from './reflector.ts';
import { ALL_RESOURCES, RESOURCES, makeApis, type Apis, type ResourceName } from './api-resources.ts';
import { EdgeKubeConfig, kubeconfigList, mergeKubeconfigFiles, proxyFromEnv } from './kubeconfig.ts';

export interface LiveSourceOptions {
  kubeConfig: KubeConfig;
  /** Resources to read (default: all of `ALL_RESOURCES`). */
  resources?: ResourceName[];
  /** Items per list page (`limit`). Default 500, kubectl's and client-go's pager default. */
  pageSize?: number;
  /** Deadline of each list page and each watch start. Default 15 s. */
  requestTimeoutMs?: number;
  /** How long `load()` waits, on a cold start, for the first lists. Default 60 s. */
  syncTimeoutMs?: number;
  /**
   * Server-side watch timeout. Default: random in [300, 600) s, as client-go's reflector picks
   * (minWatchTimeout 5 min, × (1 + rand)), so watches of many replicas do not all end at once.
   */
  watchTimeoutSeconds?: number;
  /**
   * No event and no BOOKMARK for this long (the API server sends a BOOKMARK about every minute to a
   * watch that asks, as ours do): the watch is presumed dead, the resource is relisted, and until
   * then answers say since when the data has not been updated. Default 3 min.
   */
  staleAfterMs?: number;
  /** A watch open at least this long ended as a healthy one: reconnect at once. Shorter ones back off. Default 30 s. */
  healthyWatchMs?: number;
  backoff?: BackoffOptions;
  /** Restarts of a reflector whose request is pending past its deadline (see reflector.ts). */
  watchdog?: Partial<WatchdogOptions> & {
    /** How often the reflectors are checked. Default 1 s (at most requestTimeoutMs). */
    everyMs?: number;
  };
  /**
   * Events kept: `type=Warning` by default (FailedScheduling, FailedCreate … every event quota-doctor
   * quotes); Normal events are most of the volume and never read. '' reads all.
   */
  eventFieldSelector?: string;
  /**
   * Pods kept: not terminal by default, the set quota usage and node sums count
   * (docs/kubernetes-semantics.md: Succeeded/Failed pods are not charged). '' reads all. A pod that becomes
   * terminal leaves the selection, and the API server sends it as DELETED on the watch.
   */
  podFieldSelector?: string;
  /** Fills status.used of quotas the controller has not reconciled yet (injected: the engine computes it). */
  reconcile?: Reconcile;
  /** Called on the cache snapshot after each rebuild: register `Snapshot.derive` indexes here. */
  prime?: (s: Snapshot) => void;
  /** Called on a handed-out generation when a newer one replaces it: drop what only its questions used. */
  supersede?: (s: Snapshot) => void;
  /** After this many handed-out generations the cache is rebuilt, freeing superseded stores. Default 256. */
  compactEvery?: number;
  /** What `describe()` says. */
  label?: string;
  /**
   * Keep the cache current with watches (default true: the bot). false: a one-shot run (the CLI), each
   * resource is listed once, only those the question needs, and no watch is opened.
   */
  watch?: boolean;
}

/** Kinds in the order they are copied on a rebuild (any order works; this one reads well). */
const CACHE_KINDS = ALL_RESOURCES.map((r) => RESOURCES[r].kind);

export class LiveSource implements ClusterSource {
  readonly kind = 'live';
  private version?: Promise<string | undefined>;
  private readonly o: Required<
    Omit<LiveSourceOptions, 'prime' | 'supersede' | 'label' | 'resources' | 'reconcile' | 'watchdog'>
  > &
    Pick<LiveSourceOptions, 'prime' | 'supersede' | 'label' | 'reconcile'> & {
      watchdog: WatchdogOptions & { everyMs: number };
    };
  private watchdogTimer?: NodeJS.Timeout;
  private readonly apis: Apis;
  private readonly resources: ResourceName[];
  private readonly reflectors = new Map<string, Reflector>();
  private started = false;
  private closed = false;
  /** The cache: written by the reflectors, never handed out. */
  private base = new Snapshot();
  /**
   * `base` is the frozen generation itself (no write since the hand-out): the next write forks it
   * first. Forking then, not at the hand-out, lets the new cache inherit the indexes the questions of
   * that generation built on it (Snapshot.derive), kept current by their onChange from then on.
   */
  private baseShared = false;
  /** What load() hands forks of; never written once it stops being `base`. */
  private frozen?: Snapshot;
  private dirty = true;
  private generations = 0;
  private compactQueued = false;

  constructor(opts: LiveSourceOptions) {
    const requestTimeoutMs = opts.requestTimeoutMs ?? 15_000;
    this.o = {
      kubeConfig: opts.kubeConfig,
      pageSize: opts.pageSize ?? 500,
      requestTimeoutMs,
      syncTimeoutMs: opts.syncTimeoutMs ?? 60_000,
      watchTimeoutSeconds: opts.watchTimeoutSeconds ?? Math.floor(300 * (1 + Math.random())),
      staleAfterMs: opts.staleAfterMs ?? 180_000,
      healthyWatchMs: opts.healthyWatchMs ?? 30_000,
      backoff: opts.backoff ?? { initialMs: 800, maxMs: 30_000 },
      watchdog: {
        stuckAfterMs: opts.watchdog?.stuckAfterMs ?? 2 * requestTimeoutMs,
        maxRestarts: opts.watchdog?.maxRestarts ?? 2,
        everyMs: opts.watchdog?.everyMs ?? Math.min(1000, requestTimeoutMs),
      },
      eventFieldSelector: opts.eventFieldSelector ?? 'type=Warning',
      podFieldSelector: opts.podFieldSelector ?? 'status.phase!=Succeeded,status.phase!=Failed',
      compactEvery: opts.compactEvery ?? 256,
      watch: opts.watch ?? true,
      prime: opts.prime,
      supersede: opts.supersede,
      reconcile: opts.reconcile,
      label: opts.label,
    };
    this.resources = opts.resources ?? ALL_RESOURCES;
    this.apis = makeApis(opts.kubeConfig);
    this.o.prime?.(this.base);
  }

  describe(): string {
    if (this.o.label) return this.o.label;
    const ctx = this.o.kubeConfig.getCurrentContext();
    const server = this.o.kubeConfig.getCurrentCluster()?.server ?? '?';
    return `live cluster ${server}${ctx ? ` (context ${ctx})` : ''}`;
  }

  /** Starts the lists and watches (load() and ready() do it too; a server calls it at boot to warm up). */
  start(): void {
    if (this.started || this.closed) return;
    this.started = true;
    for (const r of this.resources) this.reflectorFor(r, undefined);
    this.startWatchdog();
  }

  private startWatchdog(): void {
    if (this.watchdogTimer || this.closed) return;
    this.watchdogTimer = setInterval(() => {
      const now = Date.now();
      for (const r of this.reflectors.values()) r.watchdog(now);
    }, this.o.watchdog.everyMs);
    this.watchdogTimer.unref();
  }

  async load(opts: LoadOptions = {}): Promise<SourceResult> {
    const asked = opts.namespaces ?? [];
    const placement = opts.placement ?? true;
    // Only the asked namespaces' objects are needed: nothing cluster-wide.
    const scoped = !placement && asked.length > 0;
    const version = this.serverVersion();
    let cluster: Reflector[];
    if (this.o.watch) {
      this.start();
      cluster = [...this.reflectors.values()].filter((r) => r.namespace === undefined);
    } else {
      // One-shot: list what this question needs, once; no watch.
      this.startWatchdog();
      cluster = scoped ? [] : this.resources.map((r) => this.reflectorFor(r, undefined));
    }
    await allAttempted(cluster, this.o.syncTimeoutMs, opts.signal);

    // The asked namespaces one by one: when the question needs nothing else (one-shot), or without a
    // cluster-wide grant (RBAC per namespace).
    const perNs: Reflector[] = [];
    for (const ns of asked) {
      for (const resource of this.resources) {
        if (!RESOURCES[resource].namespaced) continue;
        const wide = this.reflectors.get(keyOf(resource, undefined));
        const needed = wide === undefined ? scoped : !wide.hasSynced && wide.failure?.code === 403;
        if (needed) perNs.push(this.reflectorFor(resource, ns));
      }
    }
    if (perNs.length) await allAttempted(perNs, this.o.syncTimeoutMs, opts.signal);

    const errors: SourceError[] = [];
    const warnings: SourceWarning[] = [];
    const health: ResourceHealth[] = [];
    const now = Date.now();
    for (const r of this.reflectors.values()) {
      if (r.namespace !== undefined && !asked.includes(r.namespace)) continue;
      if (!r.hasSynced) {
        if (r.namespace === undefined && !this.neededWide(r, asked, placement)) continue;
        health.push(healthOf(r, now));
        errors.push(
          r.failure
            ? {
                resource: r.failure.resource,
                ...(r.failure.namespace ? { namespace: r.failure.namespace } : {}),
                reason: r.failure.reason,
                cause: r.failure.cause,
                message: r.failure.message,
              }
            : {
                resource: r.def.resource,
                ...(r.namespace ? { namespace: r.namespace } : {}),
                reason: 'Timeout',
                cause: 'Timeout',
                message: `${r.label}: not listed yet (still waiting after ${this.o.syncTimeoutMs} ms)`,
              },
        );
      } else {
        if (r.namespace === undefined && scoped && !r.def.namespaced) continue;
        health.push(healthOf(r, now));
        // Data is there but may be behind: say since when, and why.
        const since = r.staleSince(now);
        if (since !== undefined) {
          warnings.push({
            kind: 'stale',
            resource: r.def.resource,
            ...(r.namespace ? { namespace: r.namespace } : {}),
            since: new Date(since).toISOString(),
            reason: r.failure ? r.failure.reason : 'Stale',
            message: r.failure ? r.failure.message : `no event and no bookmark for ${seconds(now - since)}`,
            next: r.failure || r.phase !== 'watching' ? 'reconnecting' : 'relisting',
          });
        }
      }
      if (r.skipped)
        warnings.push({
          kind: 'skipped',
          resource: r.def.resource,
          ...(r.namespace ? { namespace: r.namespace } : {}),
          count: r.skipped,
        });
    }

    const snapshot = this.handout();
    // A quota the controller has not reconciled yet (just created) lacks status; compute it as
    // FileSource does, on the copy only.
    let unreconciled = false;
    for (const q of snapshot.iterate('ResourceQuota')) {
      if ((q.status?.hard ?? q.spec?.hard) && !(q.status?.hard && q.status?.used)) {
        unreconciled = true;
        break;
      }
    }
    if (unreconciled && this.o.reconcile) warnings.push(...reconciledWarnings(this.o.reconcile(snapshot)));
    const serverVersion = await version;
    const contextNamespace = this.contextNamespace();
    return {
      snapshot,
      errors,
      warnings,
      ...(this.o.watch ? { health: { cluster: this.clusterName(), resources: health } } : {}),
      ...(serverVersion ? { serverVersion } : {}),
      ...(contextNamespace ? { contextNamespace } : {}),
    };
  }

  /**
   * Whether a cluster-wide reflector that did not list is a gap in this answer. Cluster-scoped
   * resources (nodes, namespaces, priority and storage classes) are needed for placement only. A
   * namespaced one is covered, for the asked namespaces, by their own reads when those listed; what
   * it then still misses is other namespaces' objects, which only placement needs of pods (they
   * occupy the nodes).
   */
  private neededWide(r: Reflector, asked: readonly string[], placement: boolean): boolean {
    if (!r.def.namespaced) return placement;
    if (asked.length === 0) return true;
    const covered = asked.every((ns) => this.reflectors.get(keyOf(r.def.resource, ns))?.hasSynced === true);
    if (!covered) return !asked.every((ns) => this.reflectors.has(keyOf(r.def.resource, ns)));
    return placement && r.def.resource === 'pods';
  }

  /** What a reply calls this cluster: the kube context's name (else the server's URL). */
  clusterName(): string {
    return this.o.kubeConfig.getCurrentContext() || (this.o.kubeConfig.getCurrentCluster()?.server ?? 'cluster');
  }

  /** The kubeconfig context's namespace, if it sets one. */
  contextNamespace(): string | undefined {
    const ctx = this.o.kubeConfig.getContextObject(this.o.kubeConfig.getCurrentContext());
    return ctx?.namespace || undefined;
  }

  /**
   * `major.minor` from GET /version, read once per source (per cluster); undefined when it could not
   * be read (the answer then keeps the default wording; reading it never makes an error).
   */
  serverVersion(): Promise<string | undefined> {
    this.version ??= (async () => {
      const d = new Deadline(this.o.requestTimeoutMs, new AbortController().signal, '/version: no answer');
      try {
        const api = this.o.kubeConfig.makeApiClient(VersionApi);
        const info = await d.race(
          api.getCode({
            middleware: [
              {
                pre: (c: RequestContext) => {
                  c.setSignal(d.signal);
                  return new Observable(Promise.resolve(c));
                },
                post: (r: ResponseContext) => new Observable(Promise.resolve(r)),
              },
            ],
            middlewareMergeStrategy: 'append',
          }),
        );
        return versionOf(info.major, info.minor, info.gitVersion);
      } catch {
        return undefined;
      } finally {
        d.clear();
      }
    })();
    return this.version;
  }

  async ready(): Promise<boolean> {
    this.start();
    const cluster = [...this.reflectors.values()].filter((r) => r.namespace === undefined);
    return cluster.every((r) => r.attempted) && cluster.some((r) => r.hasSynced);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.watchdogTimer);
    for (const r of this.reflectors.values()) r.stop();
    // The kept-alive connections (kubeconfig.ts) go with the source.
    if (this.o.kubeConfig instanceof EdgeKubeConfig) this.o.kubeConfig.destroyAgents();
  }

  /**
   * Liveness: `wedged` when a reflector is stuck past its deadline and the watchdog's restarts did not
   * help (/healthz fails, so the platform restarts the process). A cluster that is down or refuses is
   * not wedged: the reflectors keep retrying and answers name the gap (that is readiness, not liveness).
   */
  health(): SourceHealth {
    const wedged = [...this.reflectors.values()].filter((r) => r.wedged);
    return {
      wedged: wedged.length > 0,
      reasons: wedged.map((r) => r.wedgedReason ?? r.label),
    };
  }

  /** Per-resource state, for /metrics, `doctor` output and tests. */
  status(): Array<{
    resource: string;
    namespace?: string;
    phase: string;
    synced: boolean;
    objects: number;
    failure?: SourceError;
    counts: Reflector['counts'];
    lastHeardAt?: number;
    wedged: boolean;
  }> {
    return [...this.reflectors.values()].map((r) => ({
      resource: r.def.resource,
      ...(r.namespace ? { namespace: r.namespace } : {}),
      phase: r.phase,
      synced: r.hasSynced,
      ...(r.lastHeardAt !== undefined ? { lastHeardAt: r.lastHeardAt } : {}),
      wedged: r.wedged,
      objects: this.base.count(r.def.kind, r.namespace),
      ...(r.failure
        ? { failure: { resource: r.failure.resource, reason: r.failure.reason, message: r.failure.message } }
        : {}),
      counts: r.counts,
    }));
  }

  /**
   * Per-resource cache health for /metrics (src/slack/metrics.ts): `watchUp` = a watch is open and no
   * failure stands; `lastSyncAt` = when the server was last heard for it (a list, an event, a BOOKMARK).
   */
  cacheHealth(): Array<{ resource: string; namespace?: string; watchUp: boolean; lastSyncAt?: number }> {
    return [...this.reflectors.values()].map((r) => ({
      resource: r.def.resource,
      ...(r.namespace ? { namespace: r.namespace } : {}),
      watchUp: r.phase === 'watching' && !r.failure,
      ...(r.lastHeardAt !== undefined ? { lastSyncAt: r.lastHeardAt } : {}),
    }));
  }

  private reflectorFor(resource: ResourceName, namespace: string | undefined): Reflector {
    const key = keyOf(resource, namespace);
    let r = this.reflectors.get(key);
    if (r) return r;
    const def = RESOURCES[resource];
    r = new Reflector({
      kubeConfig: this.o.kubeConfig,
      apis: this.apis,
      def,
      namespace,
      fieldSelector:
        resource === 'events'
          ? this.o.eventFieldSelector || undefined
          : resource === 'pods'
            ? this.o.podFieldSelector || undefined
            : undefined,
      pageSize: this.o.pageSize,
      requestTimeoutMs: this.o.requestTimeoutMs,
      watchTimeoutSeconds: this.o.watchTimeoutSeconds,
      staleAfterMs: this.o.staleAfterMs,
      healthyWatchMs: this.o.healthyWatchMs,
      backoff: this.o.backoff,
      watchdog: this.o.watchdog,
      sink: this.sink,
      listOnly: !this.o.watch,
      retryBudgetMs: Math.min(this.o.syncTimeoutMs, 2 * this.o.requestTimeoutMs),
    });
    this.reflectors.set(key, r);
    if (!this.closed) r.start();
    return r;
  }

  /**
   * The snapshot to hand out. When the cache changed since the last hand-out it is frozen (never
   * written again) and a fork of it becomes the cache at the next write; hand-outs are forks of the
   * frozen one. So questions between two watch events share one frozen generation (and the indexes
   * `prime` registered on it, which `Snapshot.derive` lets an unchanged fork inherit), the next
   * generation inherits every index built on this one, and a write never lands in a store a
   * hand-out is reading, whatever `fork()`'s ownership rules.
   */
  private handout(): Snapshot {
    if (this.dirty || !this.frozen) {
      // What only the superseded generation's own questions used goes (injected: the engine's fix memos).
      if (this.frozen && this.frozen !== this.base) this.o.supersede?.(this.frozen);
      this.frozen = this.base;
      this.baseShared = true;
      this.dirty = false;
      if (++this.generations >= this.o.compactEvery) this.queueCompaction();
    }
    return this.frozen.fork();
  }

  /**
   * Each fork keeps a reference to its parent (snapshot.ts `child.parent`), so frozen generations
   * chain up and keep the stores they superseded. Every `compactEvery` generations the cache is
   * rebuilt into a fresh Snapshot (object references only, no copies), which lets the chain go.
   */
  private queueCompaction(): void {
    if (this.compactQueued) return;
    this.compactQueued = true;
    setImmediate(() => {
      this.compactQueued = false;
      if (this.closed) return;
      const fresh = new Snapshot();
      this.o.prime?.(fresh);
      for (const kind of CACHE_KINDS) for (const obj of this.base.iterate(kind)) fresh.put(obj);
      this.base = fresh;
      this.baseShared = false;
      this.frozen = undefined;
      this.dirty = true;
      this.generations = 0;
    });
  }

  private writableBase(): Snapshot {
    if (this.baseShared) {
      this.base = this.base.fork();
      this.baseShared = false;
    }
    return this.base;
  }

  private readonly sink: ReflectorSink = {
    upsert: (obj) => {
      const prev = this.base.get(obj.kind ?? '', obj.metadata.namespace, obj.metadata.name ?? '');
      // Most updates change nothing we keep (kubelet status heartbeats, managedFields): skip them, so
      // the cache is not copied for nothing.
      if (prev && sameProjection(prev, obj)) return;
      this.writableBase().put(obj);
      this.dirty = true;
    },
    remove: (kind, namespace, name) => {
      if (!this.base.get(kind, namespace, name)) return;
      this.writableBase().remove(kind, namespace, name);
      this.dirty = true;
    },
    replace: (kind, namespace, objects) => {
      const seen = new Set<string>();
      for (const obj of objects) {
        seen.add(`${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`);
        this.sink.upsert(obj);
      }
      const gone: KObject[] = [];
      for (const obj of this.base.iterate(kind, namespace)) {
        if (!seen.has(`${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`)) gone.push(obj);
      }
      for (const obj of gone) this.sink.remove(kind, obj.metadata.namespace, obj.metadata.name ?? '');
    },
  };
}

/** One reflector's health as an answer reads it (source.ts `ResourceHealth`). */
function healthOf(r: Reflector, now: number): ResourceHealth {
  const behind = r.hasSynced ? r.staleSince(now) : undefined;
  const why = r.failure ? (r.failure.code !== undefined ? String(r.failure.code) : r.failure.reason) : 'Stale';
  return {
    resource: r.def.resource,
    ...(r.namespace ? { namespace: r.namespace } : {}),
    watchUp: r.phase === 'watching' && !r.failure,
    ...(r.lastHeardAt !== undefined ? { lastSyncAt: r.lastHeardAt } : {}),
    ...(behind !== undefined ? { behindSince: behind } : {}),
    ...(behind !== undefined || r.failure ? { why } : {}),
  };
}

function keyOf(resource: ResourceName, namespace: string | undefined): string {
  return `${resource}\u0000${namespace ?? ''}`;
}

/**
 * `1.24` from /version: `minor` may carry a suffix (`24+` on EKS and GKE); without major/minor, the
 * gitVersion (`v1.24.17-eks-…`).
 */
export function versionOf(
  major: string | undefined,
  minor: string | undefined,
  gitVersion: string | undefined,
): string | undefined {
  const ma = /^(\d+)/.exec(major ?? '')?.[1];
  const mi = /^(\d+)/.exec(minor ?? '')?.[1];
  if (ma && mi) return `${Number(ma)}.${Number(mi)}`;
  const g = /^v?(\d+)\.(\d+)/.exec(gitVersion ?? '');
  return g ? `${Number(g[1])}.${Number(g[2])}` : undefined;
}

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

export interface CreateLiveSourceOptions extends Partial<Omit<LiveSourceOptions, 'kubeConfig'>> {
  /** `--kubeconfig PATH`. */
  kubeconfig?: string;
  /** `--context NAME`. */
  context?: string;
  env?: NodeJS.ProcessEnv;
  /** Where the in-cluster service account is mounted (tests point it elsewhere). */
  serviceAccountRoot?: string;
}

const SERVICE_ACCOUNT_ROOT = '/var/run/secrets/kubernetes.io/serviceaccount';

/**
 * Loads kubeconfig the way kubectl looks for it — `--kubeconfig`, then `$KUBECONFIG` (a list, merged),
 * then `~/.kube/config`, then the in-cluster service account — and makes a LiveSource of it.
 * Throws an Error with one clear line when there is no usable configuration. Unlike client-node's
 * `loadFromDefault()`, it never falls back to `http://localhost:8080` (config.js: the last resort when
 * nothing is found), which would turn "not configured" into a confusing connection error later.
 */
export function createLiveSource(opts: CreateLiveSourceOptions = {}): LiveSource {
  const { kubeconfig, context, env = process.env, serviceAccountRoot = SERVICE_ACCOUNT_ROOT, ...rest } = opts;
  const kc = loadKubeConfig({ kubeconfig, context, env, serviceAccountRoot });
  return new LiveSource({ ...rest, kubeConfig: kc });
}

export function loadKubeConfig(o: {
  kubeconfig?: string;
  context?: string;
  env?: NodeJS.ProcessEnv;
  serviceAccountRoot?: string;
}): EdgeKubeConfig {
  const env = o.env ?? process.env;
  let kc = new EdgeKubeConfig();
  let from: string;
  if (o.kubeconfig) {
    if (!existsSync(o.kubeconfig)) throw new Error(`kubeconfig ${o.kubeconfig}: no such file`);
    kc = mergeKubeconfigFiles([o.kubeconfig]);
    from = o.kubeconfig;
  } else if (env.KUBECONFIG) {
    // kubectl merges every file of the list and skips the ones that do not exist, by client-go's
    // rules (kubeconfig.ts): the first to set current-context wins, the first definition of a name.
    const files = kubeconfigList(env.KUBECONFIG, delimiter);
    if (files.length === 0) throw new Error(`KUBECONFIG=${env.KUBECONFIG}: no such file`);
    kc = mergeKubeconfigFiles(files);
    from = files.join(delimiter);
  } else {
    const home = env.HOME || env.USERPROFILE || homedir();
    const file = home ? join(home, '.kube', 'config') : '';
    if (file && existsSync(file)) {
      kc = mergeKubeconfigFiles([file]);
      from = file;
    } else if (
      env.KUBERNETES_SERVICE_HOST &&
      env.KUBERNETES_SERVICE_PORT &&
      existsSync(join(o.serviceAccountRoot ?? SERVICE_ACCOUNT_ROOT, 'token'))
    ) {
      loadInCluster(kc, env, o.serviceAccountRoot ?? SERVICE_ACCOUNT_ROOT);
      from = 'the in-cluster service account';
    } else {
      throw new Error(
        'no Kubernetes cluster configured: no --kubeconfig, no KUBECONFIG, no ~/.kube/config, and not running in a cluster (pass --state PATH to read objects from files)',
      );
    }
  }
  const names = kc.getContexts().map((c) => c.name);
  if (o.context) {
    if (!names.includes(o.context))
      throw new Error(`context "${o.context}" not found in ${from} (contexts: ${names.join(', ') || 'none'})`);
    kc.setCurrentContext(o.context);
  } else if (!kc.getCurrentContext() || !names.includes(kc.getCurrentContext())) {
    throw new Error(`${from} has no current context; pass --context (contexts: ${names.join(', ') || 'none'})`);
  }
  let cluster = kc.getCurrentCluster();
  if (!cluster?.server)
    throw new Error(`context "${kc.getCurrentContext()}" in ${from} names no cluster with a server`);
  if (!cluster.proxyUrl) {
    const proxyUrl = proxyFromEnv(cluster.server, env);
    if (proxyUrl) {
      const withProxy: Cluster = { ...cluster, proxyUrl };
      const old = cluster;
      kc.clusters = kc.clusters.map((c) => (c === old ? withProxy : c));
      cluster = withProxy;
    }
  }
  if (cluster.server.startsWith('http:') && !cluster.skipTLSVerify) {
    // config.js createAgent: client-node 1.4 refuses plain http unless the cluster skips TLS checks.
    throw new Error(
      `cluster "${cluster.name}" (${cluster.server}) is plain http; client-node only allows that with insecure-skip-tls-verify: true`,
    );
  }
  return kc;
}

/** client-node's loadFromCluster(), but reading the given env (it reads process.env) and SA folder. */
function loadInCluster(kc: EdgeKubeConfig, env: NodeJS.ProcessEnv, root: string): void {
  const host = env.KUBERNETES_SERVICE_HOST ?? '';
  const port = env.KUBERNETES_SERVICE_PORT ?? '';
  // config.js loadFromCluster: these ports mean plain http.
  const scheme = port === '80' || port === '8080' || port === '8001' ? 'http' : 'https';
  const server = `${scheme}://${isIPv6(host) ? `[${host}]` : host}:${port}`;
  kc.loadFromOptions({
    clusters: [{ name: 'inCluster', server, caFile: join(root, 'ca.crt'), skipTLSVerify: false }],
    users: [{ name: 'inClusterUser', authProvider: { name: 'tokenFile', config: { tokenFile: join(root, 'token') } } }],
    contexts: [{ name: 'inClusterContext', cluster: 'inCluster', user: 'inClusterUser' }],
    currentContext: 'inClusterContext',
  });
}

/**
 * Waits for the first list attempt of every reflector (or `ms`, or the caller's abort). The caller's
 * signal gets one listener, not one per reflector: a question reads ~22 resources at once, and more than
 * ten listeners on one AbortSignal is Node's MaxListenersExceededWarning (removed afterwards, so no leak,
 * but a warning per question in the app's log).
 */
async function allAttempted(reflectors: readonly Reflector[], ms: number, signal?: AbortSignal): Promise<void> {
  if (!signal) {
    await Promise.all(reflectors.map((r) => r.whenAttempted(ms)));
    return;
  }
  const local = new AbortController();
  setMaxListeners(reflectors.length + 1, local.signal);
  const onAbort = () => local.abort(signal.reason);
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  try {
    await Promise.all(reflectors.map((r) => r.whenAttempted(ms, local.signal)));
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
