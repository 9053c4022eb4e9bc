import { trailingLevel } from './trailing-math.js';
import type { PriceSource, TrailingCallback, TrailingTriggerSpec, TrailingTriggerState, TriggerDirection } from './types.js';

// Globals read once: hot loops also run inside jest's vm context, where each global lookup is slow.
const INF = Number.POSITIVE_INFINITY;

/**
 * A registered trailing trigger and its tracking state. Besides firing it keeps a wake band: while the
 * price stays strictly between `wakeLo` and `wakeHi` a price event changes nothing for it (no
 * activation, no new extreme, no firing), which lets its lane skip it with two comparisons.
 */
export class TrailingEntry {
  readonly kind = 'TRAILING';
  active = false;
  /** Peak (FALLING) or trough (RISING) since activation; NaN until the first price after activation. */
  extreme = Number.NaN;
  /** The stop level derived from `extreme`; NaN with it. */
  level = Number.NaN;
  wakeLo = -INF;
  wakeHi = INF;

  constructor(
    readonly id: string,
    readonly seq: number,
    readonly symbol: string,
    readonly source: PriceSource,
    readonly direction: TriggerDirection,
    readonly activeTicks: number,
    readonly callback: TrailingCallback,
  ) {}

  static of(id: string, seq: number, spec: TrailingTriggerSpec): TrailingEntry {
    return new TrailingEntry(id, seq, spec.symbol, spec.source, spec.direction, spec.activeTicks, spec.callback);
  }

  /** Applies an activation price of 0 ("active at once"), starting from `lastTicks` when the lane has seen a price. */
  start(lastTicks: number): void {
    if (this.activeTicks === 0) {
      this.active = true;
      if (lastTicks === lastTicks) this.track(lastTicks);
    }
    this.rewake();
  }

  /** One price event; true when the trigger fires. Called only when the price is outside the wake band. */
  step(ticks: number): boolean {
    if (this.direction === 'FALLING') {
      if (!this.active) {
        if (ticks < this.activeTicks) return false;
        this.active = true;
      }
      if (!(ticks <= this.extreme)) this.track(ticks); // also when extreme is NaN
    } else {
      if (!this.active) {
        if (ticks > this.activeTicks) return false;
        this.active = true;
      }
      if (!(ticks >= this.extreme)) this.track(ticks);
    }
    if (this.direction === 'FALLING' ? ticks <= this.level : ticks >= this.level) return true;
    this.rewake();
    return false;
  }

  sameAs(spec: TrailingTriggerSpec): boolean {
    const a = this.callback;
    const b = spec.callback;
    const sameCallback = a.type === 'RATE' ? b.type === 'RATE' && b.rateE8 === a.rateE8 : b.type === 'PRICE' && b.ticks === a.ticks;
    return sameCallback && spec.source === this.source && spec.direction === this.direction && spec.activeTicks === this.activeTicks;
  }

  state(): TrailingTriggerState {
    const { id, seq, symbol, source, direction, activeTicks, callback, extreme, level } = this;
    return {
      kind: 'TRAILING',
      id,
      seq,
      symbol,
      source,
      direction,
      activeTicks,
      callback,
      activeStatus: this.active ? 1 : 0,
      extremeTicks: extreme === extreme ? extreme : undefined,
      levelTicks: level === level ? level : undefined,
    };
  }

  private track(ticks: number): void {
    this.extreme = ticks;
    this.level = trailingLevel(this.direction, this.callback, ticks);
  }

  // Prices are integer ticks, so "a new peak" (price > peak) is price >= peak + 1.
  private rewake(): void {
    const falling = this.direction === 'FALLING';
    if (!this.active) {
      this.wakeLo = falling ? -INF : this.activeTicks;
      this.wakeHi = falling ? this.activeTicks : INF;
    } else if (this.extreme !== this.extreme) {
      // Active without a price yet: the next price of any value starts the tracking.
      this.wakeLo = INF;
      this.wakeHi = -INF;
    } else if (falling) {
      this.wakeLo = this.level;
      this.wakeHi = this.extreme + 1;
    } else {
      this.wakeLo = this.extreme - 1;
      this.wakeHi = this.level;
    }
  }
}
