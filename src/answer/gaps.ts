/**
 * What could not be read, as a reply's gaps. A source error is typed (resource, namespace, reason) next to
 * the API server's own `message`; that message is free text and may name objects of any namespace
 * (`pods "payroll-7c5d" is forbidden: …`, a webhook's error, a proxy's HTML page). A channel gets the
 * typed part only — reason and resource, and the namespace when the channel may see it; the operator (CLI,
 * console) gets the message too.
 */
import type { SourceError, SourceResult } from '../cluster/source.ts';
import type { Visibility } from './policy.ts';

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
  return NAMESPACE.test(namespace) && visibility.allows(namespace) ? ` in ${namespace}` : " in a namespace this channel doesn't see";
}

export function errorGap(e: SourceError, visibility: Visibility, audience: Audience): string {
  if (audience === 'operator') return `couldn't read ${e.resource}${e.namespace ? ` in ${e.namespace}` : ''}${e.reason ? ` (${e.reason})` : ''}: ${e.message}`;
  return `couldn't read ${resourceOf(e.resource)}${whereOf(e.namespace, visibility)} (${reasonOf(e.reason)})`;
}

// The live cache's two warnings a reply should carry (cluster/live-source.ts): `<label>: not being updated
// since <iso> (<reason>: <message>); answering from the cache, reconnecting` and `<label>: <n> object(s)
// skipped, their shape was not readable`, where <label> is `pods` or `pods in team-a`. Every other warning
// (the quota reconcile notes, decode notes) names objects of every namespace and stays out of replies.
const STALE = /^([a-z][a-z0-9.-]*)(?: in ([a-z0-9-]+))?: not being updated since (\S+) \(([^:()]*)/;
const SKIPPED = /^([a-z][a-z0-9.-]*)(?: in ([a-z0-9-]+))?: (\d+) object\(s\) skipped, their shape was not readable/;

export function warningGap(w: string, visibility: Visibility, audience: Audience): string | undefined {
  const stale = STALE.exec(w);
  if (stale) {
    if (audience === 'operator') return w;
    return `${resourceOf(stale[1]!)}${whereOf(stale[2], visibility)}: not being updated since ${stale[3]} (${reasonOf(stale[4])}); answering from the cache, reconnecting`;
  }
  const skipped = SKIPPED.exec(w);
  if (skipped) {
    if (audience === 'operator') return w;
    return `${resourceOf(skipped[1]!)}${whereOf(skipped[2], visibility)}: ${skipped[3]} object(s) skipped, their shape was not readable`;
  }
  return undefined;
}

/** The gaps of one source read, each line once. */
export function sourceGaps(r: Pick<SourceResult, 'errors' | 'warnings'>, visibility: Visibility, audience: Audience): string[] {
  const out = new Set<string>();
  for (const e of r.errors) out.add(errorGap(e, visibility, audience));
  for (const w of r.warnings) {
    const g = warningGap(w, visibility, audience);
    if (g !== undefined) out.add(g);
  }
  return [...out];
}

/** When the source itself threw (a bug or a fault it did not turn into an error value). */
export function unansweredGap(e: unknown, audience: Audience): string {
  return audience === 'operator' ? `the cluster did not answer: ${e instanceof Error ? e.message : String(e)}` : 'the cluster did not answer';
}
