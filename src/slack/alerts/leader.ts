/**
 * Leader election on a coordination.k8s.io/v1 Lease, the way client-go's leaderelection does it: the holder
 * renews `renewTime` every retry period; another replica takes the Lease only once
 * `renewTime + leaseDurationSeconds` has passed; every write carries the resourceVersion it read, so two
 * replicas racing for an expired Lease cannot both win (the loser gets 409 Conflict).
 *
 * The Lease is shipped with the manifests (RBAC: get/update on that one name; `create` cannot be limited
 * to a name, so the bot never creates it). Missing, forbidden or unreachable: nobody here leads, and the
 * notifier posts nothing — a second replica must never post twice because the first cannot tell.
 */

/** The parts of a Lease read and written here (client-node's V1Lease fits). */
export interface LeaderLease {
  metadata?: { name?: string; namespace?: string; resourceVersion?: string };
  spec?: {
    holderIdentity?: string | null;
    leaseDurationSeconds?: number | null;
    acquireTime?: string | Date | null;
    renewTime?: string | Date | null;
    leaseTransitions?: number | null;
  };
}

export interface LeaderLeaseApi {
  readNamespacedLease(param: { name: string; namespace: string }): Promise<LeaderLease>;
  replaceNamespacedLease(param: { name: string; namespace: string; body: LeaderLease }): Promise<LeaderLease>;
}

export interface LeaderOptions {
  api: LeaderLeaseApi;
  namespace: string;
  name: string;
  /** This replica (the pod name: HOSTNAME). */
  identity: string;
  /** client-go's default is 15 s. */
  leaseDurationMs?: number;
  now?: () => number;
  onChange?: (leading: boolean, detail: string) => void;
}

export const DEFAULT_LEASE_DURATION_MS = 15_000;

/** RFC 3339 with microseconds, as the API server wants a MicroTime. */
export function microTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, -1)}000Z`;
}

function timeOf(v: string | Date | null | undefined): number | undefined {
  if (v === null || v === undefined) return undefined;
  const t = v instanceof Date ? v.getTime() : Date.parse(v);
  return Number.isFinite(t) ? t : undefined;
}

function codeOf(e: unknown): number | undefined {
  if (typeof e === 'object' && e !== null && 'code' in e && typeof e.code === 'number') return e.code;
  return undefined;
}

export class LeaseLeader {
  private leading = false;
  private readonly durationMs: number;
  private readonly now: () => number;
  /** When our last successful renewal was (we stop leading once a whole duration passes without one). */
  private renewedAt = 0;

  constructor(private readonly opts: LeaderOptions) {
    this.durationMs = opts.leaseDurationMs ?? DEFAULT_LEASE_DURATION_MS;
    this.now = opts.now ?? Date.now;
  }

  get isLeader(): boolean {
    // A leader that could not renew for a whole lease duration must assume another replica took over.
    return this.leading && this.now() - this.renewedAt < this.durationMs;
  }

  private set(leading: boolean, detail: string): void {
    if (leading !== this.leading) {
      this.leading = leading;
      this.opts.onChange?.(leading, detail);
    }
  }

  /** One try to acquire or renew (client-go's tryAcquireOrRenew). Resolves to whether we lead now. */
  async tick(): Promise<boolean> {
    const { api, namespace, name, identity } = this.opts;
    let lease: LeaderLease;
    try {
      lease = await api.readNamespacedLease({ name, namespace });
    } catch (e) {
      const code = codeOf(e);
      this.set(false, `could not read Lease ${namespace}/${name}: ${code !== undefined ? `HTTP ${code}` : String(e)}`);
      return false;
    }
    const now = this.now();
    const spec = lease.spec ?? {};
    const holder = spec.holderIdentity ?? '';
    const renewed = timeOf(spec.renewTime) ?? 0;
    const duration = (spec.leaseDurationSeconds ?? this.durationMs / 1000) * 1000;
    const ours = holder === identity;
    if (holder !== '' && !ours && renewed + duration > now) {
      this.set(false, `Lease held by ${holder}`);
      return false;
    }
    const body: LeaderLease = {
      metadata: {
        name,
        namespace,
        ...(lease.metadata?.resourceVersion ? { resourceVersion: lease.metadata.resourceVersion } : {}),
      },
      spec: {
        holderIdentity: identity,
        leaseDurationSeconds: Math.ceil(this.durationMs / 1000),
        acquireTime: ours && spec.acquireTime ? spec.acquireTime : microTime(now),
        renewTime: microTime(now),
        leaseTransitions: (spec.leaseTransitions ?? 0) + (ours ? 0 : 1),
      },
    };
    try {
      await api.replaceNamespacedLease({ name, namespace, body });
    } catch (e) {
      const code = codeOf(e);
      this.set(
        false,
        code === 409 ? 'another replica took the Lease first' : `could not write the Lease: HTTP ${code ?? '?'}`,
      );
      return false;
    }
    this.renewedAt = now;
    this.set(true, ours ? 'renewed' : `acquired (was ${holder || 'free'})`);
    return true;
  }

  /** Gives the Lease up on shutdown so another replica takes over at once (client-go ReleaseOnCancel). */
  async release(): Promise<void> {
    if (!this.leading) return;
    const { api, namespace, name } = this.opts;
    try {
      const lease = await api.readNamespacedLease({ name, namespace });
      if ((lease.spec?.holderIdentity ?? '') !== this.opts.identity) return;
      await api.replaceNamespacedLease({
        name,
        namespace,
        body: {
          metadata: {
            name,
            namespace,
            ...(lease.metadata?.resourceVersion ? { resourceVersion: lease.metadata.resourceVersion } : {}),
          },
          spec: { ...lease.spec, holderIdentity: '', leaseDurationSeconds: 1, renewTime: microTime(this.now()) },
        },
      });
    } catch {
      // Best effort: the Lease expires by itself.
    } finally {
      this.set(false, 'released');
    }
  }
}
