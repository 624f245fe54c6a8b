/**
 * A loopback stand-in for the API server's Lease endpoints (coordination.k8s.io/v1), with the strict
 * semantics the cross-replica dedupe relies on: GET of a missing Lease is 404, PUT with a stale (or
 * absent) `metadata.resourceVersion` is 409 Conflict, PUT of a missing Lease is 404 (no create-on-update
 * for Leases), every successful write bumps the resourceVersion. Status bodies are the real wire shape.
 * Controls: `fail(status)` makes every request answer that status until `fail(undefined)`; `delayMs`.
 * Use with the real client-node: `kubeConfig()` → `makeApiClient(CoordinationV1Api)`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';

type Json = Record<string, unknown>;

const PATH = /^\/apis\/coordination\.k8s\.io\/v1\/namespaces\/([^/]+)\/leases\/([^/]+)$/;
/** ConfigMaps get the same strict GET/PUT semantics (proactive mode keeps its incidents in one). */
const CM_PATH = /^\/api\/v1\/namespaces\/([^/]+)\/configmaps\/([^/]+)$/;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function status(code: number, reason: string, message: string, name?: string): Json {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    details: { ...(name ? { name } : {}), group: 'coordination.k8s.io', kind: 'leases' },
    code,
  };
}

export class FakeLeases {
  private readonly leases = new Map<string, Json>();
  private rv = 100;
  private server?: Server;
  private base = '';
  failWith: number | undefined;
  delayMs = 0;
  readonly counts = { get: 0, put: 0, conflicts: 0, notFound: 0, failed: 0 };

  /** Creates Leases `${prefix}0 … ${prefix}${n - 1}` in `namespace` (what manifests/base ships). */
  seed(namespace: string, prefix: string, n: number): this {
    for (let i = 0; i < n; i++) this.put(namespace, `${prefix}${i}`, { spec: {} });
    return this;
  }

  get(namespace: string, name: string): Json | undefined {
    const l = this.leases.get(`${namespace}/${name}`);
    return l ? structuredClone(l) : undefined;
  }

  /** Creates one Lease by name (the leader Lease of proactive mode). */
  seedLease(namespace: string, name: string): this {
    this.put(namespace, name, { spec: {} });
    return this;
  }

  /** Creates a ConfigMap (what the manifests ship for proactive mode). */
  seedConfigMap(namespace: string, name: string, data: Record<string, string> = {}): this {
    this.put(namespace, name, { data }, 'ConfigMap');
    return this;
  }

  configMap(namespace: string, name: string): Json | undefined {
    const c = this.leases.get(`cm:${namespace}/${name}`);
    return c ? structuredClone(c) : undefined;
  }

  private put(namespace: string, name: string, body: Json, kind: 'Lease' | 'ConfigMap' = 'Lease'): Json {
    const meta = typeof body.metadata === 'object' && body.metadata !== null ? (body.metadata as Json) : {};
    const stored: Json = {
      ...body,
      apiVersion: kind === 'Lease' ? 'coordination.k8s.io/v1' : 'v1',
      kind,
      metadata: { ...meta, name, namespace, resourceVersion: String(++this.rv), uid: `uid-${name}` },
    };
    this.leases.set(`${kind === 'Lease' ? '' : 'cm:'}${namespace}/${name}`, stored);
    return stored;
  }

  fail(code: number | undefined): void {
    this.failWith = code;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  get url(): string {
    return this.base;
  }

  kubeConfig(): KubeConfig {
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'fake-leases', server: this.base, skipTLSVerify: true }],
      users: [{ name: 'bot', token: 'lease-token' }],
      contexts: [{ name: 'fake-leases', cluster: 'fake-leases', user: 'bot' }],
      currentContext: 'fake-leases',
    });
    return kc;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const send = (code: number, body: Json) => {
      res.writeHead(code, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const raw = await readBody(req);
    if (this.delayMs > 0) await new Promise((r) => setTimeout(r, this.delayMs));
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    const cm = CM_PATH.exec(pathname);
    const m = cm ?? PATH.exec(pathname);
    const kind = cm ? 'ConfigMap' : 'Lease';
    const what = cm ? 'configmaps' : 'leases.coordination.k8s.io';
    if (this.failWith !== undefined) {
      this.counts.failed++;
      return send(
        this.failWith,
        status(this.failWith, this.failWith === 403 ? 'Forbidden' : 'InternalError', `injected ${this.failWith}`),
      );
    }
    if (!m) return send(404, status(404, 'NotFound', 'the server could not find the requested resource'));
    const namespace = m[1] ?? '';
    const name = m[2] ?? '';
    const key = `${cm ? 'cm:' : ''}${namespace}/${name}`;
    const current = this.leases.get(key);
    if (req.method === 'GET') {
      this.counts.get++;
      if (!current) {
        this.counts.notFound++;
        return send(404, status(404, 'NotFound', `${what} "${name}" not found`, name));
      }
      return send(200, current);
    }
    if (req.method === 'PUT') {
      this.counts.put++;
      let body: Json;
      try {
        body = JSON.parse(raw) as Json;
      } catch {
        return send(400, status(400, 'BadRequest', 'invalid JSON'));
      }
      if (!current) {
        this.counts.notFound++;
        return send(404, status(404, 'NotFound', `${what} "${name}" not found`, name));
      }
      const meta = (typeof body.metadata === 'object' && body.metadata !== null ? body.metadata : {}) as Json;
      const sent = meta.resourceVersion;
      const have = (current.metadata as Json).resourceVersion;
      if (sent !== have) {
        this.counts.conflicts++;
        return send(
          409,
          status(
            409,
            'Conflict',
            `Operation cannot be fulfilled on ${what} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
            name,
          ),
        );
      }
      return send(200, this.put(namespace, name, body, kind));
    }
    send(405, status(405, 'MethodNotAllowed', `${req.method} is not supported`));
  }

  async close(): Promise<void> {
    const s = this.server;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
}

export async function startFakeLeases(): Promise<FakeLeases> {
  return new FakeLeases().start();
}
