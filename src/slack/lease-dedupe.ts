/**
 * Duplicate-event filtering that holds across replicas, with what the cluster already gives us: a fixed
 * set of Kubernetes Leases (coordination.k8s.io/v1) `quota-doctor-dedupe-0 … -7` in the bot's own
 * namespace, shipped in manifests/base with RBAC `get` + `update` on exactly those names (no create, no
 * list, no other object). An id hashes to one Lease; the Lease's annotation holds the ids claimed in the
 * last 10 minutes with their times (Slack retries within ~5 minutes: after 1 min, 5 min).
 *
 * claim(id): read the Lease; the id is in it → a duplicate; else write it back with the resourceVersion
 * read (optimistic concurrency: the API server answers 409 Conflict when another replica wrote first →
 * read again and retry, bounded). Claims of one bucket are serialised inside a process, so only the two
 * replicas race. Any other failure (API down, 403, 404, timeout) is `unknown`: the caller answers rather
 * than lose the message (fail open to its in-process LRU) and it is logged once until the Leases work again.
 */
import { createHash } from 'node:crypto';

/** How many Leases (buckets) manifests/base ships: `${prefix}0` … `${prefix}${LEASE_BUCKETS - 1}`. */
export const LEASE_BUCKETS = 8;
export const LEASE_PREFIX = 'quota-doctor-dedupe-';
/** The annotation holding `{ id: claimedAtMs }`. */
export const IDS_ANNOTATION = 'quota-doctor.dev/recent-ids';
/** Slack redelivers within minutes (retries after ~1 and ~5 min): ids older than this are pruned. */
export const WINDOW_MS = 10 * 60_000;
/** At most this many ids per Lease (oldest dropped first): ~40 KB of annotation, far under the 256 KB cap. */
export const MAX_IDS_PER_LEASE = 1000;
const MAX_ATTEMPTS = 8;
const CALL_TIMEOUT_MS = 1000;
/** A claim decides within this (a /quota ack waits for it; Slack wants the ack within 3 s), else 'unknown'. */
export const CLAIM_BUDGET_MS = 1500;
/** Events are acked before the claim: they may wait longer for a busy Lease. */
export const EVENT_CLAIM_BUDGET_MS = 5000;

export type Claim = 'first' | 'duplicate' | 'unknown';

/** The parts of a coordination.k8s.io/v1 Lease read and written here (client-node's LeaseObject fits). */
export interface LeaseObject {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; resourceVersion?: string; annotations?: { [key: string]: string } };
  spec?: object;
}

/** What is asked of client-node's CoordinationV1Api (src/cluster/lease-api.ts builds one). */
export interface LeaseApi {
  readNamespacedLease(param: { name: string; namespace: string }): Promise<LeaseObject>;
  replaceNamespacedLease(param: { name: string; namespace: string; body: LeaseObject }): Promise<LeaseObject>;
}

export interface LeaseDedupeOptions {
  api: LeaseApi;
  namespace: string;
  prefix?: string;
  buckets?: number;
  now?: () => number;
  /** Called when the Leases stop working (once) and when they work again. */
  onState?: (state: 'failing' | 'recovered', detail: string) => void;
}

function statusOf(e: unknown): number | undefined {
  if (typeof e === 'object' && e !== null && 'code' in e && typeof e.code === 'number') return e.code;
  return undefined;
}

function describe(e: unknown): string {
  const code = statusOf(e);
  const msg = e instanceof Error ? e.message.split('\n')[0]!.slice(0, 200) : String(e).slice(0, 200);
  return code !== undefined ? `HTTP ${code}` : msg;
}

/** `{ id: ms }` from the annotation, without entries that are malformed or older than the window. */
export function parseIds(text: string | undefined, now: number): Map<string, number> {
  const out = new Map<string, number>();
  if (!text) return out;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return out;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return out;
  for (const [id, t] of Object.entries(v)) {
    if (typeof t === 'number' && Number.isFinite(t) && now - t <= WINDOW_MS && t - now <= WINDOW_MS) out.set(id, t);
  }
  return out;
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from the API server within ${ms} ms`)), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

interface Waiting {
  id: string;
  resolve: (c: Claim) => void;
}

export class LeaseDedupe {
  private readonly api: LeaseApi;
  private readonly namespace: string;
  private readonly prefix: string;
  private readonly buckets: number;
  private readonly now: () => number;
  private readonly onState: LeaseDedupeOptions['onState'];
  /** Ids waiting for their Lease, per Lease; one read-modify-write per Lease at a time claims them all. */
  private readonly waiting = new Map<string, Waiting[]>();
  private readonly busy = new Set<string>();
  private failing = false;
  /** A failure was reported and no recovery yet. */
  private reported = false;
  private lastFailureReport = -Infinity;
  /** Counters (tests, metrics). */
  readonly stats = { first: 0, duplicate: 0, unknown: 0, conflicts: 0, writes: 0 };

  constructor(opts: LeaseDedupeOptions) {
    this.api = opts.api;
    this.namespace = opts.namespace;
    this.prefix = opts.prefix ?? LEASE_PREFIX;
    this.buckets = Math.max(1, opts.buckets ?? LEASE_BUCKETS);
    this.now = opts.now ?? Date.now;
    this.onState = opts.onState;
  }

  /** The Lease an id lives in. */
  leaseFor(id: string): string {
    return `${this.prefix}${createHash('sha256').update(id).digest().readUInt32BE(0) % this.buckets}`;
  }

  /**
   * 'first' when this replica claimed `id`, 'duplicate' when a replica already had, 'unknown' when the
   * Leases failed or did not decide within `budgetMs`.
   */
  async claim(id: string, budgetMs = CLAIM_BUDGET_MS): Promise<Claim> {
    const name = this.leaseFor(id);
    const decided = new Promise<Claim>((resolve) => {
      const q = this.waiting.get(name) ?? [];
      q.push({ id, resolve });
      this.waiting.set(name, q);
    });
    if (!this.busy.has(name)) void this.drain(name);
    let c: Claim;
    try {
      c = await withTimeout(decided, budgetMs);
    } catch (e) {
      c = this.failed(name, e);
    }
    if (c !== 'unknown') this.done(c);
    else this.stats.unknown++;
    return c;
  }

  private async drain(name: string): Promise<void> {
    this.busy.add(name);
    try {
      for (;;) {
        const batch = this.waiting.get(name) ?? [];
        if (batch.length === 0) break;
        this.waiting.set(name, []);
        let result: Map<string, Claim>;
        try {
          result = await this.claimAll(
            name,
            batch.map((w) => w.id),
          );
        } catch (e) {
          this.failed(name, e);
          result = new Map();
        }
        for (const w of batch) w.resolve(result.get(w.id) ?? 'unknown');
      }
    } finally {
      this.busy.delete(name);
      this.waiting.delete(name);
    }
  }

  /** One read-modify-write of Lease `name` for every id of the batch (retried on 409, bounded). */
  private async claimAll(name: string, ids: string[]): Promise<Map<string, Claim>> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const lease: LeaseObject = await withTimeout(
        this.api.readNamespacedLease({ name, namespace: this.namespace }),
        CALL_TIMEOUT_MS,
      );
      const now = this.now();
      const annotations = lease.metadata?.annotations ?? {};
      const known = parseIds(annotations[IDS_ANNOTATION], now);
      const result = new Map<string, Claim>();
      let claimed = 0;
      for (const id of ids) {
        if (result.has(id) || known.has(id)) {
          // The same id twice in one batch: the second delivery is the duplicate.
          if (!result.has(id)) result.set(id, 'duplicate');
          continue;
        }
        known.set(id, now);
        result.set(id, 'first');
        claimed++;
      }
      if (claimed === 0) return result;
      const kept = [...known].sort((a, b) => a[1] - b[1]).slice(-MAX_IDS_PER_LEASE);
      const body: LeaseObject = {
        ...lease,
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: {
          ...lease.metadata,
          annotations: { ...annotations, [IDS_ANNOTATION]: JSON.stringify(Object.fromEntries(kept)) },
        },
      };
      try {
        await withTimeout(this.api.replaceNamespacedLease({ name, namespace: this.namespace, body }), CALL_TIMEOUT_MS);
        this.stats.writes++;
        return result;
      } catch (e) {
        if (statusOf(e) !== 409) throw e;
        this.stats.conflicts++;
        // The other replica wrote this Lease between our read and write: read again (it may now hold the ids).
        await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 5 * (attempt + 1))));
      }
    }
    throw new Error(`${MAX_ATTEMPTS} conflicts in a row on Lease ${name}`);
  }

  /** Reported when the Leases start failing, at most once per window. */
  private failed(name: string, e: unknown): Claim {
    const now = Date.now();
    if (!this.failing && !this.reported && now - this.lastFailureReport >= WINDOW_MS) {
      this.lastFailureReport = now;
      this.reported = true;
      this.onState?.('failing', `Lease ${this.namespace}/${name}: ${describe(e)}`);
    }
    this.failing = true;
    return 'unknown';
  }

  private done(c: 'first' | 'duplicate'): void {
    this.stats[c]++;
    this.failing = false;
    if (this.reported) {
      this.reported = false;
      this.onState?.('recovered', 'the dedupe Leases answer again');
    }
  }
}
