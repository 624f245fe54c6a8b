/**
 * "Did you mean …": the closest names to a typo, drawn only from what the asker may see. Callers pass the
 * candidates; every caller takes them from the visible namespaces (context.ts `visibleNamespaces`), so a
 * name in a namespace the channel may not see is never suggested (test/hardening/tenancy.test.ts probes it).
 */
import type { Snapshot } from '../../k8s/snapshot.ts';
import type { AskContext } from '../answerer.ts';
import { controllerOf } from '../../engine/controllers/context.ts';
import { visibilityOf, visibleNamespaces } from './context.ts';

/** Optimal string alignment distance (Levenshtein with adjacent transpositions: "tema-a" is 1 from "team-a"). */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row = new Array<number>(b.length + 1).fill(0);
    row[0] = i;
    rows.push(row);
  }
  for (let j = 0; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    let best = Number.POSITIVE_INFINITY;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
      if (d < best) best = d;
    }
    if (best > max) return max + 1;
  }
  return rows[a.length]![b.length]!;
}

/**
 * The candidates nearest to `name` (at most 3, all at the same distance): within 2 edits (1 for names
 * of 4 characters or fewer), else names that start with it (`nightly-etl` → `nightly-etl-29551740`).
 */
export function closestNames(name: string, candidates: Iterable<string>): string[] {
  const max = name.length <= 4 ? 1 : 2;
  const scored: { c: string; d: number }[] = [];
  for (const c of new Set(candidates)) {
    if (c === name || c === '') continue;
    let d = editDistance(name, c, max);
    if (d > max && name.length >= 3 && c.startsWith(name)) d = max + 0.5;
    if (d > max + 0.5) continue;
    scored.push({ c, d });
  }
  scored.sort((x, y) => x.d - y.d || (x.c < y.c ? -1 : x.c > y.c ? 1 : 0));
  // Only the nearest: "tema-a" means team-a (1 edit), not team-b (2).
  const best = scored[0]?.d;
  return scored
    .filter((x) => x.d === best)
    .slice(0, 3)
    .map((x) => x.c);
}

/** The one name a plural or a single-edit typo clearly means (`workers` → `worker`), when there is exactly one. */
export function clearMatch(name: string, candidates: Iterable<string>): string | undefined {
  const list = [...new Set(candidates)];
  if (name.endsWith('s') && list.includes(name.slice(0, -1))) return name.slice(0, -1);
  return undefined;
}

const WORKLOAD_KINDS = ['Deployment', 'StatefulSet', 'ReplicaSet', 'Job', 'DaemonSet', 'CronJob'] as const;

/**
 * Workload names in the namespaces the asker may see, with pod names: `'bare'` adds the Pods no controller
 * owns (asked of by name like workloads), `'all'` every pod (a "why" may name a generated pod name).
 */
export function visibleWorkloadNames(
  state: Snapshot,
  ctx: AskContext,
  explicit?: string,
  pods: 'none' | 'bare' | 'all' = 'none',
): string[] {
  const out: string[] = [];
  for (const ns of visibleNamespaces(state, ctx, explicit)) {
    for (const k of WORKLOAD_KINDS)
      for (const o of state.list(k, ns)) {
        // A Deployment's ReplicaSets are named by the Deployment.
        if (k === 'ReplicaSet' && o.metadata.ownerReferences?.some((r) => r.kind === 'Deployment')) continue;
        if (o.metadata.name) out.push(o.metadata.name);
      }
    if (pods === 'none') continue;
    for (const p of state.iterate('Pod', ns))
      if (p.metadata.name && (pods === 'all' || !controllerOf(p))) out.push(p.metadata.name);
  }
  return out;
}

/** Names of one namespaced kind (ResourceQuota, LimitRange) in the visible namespaces, with their namespace. */
export function visibleObjects(
  state: Snapshot,
  ctx: AskContext,
  kind: 'ResourceQuota' | 'LimitRange',
  explicit?: string,
): { name: string; namespace: string }[] {
  return visibleNamespaces(state, ctx, explicit).flatMap((ns) =>
    state.list(kind, ns).map((o) => ({ name: o.metadata.name ?? '', namespace: ns })),
  );
}

/** The namespaces of the cluster the asker may see (for a namespace typo). */
export function visibleNamespaceNames(state: Snapshot, ctx: AskContext): string[] {
  return visibilityOf(ctx).visible(state.namespaces());
}
