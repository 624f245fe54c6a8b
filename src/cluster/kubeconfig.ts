/**
 * kubeconfig as kubectl reads it, at our edge of client-node 1.4 (what its KubeConfig does not do):
 *
 * - KUBECONFIG with several files is merged by client-go's rules (tools/clientcmd/loader.go
 *   `ClientConfigLoadingRules.Load`): the first file to set `current-context` wins, the first
 *   definition of a cluster, user or context name wins, later ones are ignored (client-node's
 *   `mergeConfig` throws "Duplicate cluster" instead); files that do not exist are skipped.
 * - Relative paths resolve against the directory of the file that defines them (loader.go
 *   `ResolveLocalPaths`): certificate-authority, client-certificate, client-key, tokenFile, and an
 *   exec command that contains a path separator (a bare name is looked up on PATH).
 * - `tokenFile` (client-go's key; client-node only knows `token-file`, read once relative to the cwd)
 *   is read at the first request and re-read after a minute (client-go's cached file token source).
 * - An exec credential plugin runs once per process until the credential it returned expires
 *   (client-go plugin/pkg/client/auth/exec: one in flight, cached to `expirationTimestamp`, forever
 *   without one). client-node runs it for every request that finds no cached token, so the 16
 *   requests of a cold start each ran it, and a credential without an expiry was never cached.
 * - One keep-alive agent per cluster and credential: client-node makes a new https.Agent per
 *   request, so every request opened a new TLS connection.
 * - HTTPS_PROXY / HTTP_PROXY / NO_PROXY (client-go: net/http ProxyFromEnvironment) when the cluster
 *   has no `proxy-url`.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { dirname, isAbsolute, join, sep } from 'node:path';
import { createHash } from 'node:crypto';
import { KubeConfig, type Cluster, type Context, type RequestContext, type User } from '@kubernetes/client-node';
import { parse as parseYaml } from 'yaml';

type Json = Record<string, unknown>;

function isRecord(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The exec stanza of a user (client.authentication.k8s.io ExecConfig), paths resolved. */
export interface ExecConfig {
  command: string;
  args?: string[];
  env?: Array<{ name: string; value: string }>;
  apiVersion?: string;
}

/** What our edge adds to a client-node user. */
interface UserExtra {
  tokenFile?: string;
  exec?: ExecConfig;
}

/** A credential as the user's requests carry it. */
interface Credential {
  token?: string;
  certData?: string;
  keyData?: string;
  /** ms since the epoch; undefined = valid for the life of the process. */
  expiresAt?: number;
}

/** The error of a credential that could not be obtained: no request was sent (cause `Credentials`). */
export class CredentialError extends Error {
  readonly reason = 'Credentials';
}

/**
 * No cap on connections per cluster (Node's default): node-fetch 2.7 reports a false "Premature close"
 * on a chunked response whose socket a queued request took over before the response's 'close'
 * (lib/index.js fixResponseChunkedTransferBadEnding), and a cap makes requests queue. Keep-alive still
 * reuses each connection for the next page and the next request.
 */
/** How often a tokenFile is read again (client-go transport.NewCachedFileTokenSource: 1 minute). */
const TOKEN_FILE_TTL_MS = 60_000;

/**
 * A KubeConfig whose requests get a credential from our exec/tokenFile handling and a shared
 * keep-alive agent. Everything else (TLS options, headers, proxies) is still client-node's.
 */
export class EdgeKubeConfig extends KubeConfig {
  /** Runs of exec credential plugins so far (per process; tests assert it). */
  static execRuns = 0;
  private readonly extras = new Map<string, UserExtra>();
  private readonly creds = new Map<string, { cred?: Credential; pending?: Promise<Credential> }>();
  private readonly agents = new Map<string, http.Agent>();

  setExtras(user: string, extra: UserExtra): void {
    this.extras.set(user, extra);
  }

  /** The current user, carrying the credential our edge obtained (its exec and tokenFile removed). */
  override getCurrentUser(): User | null {
    const u = super.getCurrentUser();
    if (!u) return u;
    const extra = this.extras.get(u.name);
    if (!extra?.exec && !extra?.tokenFile) return u;
    const c = this.creds.get(u.name)?.cred;
    return {
      ...u,
      exec: undefined,
      authProvider: undefined,
      ...(c?.token ? { token: c.token } : {}),
      ...(c?.certData ? { certData: c.certData, certFile: undefined } : {}),
      ...(c?.keyData ? { keyData: c.keyData, keyFile: undefined } : {}),
    };
  }

  override async applySecurityAuthentication(context: RequestContext): Promise<void> {
    await this.credential();
    await super.applySecurityAuthentication(context);
    const agent = context.getAgent();
    if (agent) context.setAgent(this.shared(agent));
  }

  override async applyToFetchOptions(opts: https.RequestOptions): ReturnType<KubeConfig['applyToFetchOptions']> {
    await this.credential();
    const init = await super.applyToFetchOptions(opts);
    if (init.agent instanceof http.Agent) init.agent = this.shared(init.agent);
    return init;
  }

  override async applyToHTTPSOptions(opts: Parameters<KubeConfig['applyToHTTPSOptions']>[0]): Promise<void> {
    await this.credential();
    await super.applyToHTTPSOptions(opts);
  }

  /**
   * The current user's credential, obtained once and shared by the requests that ask meanwhile;
   * obtained again once it expires (exec) or is a minute old (tokenFile).
   */
  private async credential(): Promise<void> {
    const u = super.getCurrentUser();
    if (!u) return;
    const extra = this.extras.get(u.name);
    if (!extra?.exec && !extra?.tokenFile) return;
    let slot = this.creds.get(u.name);
    if (!slot) this.creds.set(u.name, (slot = {}));
    // client-go refreshes a little before the expiry, so a request does not go out with a token that
    // expires on the way.
    if (slot.cred && (slot.cred.expiresAt === undefined || slot.cred.expiresAt - 10_000 > Date.now())) return;
    if (!slot.pending) {
      const s = slot;
      s.pending = (extra.exec ? runExec(extra.exec) : readTokenFile(extra.tokenFile ?? '')).finally(() => {
        s.pending = undefined;
      });
    }
    slot.cred = await slot.pending;
  }

  /**
   * One agent per cluster and TLS identity, with keep-alive: the one client-node just made for this
   * request is only a template. A proxy agent is kept as made (its own connection handling).
   */
  private shared(agent: http.Agent): http.Agent {
    const cluster = this.getCurrentCluster();
    const o = (agent as http.Agent & { options?: https.AgentOptions }).options ?? {};
    const key = createHash('sha256')
      .update(
        JSON.stringify([
          cluster?.server,
          cluster?.proxyUrl,
          agent.constructor.name,
          digest(o.ca),
          digest(o.cert),
          digest(o.key),
          o.rejectUnauthorized,
          o.servername,
        ]),
      )
      .digest('hex');
    const have = this.agents.get(key);
    if (have) {
      agent.destroy();
      return have;
    }
    let made: http.Agent = agent;
    if (!cluster?.proxyUrl) {
      const keep = { keepAlive: true, keepAliveMsecs: 30_000 };
      made =
        agent instanceof https.Agent
          ? new https.Agent({
              ...keep,
              ca: o.ca,
              cert: o.cert,
              key: o.key,
              ...(o.rejectUnauthorized !== undefined ? { rejectUnauthorized: o.rejectUnauthorized } : {}),
              ...(o.servername ? { servername: o.servername } : {}),
            })
          : new http.Agent(keep);
      agent.destroy();
    }
    this.agents.set(key, made);
    return made;
  }

  /** Closes the kept-alive connections (a CLI run ends; tests). */
  destroyAgents(): void {
    for (const a of this.agents.values()) a.destroy();
    this.agents.clear();
  }
}

function digest(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  const parts = Array.isArray(v) ? v : [v];
  const h = createHash('sha256');
  for (const p of parts) h.update(typeof p === 'string' || Buffer.isBuffer(p) ? p : JSON.stringify(p));
  return h.digest('hex');
}

async function readTokenFile(file: string): Promise<Credential> {
  try {
    const token = readFileSync(file, 'utf8').trim();
    if (!token) throw new Error('empty');
    return { token, expiresAt: Date.now() + TOKEN_FILE_TTL_MS };
  } catch (e) {
    throw new CredentialError(`tokenFile ${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * Runs an exec credential plugin (client-go plugin/pkg/client/auth/exec/exec.go): KUBERNETES_EXEC_INFO
 * in its environment, an ExecCredential on its stdout, stderr passed through to ours in the message.
 */
function runExec(exec: ExecConfig): Promise<Credential> {
  EdgeKubeConfig.execRuns++;
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const e of exec.env ?? []) env[e.name] = e.value;
  env.KUBERNETES_EXEC_INFO = JSON.stringify({
    apiVersion: exec.apiVersion ?? 'client.authentication.k8s.io/v1',
    kind: 'ExecCredential',
    spec: { interactive: false },
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const child = spawn(exec.command, exec.args ?? [], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', (e) =>
      reject(new CredentialError(`exec plugin ${exec.command}: ${e.message.replace(/^spawn \S+ /, '')}`)),
    );
    child.on('close', (code) => {
      if (code !== 0) {
        const said = err.trim().split('\n').slice(-1)[0];
        reject(new CredentialError(`exec plugin ${exec.command}: exit ${code}${said ? `: ${said}` : ''}`));
        return;
      }
      let body: unknown;
      try {
        body = JSON.parse(out);
      } catch {
        reject(new CredentialError(`exec plugin ${exec.command}: its output is not an ExecCredential`));
        return;
      }
      const st = isRecord(body) && isRecord(body.status) ? body.status : undefined;
      const token = typeof st?.token === 'string' ? st.token : undefined;
      const cert = typeof st?.clientCertificateData === 'string' ? st.clientCertificateData : undefined;
      const key = typeof st?.clientKeyData === 'string' ? st.clientKeyData : undefined;
      if (!token && !(cert && key)) {
        reject(new CredentialError(`exec plugin ${exec.command}: no token and no client certificate in its output`));
        return;
      }
      const exp = typeof st?.expirationTimestamp === 'string' ? Date.parse(st.expirationTimestamp) : Number.NaN;
      resolve({
        ...(token ? { token } : {}),
        // client-node's User carries PEM as base64 (it decodes `*-data` fields).
        ...(cert ? { certData: Buffer.from(cert).toString('base64') } : {}),
        ...(key ? { keyData: Buffer.from(key).toString('base64') } : {}),
        ...(Number.isFinite(exp) ? { expiresAt: exp } : {}),
      });
    });
  });
}

/** One kubeconfig file, read: client-node's entries (paths absolute) and our extras per user. */
interface ParsedFile {
  file: string;
  clusters: Cluster[];
  users: User[];
  contexts: Context[];
  currentContext?: string;
  extras: Map<string, UserExtra>;
}

function resolveIn(dir: string, p: string): string {
  return p === '' || isAbsolute(p) ? p : join(dir, p);
}

export function readKubeconfigFile(file: string): ParsedFile {
  let text: string;
  let raw: unknown;
  try {
    text = readFileSync(file, 'utf8');
    raw = parseYaml(text);
  } catch (e) {
    throw new Error(`kubeconfig ${file}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
  }
  const one = new KubeConfig();
  try {
    one.loadFromFile(file);
  } catch (e) {
    throw new Error(`kubeconfig ${file}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
  }
  const dir = dirname(file);
  const extras = new Map<string, UserExtra>();
  const rawUsers = isRecord(raw) && Array.isArray(raw.users) ? raw.users : [];
  for (const ru of rawUsers) {
    if (!isRecord(ru) || typeof ru.name !== 'string' || !isRecord(ru.user)) continue;
    const u = ru.user;
    const extra: UserExtra = {};
    if (typeof u.tokenFile === 'string' && u.tokenFile !== '' && !u.token)
      extra.tokenFile = resolveIn(dir, u.tokenFile);
    if (isRecord(u.exec) && typeof u.exec.command === 'string') {
      const cmd = u.exec.command;
      extra.exec = {
        // Only a command with a path separator is relative to the file; a bare name is on PATH.
        command: cmd.includes(sep) || cmd.includes('/') ? resolveIn(dir, cmd) : cmd,
        args: Array.isArray(u.exec.args) ? u.exec.args.map(String) : [],
        env: Array.isArray(u.exec.env)
          ? u.exec.env.filter(isRecord).map((e) => ({ name: String(e.name), value: String(e.value) }))
          : [],
        ...(typeof u.exec.apiVersion === 'string' ? { apiVersion: u.exec.apiVersion } : {}),
      };
    }
    if (extra.exec || extra.tokenFile) extras.set(ru.name, extra);
  }
  const cc = one.getCurrentContext();
  return {
    file,
    clusters: one.getClusters(),
    users: one.getUsers(),
    contexts: one.getContexts(),
    ...(cc ? { currentContext: cc } : {}),
    extras,
  };
}

/**
 * Several kubeconfig files as one, by client-go's rules: the first to set current-context wins; the
 * first definition of each cluster, user and context name wins.
 */
export function mergeKubeconfigFiles(files: readonly string[]): EdgeKubeConfig {
  const clusters = new Map<string, Cluster>();
  const users = new Map<string, User>();
  const contexts = new Map<string, Context>();
  const extras = new Map<string, UserExtra>();
  let currentContext: string | undefined;
  for (const f of files) {
    const p = readKubeconfigFile(f);
    currentContext ??= p.currentContext;
    for (const c of p.clusters) if (!clusters.has(c.name)) clusters.set(c.name, c);
    for (const u of p.users) {
      if (users.has(u.name)) continue;
      users.set(u.name, u);
      const x = p.extras.get(u.name);
      if (x) extras.set(u.name, x);
    }
    for (const c of p.contexts) if (!contexts.has(c.name)) contexts.set(c.name, c);
  }
  const kc = new EdgeKubeConfig();
  kc.loadFromOptions({
    clusters: [...clusters.values()],
    users: [...users.values()],
    contexts: [...contexts.values()],
    currentContext: currentContext ?? '',
  });
  for (const [name, x] of extras) kc.setExtras(name, x);
  return kc;
}

/** The existing files of a KUBECONFIG list (kubectl skips missing ones). */
export function kubeconfigList(value: string, delimiter: string): string[] {
  return value.split(delimiter).filter((f) => f !== '' && existsSync(f));
}

/**
 * The proxy for a server from the environment, as Go's net/http ProxyFromEnvironment
 * (golang.org/x/net/http/httpproxy `Config.useProxy`): HTTPS_PROXY for https, HTTP_PROXY for http
 * (upper case first, then lower); none for localhost and loopback addresses; none when NO_PROXY
 * matches: `*`, a host, a domain suffix (`example.com` and `.example.com` both match subdomains), an
 * IP, a CIDR, each optionally with `:port`.
 */
export function proxyFromEnv(server: string, env: NodeJS.ProcessEnv): string | undefined {
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    return undefined;
  }
  const https_ = url.protocol === 'https:';
  const proxy = https_ ? (env.HTTPS_PROXY ?? env.https_proxy) : (env.HTTP_PROXY ?? env.http_proxy);
  if (!proxy) return undefined;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = url.port || (https_ ? '443' : '80');
  if (host === 'localhost' || isLoopback(host)) return undefined;
  const noProxy = env.NO_PROXY ?? env.no_proxy ?? '';
  for (const entry of noProxy.split(',').map((s) => s.trim().toLowerCase())) {
    if (entry === '') continue;
    if (entry === '*') return undefined;
    if (entry.includes('/')) {
      if (isIP(host) && inCidr(host, entry)) return undefined;
      continue;
    }
    let h = entry;
    let p: string | undefined;
    const m = /^(.*):(\d+)$/.exec(entry);
    if (m && !isIP(entry)) {
      h = m[1]!;
      p = m[2];
    }
    h = h.replace(/^\[|\]$/g, '');
    if (p !== undefined && p !== port) continue;
    if (isIP(h)) {
      if (h === host) return undefined;
      continue;
    }
    const d = h.startsWith('*.') ? h.slice(1) : h;
    if (host === d.replace(/^\./, '') || host.endsWith(d.startsWith('.') ? d : `.${d}`)) return undefined;
  }
  return proxy.includes('://') ? proxy : `http://${proxy}`;
}

function isLoopback(host: string): boolean {
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1';
  return false;
}

function ipv4ToInt(ip: string): number {
  return ip.split('.').reduce((n, o) => n * 256 + Number(o), 0);
}

function inCidr(ip: string, cidr: string): boolean {
  const [net, bitsText] = cidr.split('/');
  const bits = Number(bitsText);
  if (!net || !Number.isInteger(bits) || isIP(net) !== 4 || isIP(ip) !== 4) return false;
  if (bits === 0) return true;
  const mask = bits >= 32 ? 0xffffffff : (0xffffffff << (32 - bits)) >>> 0;
  return (ipv4ToInt(ip) & mask) >>> 0 === (ipv4ToInt(net) & mask) >>> 0;
}
