import { InvariantError } from '../core/errors.js';
import { barPath, DEFAULT_STEPS_PER_LEG } from '../sim/market-stream/bar-path.js';
import type { BarEvent, MarketEvent } from '../sim/market-stream/events.js';
import type { MarketStreamHeader } from '../sim/market-stream/format.js';
import type { SimInstrument } from '../sim/market-stream/instruments.js';
import { instrumentGrids } from '../sim/market-stream/instruments.js';
import type { StepGrid } from '../sim/market-stream/ticks.js';
import type { RecordingFeed } from '../recording/feed.js';

/** The bar model's settings (`stratd backtest --slippage-bps`). */
export interface BarModel {
  /** Half-spread of the synthetic book around the bar's path, in basis points of the price; at least one tick. */
  readonly slippageBps: number;
  /** Steps each leg of a bar's path is cut into (default 8): a stop fills within a step of its price. */
  readonly stepsPerLeg?: number;
}

export const DEFAULT_BAR_MODEL: BarModel = { slippageBps: 2 };

/** Liquidity of the synthetic book and prints: more than any account's orders, so a fill is never partial. */
const DEPTH_MULTIPLE = 1000;

/** True when any recording holds bars (a downloaded history): the backtest then replays them through the bar model. */
export function hasBars(headers: ReadonlyArray<{ readonly header: MarketStreamHeader }>): boolean {
  return headers.some((h) => h.header.channels.includes('bar'));
}

/** The sentence the report and summary carry for a bar-level backtest. */
export function barModelNote(model: BarModel): string {
  return (
    `fills are bar-modelled (the recording holds bars, not ticks): each bar walks open → low → high → close (rising bar; falling: open → high → low → close); ` +
    `a resting limit fills when the path trades through its price (a buy when a later price is below it; touching it is not a fill); ` +
    `market orders fill at the path's price ± ${model.slippageBps} bps slippage (at least one tick), so one sent on a bar's close fills at the next bar's open; ` +
    `stops and TP/SL trigger when the bar's high or low reaches them`
  );
}

interface Queued {
  readonly event: MarketEvent;
  readonly seq: number;
}

interface Liquidity {
  readonly grid: StepGrid;
  readonly halfSpread: (priceTicks: number) => number;
  readonly size: string;
}

/**
 * The bar model as a market feed: wraps a recording feed and replaces every bar by the events the
 * simulator's engine matches on, at times inside the bar, so the matching engine itself is unchanged.
 * Per point of the bar's path (bar-path.ts), a contract bar gives a depth snapshot one half-spread
 * either side of the price (market orders and triggered stops sweep it) then a print at the price whose
 * size exceeds any order (resting limits it passes through fill in full); a mark or index bar gives a
 * mark or index price. The print's side is chosen so that an order resting exactly at the price does
 * not fill: on a falling step the aggressor is taken as a buyer (a resting buy at the price keeps
 * waiting; resting sells at it were passed through on the way down), on a rising step as a seller; a
 * step that does not move prints nothing. The bar itself is handed on at its end, stamped with that
 * time (`ts` = open time + duration), when a live poller would see it closed. Other events pass through unchanged.
 */
export class BarFeed implements RecordingFeed {
  private readonly queue: Queued[] = [];
  private seq = 0;
  private readonly liquidity = new Map<string, Liquidity>();
  private readonly stepsPerLeg: number;

  constructor(
    private readonly inner: RecordingFeed,
    model: BarModel,
  ) {
    if (!(model.slippageBps >= 0)) throw new InvariantError('BAR_MODEL', `slippage must be ≥ 0 bps, got ${model.slippageBps}`);
    this.stepsPerLeg = model.stepsPerLeg ?? DEFAULT_STEPS_PER_LEG;
    const rate = model.slippageBps / 10_000;
    for (const instrument of inner.instruments) this.liquidity.set(instrument.symbol, liquidityOf(instrument, rate));
  }

  get instruments(): readonly SimInstrument[] {
    return this.inner.instruments;
  }

  get headers(): ReadonlyArray<{ readonly path: string; readonly header: MarketStreamHeader }> {
    return this.inner.headers;
  }

  counts(): ReadonlyArray<{ readonly path: string; readonly events: number }> {
    return this.inner.counts();
  }

  covers(time: number): boolean {
    return this.inner.covers(time);
  }

  load(time: number): Promise<void> {
    return this.inner.load(time);
  }

  exhausted(): boolean {
    return this.queue.length === 0 && this.inner.exhausted();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  peekTime(): number | undefined {
    this.pull();
    return this.queue[0]?.event.ts;
  }

  next(): MarketEvent {
    this.pull();
    const first = this.take();
    if (first === undefined) throw new InvariantError('FEED_EXHAUSTED', 'the market feed has no next event');
    return first.event;
  }

  /**
   * Moves the inner feed's next event into the queue when it comes before the queue's head. One is
   * enough: a pulled event (or its bar's first point) has the time of the inner feed's next one, and
   * whatever the inner feed gives later is no earlier and queues behind it (the inner feed is then
   * asked nothing it has not loaded).
   */
  private pull(): void {
    const innerTime = this.inner.peekTime();
    const head = this.queue[0];
    if (innerTime === undefined || (head !== undefined && head.event.ts <= innerTime)) return;
    const event = this.inner.next();
    if (event.type === 'bar') this.expand(event);
    else this.push(event);
  }

  private expand(bar: BarEvent): void {
    const liquidity = this.liquidity.get(bar.symbol);
    if (liquidity === undefined) return;
    const { grid } = liquidity;
    let previous: number | undefined;
    for (const point of barPath(bar, grid, this.stepsPerLeg)) {
      const price = grid.toText(point.priceTicks);
      const { ts, priceTicks } = point;
      if (bar.source === 'mark' || bar.source === 'index') {
        this.push({ type: bar.source, ts, symbol: bar.symbol, price });
        continue;
      }
      const spread = liquidity.halfSpread(priceTicks);
      const bid = grid.toText(Math.max(1, priceTicks - spread));
      const ask = grid.toText(priceTicks + spread);
      this.push({ type: 'depth', ts, symbol: bar.symbol, bids: [[bid, liquidity.size]], asks: [[ask, liquidity.size]] });
      if (previous !== undefined && priceTicks !== previous) {
        const falling = priceTicks < previous;
        this.push({ type: 'trade', ts, symbol: bar.symbol, id: `bar-${bar.ts}-${ts}`, price, qty: liquidity.size, buyerIsMaker: !falling });
      }
      previous = priceTicks;
    }
    this.push({ ...bar, ts: bar.ts + bar.durationMs });
  }

  private push(event: MarketEvent): void {
    const item: Queued = { event, seq: this.seq++ };
    const queue = this.queue;
    queue.push(item);
    let i = queue.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(item, queue[parent]!)) break;
      queue[i] = queue[parent]!;
      i = parent;
    }
    queue[i] = item;
  }

  private take(): Queued | undefined {
    const queue = this.queue;
    const top = queue[0];
    const last = queue.pop();
    if (top === undefined || last === undefined || queue.length === 0) return top;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= queue.length) break;
      const right = left + 1;
      const child = right < queue.length && before(queue[right]!, queue[left]!) ? right : left;
      if (!before(queue[child]!, last)) break;
      queue[i] = queue[child]!;
      i = child;
    }
    queue[i] = last;
    return top;
  }
}

function before(a: Queued, b: Queued): boolean {
  return a.event.ts < b.event.ts || (a.event.ts === b.event.ts && a.seq < b.seq);
}

function liquidityOf(instrument: SimInstrument, rate: number): Liquidity {
  const { price, quantity } = instrumentGrids(instrument);
  const size = quantity.toText(quantity.toUnits(instrument.maxQuantity) * DEPTH_MULTIPLE);
  return { grid: price, halfSpread: (ticks) => Math.max(1, Math.round(ticks * rate)), size };
}
