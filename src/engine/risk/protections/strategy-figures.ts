import type { Decimal } from '../../../core/decimal.js';
import { dec } from '../../../core/decimal.js';
import { positionKey } from '../../../model/account.js';
import type { CacheView } from '../../../model/cache-view.js';
import type { PositionSide } from '../../../model/instrument.js';
import { isOpening } from '../../../model/instrument.js';
import type { Fill } from '../../../model/orders.js';

/** A strategy's own part of one position side. */
export interface OwnPosition {
  readonly symbol: string;
  readonly positionSide: PositionSide;
  readonly qty: Decimal;
  readonly avgPrice: Decimal;
}

/**
 * What the protections need of one strategy: its own positions and its PnL (realized − fees + unrealized
 * at mark). The small port a per-strategy ledger can feed later; `FillFigures` computes it from the
 * strategy's own fills until then.
 */
export interface StrategyFigures {
  positions(strategyId: string): readonly OwnPosition[];
  pnl(strategyId: string): Decimal;
}

interface Book {
  realized: Decimal;
  readonly sides: Map<string, { symbol: string; positionSide: PositionSide; qty: Decimal; avgPrice: Decimal }>;
}

/** Per-strategy positions and PnL from the fills of the strategy's orders (owner by client order id). */
export class FillFigures implements StrategyFigures {
  private readonly books = new Map<string, Book>();

  constructor(private readonly cache: CacheView) {}

  /** Books a fill of `owner`'s order (fills of no strategy's orders are not booked). */
  onFill(owner: string, fill: Fill): void {
    let book = this.books.get(owner);
    if (book === undefined) {
      book = { realized: dec(0), sides: new Map() };
      this.books.set(owner, book);
    }
    book.realized = book.realized.add(fill.realizedPnl).sub(fill.fee);
    const key = positionKey(fill.symbol, fill.positionSide);
    const side = book.sides.get(key) ?? { symbol: fill.symbol, positionSide: fill.positionSide, qty: dec(0), avgPrice: dec(0) };
    if (isOpening(fill.side, fill.positionSide)) {
      const qty = side.qty.add(fill.qty);
      side.avgPrice = side.avgPrice.mul(side.qty).add(fill.price.mul(fill.qty)).div(qty);
      side.qty = qty;
    } else {
      side.qty = side.qty.sub(fill.qty);
      if (side.qty.lte(0)) {
        side.qty = dec(0);
        side.avgPrice = dec(0);
      }
    }
    book.sides.set(key, side);
  }

  positions(strategyId: string): readonly OwnPosition[] {
    const book = this.books.get(strategyId);
    if (book === undefined) return [];
    return [...book.sides.values()].filter((s) => s.qty.gt(0)).map((s) => ({ ...s }));
  }

  pnl(strategyId: string): Decimal {
    const book = this.books.get(strategyId);
    if (book === undefined) return dec(0);
    let total = book.realized;
    for (const side of book.sides.values()) {
      if (side.qty.isZero()) continue;
      const mark = this.cache.markPrice(side.symbol);
      const instrument = this.cache.instrument(side.symbol);
      if (mark === undefined || instrument === undefined) continue;
      const move = side.positionSide === 'LONG' ? mark.sub(side.avgPrice) : side.avgPrice.sub(mark);
      total = total.add(move.mul(side.qty).mul(instrument.contractMultiplier));
    }
    return total;
  }
}
