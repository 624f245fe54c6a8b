/**
 * Incidents from the cluster state: what the bot reports before anyone asks (issue #19). Pure — a snapshot
 * and a clock value in, incidents out; the notifier (./notifier.ts) does the I/O.
 *
 * Three kinds, each with a stable key (namespace, object, layer, reason) so that repeats are one incident:
 * - **refused**: a controller cannot create its pods (FailedCreate from the ReplicaSet, StatefulSet, Job or
 *   DaemonSet controller: quota, LimitRange, validation). The pods never exist, so the controller's own
 *   events are the only trace (the "quota masquerade"). Open while the controller has fewer pods than it
 *   wants; a ReplicaSet's incident is reported on its Deployment, and called a stalled rollout when an older
 *   ReplicaSet of the same Deployment still runs pods.
 * - **pending**: pods Pending longer than a threshold with a FailedScheduling event, one incident per
 *   owning workload (or per bare pod).
 * - **quota**: a quota resource at or above a percentage of `hard`, said in workload units ("web can add 1
 *   more replica before pods runs out").
 */
import type { Snapshot } from '../k8s/snapshot.ts';
import type { KEvent, Pod, ResourceQuota } from '../k8s/objects.ts';
import { parsePaste } from '../parse/index.ts';
import type { Finding } from '../parse/index.ts';
import { Quantity, resourceList } from '../quantity.ts';
import { podUsage } from '../engine/admission/evaluators/pods.ts';
import { isTerminal } from '../engine/pod-resources.ts';

export type IncidentKind = 'refused' | 'pending' | 'quota';

export interface Incident {
  /** `namespace/Kind/name/layer/reason`: the same while the same thing is wrong. */
  key: string;
  kind: IncidentKind;
  namespace: string;
  /** The object the team knows (a Deployment rather than its ReplicaSet). */
  object: { kind: string; name: string };
  /** Layer as the parser names it (`quota`, `limitrange`, `api-validation`, `scheduler` …). */
  layer: string;
  /** One line for the post's headline. */
  title: string;
  /** The latest Kubernetes message (what a person would paste). */
  message: string;
  /** The text given to the answerer: the same reply a paste of it would get. */
  paste: string;
  /** Changes when the numbers change (a thread reply), not when only a generated pod name does. */
  fingerprint: string;
  /** ISO time of the first event, when known. */
  since?: string;
  /** How many times the events say it happened. */
  count: number;
  /** `2/3` pods for workloads: the resolution line says `back to 3/3`. */
  progress?: { have: number; want: number };
  /** Pending incidents: epoch ms the oldest of its Pending pods was created (channels' own thresholds). */
  pendingSince?: number;
  /** Quota incidents: percent of hard used (channels' own thresholds). */
  percent?: number;
}

export interface DetectOptions {
  /** Epoch ms (the engine has no clock). */
  now: number;
  /** A pod Pending at least this long is an incident (default 5 minutes). */
  pendingAfterMs?: number;
  /** Percent of `hard` at which a quota resource is reported, per namespace (undefined: never). */
  quotaThreshold?: (namespace: string) => number | undefined;
  /** Only these namespaces (the ones some alerting channel owns). */
  namespaces?: ReadonlySet<string> | 'all';
}

export const DEFAULT_PENDING_AFTER_MS = 5 * 60_000;

const CONTROLLER_KINDS = new Set(['ReplicaSet', 'StatefulSet', 'Job', 'DaemonSet']);

function timeOf(v: string | Date | null | undefined): number | undefined {
  if (v === null || v === undefined) return undefined;
  const t = v instanceof Date ? v.getTime() : Date.parse(v);
  return Number.isFinite(t) ? t : undefined;
}

function isoOf(t: number | undefined): string | undefined {
  return t === undefined ? undefined : new Date(t).toISOString();
}

/** First and last time of an event (events.k8s.io series, core v1 first/lastTimestamp, eventTime). */
function eventTimes(e: KEvent): { first?: number; last?: number } {
  const first = timeOf(e.firstTimestamp) ?? timeOf(e.eventTime) ?? timeOf(e.metadata.creationTimestamp);
  const last = timeOf(e.lastTimestamp) ?? timeOf(e.eventTime) ?? first;
  return { first, last };
}

function regardingOf(e: KEvent): { kind?: string; name?: string } {
  const r = e.involvedObject ?? e.regarding;
  return { kind: r?.kind ?? undefined, name: r?.name ?? undefined };
}

/** The event's message, without the prefix the event aggregator adds to a series (client-go EventAggregator). */
function messageOf(e: KEvent): string {
  return (e.message ?? e.note ?? '').trim().replace(/^\(combined from similar events\): /, '');
}

/** Generated pod names change with every try: they must not make a new fingerprint. */
function stableText(message: string): string {
  return message.replace(/pods? "[^"]*"/g, 'pods "…"').replace(/\s+/g, ' ');
}

function reasonCode(f: Finding | undefined): string {
  if (!f) return 'unrecognised';
  switch (f.kind) {
    case 'quota-exceeded':
      return `exceeded:${f.facts.quota ?? '?'}:${[...f.facts.exceeding].sort().join(',')}`;
    case 'quota-must-specify':
      return `must-specify:${f.facts.quota ?? '?'}:${Object.keys(f.facts.resources).sort().join(',')}`;
    case 'limitrange':
      return `limitrange:${f.facts.violations.map((v) => `${v.scope}.${v.resource}.${v.bound}`).join(',')}`;
    case 'api-validation':
      return `validation:${f.facts.field ?? f.facts.resource ?? '?'}`;
    default:
      return f.kind;
  }
}

interface OwnerRef {
  kind: string;
  name: string;
}

function controllerRef(meta: {
  ownerReferences?: { kind: string; name: string; controller?: boolean | null }[] | null;
}): OwnerRef | undefined {
  const refs = meta.ownerReferences ?? [];
  const ref = refs.find((o) => o.controller) ?? refs[0];
  return ref ? { kind: ref.kind, name: ref.name } : undefined;
}

/**
 * The pods of each controller that count towards its replicas (not finished, not being deleted), indexed per
 * namespace on first use: one pass over a namespace's pods per detection, not one per controller asked about.
 */
class Owned {
  private readonly byNs = new Map<string, Map<string, Pod[]>>();

  constructor(readonly state: Snapshot) {}

  of(ns: string, owner: OwnerRef): Pod[] {
    let m = this.byNs.get(ns);
    if (!m) {
      m = new Map();
      for (const p of this.state.iterate('Pod', ns)) {
        if (p.metadata.deletionTimestamp || isTerminal(p)) continue;
        const ref = controllerRef(p.metadata);
        if (!ref) continue;
        const k = `${ref.kind}\u0000${ref.name}`;
        const list = m.get(k);
        if (list) list.push(p);
        else m.set(k, [p]);
      }
      this.byNs.set(ns, m);
    }
    return m.get(`${owner.kind}\u0000${owner.name}`) ?? [];
  }
}

function intOr(v: unknown, dflt: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : dflt;
}

/** How many pods a controller wants and has, when it still exists. */
function progressOf(own: Owned, ns: string, ref: OwnerRef): { have: number; want: number } | undefined {
  const state = own.state;
  const have = own.of(ns, ref).length;
  switch (ref.kind) {
    case 'ReplicaSet': {
      const rs = state.get('ReplicaSet', ns, ref.name);
      return rs ? { have, want: intOr(rs.spec?.replicas, 1) } : undefined;
    }
    case 'StatefulSet': {
      const s = state.get('StatefulSet', ns, ref.name);
      return s ? { have, want: intOr(s.spec?.replicas, 1) } : undefined;
    }
    case 'Job': {
      const j = state.get('Job', ns, ref.name);
      if (!j) return undefined;
      const spec = (j.spec ?? {}) as { parallelism?: number | null; completions?: number | null };
      const status = (j.status ?? {}) as { succeeded?: number | null };
      const parallelism = intOr(spec.parallelism, 1);
      const left = spec.completions == null ? parallelism : intOr(spec.completions, 1) - intOr(status.succeeded, 0);
      return { have, want: Math.max(0, Math.min(parallelism, left)) };
    }
    case 'DaemonSet': {
      const d = state.get('DaemonSet', ns, ref.name);
      if (!d) return undefined;
      const st = (d.status ?? {}) as { desiredNumberScheduled?: number | null; currentNumberScheduled?: number | null };
      return { have: intOr(st.currentNumberScheduled, have), want: intOr(st.desiredNumberScheduled, 0) };
    }
    default:
      return undefined;
  }
}

/** The object a team knows: a ReplicaSet's Deployment. */
function teamObject(own: Owned, ns: string, ref: OwnerRef): OwnerRef {
  const state = own.state;
  if (ref.kind === 'ReplicaSet') {
    const rs = state.get('ReplicaSet', ns, ref.name);
    const dep = rs ? controllerRef(rs.metadata) : undefined;
    if (dep?.kind === 'Deployment') return dep;
  }
  return ref;
}

/** Whether another ReplicaSet of the same Deployment still runs pods: the refused one is a stalled rollout. */
function rolloutStalled(own: Owned, ns: string, rsName: string, deployment: string): boolean {
  const state = own.state;
  for (const rs of state.iterate('ReplicaSet', ns)) {
    if (rs.metadata.name === rsName) continue;
    const owner = controllerRef(rs.metadata);
    if (owner?.kind !== 'Deployment' || owner.name !== deployment) continue;
    if (own.of(ns, { kind: 'ReplicaSet', name: rs.metadata.name ?? '' }).length > 0) return true;
  }
  return false;
}

const LAYER_WORDS: Record<string, string> = {
  quota: 'ResourceQuota',
  limitrange: 'LimitRange',
  'api-validation': 'API validation',
  scheduler: 'the scheduler',
};

function inScope(opts: DetectOptions, ns: string): boolean {
  return opts.namespaces === undefined || opts.namespaces === 'all' || opts.namespaces.has(ns);
}

interface EventGroup {
  latest: KEvent;
  latestAt: number;
  first?: number;
  count: number;
}

/** Warning events by (namespace, regarding kind/name, reason), keeping the latest and the totals. */
function groupEvents(state: Snapshot, reasons: ReadonlySet<string>, opts: DetectOptions): Map<string, EventGroup> {
  const groups = new Map<string, EventGroup>();
  for (const e of state.iterate('Event')) {
    const reason = e.reason ?? '';
    if (!reasons.has(reason)) continue;
    const ns = e.metadata.namespace ?? '';
    if (!inScope(opts, ns)) continue;
    const r = regardingOf(e);
    if (!r.kind || !r.name) continue;
    const key = `${ns}\u0000${r.kind}\u0000${r.name}\u0000${reason}`;
    const { first, last } = eventTimes(e);
    const count = Math.max(1, intOr(e.count, 1));
    const g = groups.get(key);
    const at = last ?? 0;
    if (!g) {
      groups.set(key, { latest: e, latestAt: at, first, count });
      continue;
    }
    g.count += count;
    if (first !== undefined && (g.first === undefined || first < g.first)) g.first = first;
    if (at >= g.latestAt) {
      g.latest = e;
      g.latestAt = at;
    }
  }
  return groups;
}

function refusedIncidents(own: Owned, opts: DetectOptions): Incident[] {
  const state = own.state;
  const out: Incident[] = [];
  for (const g of groupEvents(state, new Set(['FailedCreate']), opts).values()) {
    const ns = g.latest.metadata.namespace ?? '';
    const r = regardingOf(g.latest);
    const ref = { kind: r.kind ?? '', name: r.name ?? '' };
    if (!CONTROLLER_KINDS.has(ref.kind)) continue;
    const progress = progressOf(own, ns, ref);
    // The controller is gone, or has what it wants: nothing is wrong now.
    if (!progress || progress.have >= progress.want) continue;
    const message = messageOf(g.latest);
    const finding = parsePaste(message).findings[0];
    const layer = finding?.layer ?? 'other';
    const obj = teamObject(own, ns, ref);
    const stalled = obj.kind === 'Deployment' && rolloutStalled(own, ns, ref.name, obj.name);
    const what = stalled ? `the rollout of ${obj.name} is stalled` : `${obj.name} can't create pods`;
    const by = LAYER_WORDS[layer] ? ` (${LAYER_WORDS[layer]})` : '';
    out.push({
      key: `${ns}/${obj.kind}/${obj.name}/${layer}/${reasonCode(finding)}`,
      kind: 'refused',
      namespace: ns,
      object: obj,
      layer,
      title: `${ns}: ${what}${by}: ${progress.have}/${progress.want} pods`,
      message,
      paste: `Warning  FailedCreate  ${ref.kind.toLowerCase()}/${ref.name}  ${message}`,
      fingerprint: `${stableText(message)}|${progress.have}/${progress.want}`,
      ...(g.first !== undefined ? { since: isoOf(g.first) } : {}),
      count: g.count,
      progress,
    });
  }
  return out;
}

function pendingIncidents(own: Owned, opts: DetectOptions): Incident[] {
  const state = own.state;
  const after = opts.pendingAfterMs ?? DEFAULT_PENDING_AFTER_MS;
  const groups = groupEvents(state, new Set(['FailedScheduling']), opts);
  const byOwner = new Map<
    string,
    { ns: string; obj: OwnerRef; pods: Pod[]; group: EventGroup; first?: number; created: number; stalled: boolean }
  >();
  for (const g of groups.values()) {
    const ns = g.latest.metadata.namespace ?? '';
    const r = regardingOf(g.latest);
    if (r.kind !== 'Pod' || !r.name) continue;
    const pod = state.get('Pod', ns, r.name);
    if (!pod || pod.spec?.nodeName || pod.metadata.deletionTimestamp) continue;
    if ((pod.status?.phase ?? 'Pending') !== 'Pending') continue;
    const created = timeOf(pod.metadata.creationTimestamp) ?? g.first;
    if (created === undefined || opts.now - created < after) continue;
    const ref = controllerRef(pod.metadata);
    const obj = ref ? teamObject(own, ns, ref) : { kind: 'Pod', name: r.name };
    const key = `${ns}/${obj.kind}/${obj.name}`;
    const entry = byOwner.get(key);
    // A new ReplicaSet's pod Pending while an older one still runs: the rollout is stalled by capacity.
    const stalled =
      ref?.kind === 'ReplicaSet' && obj.kind === 'Deployment' && rolloutStalled(own, ns, ref.name, obj.name);
    if (!entry) {
      byOwner.set(key, { ns, obj, pods: [pod], group: { ...g }, first: g.first, created, stalled });
    } else {
      entry.stalled ||= stalled;
      entry.pods.push(pod);
      entry.created = Math.min(entry.created, created);
      entry.group.count += g.count;
      if (g.first !== undefined && (entry.first === undefined || g.first < entry.first)) entry.first = g.first;
      if (g.latestAt >= entry.group.latestAt) {
        entry.group.latest = g.latest;
        entry.group.latestAt = g.latestAt;
      }
    }
  }
  const out: Incident[] = [];
  for (const { ns, obj, pods, group, first, created, stalled } of byOwner.values()) {
    const message = messageOf(group.latest);
    const names = pods.map((p) => p.metadata.name ?? '').sort();
    const podWord = names.length === 1 ? `pod ${names[0]}` : `${names.length} pods`;
    const latestPod = regardingOf(group.latest).name ?? names[0] ?? '';
    out.push({
      key: `${ns}/${obj.kind}/${obj.name}/scheduler/FailedScheduling`,
      kind: 'pending',
      namespace: ns,
      object: obj,
      layer: 'scheduler',
      title: stalled
        ? `${ns}: the rollout of ${obj.name} is stalled: ${podWord} Pending`
        : `${ns}: ${obj.kind === 'Pod' ? podWord : `${obj.name}: ${podWord}`} Pending`,
      message,
      paste: `Warning  FailedScheduling  pod/${latestPod}  ${message}`,
      fingerprint: `${message.replace(/\s+/g, ' ')}|${names.length}`,
      ...(first !== undefined ? { since: isoOf(first) } : {}),
      count: group.count,
      pendingSince: created,
    });
  }
  return out;
}

/** Milli-units of one quota resource a pod of the workload uses, from one of its admitted pods (never a guess). */
function perPodMilli(resource: string, pods: Pod[]): bigint | undefined {
  const q = pods.length ? podUsage(pods[0]!).get(resource) : undefined;
  return q?.milliValue();
}

function quotaIncidents(own: Owned, opts: DetectOptions): Incident[] {
  const state = own.state;
  if (!opts.quotaThreshold) return [];
  const out: Incident[] = [];
  for (const ns of state.namespaces()) {
    if (!inScope(opts, ns)) continue;
    const threshold = opts.quotaThreshold(ns);
    if (threshold === undefined) continue;
    for (const quota of state.iterate('ResourceQuota', ns))
      out.push(...quotaThresholdIncidents(own, ns, quota, threshold));
  }
  return out;
}

function quotaThresholdIncidents(own: Owned, ns: string, quota: ResourceQuota, threshold: number): Incident[] {
  const state = own.state;
  const hard = resourceList(quota.status?.hard ?? quota.spec?.hard);
  const used = resourceList(quota.status?.used);
  const name = quota.metadata.name ?? '';
  const out: Incident[] = [];
  for (const [resource, h] of [...hard].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const hm = h.milliValue();
    if (hm <= 0n) continue;
    const um = (used.get(resource) ?? Quantity.zero()).milliValue();
    // Full is a refusal (the FailedCreate incident says it); below the threshold is fine.
    if (um >= hm || um * 100n < hm * BigInt(Math.round(threshold))) continue;
    // Workload units: the Deployment/StatefulSet that can add the fewest replicas before it runs out.
    let tightest: { name: string; more: bigint } | undefined;
    for (const kind of ['Deployment', 'StatefulSet'] as const) {
      for (const w of state.iterate(kind, ns)) {
        const wname = w.metadata.name ?? '';
        const pods = podsOfWorkload(own, ns, kind, wname);
        const per = perPodMilli(resource, pods);
        if (!per || per <= 0n) continue;
        const more = (hm - um) / per;
        if (!tightest || more < tightest.more || (more === tightest.more && wname < tightest.name))
          tightest = { name: wname, more };
      }
    }
    const pct = Number((um * 100n) / hm);
    const numbers = `${resource} ${Quantity.fromMilli(um).toString()}/${h.toString()} (${pct}%)`;
    const units = tightest
      ? `: ${tightest.name} can add ${tightest.more} more replica${tightest.more === 1n ? '' : 's'} before ${resource} runs out`
      : '';
    const message = `ResourceQuota ${name}: ${numbers}${units}`;
    out.push({
      key: `${ns}/ResourceQuota/${name}/quota/threshold:${resource}`,
      kind: 'quota',
      namespace: ns,
      object: { kind: 'ResourceQuota', name },
      layer: 'quota',
      title: `${ns}: ${message}`,
      message,
      paste: `/quota ${ns}`,
      fingerprint: message,
      count: 1,
      percent: pct,
    });
  }
  return out;
}

function podsOfWorkload(own: Owned, ns: string, kind: 'Deployment' | 'StatefulSet', name: string): Pod[] {
  const state = own.state;
  if (kind === 'StatefulSet') return own.of(ns, { kind, name });
  const out: Pod[] = [];
  for (const rs of state.iterate('ReplicaSet', ns)) {
    const owner = controllerRef(rs.metadata);
    if (owner?.kind === 'Deployment' && owner.name === name)
      out.push(...own.of(ns, { kind: 'ReplicaSet', name: rs.metadata.name ?? '' }));
  }
  return out;
}

/** Every open incident of the state, sorted by key (deterministic). */
export function detectIncidents(state: Snapshot, opts: DetectOptions): Incident[] {
  const own = new Owned(state);
  const all = [...refusedIncidents(own, opts), ...pendingIncidents(own, opts), ...quotaIncidents(own, opts)];
  // One key, one incident: two ReplicaSets of one Deployment refused by the same quota are one.
  const byKey = new Map<string, Incident>();
  for (const i of all) {
    const prev = byKey.get(i.key);
    if (!prev || (i.since ?? '') > (prev.since ?? '')) byKey.set(i.key, i);
  }
  return [...byKey.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** The line posted in the incident's thread when it clears. */
export function resolutionLine(i: Incident, state: Snapshot): string {
  if (i.kind === 'refused' || i.kind === 'pending') {
    const w = i.object;
    const own = new Owned(state);
    const pods = w.kind === 'Pod' ? [] : podsOfTeamObject(own, i.namespace, w);
    const want = wantedOf(own, i.namespace, w);
    if (want !== undefined) return `✅ ${w.name} is back to ${Math.min(pods.length, want)}/${want}`;
    return `✅ ${w.kind === 'Pod' ? `pod ${w.name}` : w.name}: resolved`;
  }
  return `✅ ${i.object.name}: below the alert threshold again`;
}

function podsOfTeamObject(own: Owned, ns: string, w: OwnerRef): Pod[] {
  if (w.kind === 'Deployment' || w.kind === 'StatefulSet') return podsOfWorkload(own, ns, w.kind, w.name);
  return own.of(ns, w);
}

function wantedOf(own: Owned, ns: string, w: OwnerRef): number | undefined {
  const state = own.state;
  if (w.kind === 'Deployment') {
    const d = state.get('Deployment', ns, w.name);
    return d ? intOr(d.spec?.replicas, 1) : undefined;
  }
  return progressOf(own, ns, w)?.want;
}
