/**
 * A loopback stand-in for Slack: the Web API methods the app calls (auth.test, chat.postMessage,
 * chat.postEphemeral) under `/api/`, and `response_url` endpoints under `/respond/<id>`, recording every
 * call. Point Bolt at it with `clientOptions: { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } }`
 * (the trailing `/` matters). web-api 8 posts url-encoded forms with a Bearer token and `blocks` as a JSON
 * string; `respond()` posts JSON. Every message payload is checked against the Slack limits as it
 * arrives; `violations` lists any that failed.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { assertWithinSlackLimits } from './slack-limits.ts';

export interface ApiCall {
  method: string;
  params: Record<string, unknown>;
  /** The Authorization header's bearer value. */
  token?: string;
  at: number;
}

export interface RespondPost {
  id: string;
  body: Record<string, unknown>;
  at: number;
}

export interface FakeSlackOptions {
  botUserId?: string;
  botId?: string;
  /** Latency of every Web API answer (ms). */
  delayMs?: number;
}

const MESSAGE_METHODS = new Set(['chat.postMessage', 'chat.postEphemeral', 'chat.update']);

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseParams(raw: string, contentType: string | undefined): Record<string, unknown> {
  if (contentType?.startsWith('application/json')) {
    const v: unknown = raw ? JSON.parse(raw) : {};
    return typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {};
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of new URLSearchParams(raw)) {
    out[k] =
      (k === 'blocks' || k === 'attachments') && (v.startsWith('[') || v.startsWith('{'))
        ? (JSON.parse(v) as unknown)
        : v;
  }
  return out;
}

export class FakeSlack {
  readonly calls: ApiCall[] = [];
  readonly responds: RespondPost[] = [];
  readonly violations: string[] = [];
  /** method → Slack error code to answer with `ok: false` (e.g. chat.postMessage → not_in_channel). */
  readonly failures = new Map<string, string>();
  readonly botUserId: string;
  readonly botId: string;
  delayMs: number;
  private server?: Server;
  private base = '';
  private seq = 0;

  constructor(opts: FakeSlackOptions = {}) {
    this.botUserId = opts.botUserId ?? 'UBOT';
    this.botId = opts.botId ?? 'BBOT';
    this.delayMs = opts.delayMs ?? 0;
  }

  get apiUrl(): string {
    return `${this.base}/api/`;
  }

  responseUrl(id: string): string {
    return `${this.base}/respond/${encodeURIComponent(id)}`;
  }

  callsTo(method: string): ApiCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  respondsTo(id: string): RespondPost[] {
    return this.responds.filter((r) => r.id === id);
  }

  /** Everything posted as a message (postMessage, postEphemeral, respond), for leak checks. */
  allPostedText(): string {
    return JSON.stringify([
      ...this.calls.filter((c) => MESSAGE_METHODS.has(c.method)).map((c) => c.params),
      ...this.responds.map((r) => r.body),
    ]);
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      void (async () => {
        const raw = await readBody(req);
        const url = new URL(req.url ?? '/', 'http://x');
        const params = parseParams(raw, req.headers['content-type']);
        if (this.delayMs > 0) await new Promise((r) => setTimeout(r, this.delayMs));
        const json = (status: number, body: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(body));
        };
        if (url.pathname.startsWith('/respond/')) {
          const id = decodeURIComponent(url.pathname.slice('/respond/'.length));
          this.check(`respond ${id}`, params);
          this.responds.push({ id, body: params, at: Date.now() });
          return json(200, { ok: true });
        }
        if (url.pathname.startsWith('/api/')) {
          const method = url.pathname.slice('/api/'.length);
          const auth = req.headers.authorization;
          this.calls.push({
            method,
            params,
            ...(auth?.startsWith('Bearer ') ? { token: auth.slice(7) } : {}),
            at: Date.now(),
          });
          if (MESSAGE_METHODS.has(method)) this.check(method, params);
          const failure = this.failures.get(method);
          if (failure) return json(200, { ok: false, error: failure });
          switch (method) {
            case 'auth.test':
              return json(200, {
                ok: true,
                url: 'https://fake.slack.test/',
                team: 'Fake',
                user: 'quota-doctor',
                team_id: 'T0FAKE',
                user_id: this.botUserId,
                bot_id: this.botId,
              });
            case 'chat.postMessage':
              return json(200, {
                ok: true,
                channel: params.channel,
                ts: `1700000000.${String(++this.seq).padStart(6, '0')}`,
                message: { text: params.text },
              });
            case 'chat.postEphemeral':
              return json(200, { ok: true, message_ts: `1700000000.${String(++this.seq).padStart(6, '0')}` });
            case 'chat.update':
              return json(200, { ok: true, channel: params.channel, ts: params.ts, text: params.text });
            default:
              return json(200, { ok: false, error: 'unknown_method' });
          }
        }
        res.writeHead(404);
        res.end();
      })();
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  private check(where: string, payload: Record<string, unknown>): void {
    try {
      assertWithinSlackLimits(payload);
    } catch (e) {
      this.violations.push(`${where}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /** Polls until `pred` holds (or throws after `timeoutMs`). */
  async waitFor(pred: () => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (!pred()) {
      if (Date.now() > until) throw new Error(`fake Slack: timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  async close(): Promise<void> {
    const s = this.server;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
}

export async function startFakeSlack(opts: FakeSlackOptions = {}): Promise<FakeSlack> {
  return new FakeSlack(opts).start();
}
