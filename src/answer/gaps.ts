/**
 * What could not be read, as a reply's gaps. A source error is typed (resource, namespace, reason) next to
 * the API server's own `message`; that message is free text and may name objects of any namespace
 * (`pods "payroll-7c5d" is forbidden: …`, a webhook's error, a proxy's HTML page). A channel gets the
 * typed part only — reason and resource, and the namespace when the channel may see it; the operator (CLI,
 * console) gets the message too.
 */
import { warningText, type SourceError, type SourceResult, type SourceWarning } from '../cluster/source.ts';
import type { Visibility } from './policy.ts';
import { readsOf, type Cause, type Unread } from '../engine/completeness.ts';

export type Audience = 'channel' | 'operator';

/** A Kubernetes StatusReason (`Forbidden`, `NotFound`, `Timeout`) or our own words for a fault (`Unreachable`, `HTTP 502`). */
const REASON = /^[A-Za-z][A-Za-z0-9 ]{0,39}$/;
/** An API resource (`pods`, `resourcequotas`, `priorityclasses.scheduling.k8s.io`, `state`). */
const RESOURCE = /^[a-z][a-z0-9.-]{0,62}$/;
const NAMESPACE = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

function reasonOf(reason: string | undefined): string {
  return reason !== undefined && REASON.test(reason) ? reason : 'error';
}

function resourceOf(resource: string): string {
  return RESOURCE.test(resource) ? resource : 'objects';
}

/** ` in team-a`, or ` in a namespace this channel doesn't see`, or nothing. */
function whereOf(namespace: string | undefined, visibility: Visibility): string {
  if (namespace === undefined || namespace === '') return '';
  return NAMESPACE.test(namespace) && visibility.allows(namespace)
    ? ` in ${namespace}`
    : " in a namespace this channel doesn't see";
}

export function errorGap(e: SourceError, visibility: Visibility, audience: Audience): string {
  if (audience === 'operator')
    return `couldn't read ${e.resource}${e.namespace ? ` in ${e.namespace}` : ''}${e.reason ? ` (${e.reason})` : ''}: ${e.message}`;
  return `couldn't read ${resourceOf(e.resource)}${whereOf(e.namespace, visibility)} (${reasonOf(e.reason)})`;
}

/** What a cause means, in the few words a reply line carries (the HTTP status where there is one). */
const CAUSE_WORDS: Record<Cause, string> = {
  Forbidden: '403 Forbidden',
  Unauthorized: '401 Unauthorized (credentials expired or not accepted)',
  TLS: "TLS: the server's certificate is not trusted",
  Unreachable: 'the API server is unreachable',
  TooManyRequests: '429 Too Many Requests (still, after retries)',
  ServerError: 'server error',
  Timeout: 'no answer in time',
  Credentials: 'the credential plugin failed',
  NotRead: 'not read (the question did not need it)',
};

/** A cause's words; a server error names its status (`server error (HTTP 502)`). */
export function causeWords(u: Unread): string {
  if (u.cause === 'ServerError' && u.reason !== 'ServerError' && REASON.test(u.reason))
    return `${CAUSE_WORDS.ServerError} (${u.reason})`;
  return CAUSE_WORDS[u.cause];
}

/** Causes that fail every request alike (the connection or the credentials): said once for the whole cluster. */
const WHOLE_CLUSTER: readonly Cause[] = ['Unauthorized', 'TLS', 'Unreachable', 'Credentials'];

/**
 * One line per resource an answer needed and could not read — `couldn't read nodes: 403 Forbidden — nodes is
 * forbidden: User "alice" cannot list resource "nodes" …` — and one line for the whole cluster when the
 * connection or the credentials failed (every resource alike). A channel gets the resource, the namespace
 * when it may see it, and the cause; never the message (it may name other namespaces' objects).
 */
export function unreadGaps(list: readonly Unread[], visibility: Visibility, audience: Audience): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const push = (line: string) => {
    if (!seen.has(line)) {
      seen.add(line);
      out.push(line);
    }
  };
  const whole = list.filter((u) => WHOLE_CLUSTER.includes(u.cause));
  for (const cause of WHOLE_CLUSTER) {
    const same = whole.filter((u) => u.cause === cause);
    if (same.length === 0) continue;
    const first = same[0]!;
    const what = [...new Set(same.map((u) => resourceOf(u.resource)))].join(', ');
    push(
      audience === 'operator'
        ? `couldn't read the cluster (${what}): ${causeWords(first)} — ${first.message}`
        : `couldn't read the cluster (${what}): ${causeWords(first)}`,
    );
  }
  // Cluster-wide reads refused for one cause (a tenant: nodes, every namespace's pods): one line.
  const rest = list.filter((u) => !WHOLE_CLUSTER.includes(u.cause));
  for (const u of rest) {
    if (u.namespace === undefined) {
      const same = rest.filter((x) => x.namespace === undefined && x.cause === u.cause);
      const what = [...new Set(same.map((x) => (audience === 'operator' ? x.resource : resourceOf(x.resource))))];
      const names = what.length > 1 ? `${what.slice(0, -1).join(', ')} and ${what[what.length - 1]}` : what[0]!;
      push(
        audience === 'operator'
          ? `couldn't read ${names}: ${causeWords(same[0]!)} — ${same[0]!.message}`
          : `couldn't read ${names}: ${causeWords(same[0]!)}`,
      );
      continue;
    }
    push(
      audience === 'operator'
        ? `couldn't read ${u.resource} in ${u.namespace}: ${causeWords(u)} — ${u.message}`
        : `couldn't read ${resourceOf(u.resource)}${whereOf(u.namespace, visibility)}: ${causeWords(u)}`,
    );
  }
  return out;
}

/**
 * A source warning as a reply's gap, or undefined for the warnings no reply carries: the quota reconcile
 * notes and a state file's unread objects name objects of every namespace (and are the operator's
 * business, on the CLI). A stale or skipped resource reaches a channel by its typed fields only: resource,
 * the namespace when the channel may see it, since when, and the reason; never the message.
 */
export function warningGap(w: SourceWarning, visibility: Visibility, audience: Audience): string | undefined {
  switch (w.kind) {
    case 'stale':
      if (audience === 'operator') return warningText(w);
      return `${resourceOf(w.resource)}${whereOf(w.namespace, visibility)}: not being updated since ${w.since} (${reasonOf(w.reason)}); answering from the cache, reconnecting`;
    case 'skipped':
      if (audience === 'operator') return warningText(w);
      return `${resourceOf(w.resource)}${whereOf(w.namespace, visibility)}: ${w.count} object(s) skipped, their shape was not readable`;
    case 'reconciled':
    case 'unread':
      return undefined;
  }
}

/** The gaps of one source read, each line once: the unread resources (unreadGaps), then the warnings. */
export function sourceGaps(
  r: Pick<SourceResult, 'errors' | 'warnings'>,
  visibility: Visibility,
  audience: Audience,
): string[] {
  const out = new Set<string>();
  // One wording for what was not read (unreadGaps): the cause, and for the operator the server's words.
  for (const g of unreadGaps(readsOf(r.errors).unread, visibility, audience)) out.add(g);
  // An unreadable state file is the caller's usage error, not an unread resource: said as it is.
  for (const e of r.errors) if (e.resource === 'state') out.add(errorGap(e, visibility, audience));
  for (const w of r.warnings) {
    const g = warningGap(w, visibility, audience);
    if (g !== undefined) out.add(g);
  }
  return [...out];
}

/** When the source itself threw (a bug or a fault it did not turn into an error value). */
export function unansweredGap(e: unknown, audience: Audience): string {
  return audience === 'operator'
    ? `the cluster did not answer: ${e instanceof Error ? e.message : String(e)}`
    : 'the cluster did not answer';
}
