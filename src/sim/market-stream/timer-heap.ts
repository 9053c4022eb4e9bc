// Globals read once: hot loops also run inside jest's vm context, where each global lookup is slow.
const NEVER = Number.POSITIVE_INFINITY;

/**
 * A min-heap of a fixed set of timers, one pending time per timer id: the generator's merge of its
 * sources by next-event time. Ties go to the lower id, which keeps the output order deterministic.
 */
export class TimerHeap {
  private readonly times: Float64Array;
  private readonly heap: Int32Array;

  constructor(initialTimes: readonly number[]) {
    this.times = Float64Array.from(initialTimes);
    this.heap = Int32Array.from(initialTimes.keys());
    for (let i = (this.heap.length >> 1) - 1; i >= 0; i--) this.siftDown(i);
  }

  /** The id of the earliest timer. */
  topId(): number {
    return this.heap[0] ?? -1;
  }

  topTime(): number {
    return this.times[this.topId()] ?? NEVER;
  }

  /** Moves the earliest timer to `time` (not earlier than now). */
  rescheduleTop(time: number): void {
    this.times[this.topId()] = time;
    this.siftDown(0);
  }

  private before(a: number, b: number): boolean {
    const ta = this.times[a] ?? NEVER;
    const tb = this.times[b] ?? NEVER;
    return ta < tb || (ta === tb && a < b);
  }

  private siftDown(start: number): void {
    const heap = this.heap;
    const n = heap.length;
    let i = start;
    const id = heap[i] ?? 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      let child = left;
      if (right < n && this.before(heap[right] ?? 0, heap[left] ?? 0)) child = right;
      const childId = heap[child] ?? 0;
      if (!this.before(childId, id)) break;
      heap[i] = childId;
      i = child;
    }
    heap[i] = id;
  }
}
