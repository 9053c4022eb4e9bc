import type { Decimal } from '../../core/decimal.js';
import type { Bands } from '../../engine/indicators/indicator.js';
import type { StrategyRecorder } from '../../engine/strategy/recorder.js';
import type { Intent } from '../../model/intents.js';
import type { KlineUpdated } from '../../model/market-events.js';

/** An intent a strategy emitted, at the virtual time it did, as canonical JSON (decimals as text). */
export interface TracedIntent {
  readonly time: number;
  readonly text: string;
}

/** A value an indicator took: on the closed kline opening at `openTime`, at virtual time `time`. */
export interface TracedValue {
  readonly time: number;
  readonly openTime: number;
  /** Exact text (bands: lower/middle/upper). */
  readonly text: string;
  /** The same value's components, for measuring drift. */
  readonly parts: readonly Decimal[];
}

/** One strategy instance's record of a run. */
export interface StrategyTraceOf {
  readonly intents: readonly TracedIntent[];
  /** Per indicator name (e.g. "ema(9,close)@BTC-SWAP-USDT/1m"), in the order the values were taken. */
  readonly indicators: ReadonlyMap<string, readonly TracedValue[]>;
}

interface Mutable {
  readonly intents: TracedIntent[];
  readonly indicators: Map<string, TracedValue[]>;
}

/** Records every strategy instance's intents and indicator values during one backtest. */
export class StrategyTrace implements StrategyRecorder {
  private readonly byStrategy = new Map<string, Mutable>();

  intent(strategyId: string, time: number, intent: Intent): void {
    this.of(strategyId).intents.push({ time, text: JSON.stringify(intent) });
  }

  indicator(strategyId: string, time: number, name: string, kline: KlineUpdated, value: Decimal | Bands): void {
    const indicators = this.of(strategyId).indicators;
    const parts = partsOf(value);
    let series = indicators.get(name);
    if (series === undefined) {
      series = [];
      indicators.set(name, series);
    }
    series.push({ time, openTime: kline.openTime, text: parts.map((p) => p.toString()).join('/'), parts });
  }

  /** The strategies that emitted or computed anything, sorted. */
  strategies(): string[] {
    return [...this.byStrategy.keys()].sort();
  }

  get(strategyId: string): StrategyTraceOf {
    return this.byStrategy.get(strategyId) ?? { intents: [], indicators: new Map() };
  }

  private of(strategyId: string): Mutable {
    let trace = this.byStrategy.get(strategyId);
    if (trace === undefined) {
      trace = { intents: [], indicators: new Map() };
      this.byStrategy.set(strategyId, trace);
    }
    return trace;
  }
}

function partsOf(value: Decimal | Bands): Decimal[] {
  return 'middle' in value ? [value.lower, value.middle, value.upper] : [value];
}
