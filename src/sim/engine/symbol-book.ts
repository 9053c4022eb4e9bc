import type { Decimal } from '../../core/decimal.js';
import { decimalOfText } from '../../core/decimal-cache.js';
import type { DepthEvent, PriceLevel } from '../market-stream/events.js';
import { bestAskPrice, bestBidPrice } from '../market-stream/events.js';
import type { SimInstrument } from '../market-stream/instruments.js';
import type { StepGrid } from '../market-stream/ticks.js';
import { instrumentGrids } from '../market-stream/instruments.js';
import { scaledText } from '../market-stream/ticks.js';
import type { ContractFilters } from './contract-filters.js';
import { contractFilters } from './contract-filters.js';
import type { OrderRecord } from './order-record.js';
import { GridDecimals } from './grid-decimals.js';
import { RiskTiers } from './risk-tiers.js';
import { emptyObjectArray } from '../../core/empty-arrays.js';

// Globals read once: this is the matching hot path (see ticks.ts).
const { min } = Math;

/** One execution the book decided on; the exchange applies it to the order and the account. */
export interface Fill {
  readonly order: OrderRecord;
  readonly lots: number;
  readonly priceTicks: number;
  readonly isMaker: boolean;
}

/**
 * A book's prices in ticks with the decimals of its price grid: what a market event's reader takes, just
 * after the engine applied the event, instead of parsing the event's price text again.
 */
export type BookPrices = Pick<SymbolBook, 'bestBidTicks' | 'bestAskTicks' | 'lastTicks' | 'markTicks' | 'indexTicks' | 'priceDecimals'>;

/** A fraction a ticks field is first stored with, so V8 keeps it as a double (then set to 0). */
const DOUBLE_SEED = 0.5;

/**
 * One symbol's market as the account's orders see it, and the account orders resting on it.
 *
 * Fill model (DESIGN.md): a marketable order sweeps the visible depth level by level; liquidity it took
 * stays taken until the next depth snapshot. A resting limit order fills when a public trade prints
 * through its price, or at its price once the quantity queued ahead of it there has traded; and when a
 * new snapshot shows the opposite side crossing its price (the market moved through it). Resting fills
 * are maker fills at the order's own price. Everything here is integer ticks and lots.
 */
export class SymbolBook {
  readonly instrument: SimInstrument;
  readonly filters: ContractFilters;
  /** The filters' price-band rates and open-order cap as numbers, read once from their (fixed) text: every order is checked against them. */
  readonly rates: { readonly limitBuy: number; readonly limitSell: number; readonly marketBuy: number; readonly marketSell: number; readonly marketV1: number };
  readonly maxOpenOrders: number;
  /** PRICE_FILTER's bounds as ticks, read from the filters' (fixed) text once; null when either is off the grid (each check then compares decimals). */
  readonly priceBounds: { readonly min: number; readonly max: number } | null;
  readonly price: StepGrid;
  readonly qty: StepGrid;
  /** Decimals of ticks and lots on those grids (`priceDecimals.of(ticks)`), each made once. */
  readonly priceDecimals: GridDecimals;
  readonly qtyDecimals: GridDecimals;
  /** The contract multiplier's digits (undefined beyond 2^53: notionals in decimals). */
  readonly multiplier: { readonly units: number; readonly decimals: number } | undefined;
  /** The instrument's (fixed) fee rates and multiplier as decimals, made once: every fill and opening order reads them. */
  readonly makerFeeRate: Decimal;
  readonly takerFeeRate: Decimal;
  readonly multiplierDecimal: Decimal;
  /** MIN_NOTIONAL and the risk-limit tiers, read from their (fixed) text once: every opening order is checked against them. */
  readonly minNotional: Decimal;
  readonly tiers: RiskTiers;
  /**
   * 0 until the first event of the kind. Double fields from the first store (see the constructor): a
   * price's units may reach it as a small integer or as an integer-valued double (a typed array's value,
   * as the prepared feed's were once), and a field that moved from the first representation to the other
   * mid-process gave every book a new hidden class,
   * deoptimizing the code optimized on the old one (sweep, rest, bandTicks, the order checks).
   */
  lastTicks = DOUBLE_SEED;
  markTicks = DOUBLE_SEED;
  indexTicks = DOUBLE_SEED;
  bestBidTicks = DOUBLE_SEED;
  bestAskTicks = DOUBLE_SEED;
  depth: DepthEvent | undefined;
  /**
   * The engine's `markDecimal` of this book, remembered with the ticks it was made of (0: none yet):
   * every account figure, position view and liquidation check reads the mark, many times per price,
   * and formatting the ticks to look the text up cost more than the figures that use it. A field of the
   * book, not an entry of a map keyed by it: read ~70,000 times per backtest of the sample.
   */
  markMemoTicks = DOUBLE_SEED;
  markMemo: Decimal | undefined;
  /** Lots this account's taker orders took per price since the last snapshot. */
  private readonly takenBids = new Map<number, number>();
  private readonly takenAsks = new Map<number, number>();
  /** Resting buys, best (highest) price first, then time; sells lowest first. */
  readonly buys: OrderRecord[] = emptyObjectArray();
  readonly sells: OrderRecord[] = emptyObjectArray();
  private restCounter = 0;

  constructor(instrument: SimInstrument) {
    this.instrument = instrument;
    this.filters = contractFilters(instrument);
    const { limitTrading, marketTrading } = this.filters;
    this.rates = {
      limitBuy: Number(limitTrading.buyPriceUpRate),
      limitSell: Number(limitTrading.sellPriceDownRate),
      marketBuy: Number(marketTrading.buyPriceUpRate),
      marketSell: Number(marketTrading.sellPriceDownRate),
      marketV1: Number(this.filters.marketPriceRate),
    };
    this.maxOpenOrders = Number(limitTrading.maxEntrustNum);
    const grids = instrumentGrids(instrument);
    this.price = grids.price;
    this.qty = grids.quantity;
    const minPriceTicks = this.price.tryUnits(this.filters.priceFilter.minPrice);
    const maxPriceTicks = this.price.tryUnits(this.filters.priceFilter.maxPrice);
    this.priceBounds = minPriceTicks === undefined || maxPriceTicks === undefined ? null : { min: minPriceTicks, max: maxPriceTicks };
    // Market events' prices read through it too (every best bid and ask, trade and mark): as many as the shared text cache holds.
    this.priceDecimals = new GridDecimals(grids.price, 100_000);
    this.qtyDecimals = new GridDecimals(grids.quantity);
    this.multiplier = scaledText(instrument.contractMultiplier);
    this.makerFeeRate = decimalOfText(instrument.makerFeeRate);
    this.takerFeeRate = decimalOfText(instrument.takerFeeRate);
    this.multiplierDecimal = decimalOfText(instrument.contractMultiplier);
    this.minNotional = decimalOfText(this.filters.minNotional);
    this.tiers = new RiskTiers(instrument.riskLimits, this.qty, this.qtyDecimals);
    this.lastTicks = this.markTicks = this.indexTicks = this.bestBidTicks = this.bestAskTicks = this.markMemoTicks = 0;
  }

  /** LOT_SIZE's bounds as lots, read from the instrument's text once (each order is checked against them); a bound off the grid throws as each check did. */
  get lotBounds(): { readonly min: number; readonly max: number } {
    return (this.lotBoundsMemo ??= { min: this.qty.toUnits(this.instrument.minQuantity), max: this.qty.toUnits(this.instrument.maxQuantity) });
  }

  private lotBoundsMemo: { readonly min: number; readonly max: number } | undefined;

  get restingCount(): number {
    return this.buys.length + this.sells.length;
  }

  /**
   * A new snapshot; returns the maker fills of resting orders the market moved through. `bidTicks`,
   * `askTicks`: its best prices as ticks when the caller knows them (undefined: from the event's text).
   */
  applyDepth(event: DepthEvent, bidTicks?: number, askTicks?: number): Fill[] | undefined {
    this.depth = event;
    if (this.takenBids.size > 0) this.takenBids.clear();
    if (this.takenAsks.size > 0) this.takenAsks.clear();
    // The best prices alone: a prepared recording's event builds its sides only when they are read.
    this.bestBidTicks = bidTicks ?? this.ticksOf(bestBidPrice(event));
    this.bestAskTicks = askTicks ?? this.ticksOf(bestAskPrice(event));
    let fills: Fill[] | undefined;
    const topBuy = this.buys[0];
    if (topBuy !== undefined && this.bestAskTicks > 0 && this.bestAskTicks <= topBuy.priceTicks) {
      fills = [];
      for (const order of this.buys) {
        if (order.priceTicks < this.bestAskTicks) break;
        this.sweepInto(fills, order, true, order.priceTicks, order.remainingLots, true);
      }
    }
    const topSell = this.sells[0];
    if (topSell !== undefined && this.bestBidTicks > 0 && this.bestBidTicks >= topSell.priceTicks) {
      fills ??= [];
      for (const order of this.sells) {
        if (order.priceTicks > this.bestBidTicks) break;
        this.sweepInto(fills, order, false, order.priceTicks, order.remainingLots, true);
      }
    }
    return fills;
  }

  /** Ticks of a best price's text, 0 without one. */
  private ticksOf(price: string | undefined): number {
    return price === undefined ? 0 : this.price.toUnits(price);
  }

  /** A public trade; returns the maker fills of resting orders it reached. */
  applyTrade(priceTicks: number, qtyText: string, buyerIsMaker: boolean): Fill[] | undefined {
    this.lastTicks = priceTicks;
    const topBuy = this.buys[0];
    const topSell = this.sells[0];
    const reachesBuys = topBuy !== undefined && topBuy.priceTicks >= priceTicks;
    const reachesSells = topSell !== undefined && topSell.priceTicks <= priceTicks;
    if (!reachesBuys && !reachesSells) return undefined;
    let left = this.qty.toUnits(qtyText);
    const fills: Fill[] = [];
    if (reachesBuys) left = this.tradeAgainst(fills, this.buys, true, priceTicks, left, buyerIsMaker);
    if (reachesSells && left > 0) this.tradeAgainst(fills, this.sells, false, priceTicks, left, !buyerIsMaker);
    return fills;
  }

  private tradeAgainst(fills: Fill[], side: readonly OrderRecord[], isBuySide: boolean, priceTicks: number, lots: number, aggressorHitsThisSide: boolean): number {
    let left = lots;
    let levelTicks = -1;
    let levelVisible = 0;
    for (const order of side) {
      if (left <= 0) break;
      const through = isBuySide ? order.priceTicks > priceTicks : order.priceTicks < priceTicks;
      if (!through) {
        if (order.priceTicks !== priceTicks) break;
        // At the order's own price only trades hitting this side count, and the queue ahead goes first.
        if (!aggressorHitsThisSide) break;
        if (levelTicks !== priceTicks) {
          levelTicks = priceTicks;
          levelVisible = this.visibleLots(isBuySide, priceTicks);
        }
        if (order.queueAheadLots > levelVisible) order.queueAheadLots = levelVisible;
        const eaten = min(order.queueAheadLots, left);
        order.queueAheadLots -= eaten;
        left -= eaten;
        if (left <= 0) break;
      }
      const lotsFilled = min(order.remainingLots, left);
      if (lotsFilled > 0) {
        fills.push({ order, lots: lotsFilled, priceTicks: order.priceTicks, isMaker: true });
        left -= lotsFilled;
      }
    }
    return left;
  }

  /**
   * Taker sweep of the opposite side for `order` (a buy takes asks up to `limitTicks`), at most `maxLots`.
   * With `commit` false nothing is recorded and the fills only tell what is available (FOK, POST_ONLY).
   */
  sweep(order: OrderRecord, limitTicks: number, maxLots: number, commit: boolean): Fill[] {
    const fills: Fill[] = [];
    this.sweepInto(fills, order, order.isBuy, limitTicks, maxLots, false, commit);
    return fills;
  }

  private sweepInto(fills: Fill[], order: OrderRecord, buying: boolean, limitTicks: number, maxLots: number, asMaker: boolean, commit = true): void {
    const levels: readonly PriceLevel[] | undefined = buying ? this.depth?.asks : this.depth?.bids;
    if (levels === undefined) return;
    const taken = buying ? this.takenAsks : this.takenBids;
    let need = maxLots;
    // Indexed, the pair read by position: no iterator and no destructuring per level.
    for (let i = 0; i < levels.length && need > 0; i++) {
      const level = levels[i] as PriceLevel;
      const levelTicks = this.price.toUnits(level[0]);
      if (buying ? levelTicks > limitTicks : levelTicks < limitTicks) break;
      const available = this.qty.toUnits(level[1]) - (taken.get(levelTicks) ?? 0);
      if (available <= 0) continue;
      const lots = min(available, need);
      need -= lots;
      if (commit) taken.set(levelTicks, (taken.get(levelTicks) ?? 0) + lots);
      fills.push({ order, lots, priceTicks: asMaker ? order.priceTicks : levelTicks, isMaker: asMaker });
    }
  }

  /** Visible lots at a price on one side of the latest snapshot, less what this account took there. */
  visibleLots(bidSide: boolean, priceTicks: number): number {
    // A price better than the side's best (the snapshot's first level) has nothing ahead: the side's levels are not read (a prepared snapshot builds them on the first read).
    if (bidSide ? this.bestBidTicks > 0 && priceTicks > this.bestBidTicks : this.bestAskTicks > 0 && priceTicks < this.bestAskTicks) return 0;
    const levels = bidSide ? this.depth?.bids : this.depth?.asks;
    if (levels === undefined) return 0;
    for (let i = 0; i < levels.length; i++) {
      const level = levels[i] as PriceLevel;
      const ticks = this.price.toUnits(level[0]);
      if (ticks === priceTicks) return this.qty.toUnits(level[1]) - ((bidSide ? this.takenBids : this.takenAsks).get(ticks) ?? 0);
      if (bidSide ? ticks < priceTicks : ticks > priceTicks) return 0;
    }
    return 0;
  }

  /** Puts an order on the book behind everything visible at its price. */
  rest(order: OrderRecord, keepQueue = false): void {
    if (!keepQueue) {
      order.queueAheadLots = this.visibleLots(order.isBuy, order.priceTicks);
      order.restSeq = ++this.restCounter;
    }
    order.resting = true;
    const side = order.isBuy ? this.buys : this.sells;
    let i = side.length;
    while (i > 0) {
      const other = side[i - 1];
      if (other === undefined) break;
      const better = order.isBuy ? other.priceTicks > order.priceTicks : other.priceTicks < order.priceTicks;
      if (better || (other.priceTicks === order.priceTicks && other.restSeq < order.restSeq)) break;
      i--;
    }
    side.splice(i, 0, order);
  }

  remove(order: OrderRecord): void {
    if (!order.resting) return;
    const side = order.isBuy ? this.buys : this.sells;
    const at = side.indexOf(order);
    if (at >= 0) side.splice(at, 1);
    order.resting = false;
  }

  /** The price a market order may not pass, or that a limit order may not exceed: last (or mark) ± rate (one of `rates`). */
  bandTicks(buying: boolean, rate: number): number | undefined {
    const reference = this.lastTicks > 0 ? this.lastTicks : this.markTicks;
    if (reference === 0) return undefined;
    // Integer ticks: round toward the reference so the band is never wider than the rate.
    return buying ? Math.floor(reference * (1 + rate)) : Math.ceil(reference * (1 - rate));
  }
}
