/**
 * Rate limits per user and per channel on `rate-limiter-flexible`'s in-memory limiters. A spec of
 * `capacity` requests per `perSeconds` is kept as a token bucket is: one steady token every
 * perSeconds / capacity seconds, plus capacity − 1 burst tokens per perSeconds window (the library's
 * bursty pattern: a steady limiter first, the burst limiter when the steady one is spent). So
 * `capacity` requests pass at once, and after that one more every perSeconds / capacity.
 * A request passes only when both the user and the channel have a token, and then takes one from each.
 * The library drops a key's record when its window ends, so memory is bounded by the traffic of one
 * window (no key cap needed).
 */
import { RateLimiterMemory, type RateLimiterRes } from 'rate-limiter-flexible';
import type { RateSpec } from '../config.ts';

/** What a key has left in one limiter: free now, or the milliseconds until it is. */
function waitOf(res: RateLimiterRes | null, points: number): number {
  if (!res || res.consumedPoints < points || res.msBeforeNext <= 0) return 0;
  return res.msBeforeNext;
}

export class ScopeLimit {
  private readonly steady: RateLimiterMemory;
  /** Absent when capacity is 1 (no burst beyond the steady token). */
  private readonly burst?: RateLimiterMemory;

  constructor(spec: RateSpec) {
    const capacity = Math.max(1, Math.floor(spec.capacity));
    this.steady = new RateLimiterMemory({ points: 1, duration: spec.perSeconds / capacity });
    if (capacity > 1) this.burst = new RateLimiterMemory({ points: capacity - 1, duration: spec.perSeconds });
  }

  /** Milliseconds until `key` has a token (0 = now). */
  async waitMs(key: string): Promise<number> {
    const s = waitOf(await this.steady.get(key), 1);
    if (s === 0 || !this.burst) return Math.ceil(s);
    const b = waitOf(await this.burst.get(key), this.burst.points);
    return b === 0 ? 0 : Math.ceil(Math.min(s, b));
  }

  /** Takes a token: the steady one when it is there, else a burst one (`penalty` adds a point without refusing). */
  async take(key: string): Promise<void> {
    if (waitOf(await this.steady.get(key), 1) === 0 || !this.burst) {
      await this.steady.penalty(key, 1);
      return;
    }
    await this.burst.penalty(key, 1);
  }
}

export type RateDecision = { ok: true } | { ok: false; scope: 'user' | 'channel'; retryAfterMs: number };

export class RateLimiter {
  private readonly users: ScopeLimit;
  private readonly channels: ScopeLimit;
  /** Decisions one at a time: a check and its take never interleave with another request's. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(limits: { user: RateSpec; channel: RateSpec }) {
    this.users = new ScopeLimit(limits.user);
    this.channels = new ScopeLimit(limits.channel);
  }

  take(userId: string, channelId: string): Promise<RateDecision> {
    const next = this.queue.then(() => this.decide(userId, channelId));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async decide(userId: string, channelId: string): Promise<RateDecision> {
    const u = await this.users.waitMs(userId);
    if (u > 0) return { ok: false, scope: 'user', retryAfterMs: u };
    const c = await this.channels.waitMs(channelId);
    if (c > 0) return { ok: false, scope: 'channel', retryAfterMs: c };
    await this.users.take(userId);
    await this.channels.take(channelId);
    return { ok: true };
  }
}
