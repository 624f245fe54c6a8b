/**
 * Polling for tests of asynchronous sources (watch caches, a fake API server coming back): ask until
 * the answer satisfies a predicate, or fail after a deadline with what the last answer was.
 */

export interface EventuallyOptions<T> {
  /** Pause between two asks; default 20 ms. */
  intervalMs?: number;
  /** What the error says about the last answer; default its JSON (cut to 500 characters). */
  describe?: (last: T) => string;
}

/**
 * Calls `ask` until `ok(answer)` holds and returns that answer. Once `ms` have passed and the answer
 * still does not hold, throws `condition not met within <ms> ms; last: <describe(answer)>`. An error
 * thrown by `ask` or `ok` propagates at once (it is not retried).
 */
export async function eventually<T>(
  ask: () => T | Promise<T>,
  ok: (answer: T) => boolean,
  ms = 3000,
  o: EventuallyOptions<T> = {},
): Promise<T> {
  const until = Date.now() + ms;
  const interval = o.intervalMs ?? 20;
  const describe = o.describe ?? ((last: T) => (JSON.stringify(last) ?? String(last)).slice(0, 500));
  for (;;) {
    const answer = await ask();
    if (ok(answer)) return answer;
    if (Date.now() > until) throw new Error(`condition not met within ${ms} ms; last: ${describe(answer)}`);
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}
