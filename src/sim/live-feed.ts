import type { MarketFeed } from './engine/sim-exchange.js';
import type { DepthEvent, FundingEvent, FundingPeriod, MarketEvent } from './market-stream/events.js';
import { eventAt } from './market-stream/events.js';

export interface LiveMarketFeedOptions {
  /**
   * A book is withdrawn once this much time has passed since its snapshot arrived with no newer one:
   * the feed then emits an empty depth snapshot, so nothing fills against the old one (paper on a live
   * market whose depth polls fail or lag).
   */
  readonly maxBookAgeMs: number;
}

const PERIOD_MS: Readonly<Record<FundingPeriod, number>> = { '1H': 3_600_000, '4H': 4 * 3_600_000, '8H': 8 * 3_600_000 };

interface SymbolState {
  /** When the book in force goes stale; undefined while there is none (never had one, or withdrawn). */
  bookExpiresAt: number | undefined;
  /** The funding rate in force and the boundary it settles at. */
  funding: FundingEvent | undefined;
}

/**
 * A market pushed from outside (the paper daemon's live feed: the real exchange's public market data,
 * each event stamped with the time it arrived) as the engine's MarketFeed, beside the generator and the
 * replay. It never invents a price. It adds two kinds of event of its own, both derived only from what
 * was pushed and so the same in the engine's recording and in a backtest of it:
 * - an empty depth snapshot when the latest book gets older than `maxBookAgeMs` (a gap in the feed);
 * - at a funding boundary the latest funding event named, the boundary itself (the same rate, the next
 *   boundary one period on), so the engine settles the interval at that time with the published rate,
 *   not a poll later. A later poll's rate for the new interval then replaces it.
 * Events leave in time order; a pushed event earlier than the last one is moved up to it.
 */
export class LiveMarketFeed implements MarketFeed {
  private readonly queue: MarketEvent[] = [];
  private head = 0;
  private lastTs = Number.NEGATIVE_INFINITY;
  /** The latest time the engine advanced to (`advancedTo`): it may have acted at that instant already. */
  private advancedThrough = Number.NEGATIVE_INFINITY;
  private readonly symbols = new Map<string, SymbolState>();
  private withdrawn = 0;
  private boundaries = 0;

  constructor(private readonly options: LiveMarketFeedOptions) {
    if (!(Number.isFinite(options.maxBookAgeMs) && options.maxBookAgeMs > 0)) throw new RangeError(`maxBookAgeMs must be positive, got ${options.maxBookAgeMs}`);
  }

  /** Books withdrawn for age and funding boundaries emitted so far. */
  get counts(): { readonly booksWithdrawn: number; readonly fundingBoundaries: number } {
    return { booksWithdrawn: this.withdrawn, fundingBoundaries: this.boundaries };
  }

  /** Whether a symbol has a book in force (a snapshot not older than maxBookAgeMs at `now`). */
  hasBook(symbol: string, now: number): boolean {
    const expires = this.symbols.get(symbol)?.bookExpiresAt;
    return expires !== undefined && now <= expires;
  }

  /**
   * Queues one event (its `ts`: when it arrived). A funding event older than the one in force is dropped
   * (false). One that arrives once the engine has advanced to its instant is stamped a millisecond after
   * it: the engine may have matched an order there already, against the market before this event, and a
   * backtest of the recording applies an instant's market events before the orders of that instant.
   */
  push(event: MarketEvent): boolean {
    const ts = Math.max(event.ts, this.lastTs, this.advancedThrough + 1);
    this.materializeBefore(ts, event);
    const state = this.stateOf(event.symbol);
    const queued: MarketEvent = ts === event.ts ? event : eventAt(event, ts);
    if (queued.type === 'depth') {
      state.bookExpiresAt = queued.bids.length + queued.asks.length === 0 ? undefined : ts + this.options.maxBookAgeMs;
    } else if (queued.type === 'funding') {
      const current = state.funding;
      // A reply still naming a boundary already passed says nothing new: the interval settled.
      if (current !== undefined && queued.nextFundingTime < current.nextFundingTime) return false;
      state.funding = queued;
    }
    this.enqueue(queued);
    return true;
  }

  advancedTo(time: number): void {
    if (time > this.advancedThrough) this.advancedThrough = time;
  }

  peekTime(): number | undefined {
    const queued = this.queue[this.head];
    if (queued !== undefined) return queued.ts;
    const due = this.nextDue();
    return due === undefined ? undefined : Math.max(due.at, this.lastTs);
  }

  next(): MarketEvent {
    if (this.head >= this.queue.length) {
      const due = this.nextDue();
      if (due === undefined) throw new RangeError('live feed: no event is queued or due');
      this.emitDue(due.symbol, due.kind, Math.max(due.at, this.lastTs));
    }
    const event = this.queue[this.head++];
    if (event === undefined) throw new RangeError('live feed: no event is queued');
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    return event;
  }

  /** Emits, in time order, every feed event due before an event pushed at `ts` (not the boundary that event itself moves on). */
  private materializeBefore(ts: number, pushed: MarketEvent): void {
    for (let due = this.nextDue(); due !== undefined; due = this.nextDue()) {
      const before = due.kind === 'book' ? due.at < ts : due.at <= ts && !(pushed.type === 'funding' && pushed.symbol === due.symbol && pushed.nextFundingTime > due.at);
      if (!before) return;
      this.emitDue(due.symbol, due.kind, Math.max(due.at, this.lastTs));
    }
  }

  private nextDue(): { readonly symbol: string; readonly kind: 'book' | 'funding'; readonly at: number } | undefined {
    let best: { symbol: string; kind: 'book' | 'funding'; at: number } | undefined;
    for (const [symbol, state] of this.symbols) {
      if (state.bookExpiresAt !== undefined && (best === undefined || state.bookExpiresAt < best.at)) best = { symbol, kind: 'book', at: state.bookExpiresAt };
      const boundary = state.funding?.nextFundingTime;
      if (boundary !== undefined && (best === undefined || boundary < best.at)) best = { symbol, kind: 'funding', at: boundary };
    }
    return best;
  }

  private emitDue(symbol: string, kind: 'book' | 'funding', ts: number): void {
    const state = this.stateOf(symbol);
    if (kind === 'book') {
      state.bookExpiresAt = undefined;
      this.withdrawn++;
      const empty: DepthEvent = { type: 'depth', ts, symbol, bids: [], asks: [] };
      this.enqueue(empty);
      return;
    }
    const current = state.funding;
    if (current === undefined) return;
    const boundary: FundingEvent = { ...current, ts, nextFundingTime: current.nextFundingTime + PERIOD_MS[current.period] };
    state.funding = boundary;
    this.boundaries++;
    this.enqueue(boundary);
  }

  private enqueue(event: MarketEvent): void {
    this.lastTs = event.ts;
    this.queue.push(event);
  }

  private stateOf(symbol: string): SymbolState {
    let state = this.symbols.get(symbol);
    if (state === undefined) {
      state = { bookExpiresAt: undefined, funding: undefined };
      this.symbols.set(symbol, state);
    }
    return state;
  }
}
