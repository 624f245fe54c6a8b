/**
 * Each cluster's health in its replies (issue #16, Deliver 6). A bot watching several clusters answers
 * from caches; when a cache cannot be trusted the reply says so in one line naming the cluster, instead
 * of a line per resource or, worse, stale data presented silently:
 *
 * - nothing the answer needs was ever read (the cluster is unreachable, its credentials expired): there
 *   is no state to answer from, and one line says which cluster and why —
 *   `couldn't read any resource of cluster prod-b (Unreachable)`;
 * - data is there but a watch it stands on has been down (or silent) longer than `boundMs` (60 s): one
 *   line says how old the data is and why — `cluster prod: nodes last synced 4m ago — watch down: 503` —
 *   and replaces the per-resource "not being updated since" lines of those resources. A shorter outage
 *   (a watch re-established after its timeoutSeconds, a blip) keeps the per-resource lines as they are.
 *
 * Pure: the per-resource health comes from the source (cluster/source.ts `CacheHealthReport`), the time
 * is passed in. A channel gets typed words only (resource names, HTTP status, StatusReason), never the
 * API server's message nor a namespace; the operator gets the first error's message too.
 */
import type { CacheHealthReport, ResourceHealth, SourceResult } from '../cluster/source.ts';
import type { Audience } from './gaps.ts';

/** A watch down longer than this makes the reply say how old its data is. */
export const STALE_BOUND_MS = 60_000;

/** Resource names a line shows before "and N more". */
const SHOWN = 3;

/** A StatusReason, an HTTP status or our own word: anything else is not shown to a channel. */
const WORD = /^[A-Za-z0-9][A-Za-z0-9 ]{0,39}$/;
const RESOURCE = /^[a-z][a-z0-9.-]{0,62}$/;
const CLUSTER = /^[A-Za-z0-9][A-Za-z0-9@:/._-]{0,99}$/;

export interface ClusterGaps {
  /** Nothing the answer needs was read: answer without a state, with `lines` as the only gap. */
  unreadable: boolean;
  /** The cluster lines (zero or one), to put before the other gaps. */
  lines: string[];
  /** What is left for the per-resource gaps (answer/gaps.ts `sourceGaps`): the stale warnings the line covers are taken out. */
  rest: Pick<SourceResult, 'errors' | 'warnings'>;
}

/** `45s`, `4m`, `3h`, `2d`: how long ago, rounded down. */
export function ago(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 48 * 3600) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86_400)}d`;
}

function clusterOf(report: CacheHealthReport): string {
  return CLUSTER.test(report.cluster) ? report.cluster : 'cluster';
}

function names(resources: readonly string[]): string {
  const shown = resources.slice(0, SHOWN).join(', ');
  return resources.length > SHOWN ? `${shown} and ${resources.length - SHOWN} more` : shown;
}

/** Per resource (namespaces folded: the worst one counts), in the order the source gave them. */
function byResource(all: readonly ResourceHealth[]): ResourceHealth[] {
  const out = new Map<string, ResourceHealth>();
  for (const h of all) {
    const prev = out.get(h.resource);
    if (!prev) {
      out.set(h.resource, { ...h });
      continue;
    }
    prev.watchUp = prev.watchUp && h.watchUp;
    if (h.lastSyncAt === undefined || prev.lastSyncAt === undefined) delete prev.lastSyncAt;
    else prev.lastSyncAt = Math.min(prev.lastSyncAt, h.lastSyncAt);
    if (h.behindSince !== undefined && (prev.behindSince === undefined || h.behindSince < prev.behindSince)) {
      prev.behindSince = h.behindSince;
      if (h.why !== undefined) prev.why = h.why;
    }
  }
  return [...out.values()];
}

/**
 * The one line of a cache whose data is older than the bound, or undefined. `health` is what the source
 * reported for the resources this answer read; `now` is the answer's clock.
 */
export function staleLine(
  report: CacheHealthReport,
  now: number,
  boundMs: number = STALE_BOUND_MS,
): { line: string; resources: string[] } | undefined {
  const stale = byResource(report.resources)
    .filter(
      (h): h is ResourceHealth & { lastSyncAt: number; behindSince: number } =>
        h.lastSyncAt !== undefined && h.behindSince !== undefined && now - h.behindSince > boundMs,
    )
    .filter((h) => RESOURCE.test(h.resource))
    .sort((a, b) => a.lastSyncAt - b.lastSyncAt);
  if (stale.length === 0) return undefined;
  const oldest = ago(now - stale[0]!.lastSyncAt);
  const newest = ago(now - stale[stale.length - 1]!.lastSyncAt);
  const age = oldest === newest ? oldest : `${newest}–${oldest}`;
  const down = [
    ...new Set(stale.filter((h) => h.why !== 'Stale').map((h) => (h.why && WORD.test(h.why) ? h.why : 'error'))),
  ];
  const why = [
    ...(down.length ? [`watch down: ${down.join(', ')}`] : []),
    ...(stale.some((h) => h.why === 'Stale') ? ['watch silent'] : []),
  ].join('; ');
  const resources = stale.map((h) => h.resource);
  return { line: `cluster ${clusterOf(report)}: ${names(resources)} last synced ${age} ago — ${why}`, resources };
}

/**
 * The cluster's lines for a reply read from `r` at `now`, and the rest of its gaps. A source without a
 * health report (a state file, a one-shot CLI read) gets no line: its reads are as fresh as the question.
 */
export function clusterGaps(
  r: Pick<SourceResult, 'errors' | 'warnings' | 'health'>,
  now: number,
  audience: Audience,
  boundMs: number = STALE_BOUND_MS,
): ClusterGaps {
  const rest = { errors: r.errors, warnings: r.warnings };
  const report = r.health;
  if (!report || report.resources.length === 0) return { unreadable: false, lines: [], rest };
  if (r.errors.length > 0 && report.resources.every((h) => h.lastSyncAt === undefined)) {
    const reasons = [...new Set(r.errors.map((e) => (e.reason && WORD.test(e.reason) ? e.reason : 'error')))];
    const first = r.errors[0]!;
    const detail = audience === 'operator' && first.message ? `: ${first.message}` : '';
    return {
      unreadable: true,
      lines: [`couldn't read any resource of cluster ${clusterOf(report)} (${reasons.join(', ')}${detail})`],
      rest: { errors: [], warnings: [] },
    };
  }
  const stale = staleLine(report, now, boundMs);
  if (!stale) return { unreadable: false, lines: [], rest };
  const covered = new Set(stale.resources);
  return {
    unreadable: false,
    lines: [stale.line],
    rest: {
      errors: r.errors,
      warnings: r.warnings.filter((w) => !(w.kind === 'stale' && covered.has(w.resource))),
    },
  };
}
