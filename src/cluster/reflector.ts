/**
 * One resource (optionally in one namespace) kept current the way client-go's Reflector does it
 * (k8s.io/client-go/tools/cache/reflector.go): a paged LIST (`limit` + `continue`), then a WATCH from
 * the list's resourceVersion with `allowWatchBookmarks`; a watch that ends is resumed from the last
 * resourceVersion seen; "410 Gone" (as an HTTP status or as an ERROR event carrying a Status) means
 * that version is compacted away, so it relists; any other failure waits an exponential backoff
 * (client-go: 800 ms doubling to 30 s, with jitter) and tries again. It never gives up on its own:
 * RBAC fixed or the API back means it recovers without a restart.
 *
 * It cannot wedge: every request has a deadline held by a timer of ours (`Deadline`; not
 * `AbortSignal.timeout`, which a GC collects when only `AbortSignal.any` refers to it, so the request
 * then never times out); a watch silent (no event, no BOOKMARK) for `staleAfterMs` is presumed dead
 * and the resource is relisted, and until then the source says since when it was last heard from;
 * every watch end goes through the backoff unless the watch lived `healthyWatchMs`; and
 * `watchdog()` (called by LiveSource on a timer) restarts a loop whose request is pending past
 * `stuckAfterMs`, reporting it `wedged` when restarts do not help.
 *
 * Why not client-node's ListWatch/informer: it caches whole objects (we keep projections), lists
 * without paging, and stops for good on any error other than 410 (cache.js `doneHandler`).
 * What we do use from client-node: the generated list calls (auth, TLS, ApiException) and `Watch`.
 */
import {
  ApiException,
  KubeConfig,
  Observable,
  ResponseContext,
  Watch,
  type ConfigurationOptions,
  type ObservableMiddleware,
  type RequestContext,
} from '@kubernetes/client-node';
import type { KObject } from '../k8s/snapshot.ts';
import { labelOf, type SourceError, type SourceErrorCause } from './source.ts';
import { Interner, isRecord, projectObject } from './projection.ts';
import { collectionPath, type Apis, type ResourceDef } from './api-resources.ts';

/** Where a reflector writes: LiveSource's cache. */
export interface ReflectorSink {
  upsert(obj: KObject): void;
  remove(kind: string, namespace: string | undefined, name: string): void;
  /** The full set of `kind` objects (in `namespace`, or everywhere), after a (re)list. */
  replace(kind: string, namespace: string | undefined, objects: KObject[]): void;
}

export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
}

export interface WatchdogOptions {
  /** A request pending this long (its deadline did not fire) restarts the reflector. Default 2 × requestTimeoutMs. */
  stuckAfterMs: number;
  /** Restarts in a row without a request settling after which the reflector is `wedged`. Default 3. */
  maxRestarts: number;
}

export interface ReflectorOptions {
  kubeConfig: KubeConfig;
  apis: Apis;
  def: ResourceDef;
  namespace?: string;
  fieldSelector?: string;
  pageSize: number;
  /** Deadline of one list page, and of a watch until its response headers arrive. */
  requestTimeoutMs: number;
  /** Asked of the server (`timeoutSeconds`): it ends the watch, which we resume from the last version. */
  watchTimeoutSeconds: number;
  /**
   * No line (event or bookmark) for this long → the data may be behind: the open watch is presumed dead
   * and the resource relisted. API servers send a BOOKMARK about every minute to a watch that asks.
   */
  staleAfterMs: number;
  /** A watch that lived this long ends as a healthy one (reconnect at once, backoff reset); shorter ones back off. */
  healthyWatchMs: number;
  backoff: BackoffOptions;
  watchdog: WatchdogOptions;
  sink: ReflectorSink;
  /**
   * One paged LIST and no watch (a one-shot CLI run: nothing would read the watch). A list that fails
   * is not tried again: the failure is the answer.
   */
  listOnly?: boolean;
  /**
   * How long, from a page's first attempt, its 429 and 5xx answers are retried (honouring Retry-After,
   * else the backoff): client-go's rest client retries those (rest/with_retry.go, checkWait), kubectl
   * too. A wait that would end past it is not started. Default 2 × requestTimeoutMs.
   */
  retryBudgetMs?: number;
}

/** Most attempts of one request on 429/5xx (client-go's rest client: maxRetries 10). */
const MAX_ATTEMPTS = 10;

export type ReflectorPhase = 'idle' | 'listing' | 'watching' | 'backoff' | 'listed' | 'stopped';

export interface ReflectorFailure extends SourceError {
  /** Always known for a list or watch that failed (`describeFailure`). */
  reason: string;
  cause: SourceErrorCause;
  /** HTTP status when there was one (403, 410, 500 …). */
  code?: number;
  at: number;
  /** Since when the data may be behind, when not the later of the last sync and `at` (a silent watch: the last word heard). */
  since?: number;
}

/** Thrown inside the loop to restart from a fresh list. */
class Gone extends Error {}
class Stopped extends Error {}
/** The reason a loop's requests are aborted when the watchdog replaces it. */
class Restarted extends Error {}
/** An open watch that said nothing for `staleAfterMs`. */
class Silent extends Error {
  readonly reason = 'Stale';
}

/** One run of the list/watch loop; the watchdog replaces a stuck one with a fresh one. */
interface Loop {
  readonly ctl: AbortController;
}

export class Reflector {
  readonly def: ResourceDef;
  readonly namespace?: string;
  phase: ReflectorPhase = 'idle';
  /** A list has completed at least once: the cache holds this resource. */
  hasSynced = false;
  /** The first list attempt has finished, one way or the other. */
  attempted = false;
  lastSyncAt?: number;
  /** The last failure; cleared once a watch is established again. */
  failure?: ReflectorFailure;
  /** Objects whose shape we could not read (skipped, not cached). */
  skipped = 0;
  /** The server does not serve this resource (404 on its collection): absent, not an error. */
  absent = false;
  readonly counts = {
    lists: 0,
    pages: 0,
    watches: 0,
    relistsOnGone: 0,
    events: 0,
    staleRelists: 0,
    watchdogRestarts: 0,
    /** Requests sent again after a 429 or 5xx. */
    retries: 0,
  };
  /** When the cache last heard from the server for this resource: a list completed, an event, a BOOKMARK. */
  lastHeardAt?: number;
  /** The request in flight (a list page, a watch until its headers) and since when. */
  pending?: { what: string; since: number };
  /** Watchdog restarts since a request last settled on its own. */
  restartsInARow = 0;
  private wedgedNow = false;
  /** What got stuck the time it was found wedged. */
  wedgedReason?: string;
  /** How long the last watch was open (0 if it never connected). */
  private lastWatchLivedMs = 0;

  private readonly o: ReflectorOptions;
  private readonly watcher: Watch;
  private readonly watchConfig: WatchConfig;
  private rv = '';
  private stopped = false;
  private loop: Loop = { ctl: new AbortController() };
  private wake?: () => void;
  private firstAttempt: Promise<void>;
  private markAttempted!: () => void;
  private attempt = 0;
  /** Equal parts of this resource's objects are kept once (projection.ts `Interner`). */
  private readonly intern = new Interner();

  constructor(o: ReflectorOptions) {
    this.o = o;
    this.def = o.def;
    this.namespace = o.namespace;
    this.watchConfig = new WatchConfig(o.kubeConfig);
    this.watcher = new Watch(this.watchConfig);
    this.firstAttempt = new Promise((resolve) => (this.markAttempted = resolve));
  }

  get label(): string {
    return labelOf(this.def.resource, this.namespace);
  }

  start(): void {
    if (this.phase !== 'idle') return;
    void this.run(this.loop);
  }

  stop(): void {
    this.stopped = true;
    this.phase = 'stopped';
    this.loop.ctl.abort(new Stopped());
    this.wake?.();
    this.markAttempted();
  }

  /**
   * Stuck past its deadline again after `maxRestarts` watchdog restarts in a row: only a new process
   * will help. Stays true until a request settles on its own.
   */
  get wedged(): boolean {
    return this.wedgedNow;
  }

  /** How long the request in flight has been pending (0 when none). */
  stuckFor(now: number): number {
    return this.pending ? now - this.pending.since : 0;
  }

  /**
   * The time since which the cached data may be behind: the last failure (after the last sync), or
   * the last word from the server when that is older than `staleAfterMs`; undefined when current.
   */
  staleSince(now: number): number | undefined {
    if (this.failure) return this.failure.since ?? Math.max(this.lastSyncAt ?? 0, this.failure.at);
    if (this.lastHeardAt !== undefined && now - this.lastHeardAt > this.o.staleAfterMs) return this.lastHeardAt;
    return undefined;
  }

  /**
   * Records a failure. The data has been behind since the first fault of this outage (kept across
   * the retries that fail too), or since `behindSince` (a silent watch: the last word heard).
   */
  private fail(e: unknown, behindSince?: number): void {
    const f = describeFailure(this.def.resource, this.namespace, e, this.o.requestTimeoutMs);
    const prev = this.failure ? (this.failure.since ?? Math.max(this.lastSyncAt ?? 0, this.failure.at)) : undefined;
    const since = prev ?? behindSince;
    this.failure = since !== undefined ? { ...f, since } : f;
  }

  /**
   * Called periodically (LiveSource): a request pending past `stuckAfterMs` means its deadline did not
   * fire; abandon that loop (its requests are aborted) and start a fresh one from a relist. Returns
   * whether it restarted.
   */
  watchdog(now: number): boolean {
    if (this.stopped || this.phase === 'idle') return false;
    const stuck = this.stuckFor(now) > this.o.watchdog.stuckAfterMs;
    // The watch's own silence timer is the first line; this is the second.
    const silent =
      this.phase === 'watching' &&
      this.lastHeardAt !== undefined &&
      now - this.lastHeardAt > this.o.staleAfterMs + this.o.watchdog.stuckAfterMs;
    if (!stuck && !silent) return false;
    const what = this.pending?.what ?? `watch ${this.label}`;
    if (this.restartsInARow >= this.o.watchdog.maxRestarts) {
      this.wedgedNow = true;
      this.wedgedReason = `${what}: stuck past its deadline again after ${this.restartsInARow} watchdog restart(s)`;
    }
    const err = Object.assign(
      new Error(`${what}: stuck for ${stuck ? this.stuckFor(now) : now - (this.lastHeardAt ?? now)} ms, restarted`),
      { reason: 'Timeout' },
    );
    this.fail(err, this.lastHeardAt);
    // A first list that got stuck is an attempt over: load() answers with the error, not after syncTimeoutMs.
    this.attempted = true;
    this.markAttempted();
    this.restartsInARow++;
    this.counts.watchdogRestarts++;
    this.pending = undefined;
    this.loop.ctl.abort(new Restarted());
    this.wake?.();
    this.loop = { ctl: new AbortController() };
    this.rv = '';
    void this.run(this.loop);
    return true;
  }

  /** Resolves once the first list attempt is over, or after `ms`, or when `signal` aborts. */
  async whenAttempted(ms: number, signal?: AbortSignal): Promise<void> {
    if (this.attempted) return;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    await Promise.race([
      this.firstAttempt,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, ms);
        onAbort = () => resolve();
        signal?.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }

  private async run(loop: Loop): Promise<void> {
    const live = () => !this.stopped && this.loop === loop;
    let consecutiveGone = 0;
    while (live()) {
      try {
        if (!this.rv) {
          this.phase = 'listing';
          await this.relist(loop);
        }
        if (this.o.listOnly) {
          this.phase = 'listed';
          return;
        }
        const { livedMs } = await this.watchOnce(loop);
        if (!live()) break;
        consecutiveGone = 0;
        // Every watch end goes through the backoff, except after a watch that lived long enough to be
        // a healthy one (the server's timeoutSeconds): a server that ends each watch after a line or
        // two is not hammered, and the backoff only starts over once watches last again.
        if (livedMs >= this.o.healthyWatchMs) this.attempt = 0;
        else await this.sleep(this.nextBackoff());
      } catch (e) {
        if (!live() || e instanceof Stopped || e instanceof Restarted) break;
        if (failureCode(e) === 404 && !this.hasSynced) {
          // The API group or resource is not served (a cluster without it): absent, an empty set.
          this.o.sink.replace(this.def.kind, this.namespace, []);
          this.absent = true;
          this.hasSynced = true;
          this.failure = undefined;
          this.lastSyncAt = this.lastHeardAt = Date.now();
          this.attempted = true;
          this.markAttempted();
          if (this.o.listOnly) {
            this.phase = 'listed';
            return;
          }
          this.phase = 'backoff';
          // It may be installed later (a CRD): look again, rarely.
          await this.sleep(this.o.backoff.maxMs);
          continue;
        }
        if (e instanceof Gone || failureCode(e) === 410) {
          // reflector.go: "The resourceVersion … is too old" → relist from scratch, no backoff; but a
          // server that keeps answering 410 gets the backoff like any other fault.
          this.rv = '';
          this.counts.relistsOnGone++;
          if (++consecutiveGone > 1) await this.sleep(this.nextBackoff());
          continue;
        }
        if (e instanceof Silent) {
          // No word for staleAfterMs on an open watch: the data may be behind; relist at once (the
          // silence already waited), and say since when until the new watch is up.
          this.rv = '';
          this.counts.staleRelists++;
          this.fail(e, this.lastHeardAt);
          continue;
        }
        this.fail(e);
        this.attempted = true;
        this.markAttempted();
        if (this.o.listOnly) {
          this.phase = 'stopped';
          return;
        }
        this.phase = 'backoff';
        // A connection cut after a healthy watch starts the backoff over (still waits its first step).
        if (this.lastWatchLivedMs >= this.o.healthyWatchMs) this.attempt = 0;
        this.lastWatchLivedMs = 0;
        await this.sleep(this.nextBackoff());
      }
    }
    if (this.stopped) this.phase = 'stopped';
  }

  /**
   * Runs one request under a held deadline, tracked for the watchdog. `send` gets the signal to pass
   * to the request; the returned promise settles by the deadline whatever `send`'s promise does (a
   * credential plugin that never returns hangs before any request exists to abort).
   */
  private async request<T>(loop: Loop, what: string, send: (d: Deadline) => Promise<T>): Promise<T> {
    if (this.stopped) throw new Stopped();
    if (this.loop !== loop) throw new Restarted();
    const d = new Deadline(
      this.o.requestTimeoutMs,
      loop.ctl.signal,
      `${this.label}: no answer within ${this.o.requestTimeoutMs} ms`,
    );
    this.pending = { what, since: Date.now() };
    try {
      const v = await d.race(send(d));
      return v;
    } finally {
      d.clear();
      if (this.loop === loop) {
        this.pending = undefined;
        // Settled on its own (answer, error or deadline): the watchdog is not needed.
        this.restartsInARow = 0;
        this.wedgedNow = false;
      }
    }
  }

  private nextBackoff(): number {
    const { initialMs, maxMs } = this.o.backoff;
    const base = Math.min(maxMs, initialMs * 2 ** Math.min(this.attempt, 30));
    this.attempt++;
    // Jitter (client-go's factor 1.0): up to +100%, capped, so many replicas do not retry in lockstep.
    return Math.min(maxMs, base * (1 + Math.random()));
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const t = setTimeout(done, ms);
      function done() {
        clearTimeout(t);
        resolve();
      }
      this.wake = done;
    });
  }

  /**
   * Sends `send` again after a 429 or a 5xx, waiting what the server's Retry-After says (seconds), else
   * the backoff, while the wait ends within `retryBudgetMs` of the first attempt and fewer than
   * MAX_ATTEMPTS were made (client-go rest/with_retry.go `IsNextRetry`, request.go `checkWait`). The
   * last answer's error is thrown as it came.
   */
  private async withRetries<T>(loop: Loop, send: () => Promise<T>): Promise<T> {
    const budget = this.o.retryBudgetMs ?? 2 * this.o.requestTimeoutMs;
    const first = Date.now();
    let step = this.o.backoff.initialMs;
    let retried = false;
    for (let attempt = 1; ; attempt++) {
      try {
        const v = await send();
        // The failure the retries stood on is over (a watch connecting clears it too).
        if (retried) this.failure = undefined;
        return v;
      } catch (e) {
        const code = failureCode(e);
        if (code === undefined || (code !== 429 && code < 500) || attempt >= MAX_ATTEMPTS) throw e;
        const after = retryAfterMs(e);
        const wait = after ?? Math.min(this.o.backoff.maxMs, step * (1 + Math.random() * 0.5));
        step = Math.min(this.o.backoff.maxMs, step * 2);
        if (Date.now() + wait - first > budget) throw e;
        if (this.stopped) throw new Stopped();
        if (this.loop !== loop) throw new Restarted();
        // An answer asked meanwhile names this fault (with the server's words), not a bare timeout.
        this.fail(e);
        retried = true;
        await this.sleep(wait);
        if (this.stopped) throw new Stopped();
        if (this.loop !== loop) throw new Restarted();
        this.counts.retries++;
      }
    }
  }

  /**
   * LIST in pages; the set replaces what the cache held for this resource. A continue token that
   * expired meanwhile (410 on a later page) falls back to one full list, as client-go's pager does
   * (tools/pager/pager.go `List`, FullListIfExpired); a 410 on that list too goes up to `run()`, which
   * lists again from scratch, as the reflector does (tools/cache/reflector.go `list`: `isExpiredError`
   * → `setIsLastSyncResourceVersionUnavailable(true)`, list again at resourceVersion ""). Checked
   * request by request in test/cluster/reflector-strict.test.ts.
   */
  private async relist(loop: Loop): Promise<void> {
    this.counts.lists++;
    const items: KObject[] = [];
    let cont: string | undefined;
    let rv = '';
    do {
      if (this.stopped) throw new Stopped();
      let page: Awaited<ReturnType<Reflector['listPage']>>;
      try {
        page = await this.listPage(loop, cont);
      } catch (e) {
        if (cont === undefined || cont === FULL_LIST || failureCode(e) !== 410) throw e;
        items.length = 0;
        cont = FULL_LIST;
        continue;
      }
      this.counts.pages++;
      for (const raw of page.items) {
        const p = projectObject(this.def.kind, raw, this.intern);
        if (p) items.push(p);
        else this.skipped++;
      }
      cont = page.continue;
      rv = page.resourceVersion;
    } while (cont);
    if (this.stopped) throw new Stopped();
    if (this.loop !== loop) throw new Restarted();
    this.o.sink.replace(this.def.kind, this.namespace, items);
    this.rv = rv;
    this.hasSynced = true;
    this.lastSyncAt = this.lastHeardAt = Date.now();
    this.attempted = true;
    this.markAttempted();
  }

  private async listPage(
    loop: Loop,
    cont: string | undefined,
  ): Promise<{ items: unknown[]; continue?: string; resourceVersion: string }> {
    const text = await this.withRetries(loop, () =>
      this.request(loop, `list ${this.label}`, async (d) => {
        const capture = captureRawList(d.signal);
        const opts: ConfigurationOptions = { middleware: [capture.middleware], middlewareMergeStrategy: 'append' };
        await withStatusBody(capture, () =>
          this.o.def.list(
            this.o.apis,
            {
              limit: cont === FULL_LIST ? undefined : this.o.pageSize,
              _continue: cont === FULL_LIST ? undefined : cont,
              fieldSelector: this.o.fieldSelector,
            },
            this.namespace,
            opts,
          ),
        );
        return capture.text();
      }),
    );
    let body: unknown;
    try {
      body = text === undefined ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (!isRecord(body) || !Array.isArray(body.items))
      throw new Error(`list ${this.label}: the response is not a Kubernetes list`);
    const meta = isRecord(body.metadata) ? body.metadata : {};
    return {
      items: body.items,
      continue: typeof meta.continue === 'string' && meta.continue !== '' ? meta.continue : undefined,
      resourceVersion: typeof meta.resourceVersion === 'string' ? meta.resourceVersion : '',
    };
  }

  /**
   * One WATCH from `rv`; resolves when it ends normally, with the lines seen and how long it was
   * open. Its start (until the response headers) has the request deadline; once open, a silence of
   * `staleAfterMs` ends it with `Silent`.
   */
  private watchOnce(loop: Loop): Promise<{ lines: number; livedMs: number }> {
    if (this.stopped) return Promise.reject(new Stopped());
    if (this.loop !== loop) return Promise.reject(new Restarted());
    this.counts.watches++;
    const path = collectionPath(this.def, this.namespace);
    const query: Record<string, string | number | boolean> = {
      resourceVersion: this.rv,
      allowWatchBookmarks: true,
      timeoutSeconds: this.o.watchTimeoutSeconds,
    };
    if (this.o.fieldSelector) query.fieldSelector = this.o.fieldSelector;
    const what = `watch ${this.label}`;
    // client-node's Watch has no deadline of its own (watch.js builds a 30 s timeout signal, then
    // overwrites it with the plain controller's), so a server that never answers would hang us; and
    // its controller only reaches us once the headers are in. Our signal goes on the request itself
    // (WatchConfig), so the deadline, a stop or a restart also frees the connection.
    const d = new Deadline(
      this.o.requestTimeoutMs,
      loop.ctl.signal,
      `${what}: no answer within ${this.o.requestTimeoutMs} ms`,
    );
    const pending = { what, since: Date.now() };
    this.pending = pending;
    this.lastWatchLivedMs = 0;
    return new Promise((resolve, reject) => {
      let settled = false;
      let lines = 0;
      let connectedAt: number | undefined;
      let silence: NodeJS.Timeout | undefined;
      const finish = (err?: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(silence);
        d.signal.removeEventListener('abort', onAbort);
        d.clear();
        d.abort(new Stopped());
        if (this.pending === pending) this.pending = undefined;
        const livedMs = connectedAt === undefined ? 0 : Date.now() - connectedAt;
        if (this.loop === loop) this.lastWatchLivedMs = livedMs;
        if (err) reject(err);
        else resolve({ lines, livedMs });
      };
      // The deadline before the headers, a stop, a watchdog restart.
      const onAbort = () => finish(d.signal.reason);
      d.signal.addEventListener('abort', onAbort, { once: true });
      const arm = () => {
        clearTimeout(silence);
        silence = setTimeout(
          () => finish(new Silent(`${what}: no event and no bookmark for ${this.o.staleAfterMs} ms`)),
          this.o.staleAfterMs,
        );
      };
      this.watchConfig.nextSignal = d.signal;
      this.watcher
        .watch(
          path,
          query,
          (type: string, obj: unknown) => {
            if (settled) return;
            lines++;
            this.lastHeardAt = Date.now();
            arm();
            try {
              this.onEvent(type, obj);
            } catch (e) {
              finish(e);
            }
          },
          (err: unknown) => finish(err ?? undefined),
        )
        .then(
          (c) => {
            if (settled) {
              c.abort();
              return;
            }
            d.disarm();
            connectedAt = Date.now();
            if (this.pending === pending) this.pending = undefined;
            this.restartsInARow = 0;
            this.wedgedNow = false;
            this.phase = 'watching';
            // Connected: the gap (if any) is closed. The backoff starts over only once the watch
            // has lived healthyWatchMs (run()).
            this.failure = undefined;
            arm();
          },
          (e: unknown) => finish(e),
        );
    });
  }

  private onEvent(type: string, obj: unknown): void {
    this.counts.events++;
    const meta = isRecord(obj) && isRecord(obj.metadata) ? obj.metadata : undefined;
    switch (type) {
      case 'ADDED':
      case 'MODIFIED': {
        const p = projectObject(this.def.kind, obj, this.intern);
        if (p) this.o.sink.upsert(p);
        else this.skipped++;
        break;
      }
      case 'DELETED':
        if (meta && typeof meta.name === 'string')
          this.o.sink.remove(this.def.kind, typeof meta.namespace === 'string' ? meta.namespace : undefined, meta.name);
        break;
      case 'BOOKMARK':
        break;
      case 'ERROR': {
        // The API server reports an expired resourceVersion inside a 200 watch as
        // {"type":"ERROR","object":{"kind":"Status","code":410,"reason":"Expired"|"Gone"}}.
        const code = isRecord(obj) && typeof obj.code === 'number' ? obj.code : undefined;
        if (code === 410) throw new Gone('resource version expired');
        throw Object.assign(
          new Error(
            isRecord(obj) && typeof obj.message === 'string' ? obj.message : `watch ${this.label}: error event`,
          ),
          {
            statusCode: code,
            reason: isRecord(obj) && typeof obj.reason === 'string' ? obj.reason : undefined,
          },
        );
      }
      default:
        return;
    }
    if (meta && typeof meta.resourceVersion === 'string' && meta.resourceVersion !== '') this.rv = meta.resourceVersion;
  }
}

const EMPTY_LIST = '{"items":[]}';

/** `relist`'s marker for "list again without limit nor continue" (an expired continue token). */
const FULL_LIST = '\u0000full';

/** A Retry-After of seconds (the API server's form) in ms; undefined when absent or not a number. */
function retryAfterMs(e: unknown): number | undefined {
  if (!(e instanceof ApiException)) return undefined;
  const h = e.headers as Record<string, string | undefined>;
  const v = h['retry-after'] ?? h['Retry-After'];
  if (v === undefined) return undefined;
  const n = Number(v);
  return Number.isFinite(n) && n >= 0 ? n * 1000 : undefined;
}

/**
 * A per-call middleware: a deadline on the request (client-node sets none), and the raw JSON of a
 * successful list. The generated client would otherwise turn every item into class instances
 * (ObjectSerializer: Date objects, `_default` for LimitRange `default` …) only for us to project them;
 * watch events arrive as plain wire JSON (watch.js `JSON.parse(line)`), so reading lists as wire JSON
 * too gives one projection for both. Non-2xx responses pass through untouched, so client-node still
 * throws its ApiException with the Status body.
 */
interface RawCapture {
  middleware: ObservableMiddleware;
  text(): string | undefined;
  /** The body of a non-2xx answer (client-node drops it for the codes its spec declares, e.g. 401). */
  errorText(): string | undefined;
}

function captureRawList(signal: AbortSignal): RawCapture {
  let raw: string | undefined;
  let errorRaw: string | undefined;
  const middleware: ObservableMiddleware = {
    pre(c: RequestContext) {
      c.setSignal(signal);
      return new Observable(Promise.resolve(c));
    },
    post(r: ResponseContext) {
      if (r.httpStatusCode < 200 || r.httpStatusCode > 299)
        return new Observable(
          r.body.text().then((t) => {
            errorRaw = t;
            return new ResponseContext(r.httpStatusCode, r.headers, {
              text: () => Promise.resolve(t),
              binary: () => Promise.resolve(Buffer.from(t)),
            });
          }),
        );
      return new Observable(
        r.body.text().then((t) => {
          raw = t;
          return new ResponseContext(r.httpStatusCode, r.headers, {
            text: () => Promise.resolve(EMPTY_LIST),
            binary: () => Promise.resolve(Buffer.from(EMPTY_LIST)),
          });
        }),
      );
    },
  };
  return { middleware, text: () => raw, errorText: () => errorRaw };
}

/** Runs a list call; an ApiException without its body gets the Status the server sent. */
async function withStatusBody<T>(capture: RawCapture, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    if (e instanceof ApiException && (e.body === undefined || e.body === null)) {
      const t = capture.errorText();
      if (t !== undefined) e.body = t;
    }
    throw e;
  }
}

/**
 * A request's deadline, held by a timer of ours. Not `AbortSignal.any([AbortSignal.timeout(ms), …])`:
 * `AbortSignal.any` keeps only weak references to its sources and the timeout signal's timer only a
 * weak one to the signal, so once nothing else holds the timeout signal a GC collects it and the
 * request never times out (reproduced in test/cluster/cache-faults.test.ts). A `setTimeout` is held
 * by the timer list until it fires or is cleared, and it holds the controller.
 */
export class Deadline {
  private readonly ctl = new AbortController();
  private timer?: NodeJS.Timeout;
  private readonly onParent: () => void;

  /** Aborts with an error of reason 'Timeout' and `message` after `ms`, or with `parent`'s reason. */
  constructor(
    ms: number,
    private readonly parent: AbortSignal,
    message: string,
  ) {
    this.timer = setTimeout(() => this.ctl.abort(Object.assign(new Error(message), { reason: 'Timeout' })), ms);
    this.timer.unref();
    this.onParent = () => this.ctl.abort(parent.reason);
    if (parent.aborted) this.onParent();
    else parent.addEventListener('abort', this.onParent, { once: true });
  }

  get signal(): AbortSignal {
    return this.ctl.signal;
  }

  /** `p`, or a rejection with the abort reason as soon as the deadline passes or the parent aborts. */
  race<T>(p: Promise<T>): Promise<T> {
    const signal = this.ctl.signal;
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
      p.then(
        (v) => {
          signal.removeEventListener('abort', onAbort);
          resolve(v);
        },
        (e: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(e);
        },
      );
    });
  }

  /** The deadline is over (a watch got its headers); the parent still aborts the signal. */
  disarm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  abort(reason: unknown): void {
    this.ctl.abort(reason);
  }

  /** The request settled: no timer, no listener on the parent left behind. */
  clear(): void {
    this.disarm();
    this.parent.removeEventListener('abort', this.onParent);
  }
}

/**
 * The KubeConfig client-node's Watch is given: the same cluster and credentials (delegated, so
 * whatever the real one does — exec plugins, tokens, agents — still applies), plus our signal on the
 * request. watch.js sets `requestInit.signal` to its own controller's; that one is kept linked (its
 * abort, on `done`, still closes the request) but the signal node-fetch reads is ours.
 */
class WatchConfig extends KubeConfig {
  /** The signal for the next `watch()` call, consumed by it (set just before the call). */
  nextSignal?: AbortSignal;

  constructor(private readonly inner: KubeConfig) {
    super();
  }

  override getCurrentCluster(): ReturnType<KubeConfig['getCurrentCluster']> {
    return this.inner.getCurrentCluster();
  }

  override async applyToFetchOptions(
    opts: Parameters<KubeConfig['applyToFetchOptions']>[0],
  ): ReturnType<KubeConfig['applyToFetchOptions']> {
    const ours = this.nextSignal;
    this.nextSignal = undefined;
    const init = await this.inner.applyToFetchOptions(opts);
    if (!ours) return init;
    const ctl = new AbortController();
    const follow = (s: AbortSignal | null | undefined) => () => ctl.abort(s?.reason);
    if (ours.aborted) ctl.abort(ours.reason);
    else ours.addEventListener('abort', follow(ours), { once: true });
    let theirs: AbortSignal | null | undefined;
    let onTheirs: (() => void) | undefined;
    Object.defineProperty(init, 'signal', {
      configurable: true,
      enumerable: true,
      get: () => ctl.signal,
      set: (s: AbortSignal | null | undefined) => {
        if (onTheirs) theirs?.removeEventListener('abort', onTheirs);
        theirs = s;
        onTheirs = follow(s);
        s?.addEventListener('abort', onTheirs, { once: true });
      },
    });
    return init;
  }
}

function failureCode(e: unknown): number | undefined {
  if (e instanceof ApiException) return e.code;
  if (isRecord(e) && typeof e.statusCode === 'number') return e.statusCode;
  return undefined;
}

function parseStatus(body: unknown): { reason?: string; message?: string } {
  let b: unknown = body;
  if (typeof b === 'string') {
    try {
      b = JSON.parse(b);
    } catch {
      return {};
    }
  }
  if (!isRecord(b)) return {};
  return {
    reason: typeof b.reason === 'string' && b.reason !== '' ? b.reason : undefined,
    message: typeof b.message === 'string' && b.message !== '' ? b.message : undefined,
  };
}

const REASON_OF_CODE: Record<number, string> = {
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  410: 'Expired',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

/** Node's and OpenSSL's codes for a certificate that did not verify or a handshake that failed. */
const TLS_CODES = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_SIGNATURE_FAILURE',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'HOSTNAME_MISMATCH',
  'EPROTO',
]);

/** The cause an answer decides on, from an HTTP status, a Status reason, or a system error code. */
export function causeOf(code: number | undefined, reason: string, errCode?: string): SourceErrorCause {
  if (code === 401) return 'Unauthorized';
  if (code === 403) return 'Forbidden';
  if (code === 429) return 'TooManyRequests';
  if (reason === 'Credentials') return 'Credentials';
  if (reason === 'Timeout' || code === 504) return 'Timeout';
  if (code !== undefined && code >= 500) return 'ServerError';
  if (errCode && (TLS_CODES.has(errCode) || errCode.startsWith('ERR_TLS_') || errCode.startsWith('ERR_SSL_')))
    return 'TLS';
  if (reason === 'Unreachable' || errCode !== undefined) return 'Unreachable';
  return 'ServerError';
}

/** The system error code of a failure: node-fetch's FetchError copies it; a bare socket error has it. */
function systemCode(e: unknown): string | undefined {
  if (!isRecord(e)) return undefined;
  if (typeof e.code === 'string') return e.code;
  if (isRecord(e.cause) && typeof e.cause.code === 'string') return e.cause.code;
  return undefined;
}

/** Any failure of a list or watch → the error value a reply shows (`{resource, reason, cause, message}`). */
export function describeFailure(
  resource: string,
  namespace: string | undefined,
  e: unknown,
  timeoutMs: number,
): ReflectorFailure {
  const f = describeRaw(resource, namespace, e, timeoutMs);
  return { ...f, cause: causeOf(f.code, f.reason, systemCode(e)) };
}

function describeRaw(
  resource: string,
  namespace: string | undefined,
  e: unknown,
  timeoutMs: number,
): Omit<ReflectorFailure, 'cause'> {
  const at = Date.now();
  const base = { resource, ...(namespace ? { namespace } : {}), at };
  if (e instanceof ApiException) {
    // client-node keeps the body as the raw text (exception.js); the API server's Status is in it.
    const st = parseStatus(e.body);
    return {
      ...base,
      code: e.code,
      reason: st.reason ?? REASON_OF_CODE[e.code] ?? `HTTP ${e.code}`,
      message: st.message ?? `HTTP ${e.code}`,
    };
  }
  const err = isRecord(e) ? e : {};
  const name = typeof err.name === 'string' ? err.name : '';
  const message = e instanceof Error ? e.message : String(e);
  if (typeof err.reason === 'string') {
    return {
      ...base,
      ...(typeof err.statusCode === 'number' ? { code: err.statusCode } : {}),
      reason: err.reason,
      message,
    };
  }
  if (name === 'AbortError' || name === 'TimeoutError') {
    return { ...base, reason: 'Timeout', message: `${resource}: no answer within ${timeoutMs} ms` };
  }
  if (typeof err.statusCode === 'number') {
    // Watch (watch.js) throws a plain Error named by the status text, with `statusCode`.
    return {
      ...base,
      code: err.statusCode,
      reason: REASON_OF_CODE[err.statusCode] ?? `HTTP ${err.statusCode}`,
      message,
    };
  }
  const sys = systemCode(e);
  if (sys !== undefined && causeOf(undefined, '', sys) === 'TLS') return { ...base, reason: 'TLS', message };
  if (name === 'FetchError' || sys !== undefined) {
    return { ...base, reason: 'Unreachable', message };
  }
  return { ...base, reason: 'Error', message };
}
