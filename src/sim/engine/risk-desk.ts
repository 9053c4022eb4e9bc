import { dec } from '../../core/decimal.js';
import { decimalOfText } from '../../core/decimal-cache.js';
import { quotientFloorAtMost } from '../../core/decimal-estimate.js';
import { minusExact } from '../../core/exact-decimal.js';
import type { Decimal } from '../../core/decimal.js';
import type { AccountFigures } from './account-math.js';
import { accountFigures, mathOf } from './account-math.js';
import type { EngineState } from './engine-state.js';
import type { FuturesAccount } from './ledger.js';
import type { PositionMath, PositionRecord } from './position-record.js';
import type { SymbolBook } from './symbol-book.js';
import type { TradingDesk } from './trading-desk.js';
import { emptyObjectArray } from '../../core/empty-arrays.js';


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

  /** Per account: the version its bands were computed at, and per symbol the mark range (ticks) that is safe. */
  private readonly bands = new Map<FuturesAccount, { version: number; bySymbol: Map<string, { lo: number; hi: number }> }>();

  /**
   * After a mark (or, without marks, a trade) price change of `book`. The full check runs only when the
   * price leaves the account's safe band for the symbol or the account changed since the band was made:
   * the band gives each position an equal share of the margin above maintenance, so while every price
   * stays inside its band the account cannot have reached liquidation.
   */
  checkLiquidations(book: SymbolBook): void {
    const symbol = book.instrument.symbol;
    const holders = this.s.holders.get(symbol);
    if (holders === undefined || holders.size === 0) return;
    const ticks = book.markTicks > 0 ? book.markTicks : book.lastTicks;
    for (const account of holders) {
      const cached = this.bands.get(account);
      if (cached !== undefined && cached.version === account.version) {
        const band = cached.bySymbol.get(symbol);
        if (band !== undefined && ticks > band.lo && ticks < band.hi) continue;
      }
      this.pending.push(account);
    }
    if (this.pending.length === 0) return;
    const accounts = this.pending.splice(0);
    for (const account of accounts) {
      this.checkAccount(account, symbol);
      this.bands.set(account, { version: account.version, bySymbol: this.safeBands(account) });
    }
  }

  private readonly pending: FuturesAccount[] = emptyObjectArray();

  /**
   * After a fill of `account`: its bands made now, at the current prices, so that the next price change
   * inside them needs no full check (a fill changes the account, which otherwise makes the next price
   * change of any symbol it holds check it in full). Made only when no position of the account is at
   * liquidation now: one that is stays for the next price change's full check, as before.
   */
  refreshBands(account: FuturesAccount): void {
    if (this.anyAtLiquidation(account)) return;
    this.bands.set(account, { version: account.version, bySymbol: this.safeBands(account) });
  }

  /** Whether `checkAccount` of any symbol would act on the account at the current prices (an isolated position or the cross book at liquidation). */
  private anyAtLiquidation(account: FuturesAccount): boolean {
    for (const p of account.positions.values()) {
      if (p.lots === 0 || p.marginType !== 'ISOLATED') continue;
      if (isolatedAtLiquidation(p, mathOf(this.s, p))) return true;
    }
    return crossAtLiquidation(accountFigures(this.s, account));
  }

  private safeBands(account: FuturesAccount): Map<string, { lo: number; hi: number }> {
    const out = new Map<string, { lo: number; hi: number }>();
    const f = accountFigures(this.s, account);
    let cross = 0;
    for (const p of account.positions.values()) if (p.lots > 0 && p.marginType === 'CROSS') cross++;
    const excess = minusExact(f.crossEquity, f.crossMaintMargin);
    for (const p of account.positions.values()) {
      if (p.lots === 0) continue;
      const book = this.s.books.get(p.symbol);
      if (book === undefined) continue;
      const m = mathOf(this.s, p);
      const markTicks = book.markTicks > 0 ? book.markTicks : book.lastTicks;
      const perUnit = m.size.adverseMove;
      // How far this position's price may move against it before its share of the cushion is used up:
      // its own margin's excess when isolated, an equal part of the cross excess when cross.
      const isolated = p.marginType === 'ISOLATED';
      const cushion = isolated ? p.margin.add(m.unrealizedPnl).sub(m.maintMargin) : excess;
      const room = cushion.isZero() || cushion.isNegative() || perUnit.isZero() ? 0 : roomTicks(cushion, isolated ? 1 : cross, perUnit, decimalOfText(book.price.step));
      const band = out.get(p.symbol) ?? { lo: 0, hi: Number.MAX_SAFE_INTEGER };
      if (p.side === 'LONG') band.lo = Math.max(band.lo, markTicks - room);
      else band.hi = Math.min(band.hi, markTicks + room);
      out.set(p.symbol, band);
    }
    return out;
  }

  private checkAccount(account: FuturesAccount, symbol: string): void {
    for (const side of ['LONG', 'SHORT'] as const) {
      const p = account.existingPosition(symbol, side);
      if (p === undefined || p.lots === 0 || p.marginType !== 'ISOLATED') continue;
      let m = mathOf(this.s, p);
      if (!isolatedAtLiquidation(p, m)) continue;
      if (account.autoAddMargin.has(`${symbol}|${side}`) && this.topUp(account, p)) m = mathOf(this.s, p);
      if (isolatedAtLiquidation(p, m)) this.liquidate(account, [p]);
    }
    if (crossAtLiquidation(accountFigures(this.s, account))) {
      const cross = [...account.positions.values()].filter((p) => p.lots > 0 && p.marginType === 'CROSS');
      this.liquidate(account, cross);
    }
  }

  /**
   * Auto-add margin (API-NOTES §4, agent-kit's switch): before an isolated position is liquidated, margin
   * moves in from the account's available balance, as much as brings its margin balance back to the initial
   * margin at the mark price, or what is available. Answers whether any margin moved.
   */
  private topUp(account: FuturesAccount, p: PositionRecord): boolean {
    const m = mathOf(this.s, p);
    const wanted = m.value.div(p.leverage).sub(p.margin.add(m.unrealizedPnl));
    const available = accountFigures(this.s, account).available;
    const amount = wanted.lt(available) ? wanted : available;
    if (amount.lte(0)) return false;
    p.margin = p.margin.add(amount);
    account.touch();
    this.desk.emitPosition(account, p);
    this.desk.emitBalance(account);
    return true;
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
      this.s.flows.record({ userId: account.userId, accountId: account.accountId, accountType: 'FUTURES', category: account.category, coin: account.category, kind: 'LIQUIDATION', symbol: undefined, change: cover, total: account.wallet, time: this.s.time });
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

/** An isolated position at liquidation: its margin plus unrealized PnL at `m` no longer above its maintenance margin. */
function isolatedAtLiquidation(p: PositionRecord, m: PositionMath): boolean {
  return !p.margin.add(m.unrealizedPnl).gt(m.maintMargin);
}

/** The cross book at liquidation: a maintenance margin that the cross equity no longer exceeds. */
function crossAtLiquidation(f: AccountFigures): boolean {
  return f.crossMaintMargin.gt(0) && f.crossEquity.lte(f.crossMaintMargin);
}

/**
 * Whole price ticks of `step` that a `parts`th of `cushion` covers at `perUnit` per unit of move:
 * estimated, never more than the decimal quotient's floor (a band one tick short only checks the
 * account sooner); the decimals divide only where the estimate cannot tell.
 */
function roomTicks(cushion: Decimal, parts: number, perUnit: Decimal, step: Decimal): number {
  return quotientFloorAtMost(cushion, parts, perUnit, step) ?? Math.floor((parts === 1 ? cushion : cushion.div(parts)).div(perUnit).div(step).toNumber());
}
