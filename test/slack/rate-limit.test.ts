import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RecentIds } from '../../src/slack/dedupe.ts';
import { RateLimiter, ScopeLimit } from '../../src/slack/rate-limit.ts';

// rate-limiter-flexible reads Date.now() and expires keys with setTimeout: a fake clock drives both.
const T0 = 1_800_000_000_000;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'], now: T0 });
});
afterEach(() => {
  vi.useRealTimers();
});
const at = (ms: number) => vi.setSystemTime(T0 + ms);
const advanceTo = (ms: number) => vi.advanceTimersByTime(T0 + ms - Date.now());

describe('ScopeLimit (steady + burst limiters)', () => {
  it('allows `capacity` at once, then one more every perSeconds / capacity', async () => {
    const b = new ScopeLimit({ capacity: 3, perSeconds: 30 });
    for (let i = 0; i < 3; i++) {
      expect(await b.waitMs('u')).toBe(0);
      await b.take('u');
    }
    expect(await b.waitMs('u')).toBe(10_000);
    at(9_999);
    expect(await b.waitMs('u')).toBe(1);
    advanceTo(10_000);
    expect(await b.waitMs('u')).toBe(0);
    advanceTo(1_000_000);
    await b.take('u');
    await b.take('u');
    await b.take('u');
    expect(await b.waitMs('u')).toBe(10_000); // a long pause never banks more than capacity
  });

  it('capacity 1: no burst, one every perSeconds; keys are independent', async () => {
    const b = new ScopeLimit({ capacity: 1, perSeconds: 60 });
    await b.take('a');
    expect(await b.waitMs('a')).toBe(60_000);
    expect(await b.waitMs('b')).toBe(0);
    advanceTo(60_000);
    expect(await b.waitMs('a')).toBe(0); // the record expired and was dropped: it comes back full
  });
});

describe('RateLimiter', () => {
  it('needs a token in both the user and the channel limit, and takes from both only then', async () => {
    const r = new RateLimiter({ user: { capacity: 2, perSeconds: 60 }, channel: { capacity: 3, perSeconds: 60 } });
    expect(await r.take('u1', 'c')).toEqual({ ok: true });
    expect(await r.take('u1', 'c')).toEqual({ ok: true });
    expect(await r.take('u1', 'c')).toEqual({ ok: false, scope: 'user', retryAfterMs: 30_000 });
    expect(await r.take('u2', 'c')).toEqual({ ok: true });
    expect(await r.take('u3', 'c')).toEqual({ ok: false, scope: 'channel', retryAfterMs: 20_000 });
    // u3 was refused by the channel: its own limit was not charged
    expect(await r.take('u3', 'other')).toEqual({ ok: true });
    expect(await r.take('u3', 'other')).toEqual({ ok: true });
    advanceTo(20_000);
    expect(await r.take('u4', 'c')).toEqual({ ok: true });
    expect(await r.take('u5', 'c')).toEqual({ ok: false, scope: 'channel', retryAfterMs: 20_000 });
  });

  it('concurrent requests are decided one at a time: capacity 2 lets exactly 2 of 5 through', async () => {
    const r = new RateLimiter({ user: { capacity: 100, perSeconds: 60 }, channel: { capacity: 2, perSeconds: 60 } });
    const all = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((u) => r.take(u, 'c')));
    expect(all.map((d) => d.ok)).toEqual([true, true, false, false, false]);
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
