import { RecentKeys } from '../../src/engine/recent-keys.js';

/** The same memory kept the plain way: an array in arrival order, scanned. */
class ReferenceKeys {
  private entries: Array<{ key: string; time: number }> = [];
  constructor(private readonly capacity: number) {}
  has(key: string): boolean {
    return this.entries.some((e) => e.key === key);
  }
  add(key: string, time: number): boolean {
    if (this.has(key)) return false;
    this.push(key, time);
    return true;
  }
  push(key: string, time: number): string | undefined {
    this.entries = this.entries.filter((e) => e.key !== key);
    this.entries.push({ key, time });
    return this.entries.length > this.capacity ? this.entries.shift()?.key : undefined;
  }
  forgetBefore(cutoff: number): number {
    let n = 0;
    while (this.entries.length > 0 && (this.entries[0]?.time ?? 0) < cutoff) {
      this.entries.shift();
      n += 1;
    }
    return n;
  }
  oldest(): string | undefined {
    return this.entries[0]?.key;
  }
  delete(key: string): boolean {
    const before = this.entries.length;
    this.entries = this.entries.filter((e) => e.key !== key);
    return this.entries.length < before;
  }
  get size(): number {
    return this.entries.length;
  }
}

/** A small deterministic generator (no Math.random: a failure must replay). */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

describe('RecentKeys', () => {
  it.each([1, 3, 50])('keeps the arrival order of a plain array through pushes, re-pushes, deletes and age cuts (capacity %i)', (capacity) => {
    const keys = new RecentKeys(capacity);
    const reference = new ReferenceKeys(capacity);
    const random = generator(capacity);
    let time = 0;
    for (let step = 0; step < 8_000; step++) {
      const key = `k${Math.floor(random() * capacity * 3)}`;
      const roll = random();
      time += Math.floor(random() * 3);
      if (roll < 0.45) expect(keys.add(key, time)).toBe(reference.add(key, time));
      else if (roll < 0.75) expect(keys.push(key, time)).toBe(reference.push(key, time));
      else if (roll < 0.9) expect(keys.delete(key)).toBe(reference.delete(key));
      else expect(keys.forgetBefore(time - 20)).toBe(reference.forgetBefore(time - 20));
      expect(keys.size).toBe(reference.size);
      expect(keys.oldest()).toBe(reference.oldest());
      expect(keys.has(key)).toBe(reference.has(key));
    }
  });

  it('forgets the oldest key once full, and a re-pushed key becomes the newest', () => {
    const keys = new RecentKeys(3);
    expect(['a', 'b', 'c'].map((k) => keys.push(k))).toEqual([undefined, undefined, undefined]);
    expect(keys.push('a')).toBeUndefined();
    expect(keys.push('d')).toBe('b');
    expect(keys.oldest()).toBe('c');
    expect(keys.has('b')).toBe(false);
    expect(keys.size).toBe(3);
  });

  it('keeps its footprint through a long run at capacity', () => {
    const keys = new RecentKeys(100);
    for (let i = 0; i < 100_000; i++) keys.push(`k${i}`, i);
    expect(keys.size).toBe(100);
    expect(keys.oldest()).toBe('k99900');
    // The queue beside the map is compacted: at most about twice the live keys.
    const queue = (keys as unknown as { queue: string[] }).queue;
    expect(queue.length).toBeLessThanOrEqual(2 * 100 + 32);
  });
});
