import type { Decimal } from '../core/decimal.js';
import { dec } from '../core/decimal.js';
import type { FillRecord } from './types.js';
import type { FillShare } from './position-book.js';
import { PositionBook } from './position-book.js';

/**
 * The account's record and each strategy's. A fill counts for the strategy that owns its order; a fill
 * of an order no strategy owns (a liquidation closing positions) is split among the strategies holding
 * that side, pro rata; funding is split by each strategy's net contracts of the symbol, which is
 * exactly how the exchange computed the account's payment.
 */
export class PnlLedger {
  readonly total = new PositionBook();
  private readonly books: ReadonlyMap<string, PositionBook>;

  constructor(strategyIds: readonly string[]) {
    this.books = new Map(strategyIds.map((id) => [id, new PositionBook()]));
  }

  book(strategyId: string): PositionBook | undefined {
    return this.books.get(strategyId);
  }

  onFill(fill: FillRecord, multiplier: Decimal): void {
    // The share's own fields, not a spread of the whole fill record (one per fill).
    const share: FillShare = { time: fill.time, symbol: fill.symbol, positionSide: fill.positionSide, isClose: fill.isClose, isMaker: fill.isMaker, price: fill.price, qty: fill.qty, fee: fill.fee, realizedPnl: fill.realizedPnl, multiplier };
    this.total.apply(share);
    const owner = this.books.get(fill.strategy);
    if (owner !== undefined) {
      owner.apply(share);
      return;
    }
    if (!fill.isClose) return;
    const holders = [...this.books.values()].filter((b) => b.held(fill.symbol, fill.positionSide).gt(0));
    const held = holders.reduce((sum, b) => sum.add(b.held(fill.symbol, fill.positionSide)), dec(0));
    if (!held.gt(0)) return;
    for (const book of holders) {
      const fraction = book.held(fill.symbol, fill.positionSide).div(held);
      book.apply({ ...share, qty: fill.qty.mul(fraction), fee: fill.fee.mul(fraction), realizedPnl: fill.realizedPnl.mul(fraction) });
    }
  }

  /** The account's funding payment (positive: received) for one settlement of `symbol`. */
  onFunding(symbol: string, amount: Decimal): void {
    this.total.addFunding(amount);
    const weights = [...this.books.values()].map((book) => ({ book, net: book.netContracts(symbol) }));
    const net = weights.reduce((sum, w) => sum.add(w.net), dec(0));
    if (net.isZero()) return;
    for (const { book, net: own } of weights) if (!own.isZero()) book.addFunding(amount.mul(own).div(net));
  }
}
