import { emptyDoubleArray, emptyObjectArray } from '../core/empty-arrays.js';

/**
 * A bounded memory of keys in arrival order: remembers the newest `capacity` keys and forgets the
 * oldest, so long runs keep a fixed footprint. A key may carry a time, so that keys older than an age can
 * be forgotten too (`forgetBefore`).
 *
 * The arrival order is an array queue beside a map, not the map's own insertion order: a Map deletes by
 * leaving a hole at its front until it rehashes, so finding its oldest key walks every hole (thousands at
 * a capacity of 5,000, per fill and per closed order of a long run). A slot of the queue goes stale when
 * its key is forgotten or remembered again; stale slots are skipped once and dropped when the queue is
 * compacted.
 */
export class RecentKeys {
  /** Key → the sequence number of its live slot in `queue` (one map: a push sets one entry, a delete drops one). */
  private readonly slots = new Map<string, number>();
  /** Keys in arrival order from `head` on; the slot at index i has sequence number `base + i`. */
  private queue = emptyObjectArray<string>();
  /** Beside `queue`: the time each slot's key was given (-Infinity when none was). */
  private times = emptyDoubleArray();
  private head = 0;
  private base = 0;

  constructor(private readonly capacity: number) {}

  has(key: string): boolean {
    return this.slots.has(key);
  }

  /** Remembers the key; false when it was already known. */
  add(key: string, time = -Infinity): boolean {
    if (this.slots.has(key)) return false;
    this.push(key, time);
    return true;
  }

  /** Remembers the key (moving it to the newest end); answers the key forgotten to make room, if any. */
  push(key: string, time = -Infinity): string | undefined {
    this.slots.set(key, this.base + this.queue.length);
    this.queue.push(key);
    this.times.push(time);
    const oldest = this.slots.size > this.capacity ? this.oldest() : undefined;
    if (oldest !== undefined) this.delete(oldest);
    this.compactWhenSparse();
    return oldest;
  }

  /**
   * Forgets keys from the oldest end while their time is before `cutoff` (it stops at the first newer one:
   * keys arrive roughly in time order). Answers how many went.
   */
  forgetBefore(cutoff: number): number {
    let forgotten = 0;
    for (let key = this.oldest(); key !== undefined; key = this.oldest()) {
      // `oldest` left `head` at the key's live slot.
      if ((this.times[this.head] as number) >= cutoff) break;
      this.delete(key);
      forgotten += 1;
    }
    return forgotten;
  }

  /** The key remembered longest ago, if any. */
  oldest(): string | undefined {
    const { queue } = this;
    while (this.head < queue.length) {
      const key = queue[this.head] as string;
      if (this.slots.get(key) === this.base + this.head) return key;
      this.head += 1;
    }
    return undefined;
  }

  /** Forgets a key; false when it was not known. */
  delete(key: string): boolean {
    if (!this.slots.delete(key)) return false;
    if (this.slots.size === 0) this.clearQueue();
    return true;
  }

  get size(): number {
    return this.slots.size;
  }

  /** How many keys it keeps at most. */
  get limit(): number {
    return this.capacity;
  }

  /** Drops stale slots once they outnumber the live keys (each slot is copied at most once per as many pushes). */
  private compactWhenSparse(): void {
    const slots = this.queue.length;
    if (slots < 64 || slots < 2 * this.slots.size + 32) return;
    const live = emptyObjectArray<string>();
    const times = emptyDoubleArray();
    for (let i = this.head; i < slots; i++) {
      const key = this.queue[i] as string;
      if (this.slots.get(key) !== this.base + i) continue;
      this.slots.set(key, this.base + slots + live.length);
      live.push(key);
      times.push(this.times[i] as number);
    }
    this.base += slots;
    this.queue = live;
    this.times = times;
    this.head = 0;
  }

  private clearQueue(): void {
    this.base += this.queue.length;
    this.queue = emptyObjectArray();
    this.times = emptyDoubleArray();
    this.head = 0;
  }
}
