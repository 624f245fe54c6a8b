/**
 * Token buckets per user and per channel: `capacity` requests at once, refilled evenly over
 * `perSeconds`. A request passes only when both buckets have a token, and then takes one from each.
 */
import type { RateSpec } from '../config.ts';

interface Bucket {
  tokens: number;
  at: number;
}

export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  private readonly ratePerMs: number;

  constructor(
    private readonly spec: RateSpec,
    private readonly now: () => number = Date.now,
    private readonly maxKeys = 10_000,
  ) {
    this.ratePerMs = spec.capacity / (spec.perSeconds * 1000);
  }

  private refill(key: string): Bucket {
    const t = this.now();
    const b = this.buckets.get(key);
    if (!b) {
      const fresh = { tokens: this.spec.capacity, at: t };
      this.buckets.set(key, fresh);
      this.evict();
      return fresh;
    }
    b.tokens = Math.min(this.spec.capacity, b.tokens + (t - b.at) * this.ratePerMs);
    b.at = t;
    return b;
  }

  /** Drops the oldest buckets past `maxKeys` (a dropped bucket comes back full: the lenient side). */
  private evict(): void {
    while (this.buckets.size > this.maxKeys) {
      const oldest = this.buckets.keys().next();
      if (oldest.done) return;
      this.buckets.delete(oldest.value);
    }
  }

  /** Milliseconds until `key` has a token (0 = now). */
  waitMs(key: string): number {
    const b = this.refill(key);
    return b.tokens >= 1 ? 0 : Math.ceil((1 - b.tokens) / this.ratePerMs);
  }

  take(key: string): void {
    const b = this.refill(key);
    b.tokens = Math.max(0, b.tokens - 1);
  }
}

export type RateDecision = { ok: true } | { ok: false; scope: 'user' | 'channel'; retryAfterMs: number };

export class RateLimiter {
  private readonly users: TokenBuckets;
  private readonly channels: TokenBuckets;

  constructor(limits: { user: RateSpec; channel: RateSpec }, now: () => number = Date.now) {
    this.users = new TokenBuckets(limits.user, now);
    this.channels = new TokenBuckets(limits.channel, now);
  }

  take(userId: string, channelId: string): RateDecision {
    const u = this.users.waitMs(userId);
    if (u > 0) return { ok: false, scope: 'user', retryAfterMs: u };
    const c = this.channels.waitMs(channelId);
    if (c > 0) return { ok: false, scope: 'channel', retryAfterMs: c };
    this.users.take(userId);
    this.channels.take(channelId);
    return { ok: true };
  }
}
