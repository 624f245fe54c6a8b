/**
 * One resource (optionally in one namespace) kept current the way client-go's Reflector does it
 * (k8s.io/client-go/tools/cache/reflector.go): a paged LIST (`limit` + `continue`), then a WATCH from
 * the list's resourceVersion with `allowWatchBookmarks`; a watch that ends is resumed from the last
 * resourceVersion seen; "410 Gone" (as an HTTP status or as an ERROR event carrying a Status) means
 * that version is compacted away, so it relists; any other failure waits an exponential backoff
 * (client-go: 800 ms doubling to 30 s, with jitter) and tries again. It never gives up on its own:
 * RBAC fixed or the API back means it recovers without a restart.
 *
 * Why not client-node's ListWatch/informer: it caches whole objects (we keep projections), lists
 * without paging, and stops for good on any error other than 410 (cache.js `doneHandler`).
 * What we do use from client-node: the generated list calls (auth, TLS, ApiException) and `Watch`.
 */
import {
  ApiException,
  Observable,
  ResponseContext,
  Watch,
  type ConfigurationOptions,
  type KubeConfig,
  type ObservableMiddleware,
  type RequestContext,
} from '@kubernetes/client-node';
import type { KObject } from '../k8s/snapshot.ts';
import type { SourceError } from './source.ts';
import { Interner, isRecord, projectObject } from './projection.ts';
import { collectionPath, type Apis, type ResourceDef } from './resources.ts';

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
  /** No line (event or bookmark) on an open watch for this long → assume a dead connection, reconnect. */
  watchIdleMs: number;
  backoff: BackoffOptions;
  sink: ReflectorSink;
}

export type ReflectorPhase = 'idle' | 'listing' | 'watching' | 'backoff' | 'stopped';

export interface ReflectorFailure extends SourceError {
  /** HTTP status when there was one (403, 410, 500 …). */
  code?: number;
  at: number;
}

/** Thrown inside the loop to restart from a fresh list. */
class Gone extends Error {}
class Stopped extends Error {}

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
  readonly counts = { lists: 0, pages: 0, watches: 0, relistsOnGone: 0, events: 0 };

  private readonly o: ReflectorOptions;
  private readonly watcher: Watch;
  private rv = '';
  private stopped = false;
  private readonly stopCtl = new AbortController();
  private wake?: () => void;
  private abortWatch?: (err: unknown) => void;
  private firstAttempt: Promise<void>;
  private markAttempted!: () => void;
  private attempt = 0;
  /** Equal parts of this resource's objects are kept once (projection.ts `Interner`). */
  private readonly intern = new Interner();

  constructor(o: ReflectorOptions) {
    this.o = o;
    this.def = o.def;
    this.namespace = o.namespace;
    this.watcher = new Watch(o.kubeConfig);
    this.firstAttempt = new Promise((resolve) => (this.markAttempted = resolve));
  }

  get label(): string {
    return this.namespace ? `${this.def.resource} in ${this.namespace}` : this.def.resource;
  }

  start(): void {
    if (this.phase !== 'idle') return;
    void this.run();
  }

  stop(): void {
    this.stopped = true;
    this.phase = 'stopped';
    this.stopCtl.abort();
    this.abortWatch?.(new Stopped());
    this.wake?.();
    this.markAttempted();
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

  private async run(): Promise<void> {
    let consecutiveGone = 0;
    while (!this.stopped) {
      try {
        if (!this.rv) {
          this.phase = 'listing';
          await this.relist();
        }
        const started = Date.now();
        const delivered = await this.watchOnce();
        // A watch the server ends (timeoutSeconds) resumes at once; one that ends straight away
        // without a single event goes through the backoff, so a misbehaving server is not hammered.
        if (delivered === 0 && Date.now() - started < 1000) await this.sleep(this.nextBackoff());
        consecutiveGone = 0;
      } catch (e) {
        if (this.stopped || e instanceof Stopped) break;
        if (e instanceof Gone || failureCode(e) === 410) {
          // reflector.go: "The resourceVersion … is too old" → relist from scratch, no backoff; but a
          // server that keeps answering 410 gets the backoff like any other fault.
          this.rv = '';
          this.counts.relistsOnGone++;
          if (++consecutiveGone > 1) await this.sleep(this.nextBackoff());
          continue;
        }
        this.failure = describeFailure(this.def.resource, this.namespace, e, this.o.requestTimeoutMs);
        this.attempted = true;
        this.markAttempted();
        this.phase = 'backoff';
        await this.sleep(this.nextBackoff());
      }
    }
    this.phase = 'stopped';
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

  /** LIST in pages; the set replaces what the cache held for this resource. */
  private async relist(): Promise<void> {
    this.counts.lists++;
    const items: KObject[] = [];
    let cont: string | undefined;
    let rv = '';
    do {
      if (this.stopped) throw new Stopped();
      const page = await this.listPage(cont);
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
    this.o.sink.replace(this.def.kind, this.namespace, items);
    this.rv = rv;
    this.hasSynced = true;
    this.lastSyncAt = Date.now();
    this.attempted = true;
    this.markAttempted();
  }

  private async listPage(cont: string | undefined): Promise<{ items: unknown[]; continue?: string; resourceVersion: string }> {
    const capture = captureRawList(this.o.requestTimeoutMs, this.stopCtl.signal);
    const opts: ConfigurationOptions = { middleware: [capture.middleware], middlewareMergeStrategy: 'append' };
    await this.o.def.list(
      this.o.apis,
      { limit: this.o.pageSize, _continue: cont, fieldSelector: this.o.fieldSelector },
      this.namespace,
      opts,
    );
    const text = capture.text();
    let body: unknown;
    try {
      body = text === undefined ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (!isRecord(body) || !Array.isArray(body.items)) throw new Error(`list ${this.label}: the response is not a Kubernetes list`);
    const meta = isRecord(body.metadata) ? body.metadata : {};
    return {
      items: body.items,
      continue: typeof meta.continue === 'string' && meta.continue !== '' ? meta.continue : undefined,
      resourceVersion: typeof meta.resourceVersion === 'string' ? meta.resourceVersion : '',
    };
  }

  /** One WATCH from `rv`; resolves with the number of lines seen when it ends normally. */
  private watchOnce(): Promise<number> {
    if (this.stopped) return Promise.reject(new Stopped());
    this.counts.watches++;
    const path = collectionPath(this.def, this.namespace);
    const query: Record<string, string | number | boolean> = {
      resourceVersion: this.rv,
      allowWatchBookmarks: true,
      timeoutSeconds: this.o.watchTimeoutSeconds,
    };
    if (this.o.fieldSelector) query.fieldSelector = this.o.fieldSelector;
    return new Promise<number>((resolve, reject) => {
      let settled = false;
      let lines = 0;
      let controller: AbortController | undefined;
      let idle: NodeJS.Timeout | undefined;
      const finish = (err?: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(startTimer);
        clearTimeout(idle);
        this.abortWatch = undefined;
        controller?.abort();
        if (err) reject(err);
        else resolve(lines);
      };
      const arm = () => {
        clearTimeout(idle);
        idle = setTimeout(
          () => finish(Object.assign(new Error(`watch ${this.label}: nothing received for ${this.o.watchIdleMs} ms`), { reason: 'Timeout' })),
          this.o.watchIdleMs,
        );
      };
      // client-node's Watch has no deadline of its own (watch.js builds a 30 s timeout signal, then
      // overwrites it with the plain controller's), so a server that never answers would hang us.
      const startTimer = setTimeout(() => finish(timeoutError(`watch ${this.label}`, this.o.requestTimeoutMs)), this.o.requestTimeoutMs);
      this.abortWatch = finish;
      this.watcher
        .watch(
          path,
          query,
          (type: string, obj: unknown) => {
            if (settled) return;
            lines++;
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
            controller = c;
            if (settled) {
              c.abort();
              return;
            }
            clearTimeout(startTimer);
            this.phase = 'watching';
            // Connected: the gap (if any) is closed, and the backoff starts over.
            this.failure = undefined;
            this.attempt = 0;
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
        if (meta && typeof meta.name === 'string') this.o.sink.remove(this.def.kind, typeof meta.namespace === 'string' ? meta.namespace : undefined, meta.name);
        break;
      case 'BOOKMARK':
        break;
      case 'ERROR': {
        // The API server reports an expired resourceVersion inside a 200 watch as
        // {"type":"ERROR","object":{"kind":"Status","code":410,"reason":"Expired"|"Gone"}}.
        const code = isRecord(obj) && typeof obj.code === 'number' ? obj.code : undefined;
        if (code === 410) throw new Gone('resource version expired');
        throw Object.assign(new Error(isRecord(obj) && typeof obj.message === 'string' ? obj.message : `watch ${this.label}: error event`), {
          statusCode: code,
          reason: isRecord(obj) && typeof obj.reason === 'string' ? obj.reason : undefined,
        });
      }
      default:
        return;
    }
    if (meta && typeof meta.resourceVersion === 'string' && meta.resourceVersion !== '') this.rv = meta.resourceVersion;
  }
}

const EMPTY_LIST = '{"items":[]}';

/**
 * A per-call middleware: a deadline on the request (client-node sets none), and the raw JSON of a
 * successful list. The generated client would otherwise turn every item into class instances
 * (ObjectSerializer: Date objects, `_default` for LimitRange `default` …) only for us to project them;
 * watch events arrive as plain wire JSON (watch.js `JSON.parse(line)`), so reading lists as wire JSON
 * too gives one projection for both. Non-2xx responses pass through untouched, so client-node still
 * throws its ApiException with the Status body.
 */
function captureRawList(timeoutMs: number, stop: AbortSignal): { middleware: ObservableMiddleware; text(): string | undefined } {
  let raw: string | undefined;
  const middleware: ObservableMiddleware = {
    pre(c: RequestContext) {
      c.setSignal(AbortSignal.any([AbortSignal.timeout(timeoutMs), stop]));
      return new Observable(Promise.resolve(c));
    },
    post(r: ResponseContext) {
      if (r.httpStatusCode < 200 || r.httpStatusCode > 299) return new Observable(Promise.resolve(r));
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
  return { middleware, text: () => raw };
}

function timeoutError(what: string, ms: number): Error {
  return Object.assign(new Error(`${what}: no answer within ${ms} ms`), { reason: 'Timeout' });
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

/** Any failure of a list or watch → the error value a reply shows (`{resource, reason, message}`). */
export function describeFailure(resource: string, namespace: string | undefined, e: unknown, timeoutMs: number): ReflectorFailure {
  const at = Date.now();
  const base = { resource, ...(namespace ? { namespace } : {}), at };
  if (e instanceof ApiException) {
    // client-node keeps the body as the raw text (exception.js); the API server's Status is in it.
    const st = parseStatus(e.body);
    return { ...base, code: e.code, reason: st.reason ?? REASON_OF_CODE[e.code] ?? `HTTP ${e.code}`, message: st.message ?? `HTTP ${e.code}` };
  }
  const err = isRecord(e) ? e : {};
  const name = typeof err.name === 'string' ? err.name : '';
  const message = e instanceof Error ? e.message : String(e);
  if (typeof err.reason === 'string') {
    return { ...base, ...(typeof err.statusCode === 'number' ? { code: err.statusCode } : {}), reason: err.reason, message };
  }
  if (name === 'AbortError' || name === 'TimeoutError') {
    return { ...base, reason: 'Timeout', message: `${resource}: no answer within ${timeoutMs} ms` };
  }
  if (typeof err.statusCode === 'number') {
    // Watch (watch.js) throws a plain Error named by the status text, with `statusCode`.
    return { ...base, code: err.statusCode, reason: REASON_OF_CODE[err.statusCode] ?? `HTTP ${err.statusCode}`, message };
  }
  if (name === 'FetchError' || typeof err.code === 'string') {
    return { ...base, reason: 'Unreachable', message };
  }
  return { ...base, reason: 'Error', message };
}
