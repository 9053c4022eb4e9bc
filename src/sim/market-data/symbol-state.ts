import type { DepthEvent, FundingEvent, IndexPriceEvent, MarkPriceEvent, TradeEvent } from '../market-stream/events.js';
import type { SimInstrument } from '../market-stream/instruments.js';
import { quoteProduct } from './klines/candle.js';
import { FundingState } from './funding-state.js';
import { GridText } from './grid-text.js';
import { KlineSet } from './klines/set.js';
import { OpenInterestModel } from './open-interest.js';
import { RecentTrades } from './recent-trades.js';
import { RollingAverage } from './rolling-average.js';

/** The index `edp`: average of the last 10 minutes (document 001). */
export const EDP_WINDOW_MS = 10 * 60_000;

export interface SymbolStateOptions {
  readonly klineRetention: number;
  readonly tradeBuffer: number;
}

/**
 * Everything the public face knows about one contract, kept on integer grids as events arrive. Before
 * the first trade, mark or index event the market stands at the instrument's initial price.
 */
export class SymbolState {
  readonly grid: GridText;
  readonly trades: RecentTrades;
  readonly tradeKlines: KlineSet;
  readonly indexKlines: KlineSet;
  readonly markKlines: KlineSet;
  readonly indexAverage = new RollingAverage(EDP_WINDOW_MS);
  readonly funding: FundingState;
  readonly openInterest: OpenInterestModel;

  depth: DepthEvent | undefined;
  lastTicks: number;
  markTicks: number;
  markTime: number | undefined;
  indexTicks: number;
  indexTime: number | undefined;
  /** Time of the first event of any kind. */
  firstTime: number | undefined;
  /** Events whose price or size was off the instrument's grid (ignored). */
  offGrid = 0;

  constructor(
    readonly instrument: SimInstrument,
    options: SymbolStateOptions,
  ) {
    this.grid = new GridText(instrument);
    this.trades = new RecentTrades(options.tradeBuffer);
    this.tradeKlines = new KlineSet(options.klineRetention);
    this.indexKlines = new KlineSet(options.klineRetention);
    this.markKlines = new KlineSet(options.klineRetention);
    this.funding = new FundingState(instrument.symbol);
    this.openInterest = new OpenInterestModel(
      instrument.symbol,
      Number(instrument.initialPrice),
      Number(instrument.contractMultiplier),
      Number(instrument.quantityStep),
    );
    const start = this.grid.price.nearestUnits(Number(instrument.initialPrice));
    this.lastTicks = start;
    this.markTicks = start;
    this.indexTicks = start;
  }

  onDepth(event: DepthEvent): void {
    this.seen(event.ts);
    this.depth = event;
  }

  onTrade(event: TradeEvent): void {
    const ticks = this.grid.price.tryUnits(event.price);
    const lots = this.grid.quantity.tryUnits(event.qty);
    if (ticks === undefined || lots === undefined) {
      this.offGrid++;
      return;
    }
    this.seen(event.ts);
    this.lastTicks = ticks;
    this.tradeKlines.addTrade(event.ts, ticks, lots, quoteProduct(ticks, lots), !event.buyerIsMaker);
    this.trades.push(event);
    this.openInterest.onTrade(event.id, lots);
  }

  onMark(event: MarkPriceEvent): void {
    const ticks = this.grid.price.tryUnits(event.price);
    if (ticks === undefined) {
      this.offGrid++;
      return;
    }
    this.seen(event.ts);
    this.markTicks = ticks;
    this.markTime = event.ts;
    this.markKlines.addPrice(event.ts, ticks);
  }

  onIndex(event: IndexPriceEvent): void {
    const ticks = this.grid.price.tryUnits(event.price);
    if (ticks === undefined) {
      this.offGrid++;
      return;
    }
    this.seen(event.ts);
    this.indexTicks = ticks;
    this.indexTime = event.ts;
    this.indexKlines.addPrice(event.ts, ticks);
    this.indexAverage.add(event.ts, ticks);
  }

  onFunding(event: FundingEvent, nextSettlementId: () => number): void {
    this.seen(event.ts);
    this.funding.onEvent(event, nextSettlementId);
  }

  private seen(ts: number): void {
    if (this.firstTime === undefined) this.firstTime = ts;
  }
}
