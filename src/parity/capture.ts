import type { Clock } from '../core/clock.js';
import type { SimExchange } from '../sim/engine/sim-exchange.js';
import type { MarketEvent } from '../sim/market-stream/events.js';
import { MARKET_CHANNELS } from '../sim/market-stream/events.js';
import { MARKET_STREAM_FORMAT, MARKET_STREAM_VERSION } from '../sim/market-stream/format.js';
import { MarketStreamWriter } from '../sim/market-stream/writer.js';
import { fillOf, orderSnapshotOfEvent } from '../sim/port/snapshots.js';
import type { OrderSnapshot } from '../model/orders.js';
import type { FillRecord, OrderRow } from '../backtest/types.js';

export interface EngineCaptureOptions {
  /** The embedded simulator's engine the paper daemon trades against. */
  readonly engine: SimExchange;
  /** The account whose fills are the live side of the comparison. */
  readonly userId: string;
  /** Where the market stream goes (a market-stream recording, plain JSON Lines). */
  readonly path: string;
  readonly clock: Clock;
}

export interface EngineCaptureResult {
  readonly path: string;
  /** The engine's market start: the recording holds every event from here (the simulator's warm-up too). */
  readonly startTime: number;
  readonly endTime: number;
  readonly events: number;
  /** The account's fills, in the order the engine made them. */
  readonly fills: readonly FillRecord[];
  /** The account's orders as first placed (time) and last seen, in placement order. */
  readonly orders: readonly OrderRow[];
}

/** Which strategy placed an order (the live kernel's executor); undefined: nobody's. */
export type OwnerOf = (clientOrderId: string) => string | undefined;

/**
 * Records the simulator engine's own market stream (every event it applies, exactly what a backtest
 * replays) and the account's fills as the engine makes them. Attached to a fresh engine (before its
 * market moves), nothing the engine ever matched against is missing from the recording; unlike the
 * daemon's recorder, which writes the polled view.
 */
export class EngineCapture {
  private readonly writer: MarketStreamWriter;
  private readonly fills: Array<Omit<FillRecord, 'strategy'>> = [];
  private readonly orders = new Map<string, { readonly createTime: number; order: OrderSnapshot }>();
  private readonly disposers: Array<() => void> = [];
  private readonly startTime: number;
  private events = 0;
  private failure: unknown;

  constructor(private readonly options: EngineCaptureOptions) {
    const { engine } = options;
    this.startTime = engine.now();
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
        if (event.userId !== options.userId) return;
        if (event.type === 'order') {
          const order = orderSnapshotOfEvent(event);
          const known = this.orders.get(order.orderId);
          if (known === undefined) this.orders.set(order.orderId, { createTime: event.time, order });
          else known.order = order;
        } else if (event.type === 'trade') {
          this.fills.push({ ...fillOf(event.trade), isClose: event.trade.isClose });
        }
      }),
    );
  }

  private onMarket(event: MarketEvent): void {
    if (this.failure !== undefined) return;
    try {
      this.writer.write(event);
      this.events++;
    } catch (error: unknown) {
      this.failure = error;
    }
  }

  /** Detaches and closes the file; a write failure is thrown here. Fills are attributed with `ownerOf`. */
  async stop(ownerOf: OwnerOf): Promise<EngineCaptureResult> {
    for (const dispose of this.disposers.splice(0)) dispose();
    await this.writer.close();
    if (this.failure !== undefined) throw this.failure;
    const endTime = Math.max(this.startTime, this.options.clock.now());
    const fills = this.fills.map((fill) => ({ ...fill, strategy: ownerOf(fill.clientOrderId) ?? '' }));
    const orders = [...this.orders.values()].map(({ createTime, order }) => ({ createTime, order, strategy: ownerOf(order.clientOrderId) ?? '' }));
    return { path: this.options.path, startTime: this.startTime, endTime, events: this.events, fills, orders };
  }
}
