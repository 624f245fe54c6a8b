/**
 * Slack request signing (v0), as Slack does it (docs.slack.dev/authentication/verifying-requests-from-slack):
 * `x-slack-signature: v0=` + hex HMAC-SHA256(secret, `v0:${timestamp}:${rawBody}`), with the timestamp in
 * `x-slack-request-timestamp` (Unix seconds). Bodies are sent as strings so the content-type stays exactly
 * `application/x-www-form-urlencoded` (a URLSearchParams body would add `;charset=UTF-8` → Bolt 400).
 */
import { createHmac } from 'node:crypto';

export function slackSignature(secret: string, timestamp: number, body: string): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

export interface SignedPostOptions {
  /** `form` for slash commands and interactivity, `json` for the Events API. */
  kind: 'form' | 'json';
  /** Unix seconds (default now): pass an old one to test staleness. */
  timestamp?: number;
  /** Override the signature (tests of bad signatures). */
  signature?: string;
  /** `x-slack-retry-num` / `x-slack-retry-reason`, as Slack sends on redelivery. */
  retryNum?: number;
  retryReason?: string;
  contentType?: string;
}

export interface PostResult {
  status: number;
  text: string;
  /** Wall time from send to the full response. */
  ms: number;
}

export function formBody(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

export async function postSigned(
  url: string,
  secret: string,
  body: string,
  opts: SignedPostOptions,
): Promise<PostResult> {
  const ts = opts.timestamp ?? Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = {
    'content-type':
      opts.contentType ?? (opts.kind === 'form' ? 'application/x-www-form-urlencoded' : 'application/json'),
    'x-slack-request-timestamp': String(ts),
    'x-slack-signature': opts.signature ?? slackSignature(secret, ts, body),
  };
  if (opts.retryNum !== undefined) headers['x-slack-retry-num'] = String(opts.retryNum);
  if (opts.retryReason !== undefined) headers['x-slack-retry-reason'] = opts.retryReason;
  const t0 = performance.now();
  const res = await fetch(url, { method: 'POST', body, headers });
  const text = await res.text();
  return { status: res.status, text, ms: performance.now() - t0 };
}
