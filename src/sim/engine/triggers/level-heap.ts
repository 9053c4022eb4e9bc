import type { FixedEntry } from './fixed-entry.js';
import { emptyObjectArray } from '../../../core/empty-arrays.js';

/**
 * An indexed binary min-heap of fixed triggers by key, ties by registration sequence; entries know
 * their index, so removal by id is O(log n).
 */
export class LevelHeap {
  private readonly items: FixedEntry[] = emptyObjectArray();

  get size(): number {
    return this.items.length;
  }

  /** The entry with the smallest key, or undefined when empty. */
  top(): FixedEntry | undefined {
    const items = this.items;
    return items.length === 0 ? undefined : items[0]; // an out-of-bounds read is slow in V8
  }

  push(entry: FixedEntry): void {
    const items = this.items;
    entry.heapIndex = items.length;
    items.push(entry);
    this.siftUp(entry.heapIndex);
  }

  remove(entry: FixedEntry): void {
    const items = this.items;
    const index = entry.heapIndex;
    if (items[index] !== entry) return;
    entry.heapIndex = -1;
    const last = items.pop();
    if (last === undefined || last === entry) return;
    items[index] = last;
    last.heapIndex = index;
    this.siftDown(index);
    this.siftUp(last.heapIndex);
  }

  /** Every entry, in no particular order. */
  entries(): readonly FixedEntry[] {
    return this.items;
  }

  private siftUp(start: number): void {
    const items = this.items;
    const entry = items[start];
    if (entry === undefined) return;
    let i = start;
    while (i > 0) {
      const parentIndex = (i - 1) >> 1;
      const parent = items[parentIndex];
      if (parent === undefined || !before(entry, parent)) break;
      items[i] = parent;
      parent.heapIndex = i;
      i = parentIndex;
    }
    items[i] = entry;
    entry.heapIndex = i;
  }

  private siftDown(start: number): void {
    const items = this.items;
    const n = items.length;
    const entry = items[start];
    if (entry === undefined) return;
    let i = start;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      let child = items[left];
      let childIndex = left;
      const right = items[left + 1];
      if (child === undefined) break;
      if (right !== undefined && before(right, child)) {
        child = right;
        childIndex = left + 1;
      }
      if (!before(child, entry)) break;
      items[i] = child;
      child.heapIndex = i;
      i = childIndex;
    }
    items[i] = entry;
    entry.heapIndex = i;
  }
}

function before(a: FixedEntry, b: FixedEntry): boolean {
  return a.key < b.key || (a.key === b.key && a.seq < b.seq);
}
