/**
 * A loopback stand-in for kube-apiserver, speaking its wire format for what quota-doctor reads, so the
 * real @kubernetes/client-node runs against it in tests and in bench/live.ts.
 *
 * - GET list endpoints for core/v1, apps/v1, batch/v1, scheduling.k8s.io/v1, storage.k8s.io/v1 kinds,
 *   namespaced (`/api/v1/namespaces/NS/pods`) and all-namespaces (`/api/v1/pods`), and GET of one object.
 * - `limit` + `continue` paging (an opaque token; 410 Expired once the version it carries is compacted),
 *   list items without kind/apiVersion (as the real server sends them).
 * - `fieldSelector` (`=`, `==`, `!=`, comma-joined) on the fields the API server supports for the kind
 *   (pods: spec.nodeName, status.phase …; events: involvedObject.*, reason, type …); an unsupported
 *   field is a 400, as upstream. `labelSelector` with `=`/`!=`/exists.
 * - `?watch=true`: NDJSON ADDED/MODIFIED/DELETED/BOOKMARK from `resourceVersion` (history replay),
 *   objects leaving a field selector arrive as DELETED (watch cache filtering), an expired version
 *   is an ERROR event carrying a 410 Status inside a 200 response, `timeoutSeconds` ends the stream.
 * - Controls: add/update/remove objects (emitting watch events), forbid (403 Status) per resource and
 *   scope, delay routes, fail them with a status, drop watches, expire versions, go down and come back.
 * - Faults of a broken server or network: `hang` (a request that never answers, connection held),
 *   `watchMode('silent')` (a watch open with headers sent, then nothing ever: no event, no bookmark),
 *   `watchMode('one-line')` (a watch that sends one line and ends).
 * - Counts every request by path, so a test can assert "no request when the cache is warm".
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { writeFileSync } from 'node:fs';
import { KubeConfig } from '@kubernetes/client-node';
import { readStateFiles } from '../../src/cluster/file-source.ts';
import type { KObject } from '../../src/k8s/snapshot.ts';

type Json = Record<string, unknown>;

interface KindDef {
  kind: string;
  resource: string;
  group: string;
  version: string;
  namespaced: boolean;
  fields: readonly string[];
}

const META_FIELDS = ['metadata.name', 'metadata.namespace'];
const POD_FIELDS = [
  ...META_FIELDS,
  'spec.nodeName',
  'spec.restartPolicy',
  'spec.schedulerName',
  'spec.serviceAccountName',
  'spec.hostNetwork',
  'status.phase',
  'status.podIP',
  'status.nominatedNodeName',
];
const EVENT_FIELDS = [
  ...META_FIELDS,
  'involvedObject.kind',
  'involvedObject.namespace',
  'involvedObject.name',
  'involvedObject.uid',
  'involvedObject.apiVersion',
  'involvedObject.resourceVersion',
  'involvedObject.fieldPath',
  'reason',
  'reportingComponent',
  'source',
  'type',
];

function k(
  kind: string,
  resource: string,
  group: string,
  version: string,
  namespaced: boolean,
  fields: readonly string[] = META_FIELDS,
): KindDef {
  return { kind, resource, group, version, namespaced, fields };
}

export const FAKE_KINDS: readonly KindDef[] = [
  k('Namespace', 'namespaces', '', 'v1', false, [...META_FIELDS, 'status.phase']),
  k('Node', 'nodes', '', 'v1', false, [...META_FIELDS, 'spec.unschedulable']),
  k('Pod', 'pods', '', 'v1', true, POD_FIELDS),
  k('ResourceQuota', 'resourcequotas', '', 'v1', true),
  k('LimitRange', 'limitranges', '', 'v1', true),
  k('PersistentVolumeClaim', 'persistentvolumeclaims', '', 'v1', true),
  k('PersistentVolume', 'persistentvolumes', '', 'v1', false),
  k('Service', 'services', '', 'v1', true),
  k('Event', 'events', '', 'v1', true, EVENT_FIELDS),
  k('Deployment', 'deployments', 'apps', 'v1', true),
  k('ReplicaSet', 'replicasets', 'apps', 'v1', true),
  k('StatefulSet', 'statefulsets', 'apps', 'v1', true),
  k('DaemonSet', 'daemonsets', 'apps', 'v1', true),
  k('Job', 'jobs', 'batch', 'v1', true, [...META_FIELDS, 'status.successful']),
  k('CronJob', 'cronjobs', 'batch', 'v1', true),
  k('PriorityClass', 'priorityclasses', 'scheduling.k8s.io', 'v1', false),
  k('StorageClass', 'storageclasses', 'storage.k8s.io', 'v1', false),
  k('RuntimeClass', 'runtimeclasses', 'node.k8s.io', 'v1', false),
  k('PodDisruptionBudget', 'poddisruptionbudgets', 'policy', 'v1', true),
  k('CSINode', 'csinodes', 'storage.k8s.io', 'v1', false),
  k('CSIDriver', 'csidrivers', 'storage.k8s.io', 'v1', false),
  k('ResourceClaim', 'resourceclaims', 'resource.k8s.io', 'v1', true),
  k('DeviceClass', 'deviceclasses', 'resource.k8s.io', 'v1', false),
  k('ResourceSlice', 'resourceslices', 'resource.k8s.io', 'v1', false),
];

function apiVersionOf(d: KindDef): string {
  return d.group ? `${d.group}/${d.version}` : d.version;
}

interface Stored {
  key: string;
  obj: Json;
  /** The list-item JSON (no kind/apiVersion), serialized once. */
  json: string;
}

interface HistoryEntry {
  rv: number;
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  obj: Json;
  prev?: Json;
}

interface Requirement {
  field: string;
  op: '=' | '!=';
  value: string;
}

interface Watcher {
  coll: Collection;
  namespace?: string;
  fields: Requirement[];
  labels: LabelRequirement[];
  bookmarks: boolean;
  res: ServerResponse;
  timer?: NodeJS.Timeout;
  /** Opened in `silent` mode: nothing is ever written to it. */
  silent?: boolean;
  /** Opened in `one-line` mode: it ends after its first line. */
  oneLine?: boolean;
}

/** How new watches of a resource behave: as the API server, open and silent, or one line then the end. */
export type WatchMode = 'normal' | 'silent' | 'one-line';

class Collection {
  readonly byKey = new Map<string, Stored>();
  private sorted?: string[];
  /** Pods by spec.nodeName, so `fieldSelector=spec.nodeName=X` (kubectl describe node, topNodes) is cheap. */
  readonly byNode = new Map<string, Set<string>>();
  history: HistoryEntry[] = [];
  /** Versions at or below this are gone: watching from them is a 410. */
  compactedRv = 0;
  constructor(readonly def: KindDef) {}

  keys(): string[] {
    this.sorted ??= [...this.byKey.keys()].sort();
    return this.sorted;
  }

  set(s: Stored): void {
    const prev = this.byKey.get(s.key);
    if (!prev) this.sorted = undefined;
    if (this.def.kind === 'Pod') {
      const before = prev ? nodeOf(prev.obj) : undefined;
      if (before !== undefined) this.byNode.get(before)?.delete(s.key);
      const after = nodeOf(s.obj);
      if (after !== undefined) {
        let set = this.byNode.get(after);
        if (!set) this.byNode.set(after, (set = new Set()));
        set.add(s.key);
      }
    }
    this.byKey.set(s.key, s);
  }

  delete(key: string): Stored | undefined {
    const prev = this.byKey.get(key);
    if (!prev) return undefined;
    this.byKey.delete(key);
    this.sorted = undefined;
    if (this.def.kind === 'Pod') {
      const n = nodeOf(prev.obj);
      if (n !== undefined) this.byNode.get(n)?.delete(key);
    }
    return prev;
  }
}

function nodeOf(o: Json): string | undefined {
  const spec = o.spec;
  return isRecord(spec) && typeof spec.nodeName === 'string' && spec.nodeName !== '' ? spec.nodeName : undefined;
}

function isRecord(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function metaOf(o: Json): Json {
  if (!isRecord(o.metadata)) o.metadata = {};
  return o.metadata as Json;
}

function keyOf(ns: string | undefined, name: string): string {
  return `${ns ?? ''}/${name}`;
}

/** A field's value as the API server's field-set functions give it: a string, '' when absent. */
function fieldValue(o: Json, path: string): string {
  let cur: unknown = o;
  for (const seg of path.split('.')) {
    if (!isRecord(cur)) return '';
    cur = cur[seg];
  }
  if (path === 'source' && isRecord(o.source)) return String(o.source.component ?? '');
  if (typeof cur === 'string') return cur;
  if (typeof cur === 'number' || typeof cur === 'boolean') return String(cur);
  return '';
}

function parseFieldSelector(s: string | null, d: KindDef): Requirement[] | string {
  if (!s) return [];
  const out: Requirement[] = [];
  for (const part of s.split(',')) {
    if (part === '') continue;
    const m = /^([^!=]+)(==|=|!=)(.*)$/.exec(part);
    if (!m) return `invalid field selector: ${part}`;
    const field = m[1]!.trim();
    if (!d.fields.includes(field)) return `field label not supported: ${field}`;
    out.push({ field, op: m[2] === '!=' ? '!=' : '=', value: m[3]!.trim() });
  }
  return out;
}

interface LabelRequirement {
  key: string;
  op: '=' | '!=' | 'exists' | '!exists';
  value?: string;
}

function parseLabelSelector(s: string | null): LabelRequirement[] | string {
  if (!s) return [];
  const out: LabelRequirement[] = [];
  for (const part of s.split(',')) {
    const p = part.trim();
    if (p === '') continue;
    const m = /^([^!=]+)(==|=|!=)(.*)$/.exec(p);
    if (m) out.push({ key: m[1]!.trim(), op: m[2] === '!=' ? '!=' : '=', value: m[3]!.trim() });
    else if (p.startsWith('!')) out.push({ key: p.slice(1), op: '!exists' });
    else if (/^[A-Za-z0-9./_-]+$/.test(p)) out.push({ key: p, op: 'exists' });
    else return `unable to parse requirement: ${p}`;
  }
  return out;
}

function matches(o: Json, namespace: string | undefined, fields: Requirement[], labels: LabelRequirement[]): boolean {
  const meta = isRecord(o.metadata) ? o.metadata : {};
  if (namespace !== undefined && meta.namespace !== namespace) return false;
  for (const r of fields) {
    const v = fieldValue(o, r.field);
    if (r.op === '=' ? v !== r.value : v === r.value) return false;
  }
  if (labels.length) {
    const l = isRecord(meta.labels) ? meta.labels : {};
    for (const r of labels) {
      const has = Object.hasOwn(l, r.key);
      if (r.op === 'exists' && !has) return false;
      if (r.op === '!exists' && has) return false;
      if (r.op === '=' && l[r.key] !== r.value) return false;
      if (r.op === '!=' && l[r.key] === r.value) return false;
    }
  }
  return true;
}

function status(code: number, reason: string, message: string, details?: Json): string {
  return JSON.stringify({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    ...(details ? { details } : {}),
    code,
  });
}

export type ForbidScope = 'all' | 'cluster' | { namespace: string };

export interface FakeRequest {
  method: string;
  path: string;
  query: string;
  watch: boolean;
}

/**
 * A route another stand-in adds to this server (e.g. coordination.k8s.io Leases): called before the
 * built-in routes, after the request is counted; returns true when it answered the request.
 */
export type FakeRoute = (
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  server: FakeApiServer,
) => boolean | Promise<boolean>;

export interface FakeApiServerOptions {
  /** Routes tried before the built-in ones (see `FakeRoute`; more can be added with `addRoutes`). */
  extraRoutes?: FakeRoute | FakeRoute[];
  /** A state path read with FileSource's `readStateFiles` (the same objects a FileSource test sees). */
  state?: string;
  objects?: KObject[];
  /** Watch events kept for resuming from an older resourceVersion (default 100,000). */
  historyLimit?: number;
  /** Send a BOOKMARK to every bookmark-enabled watch this often (0: only on `bookmark()`). */
  bookmarkEveryMs?: number;
  /** The user name that 403 messages quote. */
  user?: string;
}

export class FakeApiServer {
  readonly requests: FakeRequest[] = [];
  /** Total requests per URL path. */
  readonly counts = new Map<string, number>();
  private readonly server: Server;
  private readonly colls = new Map<string, Collection>();
  private readonly byRoute = new Map<string, Collection>();
  private readonly watchers = new Set<Watcher>();
  private readonly sockets = new Set<Socket>();
  private readonly forbidden: Array<{ resource: string; scope: ForbidScope }> = [];
  private readonly delays = new Map<string, { ms: number; watch: boolean }>();
  private readonly failures = new Map<string, number>();
  private readonly hangs = new Map<string, { lists: boolean; watches: boolean }>();
  private readonly watchModes = new Map<string, WatchMode>();
  /** Requests held unanswered by `hang` now. */
  private readonly hung = new Set<ServerResponse>();
  private readonly historyLimit: number;
  private readonly user: string;
  private bookmarkTimer?: NodeJS.Timeout;
  private rv = 0;
  private port = 0;
  private isDown = false;
  private readonly extraRoutes: FakeRoute[] = [];

  private constructor(opts: FakeApiServerOptions) {
    if (opts.extraRoutes) this.extraRoutes.push(...[opts.extraRoutes].flat());
    this.historyLimit = opts.historyLimit ?? 100_000;
    this.user = opts.user ?? 'system:serviceaccount:quota-doctor:quota-doctor';
    for (const d of FAKE_KINDS) {
      const c = new Collection(d);
      this.colls.set(d.kind, c);
      this.byRoute.set(`${d.group}/${d.version}/${d.resource}`, c);
    }
    if (opts.state) {
      const st = readStateFiles(opts.state);
      if (st.errors.length)
        throw new Error(`fake-apiserver: ${opts.state}: ${st.errors.map((e) => e.message).join('; ')}`);
      for (const d of FAKE_KINDS) for (const o of st.snapshot.list(d.kind)) this.store(o, false);
    }
    for (const o of opts.objects ?? []) this.store(o, false);
    // Versions up to the initial load have no history: watching from before it is a 410, as after
    // an etcd compaction.
    for (const c of this.colls.values()) c.compactedRv = this.rv;
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.on('connection', (s: Socket) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    if (opts.bookmarkEveryMs) this.bookmarkTimer = setInterval(() => this.bookmark(), opts.bookmarkEveryMs).unref();
  }

  static async start(opts: FakeApiServerOptions = {}): Promise<FakeApiServer> {
    const s = new FakeApiServer(opts);
    await s.listen(0);
    return s;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** What `KubeConfig.loadFromOptions` takes: http needs `skipTLSVerify` in client-node 1.4. */
  kubeConfigOptions(token = 'fake-token'): Parameters<KubeConfig['loadFromOptions']>[0] {
    return {
      currentContext: 'fake',
      contexts: [{ name: 'fake', cluster: 'fake', user: 'fake' }],
      clusters: [{ name: 'fake', server: this.url, skipTLSVerify: true }],
      users: [{ name: 'fake', token }],
    };
  }

  kubeConfig(token?: string): KubeConfig {
    const kc = new KubeConfig();
    kc.loadFromOptions(this.kubeConfigOptions(token));
    return kc;
  }

  /** Writes a kubeconfig file pointing at this server (for `--kubeconfig` / KUBECONFIG tests). */
  writeKubeconfig(file: string, context = 'fake'): string {
    writeFileSync(
      file,
      [
        'apiVersion: v1',
        'kind: Config',
        `current-context: ${context}`,
        'clusters:',
        `- name: fake`,
        `  cluster: { server: "${this.url}", insecure-skip-tls-verify: true }`,
        'users:',
        '- name: fake',
        '  user: { token: fake-token }',
        'contexts:',
        `- name: ${context}`,
        '  context: { cluster: fake, user: fake }',
        '',
      ].join('\n'),
    );
    return file;
  }

  /** Adds routes tried before the built-in ones, in order (see `FakeRoute`). */
  addRoutes(...routes: FakeRoute[]): void {
    this.extraRoutes.push(...routes);
  }

  // ---- objects -------------------------------------------------------------------------------

  /** Adds or replaces an object (kind required) and tells the watches. Returns its resourceVersion. */
  apply(obj: KObject): string {
    return this.store(obj, true);
  }

  remove(kind: string, namespace: string | undefined, name: string): boolean {
    const c = this.coll(kind);
    const prev = c.delete(keyOf(c.def.namespaced ? namespace : undefined, name));
    if (!prev) return false;
    const rv = ++this.rv;
    const obj = { ...prev.obj, metadata: { ...metaOf(prev.obj), resourceVersion: String(rv) } };
    this.record(c, { rv, type: 'DELETED', obj, prev: prev.obj });
    return true;
  }

  get(kind: string, namespace: string | undefined, name: string): Json | undefined {
    const c = this.coll(kind);
    return c.byKey.get(keyOf(c.def.namespaced ? namespace : undefined, name))?.obj;
  }

  count(kind: string): number {
    return this.coll(kind).byKey.size;
  }

  /** Watches open now. */
  get openWatches(): number {
    return this.watchers.size;
  }

  get resourceVersion(): string {
    return String(this.rv);
  }

  private coll(kind: string): Collection {
    const c = this.colls.get(kind);
    if (!c) throw new Error(`fake-apiserver: unknown kind ${kind}`);
    return c;
  }

  private store(input: KObject, emit: boolean): string {
    const kind = input.kind;
    if (!kind) throw new Error('fake-apiserver: object without kind');
    const c = this.coll(kind);
    const { kind: _k, apiVersion: _a, ...rest } = structuredClone(input) as Json;
    const obj = rest as Json;
    const meta = metaOf(obj);
    if (!c.def.namespaced) delete meta.namespace;
    else if (typeof meta.namespace !== 'string') meta.namespace = 'default';
    const name = String(meta.name ?? '');
    const rv = ++this.rv;
    meta.resourceVersion = String(rv);
    meta.uid ??= `uid-${kind.toLowerCase()}-${rv}`;
    const key = keyOf(c.def.namespaced ? String(meta.namespace) : undefined, name);
    const prev = c.byKey.get(key);
    c.set({ key, obj, json: JSON.stringify(obj) });
    if (emit) this.record(c, { rv, type: prev ? 'MODIFIED' : 'ADDED', obj, prev: prev?.obj });
    return String(rv);
  }

  private record(c: Collection, e: HistoryEntry): void {
    c.history.push(e);
    if (c.history.length > this.historyLimit) {
      const dropped = c.history.splice(0, c.history.length - this.historyLimit);
      c.compactedRv = dropped[dropped.length - 1]!.rv;
    }
    for (const w of this.watchers) if (w.coll === c) this.send(w, e);
  }

  /** Writes one history entry to a watcher, as the watch cache filters it. */
  private send(w: Watcher, e: HistoryEntry): void {
    const now = matches(e.obj, w.namespace, w.fields, w.labels);
    const before = e.prev ? matches(e.prev, w.namespace, w.fields, w.labels) : false;
    let type: string;
    if (e.type === 'DELETED') {
      if (!before) return;
      type = 'DELETED';
    } else if (now && before) type = 'MODIFIED';
    else if (now) type = 'ADDED';
    else if (before) type = 'DELETED';
    else return;
    this.writeEvent(w, type, e.obj);
  }

  private writeEvent(w: Watcher, type: string, obj: Json): void {
    if (w.silent || w.res.destroyed || w.res.writableEnded) return;
    const d = w.coll.def;
    w.res.write(`${JSON.stringify({ type, object: { kind: d.kind, apiVersion: apiVersionOf(d), ...obj } })}\n`);
    if (w.oneLine) this.endWatch(w);
  }

  // ---- faults --------------------------------------------------------------------------------

  /** 403 for `resource` (plural): everywhere, only at cluster scope (all-namespaces lists), or in one namespace. */
  forbid(resource: string, scope: ForbidScope = 'all'): void {
    this.forbidden.push({ resource, scope });
  }

  allow(resource?: string): void {
    for (let i = this.forbidden.length - 1; i >= 0; i--)
      if (!resource || this.forbidden[i]!.resource === resource) this.forbidden.splice(i, 1);
  }

  /** Answers `resource` only after `ms` (lists; and watches too when `watch`). */
  delay(resource: string, ms: number, opts: { watch?: boolean } = {}): void {
    if (ms <= 0) this.delays.delete(resource);
    else this.delays.set(resource, { ms, watch: opts.watch ?? false });
  }

  /** Answers `resource` with this status (500 by default) until `fail(resource, 0)`. */
  fail(resource: string, code = 500): void {
    if (code === 0) this.failures.delete(resource);
    else this.failures.set(resource, code);
  }

  /**
   * Requests for `resource` ('*': every resource) are never answered: the connection stays open, no
   * headers, until the client gives up or `unhang`. Lists by default; watches too with `watches`.
   */
  hang(resource: string, opts: { lists?: boolean; watches?: boolean } = {}): void {
    this.hangs.set(resource, { lists: opts.lists ?? true, watches: opts.watches ?? false });
  }

  /** New requests are answered again; with `release`, the ones held so far are cut (else they stay held). */
  unhang(resource?: string, opts: { release?: boolean } = {}): void {
    if (resource) this.hangs.delete(resource);
    else this.hangs.clear();
    if (opts.release) {
      for (const res of this.hung) res.socket?.destroy();
      this.hung.clear();
    }
  }

  /** Requests held by `hang` whose client has not given up. */
  get hungRequests(): number {
    return this.hung.size;
  }

  /**
   * How watches of `resource` ('*': every resource) opened from now on behave. 'silent': headers,
   * then nothing at all (no replay, no event, no bookmark) until the client leaves or `timeoutSeconds`
   * ends it. 'one-line': one line (the first event due, or a BOOKMARK at the current version) and
   * the end. 'normal' undoes either.
   */
  watchMode(resource: string, mode: WatchMode): void {
    if (mode === 'normal') this.watchModes.delete(resource);
    else this.watchModes.set(resource, mode);
  }

  /** Cuts open watches (of one resource or all) mid-stream, as a dropped connection would. */
  dropWatches(resource?: string): number {
    let n = 0;
    for (const w of [...this.watchers]) {
      if (resource && w.coll.def.resource !== resource) continue;
      this.watchers.delete(w);
      clearTimeout(w.timer);
      w.res.socket?.destroy();
      n++;
    }
    return n;
  }

  /**
   * Compacts history (of one resource or all): open watches get the ERROR event with a 410 Status
   * and end; resuming from any version seen so far is a 410 too, and so is an old `continue` token.
   */
  expire(resource?: string): void {
    for (const c of this.colls.values()) {
      if (resource && c.def.resource !== resource) continue;
      c.compactedRv = this.rv;
      c.history = [];
      for (const w of [...this.watchers]) {
        if (w.coll !== c) continue;
        this.writeGone(w.res, this.rv);
        this.endWatch(w);
      }
    }
  }

  /** Sends a BOOKMARK at the current version to every watch that asked for bookmarks. */
  bookmark(): void {
    for (const w of this.watchers) {
      if (!w.bookmarks || w.silent || w.res.destroyed) continue;
      this.writeEvent(w, 'BOOKMARK', { metadata: { resourceVersion: String(this.rv) } });
    }
  }

  /** Stops listening and cuts every connection (the API server is gone). */
  async down(): Promise<void> {
    if (this.isDown) return;
    this.isDown = true;
    for (const w of this.watchers) clearTimeout(w.timer);
    this.watchers.clear();
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const s of this.sockets) s.destroy();
    await closed;
  }

  /** Listens again on the same port. */
  async up(): Promise<void> {
    if (!this.isDown) return;
    await this.listen(this.port);
    this.isDown = false;
  }

  async close(): Promise<void> {
    clearInterval(this.bookmarkTimer);
    await this.down();
  }

  // ---- requests ------------------------------------------------------------------------------

  /** Requests so far (optionally only those whose path matches). */
  requestCount(match?: string | RegExp): number {
    if (match === undefined) return this.requests.length;
    return this.requests.filter((r) => (typeof match === 'string' ? r.path === match : match.test(r.path))).length;
  }

  resetRequests(): void {
    this.requests.length = 0;
    this.counts.clear();
  }

  private listen(port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => {
        this.server.off('error', reject);
        const a = this.server.address();
        if (a && typeof a === 'object') this.port = a.port;
        resolve();
      });
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const path = url.pathname;
    const q = url.searchParams;
    const watch = q.get('watch') === 'true' || q.get('watch') === '1';
    this.requests.push({ method: req.method ?? 'GET', path, query: url.search, watch });
    this.counts.set(path, (this.counts.get(path) ?? 0) + 1);
    for (const r of this.extraRoutes) if (await r(req, res, url, this)) return;

    if (path === '/version')
      return json(
        res,
        200,
        JSON.stringify({ major: '1', minor: '35', gitVersion: 'v1.35.0-fake', platform: 'linux/amd64' }),
      );
    if (path === '/healthz' || path === '/livez' || path === '/readyz') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
      return;
    }
    const route = this.route(path);
    if (!route) return json(res, 404, status(404, 'NotFound', 'the server could not find the requested resource'));
    const { coll, namespace, name } = route;
    const d = coll.def;
    if (req.method !== 'GET')
      return json(
        res,
        405,
        status(405, 'MethodNotAllowed', `the server does not allow this method on the requested resource`),
      );

    const hang = this.hangs.get(d.resource) ?? this.hangs.get('*');
    if (hang && (watch ? hang.watches : hang.lists)) {
      this.hung.add(res);
      res.on('close', () => this.hung.delete(res));
      return;
    }

    const delay = this.delays.get(d.resource);
    if (delay && (!watch || delay.watch)) {
      await new Promise((r) => setTimeout(r, delay.ms));
      if (res.destroyed) return;
    }
    const failure = this.failures.get(d.resource);
    if (failure)
      return json(
        res,
        failure,
        status(failure, failure === 503 ? 'ServiceUnavailable' : 'InternalError', `fake failure of ${d.resource}`),
      );
    const verb = watch ? 'watch' : name ? 'get' : 'list';
    if (this.isForbidden(d.resource, namespace)) {
      const where = namespace ? `in the namespace "${namespace}"` : 'at the cluster scope';
      const msg = `${d.resource}${d.group ? `.${d.group}` : ''}${name ? ` "${name}"` : ''} is forbidden: User "${this.user}" cannot ${verb} resource "${d.resource}" in API group "${d.group}" ${where}`;
      return json(
        res,
        403,
        status(403, 'Forbidden', msg, { ...(name ? { name } : {}), group: d.group, kind: d.resource }),
      );
    }
    if (name) {
      const s = coll.byKey.get(keyOf(d.namespaced ? namespace : undefined, name));
      if (!s)
        return json(
          res,
          404,
          status(404, 'NotFound', `${d.resource} "${name}" not found`, { name, group: d.group, kind: d.resource }),
        );
      return json(res, 200, JSON.stringify({ kind: d.kind, apiVersion: apiVersionOf(d), ...s.obj }));
    }
    const fields = parseFieldSelector(q.get('fieldSelector'), d);
    if (typeof fields === 'string') return json(res, 400, status(400, 'BadRequest', fields));
    const labels = parseLabelSelector(q.get('labelSelector'));
    if (typeof labels === 'string') return json(res, 400, status(400, 'BadRequest', labels));
    if (watch) return this.watch(res, coll, namespace, fields, labels, q);
    return this.list(res, coll, namespace, fields, labels, q);
  }

  private isForbidden(resource: string, namespace: string | undefined): boolean {
    return this.forbidden.some(
      (f) =>
        f.resource === resource &&
        (f.scope === 'all' ||
          (f.scope === 'cluster' && namespace === undefined) ||
          (typeof f.scope === 'object' && f.scope.namespace === namespace)),
    );
  }

  private route(path: string): { coll: Collection; namespace?: string; name?: string } | undefined {
    const segs = path.split('/').filter(Boolean).map(decodeURIComponent);
    let group: string;
    let version: string;
    let rest: string[];
    if (segs[0] === 'api' && segs.length >= 3) {
      group = '';
      version = segs[1]!;
      rest = segs.slice(2);
    } else if (segs[0] === 'apis' && segs.length >= 4) {
      group = segs[1]!;
      version = segs[2]!;
      rest = segs.slice(3);
    } else return undefined;
    let namespace: string | undefined;
    if (rest[0] === 'namespaces' && rest.length >= 3) {
      namespace = rest[1];
      rest = rest.slice(2);
    }
    const coll = this.byRoute.get(`${group}/${version}/${rest[0]}`);
    if (!coll || rest.length > 2) return undefined;
    if (namespace !== undefined && !coll.def.namespaced) return undefined;
    return { coll, namespace, name: rest[1] };
  }

  private list(
    res: ServerResponse,
    coll: Collection,
    namespace: string | undefined,
    fields: Requirement[],
    labels: LabelRequirement[],
    q: URLSearchParams,
  ): void {
    const d = coll.def;
    const limit = Number(q.get('limit') ?? '0');
    let listRv = this.rv;
    let after = '';
    const token = q.get('continue');
    if (token) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
      } catch {
        parsed = undefined;
      }
      if (!isRecord(parsed) || typeof parsed.rv !== 'number' || typeof parsed.k !== 'string') {
        json(res, 400, status(400, 'BadRequest', 'continue key is not valid'));
        return;
      }
      if (parsed.rv < coll.compactedRv) {
        json(
          res,
          410,
          status(
            410,
            'Expired',
            'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.',
          ),
        );
        return;
      }
      listRv = parsed.rv;
      after = parsed.k;
    }
    let keys: string[];
    const nodeReq =
      d.kind === 'Pod' ? fields.find((f) => f.field === 'spec.nodeName' && f.op === '=' && f.value !== '') : undefined;
    if (nodeReq) keys = [...(coll.byNode.get(nodeReq.value) ?? [])].sort();
    else keys = coll.keys();
    let i = 0;
    if (after) {
      // First key greater than the last one served (binary search in the sorted keys).
      let lo = 0;
      let hi = keys.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (keys[mid]! <= after) lo = mid + 1;
        else hi = mid;
      }
      i = lo;
    } else if (namespace !== undefined) {
      let lo = 0;
      let hi = keys.length;
      const prefix = `${namespace}/`;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (keys[mid]! < prefix) lo = mid + 1;
        else hi = mid;
      }
      i = lo;
    }
    const parts: string[] = [];
    let last = '';
    let more = false;
    for (; i < keys.length; i++) {
      const key = keys[i]!;
      if (namespace !== undefined && !key.startsWith(`${namespace}/`)) break;
      const s = coll.byKey.get(key);
      if (!s || !matches(s.obj, namespace, fields, labels)) continue;
      if (limit > 0 && parts.length >= limit) {
        more = true;
        break;
      }
      parts.push(s.json);
      last = key;
    }
    const meta: Json = { resourceVersion: String(listRv) };
    if (more) meta.continue = Buffer.from(JSON.stringify({ rv: listRv, k: last })).toString('base64url');
    json(
      res,
      200,
      `{"kind":"${d.kind}List","apiVersion":"${apiVersionOf(d)}","metadata":${JSON.stringify(meta)},"items":[${parts.join(',')}]}`,
    );
  }

  private watch(
    res: ServerResponse,
    coll: Collection,
    namespace: string | undefined,
    fields: Requirement[],
    labels: LabelRequirement[],
    q: URLSearchParams,
  ): void {
    res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
    // The API server sends the headers at once; Node would hold them until the first event.
    res.flushHeaders();
    const w: Watcher = { coll, namespace, fields, labels, bookmarks: q.get('allowWatchBookmarks') === 'true', res };
    const mode = this.watchModes.get(coll.def.resource) ?? this.watchModes.get('*') ?? 'normal';
    if (mode === 'silent') w.silent = true;
    if (mode === 'one-line') w.oneLine = true;
    const rvParam = q.get('resourceVersion');
    if (rvParam && rvParam !== '0') {
      const from = Number(rvParam);
      if (!Number.isFinite(from) || from < coll.compactedRv) {
        this.writeGone(res, from);
        res.end();
        return;
      }
      for (const e of coll.history) if (e.rv > from) this.send(w, e);
    } else {
      // No version: "start at most recent", with a synthetic ADDED for every object that exists.
      for (const key of coll.keys()) {
        const s = coll.byKey.get(key);
        if (s && matches(s.obj, namespace, fields, labels)) this.writeEvent(w, 'ADDED', s.obj);
      }
    }
    if (w.oneLine && !res.writableEnded) {
      // Nothing to replay: the one line is a BOOKMARK at the current version.
      this.writeEvent(w, 'BOOKMARK', { metadata: { resourceVersion: String(this.rv) } });
      return;
    }
    if (res.writableEnded) return;
    this.watchers.add(w);
    const timeout = Number(q.get('timeoutSeconds') ?? '0');
    if (timeout > 0) w.timer = setTimeout(() => this.endWatch(w), timeout * 1000);
    res.on('close', () => {
      clearTimeout(w.timer);
      this.watchers.delete(w);
    });
  }

  private writeGone(res: ServerResponse, from: number): void {
    if (res.destroyed || res.writableEnded) return;
    const st = JSON.parse(status(410, 'Expired', `too old resource version: ${from} (${this.rv})`)) as Json;
    res.write(`${JSON.stringify({ type: 'ERROR', object: st })}\n`);
  }

  private endWatch(w: Watcher): void {
    clearTimeout(w.timer);
    this.watchers.delete(w);
    if (!w.res.writableEnded) w.res.end();
  }
}

function json(res: ServerResponse, code: number, body: string): void {
  if (res.destroyed || res.writableEnded) return;
  res.writeHead(code, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
