/**
 * A bounded set of recently seen ids (an `lru-cache` LRU). Slack redelivers an event with
 * the same `event_id` when our ack is late (`x-slack-retry-num`), so an id is recorded the moment it
 * arrives — before any answering — and a redelivery while the first is still being answered is dropped.
 * It holds for one process; `SharedDedupe` (Leases) is asked next, for a redelivery that lands on the
 * other replica.
 */
import { LRUCache } from 'lru-cache';
import { LEASE_BUCKETS, LeaseDedupe, type LeaseApi } from './lease-dedupe.ts';
import type { Logger } from './logger.ts';

export class RecentIds {
  private readonly ids: LRUCache<string, true>;

  constructor(max = 10_000) {
    this.ids = new LRUCache<string, true>({ max: Math.max(1, max) });
  }

  /** Records `id`; true when it had been seen already (a sighting refreshes it, as a use does in an LRU). */
  seen(id: string): boolean {
    if (this.ids.get(id)) return true;
    this.ids.set(id, true);
    return false;
  }

  get size(): number {
    return this.ids.size;
  }
}

/** A duplicate filter shared by the replicas (./lease-dedupe.ts); 'unknown' = could not tell (answer). */
export interface SharedDedupe {
  claim(id: string, budgetMs?: number): Promise<'first' | 'duplicate' | 'unknown'>;
}

/**
 * The Lease dedupe of `config.dedupe` (QUOTA_DOCTOR_DEDUPE_NAMESPACE: the Deployment sets it to its own
 * namespace), through `makeApi` (the composition root hands in src/cluster/lease-api.ts); undefined when
 * not configured or when no cluster is reachable from this process (logged once: the LRU alone then filters).
 */
export function sharedDedupeFor(
  d: { namespace: string; leasePrefix: string } | undefined,
  makeApi: (() => LeaseApi) | undefined,
  logger: Logger,
): SharedDedupe | undefined {
  if (!d) return undefined;
  try {
    if (!makeApi) throw new Error('no Lease client was configured');
    const leases = new LeaseDedupe({
      api: makeApi(),
      namespace: d.namespace,
      prefix: d.leasePrefix,
      onState: (state, detail) =>
        state === 'failing'
          ? logger.warn(
              { detail },
              'cross-replica dedupe: the Leases failed; answering on this replica’s own memory until they work again',
            )
          : logger.info({ detail }, 'cross-replica dedupe: the Leases work again'),
    });
    logger.info(
      { namespace: d.namespace, leases: `${d.leasePrefix}0…${LEASE_BUCKETS - 1}` },
      'cross-replica dedupe on Leases',
    );
    return leases;
  } catch (e) {
    logger.warn(
      { detail: e instanceof Error ? e.message : String(e) },
      'cross-replica dedupe is off: no cluster configuration for the Leases',
    );
    return undefined;
  }
}
