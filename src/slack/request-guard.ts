/**
 * A guard in front of Bolt's HTTPReceiver on `POST /slack/events`: it reads the body (bounded), checks
 * the signature with Bolt's own `verifySlackRequest` and the timestamp in both directions, and refuses
 * a signed body that is not a JSON object — before Bolt sees it. Bolt 5.1 reads `body.ssl_check` outside
 * any try: a correctly signed `null` (or `payload=null`) threw inside a detached promise and ended the
 * process. What passes is handed to Bolt with `rawBody` set, so Bolt buffers nothing twice and verifies
 * the signature a second time (signatures are always verified; nothing here replaces Bolt's check).
 *
 * Order, as an attacker meets it: too large → 413; unsigned, badly signed, stale or future → 401;
 * signed but not parseable → 400; signed but not an object (`null`, `[]`, `1`, `"x"`, `true`) → 400.
 * Slack's unsigned `ssl_check=1` form goes to Bolt untouched (Bolt strips anything smuggled with it).
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import { verifySlackRequest } from '@slack/bolt';

/** Bolt's default body limit (HTTPModuleFunctions `defaultBodyLimit`). */
export const BODY_LIMIT = 4 * 1024 * 1024;
/** Slack's window (docs.slack.dev, verifying requests): a request more than 5 minutes from our clock is refused, either way. */
export const MAX_SKEW_SEC = 5 * 60;

export type Verdict = { ok: true } | { ok: false; status: 400 | 401; reason: string };

const FORM = 'application/x-www-form-urlencoded';

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return typeof v === 'string' ? v : undefined;
}

/** Unsigned `ssl_check=1` (Slack's SSL probe): Bolt answers it without a signature, as Slack expects. */
function isSslCheck(req: IncomingMessage, raw: string): boolean {
  return req.headers['content-type'] === FORM && parseQuery(raw).ssl_check === '1';
}

/** The body as Bolt will parse it (HTTPModuleFunctions `parseHTTPRequestBody`), or an Error. */
function parseLikeBolt(req: IncomingMessage, raw: string): unknown {
  try {
    if (req.headers['content-type'] === FORM) {
      const q = parseQuery(raw);
      return typeof q.payload === 'string' ? (JSON.parse(q.payload) as unknown) : q;
    }
    return JSON.parse(raw) as unknown;
  } catch (e) {
    return e instanceof Error ? e : new Error(String(e));
  }
}

/** Signature, timestamp (±5 min) and body shape of one buffered request. */
export function checkSignedBody(req: IncomingMessage, raw: string, signingSecret: string, nowMs: number): Verdict {
  const tsHeader = header(req, 'x-slack-request-timestamp');
  const signature = header(req, 'x-slack-signature');
  if (tsHeader === undefined || signature === undefined) return { ok: false, status: 401, reason: 'unsigned' };
  if (!/^\d{1,12}$/.test(tsHeader)) return { ok: false, status: 401, reason: 'bad timestamp' };
  const ts = Number(tsHeader);
  const skew = ts - Math.floor(nowMs / 1000);
  if (skew > MAX_SKEW_SEC) return { ok: false, status: 401, reason: 'timestamp in the future' };
  if (skew < -MAX_SKEW_SEC) return { ok: false, status: 401, reason: 'stale timestamp' };
  try {
    verifySlackRequest({
      signingSecret,
      body: raw,
      headers: { 'x-slack-signature': signature, 'x-slack-request-timestamp': ts },
      nowMilliseconds: nowMs,
    });
  } catch {
    return { ok: false, status: 401, reason: 'signature mismatch' };
  }
  const body = parseLikeBolt(req, raw);
  if (body instanceof Error) return { ok: false, status: 400, reason: 'malformed body' };
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return {
      ok: false,
      status: 400,
      reason: `body is ${body === null ? 'null' : Array.isArray(body) ? 'an array' : `a ${typeof body}`}, not an object`,
    };
  }
  return { ok: true };
}

class TooLarge extends Error {}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      reject(new TooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (e?: Error) => {
      if (done) return;
      done = true;
      req.off('data', onData);
      if (e) reject(e);
      else resolve(Buffer.concat(chunks));
    };
    const onData = (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        finish(new TooLarge());
        return;
      }
      chunks.push(c);
    };
    req.on('data', onData);
    req.on('end', () => finish());
    req.on('error', (e) => finish(e));
    req.on('close', () => finish(new Error('request closed before its end')));
  });
}

function refuse(res: ServerResponse, status: number, close = false): void {
  if (res.headersSent) return;
  res.writeHead(status, close ? { connection: 'close' } : {});
  res.end();
}

export interface GuardOptions {
  signingSecret: string;
  /** Paths Bolt receives events on (default `/slack/events`). */
  endpoints?: string[];
  bodyLimit?: number;
  now?: () => number;
  /** Called once per refused request (for a log line). */
  onRefused?: (status: number, reason: string) => void;
}

/** Wraps Bolt's request listener (HTTPReceiver `requestListener`) with the checks above. */
export function guardRequests(inner: RequestListener, opts: GuardOptions): RequestListener {
  const endpoints = new Set(opts.endpoints ?? ['/slack/events']);
  const limit = opts.bodyLimit ?? BODY_LIMIT;
  const now = opts.now ?? Date.now;
  return (req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    // Everything else (health, metrics, 404s) is Bolt's, synchronously, so its dispatch error handler still applies.
    if ((req.method ?? '').toUpperCase() !== 'POST' || !endpoints.has(path)) {
      inner(req, res);
      return;
    }
    void readBody(req, limit).then(
      (buf) => {
        const raw = buf.toString();
        if (!isSslCheck(req, raw)) {
          const v = checkSignedBody(req, raw, opts.signingSecret, now());
          if (!v.ok) {
            opts.onRefused?.(v.status, v.reason);
            refuse(res, v.status);
            return;
          }
        }
        // Bolt's bufferIncomingMessage uses a Buffer already in `rawBody` instead of reading the stream again.
        Object.assign(req, { rawBody: buf });
        try {
          inner(req, res);
        } catch {
          refuse(res, 500);
        }
      },
      (e: unknown) => {
        const tooLarge = e instanceof TooLarge;
        opts.onRefused?.(tooLarge ? 413 : 400, tooLarge ? 'body too large' : 'body not read');
        refuse(res, tooLarge ? 413 : 400, true);
        if (tooLarge) req.resume();
      },
    );
  };
}
