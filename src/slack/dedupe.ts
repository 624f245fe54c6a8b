/**
 * A bounded set of recently seen ids (insertion-ordered Map as an LRU). Slack redelivers an event with
 * the same `event_id` when our ack is late (`x-slack-retry-num`), so an id is recorded the moment it
 * arrives — before any answering — and a redelivery while the first is still being answered is dropped.
 */
export class RecentIds {
  private readonly ids = new Map<string, true>();
  private readonly max: number;

  constructor(max = 10_000) {
    this.max = Math.max(1, max);
  }

  /** Records `id`; true when it had been seen already. */
  seen(id: string): boolean {
    if (this.ids.has(id)) {
      this.ids.delete(id);
      this.ids.set(id, true);
      return true;
    }
    this.ids.set(id, true);
    if (this.ids.size > this.max) {
      const oldest = this.ids.keys().next();
      if (!oldest.done) this.ids.delete(oldest.value);
    }
    return false;
  }

  get size(): number {
    return this.ids.size;
  }
}
