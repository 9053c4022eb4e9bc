import type { Decimal } from '../core/decimal.js';
import { aboveZero, compareDecimals, dec } from '../core/decimal.js';
import { DecimalSum } from '../core/decimal-sum.js';
import { minusExact, plusExact, weightedAverageExact } from '../core/exact-decimal.js';
import type { PositionSide } from '../model/instrument.js';

const ZERO = dec(0);

/** One executed quantity as it counts for one owner (a whole fill, or an owner's share of one). */
export interface FillShare {
  readonly time: number;
  readonly symbol: string;
  readonly positionSide: PositionSide;
  readonly isClose: boolean;
  readonly isMaker: boolean;
  readonly price: Decimal;
  readonly qty: Decimal;
  readonly fee: Decimal;
  readonly realizedPnl: Decimal;
  /** Coins per contract. */
  readonly multiplier: Decimal;
}

interface Holding {
  qty: Decimal;
  avgPrice: Decimal;
  readonly multiplier: Decimal;
}

/**
 * The trading record of one owner (a strategy, or the whole account): hedge-mode holdings per symbol
 * and side with their average entry, and the money so far. Realized PnL is the exchange's own figure
 * per fill; unrealized PnL is valued here against the owner's own average entry.
 */
export class PositionBook {
  funding = ZERO;
  fills = 0;
  closingFills = 0;
  /** Closing fills whose realized PnL beat their fee. */
  winningFills = 0;
  private readonly holdings = new Map<string, Holding>();
  private exposedSince: number | undefined;
  private exposedMs = 0;
  // Sums of every fill's figures, made decimals when read (a decimal per fill and figure was most of `apply`).
  private readonly realized = new DecimalSum();
  private readonly feeSum = new DecimalSum();
  private readonly notional = new DecimalSum();

  get realizedPnl(): Decimal {
    return this.realized.decimal;
  }

  get fees(): Decimal {
    return this.feeSum.decimal;
  }

  /** Quote notional traded. */
  get volume(): Decimal {
    return this.notional.decimal;
  }

  apply(share: FillShare): void {
    const key = `${share.symbol}/${share.positionSide}`;
    let holding = this.holdings.get(key);
    if (holding === undefined) {
      holding = { qty: ZERO, avgPrice: ZERO, multiplier: share.multiplier };
      this.holdings.set(key, holding);
    }
    if (share.isClose) {
      holding.qty = minusExact(holding.qty, share.qty);
      if (!aboveZero(holding.qty)) {
        holding.qty = ZERO;
        holding.avgPrice = ZERO;
      }
      this.closingFills++;
      if (compareDecimals(share.realizedPnl, share.fee) > 0) this.winningFills++;
    } else {
      const qty = plusExact(holding.qty, share.qty);
      holding.avgPrice = weightedAverageExact(holding.avgPrice, holding.qty, share.price, share.qty);
      holding.qty = qty;
    }
    this.fills++;
    // An opening fill realizes nothing: adding its zero would give the same value, a new decimal.
    if (!share.realizedPnl.isZero()) this.realized.add(share.realizedPnl);
    if (!share.fee.isZero()) this.feeSum.add(share.fee);
    this.notional.addProduct(share.price, share.qty, share.multiplier);
    this.trackExposure(share.time);
  }

  addFunding(amount: Decimal): void {
    this.funding = this.funding.add(amount);
  }

  /** Contracts held on one side of a symbol. */
  held(symbol: string, positionSide: PositionSide): Decimal {
    return this.holdings.get(`${symbol}/${positionSide}`)?.qty ?? ZERO;
  }

  /** Long minus short contracts of a symbol: what funding is charged on. */
  netContracts(symbol: string): Decimal {
    return this.held(symbol, 'LONG').sub(this.held(symbol, 'SHORT'));
  }

  isFlat(): boolean {
    for (const holding of this.holdings.values()) if (aboveZero(holding.qty)) return false;
    return true;
  }

  /** Unrealized PnL of every holding at `markOf(symbol)` (a holding without a price counts zero). */
  unrealizedPnl(markOf: (symbol: string) => Decimal | undefined): Decimal {
    let total = ZERO;
    for (const [key, holding] of this.holdings) {
      if (!aboveZero(holding.qty)) continue;
      const [symbol, side] = key.split('/') as [string, PositionSide];
      const mark = markOf(symbol);
      if (mark === undefined) continue;
      const move = side === 'LONG' ? mark.sub(holding.avgPrice) : holding.avgPrice.sub(mark);
      total = total.add(move.mul(holding.qty).mul(holding.multiplier));
    }
    return total;
  }

  /** Net PnL so far: realized − fees + funding + unrealized. */
  pnl(markOf: (symbol: string) => Decimal | undefined): Decimal {
    return this.realizedPnl.sub(this.fees).add(this.funding).add(this.unrealizedPnl(markOf));
  }

  /** Share of [startTime, endTime] with any holding open. */
  exposure(startTime: number, endTime: number): Decimal {
    const span = endTime - startTime;
    if (span <= 0) return ZERO;
    const open = this.exposedSince === undefined ? 0 : Math.max(0, endTime - this.exposedSince);
    return dec(this.exposedMs + open).div(span);
  }

  private trackExposure(time: number): void {
    const flat = this.isFlat();
    if (!flat && this.exposedSince === undefined) this.exposedSince = time;
    else if (flat && this.exposedSince !== undefined) {
      this.exposedMs += time - this.exposedSince;
      this.exposedSince = undefined;
    }
  }
}
