import { ATR, BollingerBands, EMA, RSI, SMA } from 'trading-signals';
import type { Decimal } from '../../core/decimal.js';
import type { BusEvent } from '../../model/bus-events.js';
import type { CacheView } from '../../model/cache-view.js';
import type { KlineUpdated } from '../../model/market-events.js';
import { fromFloat } from './float-bridge.js';
import type { Bands, Indicator } from './indicator.js';
import { KlineFedIndicator } from './indicator.js';
import type { IndicatorProbe } from './indicator-probe.js';
import type { BandsSpec, LineSpec, PeriodSpec, PriceSource, SeriesSpec } from './indicator-specs.js';
import { checkSpec, seriesKey } from './indicator-specs.js';
import { candleOf, sourcePrice } from './kline-inputs.js';

/** Where an `Indicators` finds history to warm up from: a strategy context fits. */
export interface IndicatorSource {
  readonly cache: CacheView;
  /** Told each value taken (a strategy context carries one while stratd check-strategy records). */
  readonly indicatorProbe?: IndicatorProbe;
}

/** The part of a trading-signals indicator the wrapper uses (v8: plain numbers, null until enough data). */
interface Incremental<I, R> {
  update(input: I, replace: boolean): R | null;
  readonly isStable: boolean;
}

/**
 * The indicators of one strategy instance, on the trading-signals library. Ask for one by what it
 * is (`ema({ symbol, interval: '1m', period: 20 })`); the same spec answers the same instance. Feed
 * every event to `onEvent`: closed `market.kline` events update the indicators of their series. A new
 * indicator first replays the closed klines the cache already holds, so it may be ready at once.
 */
export class Indicators {
  private readonly lines = new Map<string, Indicator<Decimal>>();
  private readonly bands = new Map<string, Indicator<Bands>>();
  private readonly bySeries = new Map<string, Array<{ feed(kline: KlineUpdated): boolean }>>();

  constructor(private readonly history?: IndicatorSource) {}

  /** Exponential moving average (seeded with the first price; ready after `period` klines). */
  ema(spec: LineSpec): Indicator<Decimal> {
    return this.line('ema', spec, () => new EMA(spec.period));
  }

  /** Simple moving average. */
  sma(spec: LineSpec): Indicator<Decimal> {
    return this.line('sma', spec, () => new SMA(spec.period));
  }

  /** Wilder's relative strength index, 0..100 (ready after period + 1 klines). */
  rsi(spec: LineSpec): Indicator<Decimal> {
    return this.line('rsi', spec, () => new RSI(spec.period));
  }

  /** Average true range with Wilder's smoothing, in price units (reads high, low and close). */
  atr(spec: PeriodSpec): Indicator<Decimal> {
    checkSpec('atr', spec);
    const key = `atr(${spec.period})@${seriesKey(spec)}`;
    return this.memo(this.lines, key, () => this.register(key, spec, stepper(new ATR(spec.period), candleOf, fromFloat)));
  }

  /** Bollinger bands: SMA ± deviations × population standard deviation. */
  bollinger(spec: BandsSpec): Indicator<Bands> {
    checkSpec('bollinger', spec);
    const source = spec.source ?? 'close';
    const deviations = spec.deviations ?? 2;
    const key = `bollinger(${spec.period},${source},${deviations})@${seriesKey(spec)}`;
    return this.memo(this.bands, key, () => this.register(key, spec, stepper(new BollingerBands(spec.period, deviations), (k) => sourcePrice(k, source), bandsOf)));
  }

  /** Feeds a bus event; answers the closed kline when it updated at least one indicator. */
  onEvent(event: BusEvent): KlineUpdated | undefined {
    if (event.type !== 'market.kline' || !event.closed) return undefined;
    let applied = false;
    for (const indicator of this.bySeries.get(seriesKey(event)) ?? []) applied = indicator.feed(event) || applied;
    return applied ? event : undefined;
  }

  private line(kind: string, spec: LineSpec, create: () => Incremental<number, number>): Indicator<Decimal> {
    checkSpec(kind, spec);
    const source: PriceSource = spec.source ?? 'close';
    const key = `${kind}(${spec.period},${source})@${seriesKey(spec)}`;
    return this.memo(this.lines, key, () => this.register(key, spec, stepper(create(), (k) => sourcePrice(k, source), fromFloat)));
  }

  private memo<T>(known: Map<string, Indicator<T>>, key: string, create: () => Indicator<T>): Indicator<T> {
    const existing = known.get(key);
    if (existing !== undefined) return existing;
    const created = create();
    known.set(key, created);
    return created;
  }

  private register<T extends Decimal | Bands>(key: string, spec: SeriesSpec, step: (kline: KlineUpdated) => T | undefined): Indicator<T> {
    const probe = this.history?.indicatorProbe;
    const indicator = new KlineFedIndicator<T>(spec.symbol, spec.interval, probe === undefined ? step : probed(step, (kline, value) => probe(key, kline, value)));
    for (const kline of this.history?.cache.klines(spec.symbol, spec.interval) ?? []) indicator.feed(kline);
    const series = this.bySeries.get(seriesKey(spec)) ?? [];
    series.push(indicator);
    this.bySeries.set(seriesKey(spec), series);
    return indicator;
  }
}

/** Adds a kline's input to a trading-signals indicator; its result, converted, once it is stable. */
function stepper<I, R, T>(inner: Incremental<I, R>, input: (kline: KlineUpdated) => I, output: (result: R) => T | undefined): (kline: KlineUpdated) => T | undefined {
  return (kline) => {
    const result = inner.update(input(kline), false);
    return result === null || !inner.isStable ? undefined : output(result);
  };
}

/** `step`, telling `probe` each value it answers. */
function probed<T>(step: (kline: KlineUpdated) => T | undefined, probe: (kline: KlineUpdated, value: T) => void): (kline: KlineUpdated) => T | undefined {
  return (kline) => {
    const value = step(kline);
    if (value !== undefined) probe(kline, value);
    return value;
  };
}

function bandsOf(result: { lower: number; middle: number; upper: number }): Bands | undefined {
  const [lower, middle, upper] = [fromFloat(result.lower), fromFloat(result.middle), fromFloat(result.upper)];
  return lower === undefined || middle === undefined || upper === undefined ? undefined : { lower, middle, upper };
}
