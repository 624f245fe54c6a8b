import { describe, expect, it } from 'vitest';
import { RecentIds } from '../../src/slack/dedupe.ts';
import { RateLimiter, TokenBuckets } from '../../src/slack/rate-limit.ts';

describe('TokenBuckets', () => {
  it('allows `capacity` at once, then refills evenly', () => {
    let t = 0;
    const b = new TokenBuckets({ capacity: 3, perSeconds: 30 }, () => t);
    for (let i = 0; i < 3; i++) {
      expect(b.waitMs('u')).toBe(0);
      b.take('u');
    }
    expect(b.waitMs('u')).toBe(10_000);
    t = 9_999;
    expect(b.waitMs('u')).toBe(1);
    t = 10_000;
    expect(b.waitMs('u')).toBe(0);
    t = 1_000_000;
    b.take('u');
    b.take('u');
    b.take('u');
    expect(b.waitMs('u')).toBe(10_000); // refill never exceeds capacity
  });

  it('keeps at most maxKeys buckets (oldest dropped)', () => {
    const b = new TokenBuckets({ capacity: 1, perSeconds: 60 }, () => 0, 2);
    b.take('a');
    b.take('b');
    b.take('c');
    expect(b.waitMs('c')).toBeGreaterThan(0);
    expect(b.waitMs('a')).toBe(0); // a was evicted: it comes back full
  });
});

describe('RateLimiter', () => {
  it('needs a token in both the user and the channel bucket, and takes from both only then', () => {
    let t = 0;
    const r = new RateLimiter({ user: { capacity: 2, perSeconds: 60 }, channel: { capacity: 3, perSeconds: 60 } }, () => t);
    expect(r.take('u1', 'c')).toEqual({ ok: true });
    expect(r.take('u1', 'c')).toEqual({ ok: true });
    expect(r.take('u1', 'c')).toEqual({ ok: false, scope: 'user', retryAfterMs: 30_000 });
    expect(r.take('u2', 'c')).toEqual({ ok: true });
    expect(r.take('u3', 'c')).toEqual({ ok: false, scope: 'channel', retryAfterMs: 20_000 });
    // u3 was refused by the channel: its own bucket was not charged
    expect(r.take('u3', 'other')).toEqual({ ok: true });
    expect(r.take('u3', 'other')).toEqual({ ok: true });
    t = 20_000;
    expect(r.take('u4', 'c')).toEqual({ ok: true });
  });
});

describe('RecentIds', () => {
  it('reports a second sighting, and forgets the least recently seen past its size', () => {
    const r = new RecentIds(2);
    expect(r.seen('a')).toBe(false);
    expect(r.seen('a')).toBe(true);
    expect(r.seen('b')).toBe(false);
    expect(r.seen('a')).toBe(true); // refreshes a
    expect(r.seen('c')).toBe(false); // evicts b
    expect(r.size).toBe(2);
    expect(r.seen('a')).toBe(true);
    expect(r.seen('b')).toBe(false);
  });
});
