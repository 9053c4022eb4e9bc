/**
 * A bounded memory of keys in arrival order: remembers the newest `capacity` keys and forgets the
 * oldest, so long runs keep a fixed footprint.
 */
export class RecentKeys {
  private readonly keys = new Set<string>();

  constructor(private readonly capacity: number) {}

  has(key: string): boolean {
    return this.keys.has(key);
  }

  /** Remembers the key; false when it was already known. */
  add(key: string): boolean {
    if (this.keys.has(key)) return false;
    this.push(key);
    return true;
  }

  /** Remembers the key (moving it to the newest end); answers the key forgotten to make room, if any. */
  push(key: string): string | undefined {
    this.keys.delete(key);
    this.keys.add(key);
    if (this.keys.size <= this.capacity) return undefined;
    const oldest = this.keys.values().next().value as string;
    this.keys.delete(oldest);
    return oldest;
  }

  get size(): number {
    return this.keys.size;
  }
}
