/**
 * A paste tied to its object. A bare FailedScheduling line or a FailedCreate message often names no pod
 * (the scheduler's text never does) or a generated pod name that was never stored. The state usually holds
 * the event it came from: the Pending pod whose latest FailedScheduling message says the same, or the
 * workload whose FailedCreate events do. Only the namespaces the asker may see are searched (the channel
 * policy's `Visibility` is applied first; nothing beyond it is read, so the answer is no existence oracle).
 *
 * "The same" is decided on the parsed facts, not on the bytes: a paste rewrapped by Slack, quoted in
 * markdown or cut to its first sentence still matches, and a FailedCreate message names a different
 * generated pod on every retry (`pods "worker-5d8c7b9f4-kj2r7"`, then `…-glpms`).
 *
 * Pure: the clock is an input (`now`), only for saying the day when it is not today.
 */
import type { KEvent, Pod } from '../k8s/objects.ts';
import type { KObject, Snapshot } from '../k8s/snapshot.ts';
import { isWorkloadKind } from '../k8s/objects.ts';
import { parsePaste, type Finding, type ReasonCount } from '../parse/index.ts';
import { replayPod } from '../engine/diagnose/replay.ts';
import { podRequests } from '../engine/pod-resources.ts';
import { isScalarResourceName, nodeInfoIndex } from '../engine/scheduler/node-info.ts';
import { Quantity } from '../quantity.ts';
import type { SimOptions } from '../engine/simulate.ts';
import type { Reply } from './types.ts';
import type { Visibility } from './policy.ts';

/** At most this many matches are named in the reply. */
export const MAX_NAMED = 5;
/** Pending pods without a matching event re-simulated at most (each is a scheduler run). */
export const MAX_REPLAYED = 25;

/** One object the paste may be about, with its event history for that message. */
export interface TieMatch {
  namespace: string;
  /** `Pod` for FailedScheduling, the workload kind for FailedCreate. */
  kind: string;
  name: string;
  /** How the reply refers to it: `pod/api-…`, `deploy/worker`, `job/nightly-etl-29551740`. */
  ref: string;
  /** Earliest and latest time the event was seen (ms since the epoch); undefined when the event has none. */
  first?: number;
  last?: number;
  /** How often (event count, or the series count); 0 for a match found by re-simulation. */
  count: number;
  /** Found by re-simulating a Pending pod (its events expired), not by an event. */
  replayed: boolean;
}

export interface Tie {
  /** Most recent first. */
  matches: TieMatch[];
  /** The lines the reply opens with: which object, since when, how often; or that none matched. */
  lines: string[];
}

/** Whether a finding needs tying: it names no object, or only a pod name the visible state does not hold. */
export function needsTie(f: Finding, state: Snapshot, visibility: Visibility): boolean {
  if (f.kind !== 'unschedulable' && f.layer !== 'quota' && f.layer !== 'limitrange') return false;
  if (
    f.controller &&
    visibleNamespaces(state, visibility).some((ns) => state.get(f.controller!.kind, ns, f.controller!.name))
  )
    return false;
  const name = f.object?.name;
  if (!name) return true;
  if (f.object?.resource && f.object.resource !== 'pods') return false;
  return !visibleNamespaces(state, visibility).some((ns) => state.get('Pod', ns, name));
}

function visibleNamespaces(state: Snapshot, visibility: Visibility): string[] {
  return visibility.visible(state.namespaces());
}

/** An event's message without the recorder's "(combined from similar events): " prefix. */
function eventMessage(e: KEvent): string {
  return (e.message ?? e.note ?? '').replace(/^\(combined from similar events\): /, '');
}

function time(v: string | Date | null | undefined): number | undefined {
  if (v === null || v === undefined) return undefined;
  const t = v instanceof Date ? v.getTime() : Date.parse(v);
  return Number.isNaN(t) ? undefined : t;
}

/** An events.k8s.io series (`series.count`, `series.lastObservedTime`), read defensively: the schema is loose. */
function series(e: KEvent): { count?: number; last?: number } {
  const s: unknown = (e as Record<string, unknown>).series;
  if (typeof s !== 'object' || s === null) return {};
  const count = (s as { count?: unknown }).count;
  const last = (s as { lastObservedTime?: unknown }).lastObservedTime;
  return {
    count: typeof count === 'number' ? count : undefined,
    last: typeof last === 'string' ? time(last) : undefined,
  };
}

const reasonKey = (rs: readonly ReasonCount[]) =>
  rs
    .map((r) => `${r.count ?? '?'} ${r.reason}`)
    .sort()
    .join('|');

/**
 * Whether an event's finding says what the pasted one says. The scheduler's: the same node total and
 * reasons, and the same preemption part when the paste has one (the api and reindex stories differ only
 * there). Admission: the same quota and exceeded resources with the same hard limits (`used` moves), the
 * same LimitRange violations, the same missing resources.
 */
export function sameFinding(paste: Finding, event: Finding): boolean {
  if (paste.kind === 'unschedulable' && event.kind === 'unschedulable') {
    const a = paste.facts;
    const b = event.facts;
    if (a.total !== null && b.total !== null && a.total !== b.total) return false;
    if (reasonKey(a.reasons) !== reasonKey(b.reasons)) return false;
    if (a.preemption && b.preemption) return reasonKey(a.preemption.reasons) === reasonKey(b.preemption.reasons);
    return true;
  }
  if (paste.kind === 'quota-exceeded' && event.kind === 'quota-exceeded') {
    const a = paste.facts;
    const b = event.facts;
    if (a.quota !== null && b.quota !== null && a.quota !== b.quota) return false;
    if ([...a.exceeding].sort().join() !== [...b.exceeding].sort().join()) return false;
    return a.exceeding.every((k) => a.resources[k]?.limited === b.resources[k]?.limited);
  }
  if (paste.kind === 'quota-must-specify' && event.kind === 'quota-must-specify')
    return (
      (paste.facts.quota === null || paste.facts.quota === event.facts.quota) &&
      Object.keys(paste.facts.resources).sort().join() === Object.keys(event.facts.resources).sort().join()
    );
  if (paste.kind === 'limitrange' && event.kind === 'limitrange')
    return JSON.stringify(paste.facts.violations) === JSON.stringify(event.facts.violations);
  return paste.kind === event.kind && JSON.stringify(paste.facts) === JSON.stringify(event.facts);
}

function refFor(state: Snapshot, ns: string, kind: string, name: string): string {
  if (kind === 'Pod') return `pod/${name}`;
  if (kind === 'ReplicaSet') {
    const rs = state.get('ReplicaSet', ns, name) as {
      metadata: { ownerReferences?: { kind: string; name: string }[] };
    };
    const dep = rs?.metadata.ownerReferences?.find((o) => o.kind === 'Deployment');
    if (dep) return `deploy/${dep.name}`;
    return `rs/${name}`;
  }
  if (kind === 'Job') {
    const job = state.get('Job', ns, name) as { metadata: { ownerReferences?: { kind: string; name: string }[] } };
    const cj = job?.metadata.ownerReferences?.find((o) => o.kind === 'CronJob');
    return cj ? `job/${name} (cronjob/${cj.name})` : `job/${name}`;
  }
  return `${kind.toLowerCase()}/${name}`;
}

function isPending(p: KObject): boolean {
  const pod = p as Pod;
  return !pod.spec?.nodeName && (pod.status?.phase ?? 'Pending') === 'Pending' && !p.metadata.deletionTimestamp;
}

/** The controller a pasted generated pod name points at (`worker-5d8c7b9f4-glpms` → `worker-5d8c7b9f4`). */
function namedPrefix(f: Finding): string | undefined {
  const name = f.object?.name;
  return name ? /^(.*)-[a-z0-9]{5}$/.exec(name)?.[1] : undefined;
}

/**
 * The objects a finding is about, in `namespaces` (already the visible ones; the assumed namespace is
 * searched first, the others only when it holds no match).
 */
export function tie(
  state: Snapshot,
  f: Finding,
  visibility: Visibility,
  assumed: string | undefined,
  opts: SimOptions,
): Tie {
  const all = visibleNamespaces(state, visibility);
  const first = assumed && visibility.allows(assumed) && state.hasNamespace(assumed) ? [assumed] : [];
  let matches = first.length ? findIn(state, f, first, opts) : [];
  if (!matches.length) matches = findIn(state, f, all, opts);
  // A pasted generated name narrows to its controller when that one is among the matches.
  const prefix = namedPrefix(f);
  if (prefix && matches.some((m) => m.name === prefix)) matches = matches.filter((m) => m.name === prefix);
  return { matches, lines: tieLines(f, matches, first.length ? first : all, opts.now) };
}

function findIn(state: Snapshot, f: Finding, namespaces: readonly string[], opts: SimOptions): TieMatch[] {
  const scheduler = f.kind === 'unschedulable';
  const byObject = new Map<string, TieMatch>();
  const hasEvent = new Set<string>();
  for (const ns of namespaces) {
    // A pod's latest FailedScheduling event decides; a workload's FailedCreate events all count.
    const latest = new Map<string, KEvent>();
    for (const o of state.list('Event', ns)) {
      const e = o as KEvent;
      const about = e.involvedObject ?? e.regarding;
      const kind = about?.kind ?? '';
      const name = about?.name ?? '';
      if (!name) continue;
      if (
        scheduler
          ? e.reason !== 'FailedScheduling' || kind !== 'Pod'
          : e.reason !== 'FailedCreate' || !isWorkloadKind(kind)
      )
        continue;
      const key = `${kind}/${name}`;
      if (scheduler) {
        hasEvent.add(`${ns}/${name}`);
        const prev = latest.get(key);
        if (!prev || (lastSeen(e) ?? 0) >= (lastSeen(prev) ?? 0)) latest.set(key, e);
        continue;
      }
      if (!matchesMessage(f, eventMessage(e))) continue;
      add(byObject, state, ns, kind, name, e);
    }
    for (const [key, e] of latest) {
      const name = key.slice('Pod/'.length);
      const pod = state.get('Pod', ns, name);
      if (!pod || !isPending(pod)) continue;
      if (matchesMessage(f, eventMessage(e))) add(byObject, state, ns, 'Pod', name, e);
    }
  }
  if (scheduler && byObject.size === 0) {
    // Events expire (an hour by default): a Pending pod without one is re-simulated and compared.
    let replayed = 0;
    for (const ns of namespaces)
      for (const p of state.list('Pod', ns)) {
        const name = p.metadata.name ?? '';
        if (!isPending(p) || hasEvent.has(`${ns}/${name}`) || replayed >= MAX_REPLAYED) continue;
        replayed++;
        const r = replayPod(state, p as Pod, true, ns, opts);
        const msg = r?.now.scheduling && !r.now.scheduling.scheduled ? r.now.scheduling.message : undefined;
        if (msg && matchesMessage(f, msg))
          byObject.set(`${ns}/Pod/${name}`, {
            namespace: ns,
            kind: 'Pod',
            name,
            ref: `pod/${name}`,
            first: time(p.metadata.creationTimestamp as string | undefined),
            count: 0,
            replayed: true,
          });
      }
  }
  return [...byObject.values()].sort(
    (a, b) => (b.last ?? b.first ?? 0) - (a.last ?? a.first ?? 0) || a.ref.localeCompare(b.ref),
  );
}

function lastSeen(e: KEvent): number | undefined {
  return series(e).last ?? time(e.lastTimestamp) ?? time(e.eventTime) ?? time(e.firstTimestamp);
}

function add(into: Map<string, TieMatch>, state: Snapshot, ns: string, kind: string, name: string, e: KEvent): void {
  const key = `${ns}/${kind}/${name}`;
  const s = series(e);
  const count = s.count ?? e.count ?? 1;
  const first = time(e.firstTimestamp) ?? time(e.eventTime);
  const last = lastSeen(e);
  const m = into.get(key);
  if (!m) {
    into.set(key, {
      namespace: ns,
      kind,
      name,
      ref: refFor(state, ns, kind, name),
      first,
      last,
      count,
      replayed: false,
    });
    return;
  }
  m.count += count;
  if (first !== undefined && (m.first === undefined || first < m.first)) m.first = first;
  if (last !== undefined && (m.last === undefined || last > m.last)) m.last = last;
}

function matchesMessage(paste: Finding, message: string): boolean {
  return parsePaste(message).findings.some((ef) => sameFinding(paste, ef));
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `09:05` (UTC) when the day is the clock's; `2026-03-09 23:10` otherwise or without a clock. */
export function clockTime(t: number, now: number | undefined): string {
  const d = new Date(t);
  const hm = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
  const day = d.toISOString().slice(0, 10);
  return now !== undefined && new Date(now).toISOString().slice(0, 10) === day ? hm : `${day} ${hm}`;
}

/** "FailedScheduling since 09:05, 14 times (last 09:36)"; for a re-simulated match, that no event is left. */
export function history(m: TieMatch, event: string, now: number | undefined): string {
  if (m.replayed)
    return `no ${event} event left (they expire), but re-simulated now it gets this message${m.first !== undefined ? ` (created ${clockTime(m.first, now)})` : ''}`;
  const parts: string[] = [];
  if (m.first !== undefined) parts.push(`${event} since ${clockTime(m.first, now)}`);
  else parts.push(event);
  parts.push(m.count === 1 ? 'once' : `${m.count} times`);
  const tail = m.last !== undefined && m.last !== m.first ? ` (last ${clockTime(m.last, now)})` : '';
  return `${parts.join(', ')}${tail}`;
}

function what(f: Finding): string {
  return f.kind === 'unschedulable' ? 'Pending pod' : 'workload';
}

function tieLines(f: Finding, matches: TieMatch[], searched: readonly string[], now: number | undefined): string[] {
  const event = f.kind === 'unschedulable' ? 'FailedScheduling' : 'FailedCreate';
  const where = searched.length === 1 ? searched[0] : `${searched.length} namespaces`;
  const chosen = matches[0];
  if (!chosen)
    return [
      f.kind === 'unschedulable'
        ? `No Pending pod in ${where} has this ${event} message now, in its events or re-simulated.`
        : `No workload in ${where} has this ${event} message now.`,
    ];
  const at = `${chosen.ref} (${chosen.namespace})`;
  if (matches.length === 1) return [`This is ${at}: ${history(chosen, event, now)}.`];
  const named = matches
    .slice(0, MAX_NAMED)
    .map((m) => `${m.ref}${m.namespace !== chosen.namespace ? ` (${m.namespace})` : ''}`);
  const more = matches.length > MAX_NAMED ? `, and ${matches.length - MAX_NAMED} more` : '';
  return [
    `${matches.length} ${what(f)}s have this ${event} message: ${named.join(', ')}${more}. Answering for the most recent, ${at}: ${history(chosen, event, now)}.`,
  ];
}

/** The finding as the tied object's: its namespace and pod (or the workload that creates its pods). */
export function asTied(f: Finding, m: TieMatch): Finding {
  if (m.kind === 'Pod') return { ...f, namespace: m.namespace, object: { resource: 'pods', name: m.name } };
  return { ...f, namespace: m.namespace, controller: { kind: m.kind, name: m.name } };
}

/** The largest allocatable of one resource over all nodes, and the node. */
function largestAllocatable(state: Snapshot, resource: string): { node: string; amount: Quantity } | undefined {
  const index = nodeInfoIndex(state);
  let best: { node: string; amount: Quantity } | undefined;
  for (const name of index.nodeNames()) {
    const node = state.get('Node', undefined, name) as { status?: { allocatable?: Record<string, string> } };
    const q = Quantity.tryParse(node?.status?.allocatable?.[resource]);
    if (q && (!best || q.cmp(best.amount) > 0)) best = { node: name, amount: q };
  }
  return best;
}

/**
 * A pod that asks for more of a resource than any node allocates can never schedule: preemption cannot
 * make room that no node has. Says so with the numbers, in place of the generic preemption line.
 */
export function beyondEveryNode(r: Reply, state: Snapshot, pod: Pod): void {
  const beyond: string[] = [];
  for (const [resource, amount] of podRequests(pod)) {
    if (amount.sign() <= 0) continue;
    const top = largestAllocatable(state, resource);
    if (top && amount.cmp(top.amount) <= 0) continue;
    beyond.push(
      top
        ? `${amount} ${resource}, more than any node allocates (the largest, ${top.node}, has ${top.amount})`
        : `${amount} ${resource}, which no node has`,
    );
  }
  if (!beyond.length) return;
  const i = r.lines.findIndex((l) => l.startsWith('Preemption cannot help'));
  const line = `No node can ever hold it: it requests ${beyond.join('; ')}. Preemption cannot make room that no node has.`;
  if (i >= 0) r.lines[i] = line;
  else r.lines.unshift(line);
}

/** At most this many nodes are listed per extended resource. */
const MAX_NODES_LISTED = 6;

/**
 * For each extended resource a Pending pod requests (GPUs …): what it needs on one node and what each
 * node that has any frees now (allocatable − requested), most free first. A pod's extended resources
 * must all fit one node: 8 GPUs free across two nodes do not hold a pod asking for 4 on one.
 */
export function scalarsPerNode(state: Snapshot, pod: Pod): string[] {
  const index = nodeInfoIndex(state);
  const out: string[] = [];
  for (const [resource, amount] of podRequests(pod)) {
    if (!isScalarResourceName(resource) || amount.sign() <= 0) continue;
    const rows: { node: string; free: number; total: number; note: string }[] = [];
    for (const name of index.nodeNames()) {
      const info = index.get(name);
      const total = info?.allocatable.scalars.get(resource) ?? 0;
      if (!info || total <= 0) continue;
      const free = total - (info.requested.scalars.get(resource) ?? 0);
      rows.push({ node: name, free, total, note: info.unschedulable ? ', cordoned' : '' });
    }
    if (!rows.length) {
      out.push(`Needs ${amount} ${resource}: no node has any.`);
      continue;
    }
    rows.sort((a, b) => b.free - a.free || a.node.localeCompare(b.node));
    const shown = rows
      .slice(0, MAX_NODES_LISTED)
      .map((x) => `${x.node} ${x.free} of ${x.total}${x.note}`)
      .join(', ');
    const more = rows.length > MAX_NODES_LISTED ? `, and ${rows.length - MAX_NODES_LISTED} more nodes` : '';
    out.push(`Needs ${amount} ${resource} on one node; free now: ${shown}${more}.`);
  }
  return out;
}

/**
 * The tie's part of a reply (answer/diagnose.ts calls it once the state is checked): which object, since
 * when and how often, first; and for a Pending pod asking beyond every node, that fact with its numbers.
 */
export function annotate(r: Reply, f: Finding, t: Tie | undefined, state: Snapshot, ns: string | undefined): void {
  if (ns && f.kind === 'unschedulable' && f.object?.name) {
    const pod = state.get('Pod', ns, f.object.name);
    if (pod) {
      beyondEveryNode(r, state, pod as Pod);
      r.lines.push(...scalarsPerNode(state, pod as Pod));
    }
  }
  // Which object it is opens the reply; that none matched comes last (the text's explanation still holds).
  if (t?.matches.length) r.lines.unshift(...t.lines);
  else if (t) r.lines.push(...t.lines);
}
