/**
 * A bounded memory of keys in arrival order: remembers the newest `capacity` keys and forgets the
 * oldest, so long runs keep a fixed footprint. A key may carry a time, so that keys older than an age can
 * be forgotten too (`forgetBefore`).
 */
export class RecentKeys {
  /** Key → its time (-Infinity when none was given), oldest first. */
  private readonly keys = new Map<string, number>();

  constructor(private readonly capacity: number) {}

  has(key: string): boolean {
    return this.keys.has(key);
  }

  /** Remembers the key; false when it was already known. */
  add(key: string, time = -Infinity): boolean {
    if (this.keys.has(key)) return false;
    this.push(key, time);
    return true;
  }

  /** Remembers the key (moving it to the newest end); answers the key forgotten to make room, if any. */
  push(key: string, time = -Infinity): string | undefined {
    this.keys.delete(key);
    this.keys.set(key, time);
    if (this.keys.size <= this.capacity) return undefined;
    const oldest = this.keys.keys().next().value as string;
    this.keys.delete(oldest);
    return oldest;
  }

  /**
   * Forgets keys from the oldest end while their time is before `cutoff` (it stops at the first newer one:
   * keys arrive roughly in time order). Answers how many went.
   */
  forgetBefore(cutoff: number): number {
    let forgotten = 0;
    for (const [key, time] of this.keys) {
      if (time >= cutoff) break;
      this.keys.delete(key);
      forgotten += 1;
    }
    return forgotten;
  }

  /** The key remembered longest ago, if any. */
  oldest(): string | undefined {
    return this.keys.keys().next().value;
  }

  /** Forgets a key; false when it was not known. */
  delete(key: string): boolean {
    return this.keys.delete(key);
  }

  get size(): number {
    return this.keys.size;
  }

  /** How many keys it keeps at most. */
  get limit(): number {
    return this.capacity;
  }
}
