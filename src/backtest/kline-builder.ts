import { dec } from '../core/decimal.js';
import type { Decimal } from '../core/decimal.js';
import { decimalOfText } from '../core/decimal-cache.js';
import type { KlineInterval, KlineUpdated } from '../model/market-events.js';
import { EPOCH_ALIGNED_INTERVAL_MS } from '../protocol/market-params.js';
import type { BarEvent, TradeEvent } from '../sim/market-stream/events.js';
import { compareDecimalText, StepGrid } from '../sim/market-stream/ticks.js';

/** What a kline takes of a trade print: its time, price and quantity as decimal text (a print without a quantity, such as a mark price, adds no volume). */
export type KlinePrint = Pick<TradeEvent, 'symbol' | 'ts' | 'price'> & { readonly qty?: string };

/** A kline series a backtest builds from the recorded trades, as `stratd run` polls it. */
export interface KlineSeries {
  readonly symbol: string;
  readonly interval: KlineInterval;
}

/** Fixed-length intervals; weeks and months (calendar-aligned) are not built. */
const INTERVAL_MS = EPOCH_ALIGNED_INTERVAL_MS;

export function buildableInterval(interval: KlineInterval): boolean {
  return INTERVAL_MS[interval] !== undefined;
}

/** The buildable intervals, shortest first, with their length in ms. */
export function buildableIntervals(): ReadonlyArray<readonly [KlineInterval, number]> {
  return Object.entries(INTERVAL_MS).map(([interval, ms]) => [interval as KlineInterval, ms] as const);
}

/** The grid of 10^-decimals, made once per number of decimals. */
const unitGrids: StepGrid[] = [];

function unitGrid(decimals: number): StepGrid {
  return (unitGrids[decimals] ??= new StepGrid(decimals === 0 ? '1' : `0.${'0'.repeat(decimals - 1)}1`));
}

/**
 * A kline's volume: the sum of its prints' quantity text in whole units of the finest decimal among
 * them (a decimal add and a decimal lookup per trade were most of a kline's cost in a replay); a Decimal
 * from the first sum not exact below 2^53 units on. The same value the decimals' sum gives.
 */
class Volume {
  private grid = unitGrid(0);
  private units = 0;
  private big: Decimal | undefined;

  add(text: string): void {
    if (this.big === undefined) {
      let units = this.grid.tryUnits(text);
      if (units === undefined) {
        const dot = text.indexOf('.');
        const decimals = dot < 0 ? 0 : text.length - dot - 1;
        const rescaled = this.units * 10 ** (decimals - this.grid.decimals);
        if (decimals > this.grid.decimals && Number.isSafeInteger(rescaled)) {
          this.units = rescaled;
          this.grid = unitGrid(decimals);
          units = this.grid.tryUnits(text);
        }
      }
      const sum = units === undefined ? Number.NaN : this.units + units;
      if (Number.isSafeInteger(sum)) {
        this.units = sum;
        return;
      }
      this.big = dec(this.grid.toText(this.units));
    }
    this.big = this.big.plus(text);
  }

  value(): Decimal {
    return this.big ?? dec(this.grid.toText(this.units));
  }
}

/**
 * A forming kline; prices are the prints' decimal text, made decimals when the kline closes. Each price's
 * ticks on `grid` are beside it when known (0 when not): two known ones are compared as numbers (text
 * comparison was most of a replayed trade's cost here).
 */
interface Forming {
  openTime: number;
  open: string;
  high: string;
  highTicks: number;
  low: string;
  lowTicks: number;
  close: string;
  closeTicks: number;
  /** What the ticks count steps of (the caller's token for its grid); undefined when none is known. */
  readonly grid: object | undefined;
  volume: Volume;
  /** The close is within [low, high] (a trade's price always is; a downloaded bar's close need not be). */
  closeInside: boolean;
}

/** The order of two prices, −1, 0 or 1: by their ticks when both are known (on one grid), else by their text. */
function comparePrices(a: string, aTicks: number, b: string, bTicks: number): number {
  if (aTicks > 0 && bTicks > 0) return aTicks > bTicks ? 1 : aTicks < bTicks ? -1 : 0;
  return compareDecimalText(a, b);
}

/** One symbol's series of one interval. */
class SeriesBuilder {
  private forming: Forming | undefined;
  private lastClose: string | undefined;
  private lastCloseTicks = 0;
  private lastGrid: object | undefined;

  constructor(
    readonly series: KlineSeries,
    readonly ms: number,
  ) {}

  /** Whether a kline ends at or before `time` (`close` has one to hand out). */
  closesBy(time: number): boolean {
    return this.forming !== undefined && this.forming.openTime + this.ms <= time;
  }

  /** Klines that ended at or before `time` (an interval without trades repeats the last close, volume 0). */
  close(time: number, out: KlineUpdated[]): void {
    while (this.forming !== undefined && this.forming.openTime + this.ms <= time) {
      const k = this.forming;
      out.push({
        type: 'market.kline',
        symbol: this.series.symbol,
        interval: this.series.interval,
        time: k.openTime + this.ms,
        openTime: k.openTime,
        closeTime: k.openTime + this.ms - 1,
        open: decimalOfText(k.open),
        high: decimalOfText(k.high),
        low: decimalOfText(k.low),
        close: decimalOfText(k.close),
        volume: k.volume.value(),
        closed: true,
      });
      this.lastClose = k.close;
      this.lastCloseTicks = k.closeTicks;
      this.lastGrid = k.grid;
      const next = k.openTime + this.ms;
      const c = k.close;
      const ticks = k.closeTicks;
      this.forming = next + this.ms <= time ? { openTime: next, open: c, high: c, highTicks: ticks, low: c, lowTicks: ticks, close: c, closeTicks: ticks, grid: k.grid, volume: new Volume(), closeInside: true } : undefined;
    }
  }

  /** A print; `ticks`: its price as steps of `grid` (0 when not known). */
  trade(trade: KlinePrint, ticks: number, grid: object | undefined): void {
    const openTime = Math.floor(trade.ts / this.ms) * this.ms;
    const k = this.forming;
    const price = trade.price;
    const qty = trade.qty;
    if (k === undefined || k.openTime !== openTime) {
      const lastClose = this.lastClose;
      const open = lastClose ?? price;
      const openTicks = lastClose === undefined ? ticks : this.lastGrid === grid ? this.lastCloseTicks : 0;
      const side = comparePrices(price, ticks, open, openTicks);
      const volume = new Volume();
      if (qty !== undefined) volume.add(qty);
      this.forming = {
        openTime,
        open,
        high: side > 0 ? price : open,
        highTicks: side > 0 ? ticks : openTicks,
        low: side < 0 ? price : open,
        lowTicks: side < 0 ? ticks : openTicks,
        close: price,
        closeTicks: ticks,
        grid,
        volume,
        closeInside: true,
      };
      return;
    }
    // Prints repeat the last price often: the close's own value cannot move the high or the low once the close is inside them.
    if (price !== k.close || !k.closeInside) {
      // Ticks of another grid than the kline's are not comparable with its own.
      const own = grid === k.grid ? ticks : 0;
      // Above the high cannot be below the low: one comparison for a new high.
      if (comparePrices(price, own, k.high, k.highTicks) > 0) {
        k.high = price;
        k.highTicks = own;
      } else if (comparePrices(price, own, k.low, k.lowTicks) < 0) {
        k.low = price;
        k.lowTicks = own;
      }
      k.close = price;
      k.closeTicks = own;
      k.closeInside = true;
    }
    if (qty !== undefined) k.volume.add(qty);
  }

  /** A downloaded bar opening at `barOpen` (its own interval divides this series'): merged into the kline it falls in, open from the bar. */
  bar(bar: BarEvent, barOpen: number): void {
    const openTime = Math.floor(barOpen / this.ms) * this.ms;
    const k = this.forming;
    if (k === undefined || k.openTime !== openTime) {
      const volume = new Volume();
      volume.add(bar.volume);
      this.forming = { openTime, open: bar.open, high: bar.high, highTicks: 0, low: bar.low, lowTicks: 0, close: bar.close, closeTicks: 0, grid: undefined, volume, closeInside: false };
      return;
    }
    if (compareDecimalText(bar.high, k.high) > 0) {
      k.high = bar.high;
      k.highTicks = 0;
    }
    if (compareDecimalText(bar.low, k.low) < 0) {
      k.low = bar.low;
      k.lowTicks = 0;
    }
    k.close = bar.close;
    k.closeTicks = 0;
    k.closeInside = false;
    k.volume.add(bar.volume);
  }
}

const NONE: readonly KlineUpdated[] = Object.freeze([]);

/**
 * Klines for a backtest, built from the recorded trades (recordings hold trades, not klines). A kline
 * is published closed, once, at the first market event at or after its end, stamped with its end:
 * strategies see it no earlier than a live poller would.
 */
export class KlineBuilder {
  private readonly builders: SeriesBuilder[] = [];

  constructor(series: readonly KlineSeries[]) {
    const seen = new Set<string>();
    for (const s of series) {
      const ms = INTERVAL_MS[s.interval];
      const key = `${s.symbol}/${s.interval}`;
      if (ms === undefined || seen.has(key)) continue;
      seen.add(key);
      this.builders.push(new SeriesBuilder(s, ms));
    }
  }

  /** Closed klines up to `time`, in time order (asked at every market event: most close none, and get no array of their own). */
  advance(time: number): readonly KlineUpdated[] {
    // Called for every replayed event: a plain loop, no closure per call.
    const builders = this.builders;
    let closes = false;
    for (let i = 0; i < builders.length && !closes; i++) closes = builders[i]!.closesBy(time);
    if (!closes) return NONE;
    const out: KlineUpdated[] = [];
    for (const builder of this.builders) builder.close(time, out);
    return out.sort((a, b) => a.time - b.time || (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
  }

  /**
   * A recorded trade (or another print). `ticks`: its price as steps of a grid, 0 when not known; `grid`:
   * any object standing for that grid, the same for the same grid (a symbol's prices are compared by
   * their ticks when both have them on one grid, else by their text: the same order).
   */
  trade(trade: KlinePrint, ticks = 0, grid?: object): void {
    // Called for every replayed trade: a plain loop (no iterator).
    const builders = this.builders;
    for (let i = 0; i < builders.length; i++) {
      const builder = builders[i]!;
      if (builder.series.symbol === trade.symbol) builder.trade(trade, ticks, grid);
    }
  }

  /**
   * A contract bar of a downloaded history, as the bar model hands it on: at its end, stamped with that
   * time (`ts` = open time + duration). Klines are then built from bars instead of trades.
   */
  bar(bar: BarEvent): void {
    for (const builder of this.builders) if (builder.series.symbol === bar.symbol) builder.bar(bar, bar.ts - bar.durationMs);
  }

  /** The series whose interval is not a whole number of `barMs` bars (they cannot be built from such bars). */
  unbuildable(symbol: string, barMs: number): KlineSeries[] {
    return this.builders.filter((b) => b.series.symbol === symbol && b.ms % barMs !== 0).map((b) => b.series);
  }
}
