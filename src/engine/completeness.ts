/**
 * Which parts of an answer were decided from data that was read (issue #16, docs/contract.md exit 3).
 *
 * The engine answers from a Snapshot; a resource that could not be read is simply absent from it, and
 * absence reads as "none": no nodes ("0/0 nodes are available"), no quota, no workload. This module is
 * the one place that says, per part of an answer, whether it stands on what was read: given the resources
 * that were NOT read (per namespace, with why) and an engine result, it says `passes`, `fails` or
 * `unknown` per layer — LimitRange (needs the namespace's limitranges), ResourceQuota (its resourcequotas),
 * scheduler (nodes and every namespace's pods, plus PVCs, StorageClasses and PriorityClasses when the pod
 * uses them). A verdict that needs nothing unread stands: a pod refused by a full `pods` quota is refused
 * whatever the nodes hold. Pure: no I/O, no clock.
 */
import type { KObject } from '../k8s/snapshot.ts';
import type { SimResult } from './simulate.ts';

/** Why a resource was not read, as a closed set (the source's `cause`; see causeOf). */
export type Cause =
  | 'Forbidden'
  | 'Unauthorized'
  | 'TLS'
  | 'Unreachable'
  | 'TooManyRequests'
  | 'ServerError'
  | 'Timeout'
  | 'Credentials'
  /** Not asked for: the load was told the answer needs no placement (`placement: false`). */
  | 'NotRead';

export const CAUSES: readonly Cause[] = [
  'Forbidden',
  'Unauthorized',
  'TLS',
  'Unreachable',
  'TooManyRequests',
  'ServerError',
  'Timeout',
  'Credentials',
  'NotRead',
];

export type Verdict = 'passes' | 'fails' | 'unknown';

/** One resource that was not read: the source's error with its cause. */
export interface Unread {
  resource: string;
  /** Undefined: the cluster-wide read (or a cluster-scoped resource). */
  namespace?: string;
  /** The source's reason text (`Forbidden`, `HTTP 502`, …). */
  reason: string;
  cause: Cause;
  /** The API server's (or the client's) words. */
  message: string;
}

/** What a load read and did not: the unread resources, the namespaces asked for, whether placement was read. */
export interface Reads {
  unread: readonly Unread[];
  /** Namespaces the load was asked to read (a namespaced resource forbidden cluster-wide is read in each). */
  namespaces: readonly string[];
  /** False when the load skipped nodes and other namespaces' pods (`placement: false`). */
  placement: boolean;
}

/** A source error as the sources give it (src/cluster/source.ts SourceError, with or without `cause`). */
export interface ErrorLike {
  resource: string;
  namespace?: string;
  reason?: string;
  message: string;
  cause?: string;
}

const TLS_WORDS = /certificate|self[- ]signed|\bssl\b|\btls\b|unable to verify|UNABLE_TO_GET_ISSUER|ERR_TLS|CERT_/i;
const REFUSED_WORDS = /ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ECONNRESET|EAI_AGAIN|socket hang up|refused/i;
const CREDENTIAL_WORDS = /exec plugin|credential|token file|tokenFile|getaddrinfo.*oidc/i;

/**
 * The cause of a source error: the source's own `cause` when it gives one, else derived from its reason
 * and message (the client gives `cause` from the next release on; this function is then one line).
 */
export function causeOf(e: ErrorLike): Cause {
  if (e.cause !== undefined && (CAUSES as readonly string[]).includes(e.cause)) return e.cause as Cause;
  const reason = e.reason ?? '';
  switch (reason) {
    case 'Forbidden':
      return 'Forbidden';
    case 'Unauthorized':
      return 'Unauthorized';
    case 'TooManyRequests':
      return 'TooManyRequests';
    case 'Timeout':
    case 'GatewayTimeout':
      return 'Timeout';
    case 'InternalError':
    case 'ServiceUnavailable':
    case 'ServerError':
      return 'ServerError';
  }
  if (/^HTTP 5\d\d$/.test(reason)) return 'ServerError';
  if (reason === 'HTTP 401') return 'Unauthorized';
  if (reason === 'HTTP 403') return 'Forbidden';
  if (reason === 'HTTP 429') return 'TooManyRequests';
  if (TLS_WORDS.test(e.message)) return 'TLS';
  if (CREDENTIAL_WORDS.test(e.message)) return 'Credentials';
  if (reason === 'Unreachable' || REFUSED_WORDS.test(e.message)) return 'Unreachable';
  return 'ServerError';
}

/**
 * The reads of one load: its errors (a `state` error — an unreadable --state — is the caller's usage
 * error, not a gap), the namespaces it was asked for, and whether placement was read.
 */
export function readsOf(errors: readonly ErrorLike[], namespaces: readonly string[] = [], placement = true): Reads {
  const unread: Unread[] = [];
  for (const e of errors) {
    if (e.resource === 'state') continue;
    unread.push({
      resource: e.resource,
      ...(e.namespace ? { namespace: e.namespace } : {}),
      reason: e.reason ?? causeOf(e),
      cause: causeOf(e),
      message: e.message,
    });
  }
  return { unread, namespaces: [...namespaces], placement };
}

/** Resources placement reads cluster-wide (not read at all with `placement: false`). */
const PLACEMENT_RESOURCES: readonly string[] = [
  'nodes',
  'pods',
  'persistentvolumeclaims',
  'storageclasses',
  'priorityclasses',
];

const NOT_READ = (resource: string): Unread => ({
  resource,
  reason: 'NotRead',
  cause: 'NotRead',
  message: `${resource}: not read (the question needs no placement)`,
});

/**
 * Why `resource` in namespace `ns` was not read, or undefined when it was. A cluster-wide list that was
 * forbidden is read namespace by namespace for the namespaces asked (LiveSource, RBAC per namespace), so
 * a cluster-wide Forbidden leaves an asked namespace read unless that namespace's own read failed too.
 */
export function unreadIn(reads: Reads, resource: string, ns: string): Unread | undefined {
  const own = reads.unread.find((u) => u.resource === resource && u.namespace === ns);
  if (own) return own;
  const cluster = reads.unread.find((u) => u.resource === resource && u.namespace === undefined);
  if (!cluster) return undefined;
  if (cluster.cause === 'Forbidden' && reads.namespaces.includes(ns)) return undefined;
  return cluster;
}

/** Why `resource` was not read cluster-wide (every namespace, or a cluster-scoped resource), or undefined. */
export function unreadCluster(reads: Reads, resource: string): Unread | undefined {
  const cluster = reads.unread.find((u) => u.resource === resource && u.namespace === undefined);
  if (cluster) return cluster;
  const anyNs = reads.unread.find((u) => u.resource === resource);
  if (anyNs) return anyNs;
  if (!reads.placement && PLACEMENT_RESOURCES.includes(resource)) return NOT_READ(resource);
  return undefined;
}

/** What a namespace's admission reads: LimitRanger its limitranges, the quota plugin its resourcequotas. */
export function admissionNeeds(reads: Reads, ns: string): { limitrange: Unread[]; quota: Unread[] } {
  const one = (r: string): Unread[] => {
    const u = unreadIn(reads, r, ns);
    return u ? [u] : [];
  };
  return { limitrange: one('limitranges'), quota: one('resourcequotas') };
}

/** What scheduling `pod` reads: nodes and every pod, and the volumes and PriorityClass it names. */
export function schedulerNeeds(reads: Reads, pod: KObject | undefined): Unread[] {
  const out: Unread[] = [];
  const add = (u: Unread | undefined) => {
    if (u && !out.includes(u)) out.push(u);
  };
  add(unreadCluster(reads, 'nodes'));
  add(unreadCluster(reads, 'pods'));
  const spec = pod?.spec as { priorityClassName?: unknown; volumes?: unknown } | undefined;
  if (typeof spec?.priorityClassName === 'string' && spec.priorityClassName !== '')
    add(unreadCluster(reads, 'priorityclasses'));
  const volumes = Array.isArray(spec?.volumes) ? (spec.volumes as unknown[]) : [];
  const claims = volumes.some((v) => typeof v === 'object' && v !== null && 'persistentVolumeClaim' in v);
  if (claims) {
    const ns = pod?.metadata.namespace ?? 'default';
    add(unreadIn(reads, 'persistentvolumeclaims', ns));
    add(unreadCluster(reads, 'storageclasses'));
  }
  return out;
}

/**
 * What a drain's evictions read: the PodDisruptionBudgets of each namespace whose pods it evicts (the
 * eviction API checks every one, pkg/registry/core/pod/storage/eviction.go). Unread, an eviction looks
 * allowed — absence reads as "no budget" — so the drain's finishing is not decided.
 */
export function drainNeeds(reads: Reads, namespaces: readonly string[]): Unread[] {
  const out: Unread[] = [];
  for (const ns of namespaces) {
    const u = unreadIn(reads, 'poddisruptionbudgets', ns);
    if (u && !out.includes(u)) out.push(u);
  }
  return out;
}

/** One result's parts: each layer's verdict, the whole, and the unread resources it depended on. */
export interface ResultVerdict {
  limitrange: Verdict;
  quota: Verdict;
  /** null: the object is not scheduled (not a pod, or refused before the scheduler). */
  scheduler: Verdict | null;
  verdict: Verdict;
  /** The unread resources that made a part unknown (empty when the verdict is decided). */
  missing: Unread[];
}

const byKey = (u: Unread) => `${u.resource}\u0000${u.namespace ?? ''}`;

function uniq(list: Unread[]): Unread[] {
  const seen = new Set<string>();
  return list.filter((u) => {
    const k = byKey(u);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * The verdicts of a simulation run, object by object, in order. Rules:
 * - A refusal stands when it stands on what was read: API validation and a LimitRange refusal need only
 *   what refused (it was read, or it could not have refused); a quota's "exceeded" stands too (LimitRange
 *   defaults only add requests, so an unread LimitRange could only add refusals) — unless an earlier object
 *   of the run in the same namespace had an unknown admission (its charge may not have happened).
 *   A quota's "must specify" needs the LimitRanges (a default would specify it).
 * - An admission that passed is unknown when the namespace's limitranges or resourcequotas were not read.
 * - A scheduling outcome is unknown when nodes, pods (every namespace) or what the pod names were not read;
 *   "unschedulable" decided on read data fails whatever admission says (refused or Pending: it fails).
 */
export function simVerdicts(results: readonly SimResult[], reads: Reads): ResultVerdict[] {
  const uncertainNs = new Set<string>();
  let uncertainPlacement = false;
  const out: ResultVerdict[] = [];
  for (const r of results) {
    const ns = r.namespace;
    const needs = admissionNeeds(reads, ns);
    const missing: Unread[] = [];
    let limitrange: Verdict;
    let quota: Verdict;
    let scheduler: Verdict | null = null;
    if (!r.admission.allowed) {
      const layer = r.admission.layer;
      if (layer === 'limitrange') {
        limitrange = 'fails';
        quota = 'unknown';
      } else if (layer === 'quota') {
        limitrange = needs.limitrange.length ? 'unknown' : 'passes';
        const failure = r.detail.admission.quota?.failure;
        const exceeded = failure?.type === 'exceeded';
        if (!exceeded && needs.limitrange.length) {
          quota = 'unknown';
          missing.push(...needs.limitrange);
        } else if (uncertainNs.has(ns)) {
          quota = 'unknown';
          missing.push(...needs.limitrange, ...needs.quota);
        } else quota = 'fails';
      } else {
        // API validation (or another plugin): decided by the object itself.
        limitrange = 'unknown';
        quota = 'unknown';
      }
      const verdict: Verdict = limitrange === 'fails' || quota === 'fails' || layer !== 'quota' ? 'fails' : 'unknown';
      if (verdict === 'fails') missing.length = 0;
      out.push({ limitrange, quota, scheduler, verdict, missing: uniq(missing) });
      if (verdict === 'unknown') uncertainNs.add(ns);
      continue;
    }
    limitrange = needs.limitrange.length ? 'unknown' : 'passes';
    quota = needs.quota.length ? 'unknown' : 'passes';
    missing.push(...needs.limitrange, ...needs.quota);
    const admissionKnown = limitrange === 'passes' && quota === 'passes';
    if (r.scheduling) {
      if (r.scheduling.gated) scheduler = 'fails';
      else {
        const sched = schedulerNeeds(reads, r.object);
        if (sched.length) {
          scheduler = 'unknown';
          missing.push(...sched);
        } else if (r.scheduling.scheduled) scheduler = 'passes';
        else scheduler = uncertainPlacement ? 'unknown' : 'fails';
      }
    }
    let verdict: Verdict;
    if (scheduler === 'fails') verdict = 'fails';
    else if (!admissionKnown || scheduler === 'unknown') verdict = 'unknown';
    else verdict = 'passes';
    if (verdict === 'fails') missing.length = 0;
    if (!admissionKnown) {
      uncertainNs.add(ns);
      // A pod that may not have been admitted may not hold the node the engine placed it on.
      if (r.scheduling?.scheduled) uncertainPlacement = true;
    }
    out.push({ limitrange, quota, scheduler, verdict, missing: uniq(missing) });
  }
  return out;
}

/** The run's verdict: fails when any object fails on read data, else unknown when any is undecided. */
export function runVerdict(verdicts: readonly ResultVerdict[]): Verdict {
  if (verdicts.some((v) => v.verdict === 'fails')) return 'fails';
  if (verdicts.some((v) => v.verdict === 'unknown')) return 'unknown';
  return 'passes';
}

/** The unread resources a set of verdicts depended on, each once, in first-seen order. */
export function missingOf(verdicts: readonly ResultVerdict[]): Unread[] {
  return uniq(verdicts.flatMap((v) => v.missing));
}

/** The contract's `incomplete` entry (docs/contract.md): resource, namespace (null: cluster-wide), cause. */
export interface Incomplete {
  resource: string;
  namespace: string | null;
  reason: Cause;
}

export function incompleteOf(list: readonly Unread[]): Incomplete[] {
  return uniq([...list]).map((u) => ({ resource: u.resource, namespace: u.namespace ?? null, reason: u.cause }));
}

/**
 * What a namespace's headroom stands on: its quotas and LimitRanges (namespaced reads), and for the
 * placement numbers (how many more pods fit, the largest pod that schedules) nodes and every pod.
 */
export function headroomNeeds(
  reads: Reads,
  ns: string,
): { admission: Unread[]; placement: Unread[]; workloads: Unread[]; pods: Unread[] } {
  const a = admissionNeeds(reads, ns);
  const placement = schedulerNeeds(reads, undefined);
  const workloads = ['deployments', 'replicasets', 'statefulsets', 'daemonsets', 'jobs', 'cronjobs']
    .map((r) => unreadIn(reads, r, ns))
    .filter((u): u is Unread => u !== undefined);
  const pods = [unreadIn(reads, 'pods', ns)].filter((u): u is Unread => u !== undefined);
  return { admission: uniq([...a.limitrange, ...a.quota]), placement, workloads: uniq(workloads), pods };
}

/**
 * Whether "namespace X not found" may be said: only when the namespaces were read, and none of what was
 * read in X shows it exists (an object there). An unread namespace list never makes a namespace absent.
 */
export function namespaceAbsenceKnown(reads: Reads): boolean {
  return unreadCluster(reads, 'namespaces') === undefined;
}
