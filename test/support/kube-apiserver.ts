/**
 * A loopback stand-in for kube-apiserver as strict as the real one where a client's behaviour shows:
 * HTTPS with its own CA, authentication, authorization per user, API Priority and Fairness. The data
 * side (lists, paging, 410 Expired continue tokens and resourceVersions, watches with timeoutSeconds
 * and BOOKMARKs, field selectors) is the FakeApiServer's, which this server fronts over loopback;
 * its fault controls (`fail`, `hang`, `expire`, `watchMode` …) stay reachable as `data`.
 *
 * - TLS: a CA and a server certificate for 127.0.0.1/localhost made with `openssl` for this process
 *   (no network); `otherCa()` is a CA that did not sign it (a kubeconfig with the wrong CA).
 * - Authentication (k8s.io/apiserver pkg/authentication): a bearer token (`addToken`, optionally
 *   expiring) or a client certificate the CA signed (CN = user, O = groups; `clientCert`); a token
 *   that is unknown or expired is a 401 `Unauthorized` Status; no credential is `system:anonymous`.
 * - Authorization (plugin/pkg/auth/authorizer/rbac): ClusterRoleBindings (`bindCluster`) and
 *   RoleBindings (`bindNamespace`) of rules (verbs × resources) to users or groups; a denial is the
 *   403 Status of endpoints/handlers/responsewriters `forbiddenMessage`:
 *   `pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "team-b"`.
 * - APF (server/filters/priority-and-fairness): `throttle` rejects requests with 429, a
 *   `Retry-After` header and `details.retryAfterSeconds`, as the real filter does.
 * - /version (settable), discovery /api and /apis (an API group can be left unserved: its paths 404).
 * - Counts every request by path and by user, and TLS connections (keep-alive shows there).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import type { KObject } from '../../src/k8s/snapshot.ts';
import { FAKE_KINDS, FakeApiServer } from './fake-apiserver.ts';

export interface Identity {
  name: string;
  groups?: string[];
}

/** One RBAC rule: verbs on resources (`*` for all) of any API group. */
export interface Rule {
  verbs: string[];
  resources: string[];
}

export interface Pem {
  cert: string;
  key: string;
}

interface Pki {
  dir: string;
  ca: Pem;
  server: Pem;
}

let pki: Pki | undefined;
const clientCerts = new Map<string, Pem>();

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** A self-signed CA (made once per process per name). */
function makeCa(dir: string, name: string): Pem {
  openssl(dir, [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.crt`,
    '-days',
    '2',
    '-subj',
    `/CN=${name}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  return { cert: readFileSync(join(dir, `${name}.crt`), 'utf8'), key: readFileSync(join(dir, `${name}.key`), 'utf8') };
}

/** A certificate signed by the stand-in's CA. */
function signed(dir: string, name: string, subject: string, ext: string): Pem {
  openssl(dir, [
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.csr`,
    '-subj',
    subject,
  ]);
  writeFileSync(join(dir, `${name}.ext`), ext);
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    `${name}.crt`,
    '-days',
    '2',
    '-extfile',
    `${name}.ext`,
  ]);
  return { cert: readFileSync(join(dir, `${name}.crt`), 'utf8'), key: readFileSync(join(dir, `${name}.key`), 'utf8') };
}

function getPki(): Pki {
  if (pki) return pki;
  const dir = mkdtempSync(join(tmpdir(), 'qd-pki-'));
  const ca = makeCa(dir, 'ca');
  const server = signed(
    dir,
    'server',
    '/CN=kube-apiserver',
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n',
  );
  pki = { dir, ca, server };
  return pki;
}

let other: Pem | undefined;
/** A CA that did not sign the server's certificate. */
export function otherCa(): string {
  other ??= makeCa(mkdtempSync(join(tmpdir(), 'qd-pki-other-')), 'other');
  return other.cert;
}

function statusBody(code: number, reason: string, message: string, details?: Record<string, unknown>): string {
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

interface Binding {
  subject: string;
  namespace?: string;
  rules: Rule[];
}

interface Throttle {
  resource?: string;
  user?: string;
  remaining: number;
  retryAfterSeconds: number;
}

export interface KubeApiServerOptions {
  state?: string;
  objects?: KObject[];
  bookmarkEveryMs?: number;
  historyLimit?: number;
  /** What /version says (default 1.35). */
  version?: { major: string; minor: string; gitVersion: string };
}

/** The API groups of the stand-in's kinds, `''` for core. */
const GROUPS = [...new Set(FAKE_KINDS.map((k) => k.group).filter((g) => g !== ''))];

export class KubeApiServer {
  /** The data side and its fault controls. */
  readonly data: FakeApiServer;
  /** Requests by path (authenticated or not). */
  readonly counts = new Map<string, number>();
  /** Requests by authenticated user name (`system:anonymous` without a credential, `<invalid>` for a 401). */
  readonly byUser = new Map<string, number>();
  readonly requests: Array<{ user: string; path: string; query: string; status?: number }> = [];
  /** TLS connections accepted. */
  connections = 0;
  version: { major: string; minor: string; gitVersion: string };
  private readonly server: Server;
  private readonly tokens = new Map<string, { id: Identity; expiresAt?: number }>();
  private readonly bindings: Binding[] = [];
  private readonly throttles: Throttle[] = [];
  private readonly failNexts: Array<{ resource: string; code: number; remaining: number }> = [];
  /** Called for each authenticated request before it is answered (a test's hook: expire, count …). */
  onRequest?: (path: string, query: URLSearchParams) => void;
  private readonly unserved = new Set<string>();
  private readonly sockets = new Set<Socket>();
  private port = 0;
  private isDown = false;

  private constructor(data: FakeApiServer, opts: KubeApiServerOptions) {
    this.data = data;
    this.version = opts.version ?? { major: '1', minor: '35', gitVersion: 'v1.35.0' };
    const p = getPki();
    this.server = createServer(
      { cert: p.server.cert, key: p.server.key, ca: p.ca.cert, requestCert: true, rejectUnauthorized: false },
      (req, res) => void this.handle(req, res),
    );
    this.server.on('secureConnection', (s: TLSSocket) => {
      this.connections++;
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
  }

  static async start(opts: KubeApiServerOptions = {}): Promise<KubeApiServer> {
    const data = await FakeApiServer.start({
      ...(opts.state ? { state: opts.state } : {}),
      ...(opts.objects ? { objects: opts.objects } : {}),
      ...(opts.bookmarkEveryMs ? { bookmarkEveryMs: opts.bookmarkEveryMs } : {}),
      ...(opts.historyLimit ? { historyLimit: opts.historyLimit } : {}),
    });
    const s = new KubeApiServer(data, opts);
    await s.listen(0);
    return s;
  }

  get url(): string {
    return `https://127.0.0.1:${this.port}`;
  }

  /** The CA's certificate (PEM): what a kubeconfig's certificate-authority-data carries. */
  get ca(): string {
    return getPki().ca.cert;
  }

  // ---- authentication ----------------------------------------------------------------------

  addToken(token: string, id: Identity, opts: { expiresAt?: number } = {}): void {
    this.tokens.set(token, { id, ...(opts.expiresAt !== undefined ? { expiresAt: opts.expiresAt } : {}) });
  }

  expireToken(token: string): void {
    const t = this.tokens.get(token);
    if (t) t.expiresAt = 0;
  }

  /** A client certificate the CA signed for `user` (CN) in `groups` (O). */
  clientCert(id: Identity): Pem {
    const key = `${id.name}\u0000${(id.groups ?? []).join(',')}`;
    let pem = clientCerts.get(key);
    if (!pem) {
      const p = getPki();
      const subject = `/CN=${id.name}${(id.groups ?? []).map((g) => `/O=${g}`).join('')}`;
      pem = signed(p.dir, `client-${clientCerts.size}`, subject, 'extendedKeyUsage=clientAuth\n');
      clientCerts.set(key, pem);
    }
    return pem;
  }

  // ---- authorization -----------------------------------------------------------------------

  /** A ClusterRoleBinding of `rules` to a user or group name. */
  bindCluster(subject: string, rules: Rule[]): void {
    this.bindings.push({ subject, rules });
  }

  /** A RoleBinding in `namespace` of `rules` to a user or group name. */
  bindNamespace(namespace: string, subject: string, rules: Rule[]): void {
    this.bindings.push({ subject, namespace, rules });
  }

  /** The reader's grant: get/list/watch on every resource, cluster-wide. */
  static readonly READ_ALL: Rule[] = [{ verbs: ['get', 'list', 'watch'], resources: ['*'] }];

  // ---- APF, discovery ----------------------------------------------------------------------

  /** The next `times` requests (of `resource`, of `user`) are rejected with 429 and Retry-After. */
  throttle(opts: { resource?: string; user?: string; times: number; retryAfterSeconds?: number }): void {
    this.throttles.push({
      ...(opts.resource ? { resource: opts.resource } : {}),
      ...(opts.user ? { user: opts.user } : {}),
      remaining: opts.times,
      retryAfterSeconds: opts.retryAfterSeconds ?? 1,
    });
  }

  clearThrottles(): void {
    this.throttles.length = 0;
    this.failNexts.length = 0;
  }

  /** The next `times` authorized requests of `resource` answer `code` (a 5xx Status; 410 is `Expired`). */
  failNext(resource: string, code: number, times: number): void {
    this.failNexts.push({ resource, code, remaining: times });
  }

  /** The API group is not served: discovery omits it and its paths are 404. */
  unserve(group: string): void {
    this.unserved.add(group);
  }

  /** Serves the API group again. */
  serve(group: string): void {
    this.unserved.delete(group);
  }

  // ---- lifecycle ---------------------------------------------------------------------------

  async down(): Promise<void> {
    if (this.isDown) return;
    this.isDown = true;
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const s of this.sockets) s.destroy();
    await closed;
  }

  async up(): Promise<void> {
    if (!this.isDown) return;
    await this.listen(this.port);
    this.isDown = false;
  }

  async close(): Promise<void> {
    await this.down();
    await this.data.close();
  }

  requestCount(match?: string | RegExp): number {
    if (match === undefined) return this.requests.length;
    return this.requests.filter((r) => (typeof match === 'string' ? r.path === match : match.test(r.path))).length;
  }

  resetCounts(): void {
    this.requests.length = 0;
    this.counts.clear();
    this.byUser.clear();
    this.connections = 0;
  }

  // ---- kubeconfig --------------------------------------------------------------------------

  /** A kubeconfig (YAML text) for this server with `user`'s stanza, e.g. `{ token: 't' }` or `{ exec: … }`. */
  kubeconfigYaml(
    user: Record<string, unknown>,
    opts: { context?: string; namespace?: string; ca?: string; server?: string } = {},
  ): string {
    const ctx = opts.context ?? 'kube';
    const doc = {
      apiVersion: 'v1',
      kind: 'Config',
      'current-context': ctx,
      clusters: [
        {
          name: 'kube',
          cluster: {
            server: opts.server ?? this.url,
            'certificate-authority-data': Buffer.from(opts.ca ?? this.ca).toString('base64'),
          },
        },
      ],
      users: [{ name: 'user', user }],
      contexts: [
        {
          name: ctx,
          context: { cluster: 'kube', user: 'user', ...(opts.namespace ? { namespace: opts.namespace } : {}) },
        },
      ],
    };
    return JSON.stringify(doc, null, 1);
  }

  // ---- the request path --------------------------------------------------------------------

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

  private authenticate(req: IncomingMessage): Identity | 'invalid' {
    const auth = req.headers.authorization;
    if (auth?.startsWith('Bearer ')) {
      const t = this.tokens.get(auth.slice('Bearer '.length).trim());
      if (!t || (t.expiresAt !== undefined && t.expiresAt <= Date.now())) return 'invalid';
      return t.id;
    }
    const sock = req.socket as TLSSocket;
    const peer = sock.getPeerCertificate();
    if (peer && Object.keys(peer).length > 0) {
      if (!sock.authorized) return 'invalid';
      const subj = peer.subject as unknown as Record<string, string | string[] | undefined>;
      const cn = subj.CN;
      const o = subj.O;
      return {
        name: Array.isArray(cn) ? (cn[0] ?? '') : (cn ?? ''),
        groups: o === undefined ? [] : Array.isArray(o) ? o : [o],
      };
    }
    return { name: 'system:anonymous', groups: ['system:unauthenticated'] };
  }

  private allowed(id: Identity, verb: string, resource: string, namespace: string | undefined): boolean {
    const subjects = new Set([id.name, ...(id.groups ?? [])]);
    if (id.name !== 'system:anonymous') subjects.add('system:authenticated');
    return this.bindings.some(
      (b) =>
        subjects.has(b.subject) &&
        (b.namespace === undefined || b.namespace === namespace) &&
        b.rules.some(
          (r) =>
            (r.verbs.includes('*') || r.verbs.includes(verb)) &&
            (r.resources.includes('*') || r.resources.includes(resource)),
        ),
    );
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'https://kube');
    const path = url.pathname;
    this.counts.set(path, (this.counts.get(path) ?? 0) + 1);
    const id = this.authenticate(req);
    const who = id === 'invalid' ? '<invalid>' : id.name;
    this.byUser.set(who, (this.byUser.get(who) ?? 0) + 1);
    const entry: { user: string; path: string; query: string; status?: number } = {
      user: who,
      path,
      query: url.search,
    };
    this.requests.push(entry);
    const reply = (code: number, body: string, headers: Record<string, string> = {}) => {
      entry.status = code;
      res.writeHead(code, { 'content-type': 'application/json', ...headers });
      res.end(body);
    };
    if (id === 'invalid') return reply(401, statusBody(401, 'Unauthorized', 'Unauthorized'));

    const route = parsePath(path);
    // APF sees every request, before authorization (the filter chain: authn → APF → authz).
    const t = this.throttles.find(
      (x) =>
        x.remaining > 0 &&
        (x.user === undefined || x.user === id.name) &&
        (x.resource === undefined || x.resource === route?.resource),
    );
    if (t) {
      t.remaining--;
      return reply(
        429,
        statusBody(429, 'TooManyRequests', 'Too many requests, please try again later.', {
          retryAfterSeconds: t.retryAfterSeconds,
        }),
        { 'retry-after': String(t.retryAfterSeconds) },
      );
    }
    if (path === '/version') return reply(200, JSON.stringify({ ...this.version, platform: 'linux/amd64' }));
    if (path === '/api')
      return reply(200, JSON.stringify({ kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [] }));
    if (path === '/apis') {
      const groups = GROUPS.filter((g) => !this.unserved.has(g)).map((g) => ({
        name: g,
        versions: [{ groupVersion: `${g}/v1`, version: 'v1' }],
        preferredVersion: { groupVersion: `${g}/v1`, version: 'v1' },
      }));
      return reply(200, JSON.stringify({ kind: 'APIGroupList', apiVersion: 'v1', groups }));
    }
    if (!route || this.unserved.has(route.group))
      return reply(404, statusBody(404, 'NotFound', 'the server could not find the requested resource', {}));
    const watch = url.searchParams.get('watch') === 'true' || url.searchParams.get('watch') === '1';
    const verb = watch ? 'watch' : route.name ? 'get' : 'list';
    if (!this.allowed(id, verb, route.resource, route.namespace)) {
      const where = route.namespace ? `in the namespace "${route.namespace}"` : 'at the cluster scope';
      const msg = `${route.resource}${route.group ? `.${route.group}` : ''}${route.name ? ` "${route.name}"` : ''} is forbidden: User "${id.name}" cannot ${verb} resource "${route.resource}" in API group "${route.group}" ${where}`;
      return reply(
        403,
        statusBody(403, 'Forbidden', msg, {
          ...(route.name ? { name: route.name } : {}),
          group: route.group,
          kind: route.resource,
        }),
      );
    }
    const f = this.failNexts.find((x) => x.remaining > 0 && x.resource === route.resource);
    if (f) {
      f.remaining--;
      return reply(
        f.code,
        f.code === 410
          ? statusBody(410, 'Expired', 'The resourceVersion for the provided list is too old.')
          : statusBody(
              f.code,
              f.code === 503 ? 'ServiceUnavailable' : 'InternalError',
              `etcdserver: request timed out`,
            ),
      );
    }
    this.onRequest?.(path, url.searchParams);
    // Authorized: the data side answers (streaming, for a watch).
    const up = httpRequest(
      `${this.data.url}${path}${url.search}`,
      { method: req.method, headers: { accept: req.headers.accept ?? 'application/json' } },
      (r) => {
        entry.status = r.statusCode;
        const headers = { ...r.headers };
        for (const h of ['connection', 'keep-alive', 'transfer-encoding']) delete headers[h];
        res.writeHead(r.statusCode ?? 502, headers);
        // kube-apiserver sends a watch's headers at once (its watch handler flushes them before the first
        // event); Node would hold them until the first byte, so a quiet watch would look unanswered.
        if (watch) res.flushHeaders();
        // A connection the data side cut mid-response (`dropWatches`, `down`) is cut at the client too,
        // as a dropped connection would be: a piped stream that errors would leave the client's open.
        r.on('close', () => {
          if (!r.complete) res.destroy();
        });
        r.pipe(res);
      },
    );
    up.on('error', () => {
      if (!res.headersSent) reply(503, statusBody(503, 'ServiceUnavailable', 'the data side is gone'));
      else res.destroy();
    });
    res.on('close', () => up.destroy());
    req.pipe(up);
  }
}

function parsePath(path: string): { group: string; resource: string; namespace?: string; name?: string } | undefined {
  const segs = path.split('/').filter(Boolean).map(decodeURIComponent);
  let group: string;
  let rest: string[];
  if (segs[0] === 'api' && segs.length >= 3) {
    group = '';
    rest = segs.slice(2);
  } else if (segs[0] === 'apis' && segs.length >= 4) {
    group = segs[1] ?? '';
    rest = segs.slice(3);
  } else return undefined;
  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  const resource = rest[0];
  if (!resource) return undefined;
  return { group, resource, ...(namespace ? { namespace } : {}), ...(rest[1] ? { name: rest[1] } : {}) };
}
