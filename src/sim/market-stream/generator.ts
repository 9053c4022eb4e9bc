import type { SymbolDynamics } from './dynamics.js';
import { defaultDynamics } from './dynamics.js';
import type { MarketChannel, MarketEvent } from './events.js';
import { MARKET_CHANNELS } from './events.js';
import type { MarketStreamHeader } from './format.js';
import { MARKET_STREAM_FORMAT, MARKET_STREAM_VERSION } from './format.js';
import { FUNDING_INTERVAL_MS } from './funding.js';
import type { SimInstrument } from './instruments.js';
import { DEFAULT_SIM_INSTRUMENTS } from './instruments.js';
import type { SymbolMarketTiming } from './symbol-market.js';
import { SymbolMarket, TIMER_KIND_COUNT } from './symbol-market.js';
import { TimerHeap } from './timer-heap.js';

// Globals read once: hot loops also run inside jest's vm context, where each global lookup is slow.
const { floor } = Math;

export interface MarketGeneratorConfig {
  /** Same seed and same config give the same events, byte for byte once written. */
  readonly seed: number;
  /** Virtual epoch milliseconds of the first event. */
  readonly startTime: number;
  readonly instruments?: readonly SimInstrument[];
  /** Channels to emit (all by default). The market evolves the same whichever are chosen. */
  readonly channels?: readonly MarketChannel[];
  readonly depthIntervalMs?: number;
  readonly depthLevels?: number;
  readonly markIntervalMs?: number;
  readonly indexIntervalMs?: number;
  /** How often the funding rate is recomputed (published when it changes); must divide 8 h. */
  readonly fundingUpdateMs?: number;
  /** Time step of the price random walk. */
  readonly priceStepMs?: number;
  /** Per-symbol overrides of `defaultDynamics(instrument)`. */
  readonly dynamics?: Readonly<Record<string, SymbolDynamics>>;
}

/**
 * A seeded synthetic market for every instrument, on virtual time: it never reads a clock. Events
 * come out in nondecreasing `ts` across symbols (a heap of per-symbol timers; equal times break by
 * symbol order, then regime, price, depth, trade, mark, index, funding).
 */
export class MarketGenerator {
  readonly seed: number;
  readonly startTime: number;
  readonly instruments: readonly SimInstrument[];
  readonly channels: readonly MarketChannel[];
  private readonly markets: readonly SymbolMarket[];
  private readonly timers: TimerHeap;
  private buffer: MarketEvent[] = [];
  private cursor = 0;

  constructor(config: MarketGeneratorConfig) {
    const instruments = config.instruments ?? DEFAULT_SIM_INSTRUMENTS;
    const channels = config.channels ?? MARKET_CHANNELS;
    const timing: SymbolMarketTiming = {
      startTime: config.startTime,
      depthIntervalMs: config.depthIntervalMs ?? 1000,
      depthLevels: config.depthLevels ?? 25,
      markIntervalMs: config.markIntervalMs ?? 1000,
      indexIntervalMs: config.indexIntervalMs ?? 1000,
      fundingUpdateMs: config.fundingUpdateMs ?? 60_000,
      priceStepMs: config.priceStepMs ?? 100,
    };
    validate(config, instruments, channels, timing);
    this.seed = config.seed;
    this.startTime = config.startTime;
    this.instruments = instruments;
    this.channels = MARKET_CHANNELS.filter((c) => channels.includes(c));
    const emitted = new Set(this.channels);
    this.markets = instruments.map((i) => new SymbolMarket(i, config.dynamics?.[i.symbol] ?? defaultDynamics(i), timing, config.seed, emitted));
    this.timers = new TimerHeap(this.markets.flatMap((m) => m.firstTimes()));
  }

  get symbols(): readonly string[] {
    return this.instruments.map((i) => i.symbol);
  }

  /** The header for a recording of this generator's output. */
  header(): MarketStreamHeader {
    return {
      format: MARKET_STREAM_FORMAT,
      version: MARKET_STREAM_VERSION,
      symbols: this.symbols,
      channels: this.channels,
      instruments: this.instruments,
      startTime: this.startTime,
      source: 'generator',
      seed: this.seed,
    };
  }

  /** The next event (the stream never ends). */
  next(): MarketEvent {
    this.fill();
    const event = this.buffer[this.cursor++];
    if (event === undefined) throw new RangeError('market generator produced nothing');
    return event;
  }

  /** Time of the event `next()` will return. */
  peekTime(): number {
    this.fill();
    return this.buffer[this.cursor]?.ts ?? Number.POSITIVE_INFINITY;
  }

  /** Events with `ts < endTime`, in order; the generator stops just before the first later one. */
  *eventsUntil(endTime: number): Generator<MarketEvent, void, undefined> {
    while (this.peekTime() < endTime) yield this.next();
  }

  /** The current volatility regime of `symbol` (for diagnostics and tests). */
  regime(symbol: string): string {
    const market = this.markets.find((m) => m.symbol === symbol);
    if (market === undefined) throw new RangeError(`unknown symbol ${symbol}`);
    return market.regimeName();
  }

  private fill(): void {
    if (this.cursor < this.buffer.length) return;
    this.buffer = [];
    this.cursor = 0;
    const timers = this.timers;
    while (this.buffer.length === 0) {
      const id = timers.topId();
      const market = this.markets[floor(id / TIMER_KIND_COUNT)];
      if (market === undefined) throw new RangeError('market generator has no markets');
      timers.rescheduleTop(market.run(id % TIMER_KIND_COUNT, timers.topTime(), this.buffer));
    }
  }
}

function validate(
  config: MarketGeneratorConfig,
  instruments: readonly SimInstrument[],
  channels: readonly MarketChannel[],
  timing: SymbolMarketTiming,
): void {
  const fail = (message: string): never => {
    throw new RangeError(`market generator: ${message}`);
  };
  if (!Number.isSafeInteger(config.seed)) fail(`seed must be a safe integer, got ${config.seed}`);
  if (!Number.isSafeInteger(config.startTime) || config.startTime < 0) fail(`startTime must be epoch milliseconds, got ${config.startTime}`);
  if (instruments.length === 0) fail('no instruments');
  if (new Set(instruments.map((i) => i.symbol)).size !== instruments.length) fail('instrument symbols repeat');
  if (channels.length === 0) fail('no channels');
  for (const [name, value] of Object.entries(timing)) {
    if (name !== 'startTime' && (!Number.isSafeInteger(value) || value <= 0)) fail(`${name} must be a positive integer, got ${value}`);
  }
  if (FUNDING_INTERVAL_MS % timing.fundingUpdateMs !== 0) fail('fundingUpdateMs must divide 8 hours');
  for (const instrument of instruments) {
    const dynamics = config.dynamics?.[instrument.symbol];
    for (const regime of dynamics?.regimes ?? []) {
      if (regime.minSpreadTicks < 1 || regime.maxSpreadTicks < regime.minSpreadTicks) fail(`${instrument.symbol}: regime ${regime.name} needs 1 ≤ minSpreadTicks ≤ maxSpreadTicks`);
      if (regime.meanDurationMs <= 0 || regime.takerOrdersPerSecond < 0 || regime.annualVolatility < 0) fail(`${instrument.symbol}: regime ${regime.name} has a negative or zero parameter`);
    }
    if (dynamics !== undefined && dynamics.regimes.length === 0) fail(`${instrument.symbol}: at least one regime is needed`);
  }
}
