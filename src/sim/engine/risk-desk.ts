import { dec } from '../../core/decimal.js';
import type { Decimal } from '../../core/decimal.js';
import { accountFigures, mathOf } from './account-math.js';
import type { EngineState } from './engine-state.js';
import type { FuturesAccount } from './ledger.js';
import type { PositionRecord } from './position-record.js';
import type { SymbolBook } from './symbol-book.js';
import type { TradingDesk } from './trading-desk.js';

/**
 * Funding settlement and forced liquidation. Liquidation happens when the risk rate reaches 100 %:
 * an isolated position when its margin plus unrealized PnL no longer covers its maintenance margin, the
 * cross book when the cross equity no longer covers the cross maintenance margin. Open orders that could
 * add risk are canceled first, then the positions close at the mark price; an isolated loss is capped at
 * its margin (the insurance fund takes the rest).
 */
export class RiskDesk {
  constructor(
    private readonly s: EngineState,
    private readonly desk: TradingDesk,
    private readonly cancelRowsOf: (account: FuturesAccount, position: PositionRecord) => void,
  ) {}

  /** After a mark (or, without marks, a trade) price change of `book`. */
  checkLiquidations(book: SymbolBook): void {
    const holders = this.s.holders.get(book.instrument.symbol);
    if (holders === undefined || holders.size === 0) return;
    for (const account of [...holders]) this.checkAccount(account, book.instrument.symbol);
  }

  private checkAccount(account: FuturesAccount, symbol: string): void {
    for (const side of ['LONG', 'SHORT'] as const) {
      const p = account.existingPosition(symbol, side);
      if (p === undefined || p.lots === 0 || p.marginType !== 'ISOLATED') continue;
      const m = mathOf(this.s, p);
      if (p.margin.add(m.unrealizedPnl).lte(m.maintMargin)) this.liquidate(account, [p]);
    }
    const f = accountFigures(this.s, account);
    if (f.crossMaintMargin.gt(0) && f.crossEquity.lte(f.crossMaintMargin)) {
      const cross = [...account.positions.values()].filter((p) => p.lots > 0 && p.marginType === 'CROSS');
      this.liquidate(account, cross);
    }
  }

  private liquidate(account: FuturesAccount, positions: readonly PositionRecord[]): void {
    const symbols = new Set(positions.map((p) => p.symbol));
    for (const order of [...account.openOrders]) if (symbols.has(order.symbol) && order.marginType === positions[0]?.marginType) this.desk.finish(order, 'CANCELED');
    for (const p of positions) {
      if (p.lots === 0) continue;
      const book = this.s.books.get(p.symbol);
      if (book === undefined) continue;
      const ticks = book.markTicks > 0 ? book.markTicks : book.lastTicks;
      this.cancelRowsOf(account, p);
      this.desk.forceClose(account, p, ticks, `liquidation-${this.s.ids.clientOrder.next()}`);
    }
    if (account.wallet.isNegative()) {
      // The insurance fund covers a cross deficit: the wallet never stays below zero.
      const cover = account.wallet.neg();
      account.wallet = dec(0);
      this.s.flows.record({ userId: account.userId, accountId: account.accountId, accountType: 'FUTURES', category: account.category, coin: account.category, kind: 'LIQUIDATION', change: cover, total: account.wallet, time: this.s.time });
      this.desk.emitBalance(account);
    }
  }

  /** Settles one funding interval of `book` at `rate`: longs pay shorts when positive, on the mark price. */
  settleFunding(book: SymbolBook, rate: Decimal): void {
    const holders = this.s.holders.get(book.instrument.symbol);
    if (holders === undefined || holders.size === 0 || rate.isZero()) return;
    const mark = this.s.markDecimal(book);
    if (mark === undefined) return;
    for (const account of [...holders]) {
      let change = dec(0);
      for (const side of ['LONG', 'SHORT'] as const) {
        const p = account.existingPosition(book.instrument.symbol, side);
        if (p === undefined || p.lots === 0) continue;
        const coins = dec(book.qty.toText(p.lots)).mul(book.instrument.contractMultiplier);
        change = change.sub(mark.mul(coins).mul(rate).mul(p.direction));
      }
      if (change.isZero()) continue;
      account.wallet = account.wallet.add(change);
      this.s.flows.record({ userId: account.userId, accountId: account.accountId, accountType: 'FUTURES', category: account.category, coin: account.category, kind: 'FUNDING', symbol: book.instrument.symbol, change, total: account.wallet, time: this.s.time });
      this.desk.emitBalance(account);
    }
  }
}
