import type { Clock } from '../core/clock.js';
import type { SimExchange } from '../sim/engine/sim-exchange.js';
import type { MarketEvent } from '../sim/market-stream/events.js';
import { MARKET_CHANNELS } from '../sim/market-stream/events.js';
import { MARKET_STREAM_FORMAT, MARKET_STREAM_VERSION } from '../sim/market-stream/format.js';
import { MarketStreamWriter } from '../sim/market-stream/writer.js';
import { fillOf } from '../sim/port/sim-snapshots.js';
import type { FillRecord } from './backtest-types.js';

export interface EngineCaptureOptions {
  /** The embedded simulator's engine the paper daemon trades against. */
  readonly engine: SimExchange;
  /** The account whose fills are the live side of the comparison. */
  readonly userId: string;
  /** Where the market stream goes (a market-stream recording, plain JSON Lines). */
  readonly path: string;
  readonly clock: Clock;
  /** Which strategy placed an order (the live kernel's executor); undefined: nobody's. */
  readonly ownerOf: (clientOrderId: string) => string | undefined;
}

export interface EngineCaptureResult {
  readonly path: string;
  readonly startTime: number;
  readonly endTime: number;
  readonly events: number;
  /** The account's fills, in the order the engine made them. */
  readonly fills: readonly FillRecord[];
}

/**
 * Records the simulator engine's own market stream (every event it applies, exactly what a backtest
 * replays) and the account's fills as the engine makes them. Unlike the daemon's recorder (the polled
 * view, which misses what happens between polls and the polls before it attaches), this is exact from
 * the moment it attaches: nothing the engine matched against is missing from the recording.
 */
export class EngineCapture {
  private readonly writer: MarketStreamWriter;
  private readonly fills: FillRecord[] = [];
  private readonly disposers: Array<() => void> = [];
  private readonly startTime: number;
  private events = 0;
  private failure: unknown;

  constructor(private readonly options: EngineCaptureOptions) {
    const { engine } = options;
    this.startTime = options.clock.now();
    this.writer = MarketStreamWriter.open(
      options.path,
      {
        format: MARKET_STREAM_FORMAT,
        version: MARKET_STREAM_VERSION,
        symbols: engine.instruments.map((i) => i.symbol),
        channels: [...MARKET_CHANNELS],
        instruments: engine.instruments,
        startTime: this.startTime,
        source: 'recorder',
      },
      { flush: 'buffered' },
    );
    this.disposers.push(engine.onMarketEvent((event) => this.onMarket(event)));
    this.disposers.push(
      engine.onAccountEvent((event) => {
        if (event.userId !== options.userId || event.type !== 'trade') return;
        const view = event.trade;
        this.fills.push({ ...fillOf(view), strategy: options.ownerOf(view.clientOrderId) ?? '', isClose: view.isClose });
      }),
    );
  }

  private onMarket(event: MarketEvent): void {
    if (this.failure !== undefined || event.ts < this.startTime) return;
    try {
      this.writer.write(event);
      this.events++;
    } catch (error: unknown) {
      this.failure = error;
    }
  }

  /** Detaches and closes the file; a write failure is thrown here. */
  async stop(): Promise<EngineCaptureResult> {
    for (const dispose of this.disposers.splice(0)) dispose();
    await this.writer.close();
    if (this.failure !== undefined) throw this.failure;
    const endTime = Math.max(this.startTime, this.options.clock.now());
    return { path: this.options.path, startTime: this.startTime, endTime, events: this.events, fills: this.fills };
  }
}
