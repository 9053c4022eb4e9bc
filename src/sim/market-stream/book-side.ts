import type { SymbolDynamics } from './dynamics.js';
import type { Prng } from './prng.js';

// Globals read once: hot loops also run inside jest's vm context, where each global lookup is slow.
const { exp, floor, round, min, max } = Math;

/**
 * One side of a synthetic book, as a shape relative to the side's reference touch: level i sits
 * `offset(i)` ticks away (away from the spread) and holds `lots(i)` lots. Taker orders consume it from
 * the front between refreshes; a refresh redraws gaps and sizes (sizes persist a little from one
 * refresh to the next, so queues do not jump at random).
 */
export class BookSide {
  private readonly offsets: number[];
  private readonly lots: number[];
  private readonly sizeNoise: number[];
  private head = 0;

  constructor(
    private readonly levelCount: number,
    private readonly dynamics: SymbolDynamics,
    rng: Prng,
  ) {
    this.offsets = new Array<number>(levelCount).fill(0);
    this.lots = new Array<number>(levelCount).fill(0);
    this.sizeNoise = Array.from({ length: levelCount }, () => rng.normal());
    this.refresh(rng);
  }

  refresh(rng: Prng): void {
    const d = this.dynamics;
    let offset = 0;
    for (let i = 0; i < this.levelCount; i++) {
      if (i > 0) offset += 1 + (rng.uniform() < d.levelGapProbability ? floor(rng.exponential(d.meanLevelGapTicks)) : 0);
      this.offsets[i] = offset;
      const noise = SIZE_PERSISTENCE * (this.sizeNoise[i] ?? 0) + SIZE_INNOVATION * rng.normal();
      this.sizeNoise[i] = noise;
      const mean = d.touchLevelLots * (1 + d.levelSizeGrowth * i);
      this.lots[i] = max(1, round(mean * exp(SIZE_LOG_SPREAD * noise - (SIZE_LOG_SPREAD * SIZE_LOG_SPREAD) / 2)));
    }
    this.head = 0;
  }

  /** Ticks from the reference touch to the best level still standing. */
  touchOffset(): number {
    return this.offsets[this.head] ?? 0;
  }

  /** Levels still standing, best first. */
  get length(): number {
    return this.levelCount - this.head;
  }

  offsetAt(i: number): number {
    return this.offsets[this.head + i] ?? 0;
  }

  lotsAt(i: number): number {
    return this.lots[this.head + i] ?? 0;
  }

  /**
   * A taker order of `wanted` lots sweeps from the best level; `print(offset, lots)` once per level
   * touched. The last lot of the deepest level always stays, so the side is never empty.
   */
  take(wanted: number, print: (offset: number, lots: number) => void): void {
    let remaining = wanted;
    while (remaining > 0) {
      const i = this.head;
      const available = this.lots[i] ?? 0;
      const isLast = i === this.levelCount - 1;
      const taken = min(remaining, isLast ? available - 1 : available);
      if (taken <= 0) return;
      print(this.offsets[i] ?? 0, taken);
      remaining -= taken;
      this.lots[i] = available - taken;
      if (available === taken) this.head++;
    }
  }
}

/** Log-size noise: AR(1) across refreshes with unit stationary variance. */
const SIZE_PERSISTENCE = 0.8;
const SIZE_INNOVATION = Math.sqrt(1 - SIZE_PERSISTENCE * SIZE_PERSISTENCE);
const SIZE_LOG_SPREAD = 0.6;
