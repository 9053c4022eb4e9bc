import type { MarketEvent } from '../../sim/market-stream/events.js';

interface Entry {
  readonly event: MarketEvent;
  readonly seq: number;
}

/**
 * Puts market events back in exchange-time order. Polled channels deliver out of order (a trades
 * reply holds trades up to one poll interval old; a depth reply may overtake it), and a stream must
 * not go back in time. Events wait until the newest time seen is `windowMs` past them; ties keep
 * their arrival order. A min-heap on (time, arrival).
 */
export class ReorderBuffer {
  private readonly heap: Entry[] = [];
  private seq = 0;
  private newest = -Infinity;

  constructor(private readonly windowMs: number) {}

  get size(): number {
    return this.heap.length;
  }

  push(event: MarketEvent): void {
    if (event.ts > this.newest) this.newest = event.ts;
    this.heap.push({ event, seq: this.seq++ });
    this.up(this.heap.length - 1);
  }

  /** Events at least `windowMs` older than the newest seen (all of them with `all`), oldest first. */
  drain(all = false): MarketEvent[] {
    const until = all ? Infinity : this.newest - this.windowMs;
    const out: MarketEvent[] = [];
    for (let top = this.heap[0]; top !== undefined && top.event.ts <= until; top = this.heap[0]) out.push(this.pop(top));
    return out;
  }

  private pop(top: Entry): MarketEvent {
    const last = this.heap.pop();
    if (last !== undefined && last !== top) {
      this.heap[0] = last;
      this.down(0);
    }
    return top.event;
  }

  private up(index: number): void {
    const heap = this.heap;
    const entry = heap[index];
    if (entry === undefined) return;
    let i = index;
    while (i > 0) {
      const parentIndex = (i - 1) >> 1;
      const parent = heap[parentIndex];
      if (parent === undefined || !before(entry, parent)) break;
      heap[i] = parent;
      i = parentIndex;
    }
    heap[i] = entry;
  }

  private down(index: number): void {
    const heap = this.heap;
    const entry = heap[index];
    if (entry === undefined) return;
    let i = index;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      let smallestEntry = entry;
      const l = heap[left];
      if (l !== undefined && before(l, smallestEntry)) {
        smallest = left;
        smallestEntry = l;
      }
      const r = heap[right];
      if (r !== undefined && before(r, smallestEntry)) {
        smallest = right;
        smallestEntry = r;
      }
      if (smallest === i) break;
      heap[i] = smallestEntry;
      i = smallest;
    }
    heap[i] = entry;
  }
}

function before(a: Entry, b: Entry): boolean {
  return a.event.ts < b.event.ts || (a.event.ts === b.event.ts && a.seq < b.seq);
}
