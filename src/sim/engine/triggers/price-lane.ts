import type { FixedEntry } from './fixed-entry.js';
import { LevelHeap } from './level-heap.js';
import type { TrailingEntry } from './trailing-entry.js';
import { emptyObjectArray } from '../../../core/empty-arrays.js';

// Globals read once: hot loops also run inside jest's vm context, where each global lookup is slow.
const INF = Number.POSITIVE_INFINITY;

export type Entry = FixedEntry | TrailingEntry;

/**
 * The triggers of one symbol watching one price source. `hi` and `lo` summarise them: a price strictly
 * between the two can neither fire nor move any trigger, so the book's hot path is two comparisons.
 * hi is the lowest RISING stop (or trailing wake-high), lo the highest FALLING stop (or wake-low).
 */
export class PriceLane {
  /** The last price seen on this source; NaN before the first. */
  last = Number.NaN;
  hi = INF;
  lo = -INF;
  private readonly rising = new LevelHeap();
  private readonly falling = new LevelHeap();
  private readonly trailing: TrailingEntry[] = emptyObjectArray();

  add(entry: Entry): void {
    if (entry.kind === 'FIXED') (entry.direction === 'RISING' ? this.rising : this.falling).push(entry);
    else {
      entry.start(this.last);
      this.trailing.push(entry);
    }
    this.rebound();
  }

  remove(entry: Entry): void {
    if (entry.kind === 'FIXED') (entry.direction === 'RISING' ? this.rising : this.falling).remove(entry);
    else {
      const index = this.trailing.indexOf(entry);
      if (index >= 0) this.trailing.splice(index, 1);
    }
    this.rebound();
  }

  /**
   * Applies a price outside (hi, lo); appends what fires to `fired` (unordered) and drops it from the lane.
   * Trailing entries this price activated are appended to `activated` (whether or not they also fired).
   */
  collect(ticks: number, fired: Entry[], activated: Entry[]): void {
    const rising = this.rising;
    for (let top = rising.top(); top !== undefined && top.stopTicks <= ticks; top = rising.top()) {
      rising.remove(top);
      fired.push(top);
    }
    const falling = this.falling;
    for (let top = falling.top(); top !== undefined && top.stopTicks >= ticks; top = falling.top()) {
      falling.remove(top);
      fired.push(top);
    }
    const trailing = this.trailing;
    let kept = 0;
    for (let i = 0; i < trailing.length; i++) {
      const entry = trailing[i];
      if (entry === undefined) continue;
      if (ticks > entry.wakeLo && ticks < entry.wakeHi) {
        trailing[kept++] = entry;
        continue;
      }
      const wasActive = entry.active;
      const fires = entry.step(ticks);
      if (!wasActive && entry.active) activated.push(entry);
      if (fires) fired.push(entry);
      else trailing[kept++] = entry;
    }
    if (kept !== trailing.length) trailing.length = kept;
    this.rebound();
  }

  /** Every entry, in no particular order. */
  entries(): Entry[] {
    return [...this.rising.entries(), ...this.falling.entries(), ...this.trailing];
  }

  private rebound(): void {
    let hi = this.rising.top()?.stopTicks ?? INF;
    let lo = this.falling.top()?.stopTicks ?? -INF;
    const trailing = this.trailing;
    for (let i = 0; i < trailing.length; i++) {
      const entry = trailing[i];
      if (entry === undefined) continue;
      if (entry.wakeHi < hi) hi = entry.wakeHi;
      if (entry.wakeLo > lo) lo = entry.wakeLo;
    }
    this.hi = hi;
    this.lo = lo;
  }
}
