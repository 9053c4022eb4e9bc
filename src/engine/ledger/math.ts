import type { Decimal } from '../../core/decimal.js';
import { compareDecimals, dec } from '../../core/decimal.js';
import { minusExact, plusExact, timesExact, weightedAverageExact } from '../../core/exact-decimal.js';
import type { PositionSide, Side } from '../../model/instrument.js';
import { isOpening } from '../../model/instrument.js';
import type { LedgerPosition } from '../../model/ledger.js';

/**
 * Pure arithmetic of one ledger position: opening and closing fills, fees, funding, transfers. A fill's
 * steps go through the exact helpers (decimal.js's values, from safe integers where they fit): every
 * fill of a replay comes here.
 */

const ZERO = dec(0);

export function flatPosition(owner: string, symbol: string, positionSide: PositionSide, time: number): LedgerPosition {
  return { owner, symbol, positionSide, qty: ZERO, avgPrice: ZERO, realizedPnl: ZERO, fees: ZERO, funding: ZERO, updateTime: time };
}

/** PnL of closing `qty` contracts of a `positionSide` position entered at `entry` at `exit`. */
export function closingPnl(positionSide: PositionSide, entry: Decimal, exit: Decimal, qty: Decimal, multiplier: Decimal): Decimal {
  const perContract = positionSide === 'LONG' ? minusExact(exit, entry) : minusExact(entry, exit);
  return timesExact(timesExact(perContract, qty), multiplier);
}

/** The holding with new figures, as one literal of the record's shape (no spreads per fill). */
function holding(p: LedgerPosition, qty: Decimal, avgPrice: Decimal, realizedPnl: Decimal, fees: Decimal, time: number): LedgerPosition {
  return { owner: p.owner, symbol: p.symbol, positionSide: p.positionSide, qty, avgPrice, realizedPnl, fees, funding: p.funding, updateTime: Math.max(p.updateTime, time) };
}

/** Adds `qty` at `price` to the holding: the average entry moves, nothing is realized. */
export function openInto(p: LedgerPosition, qty: Decimal, price: Decimal, time: number): LedgerPosition {
  return opened(p, p.fees, qty, price, time);
}

function opened(p: LedgerPosition, fees: Decimal, qty: Decimal, price: Decimal, time: number): LedgerPosition {
  const total = plusExact(p.qty, qty);
  const avgPrice = total.isZero() ? ZERO : weightedAverageExact(p.avgPrice, p.qty, price, qty);
  return holding(p, total, avgPrice, p.realizedPnl, fees, time);
}

/**
 * Closes up to `qty` at `price` against the holding's own average price. Answers the new holding and
 * the quantity beyond what it held (a ledger can never hold less than zero).
 */
export function closeFrom(p: LedgerPosition, qty: Decimal, price: Decimal, multiplier: Decimal, time: number): { readonly position: LedgerPosition; readonly excess: Decimal } {
  return closed(p, p.fees, qty, price, multiplier, time);
}

function closed(p: LedgerPosition, fees: Decimal, qty: Decimal, price: Decimal, multiplier: Decimal, time: number): { readonly position: LedgerPosition; readonly excess: Decimal } {
  const done = compareDecimals(qty, p.qty) > 0 ? p.qty : qty;
  // Nothing beyond the holding: qty − qty is zero.
  const excess = done === qty ? ZERO : minusExact(qty, done);
  const left = minusExact(p.qty, done);
  const realizedPnl = plusExact(p.realizedPnl, closingPnl(p.positionSide, p.avgPrice, price, done, multiplier));
  return { position: holding(p, left, left.isZero() ? ZERO : p.avgPrice, realizedPnl, fees, time), excess };
}

/** One execution on the holding: opening or closing by its side, plus its fee. */
export function applyExecution(
  p: LedgerPosition,
  fill: { readonly side: Side; readonly qty: Decimal; readonly price: Decimal; readonly fee: Decimal; readonly time: number },
  multiplier: Decimal,
): { readonly position: LedgerPosition; readonly excess: Decimal } {
  const fees = plusExact(p.fees, fill.fee);
  if (isOpening(fill.side, p.positionSide)) return { position: opened(p, fees, fill.qty, fill.price, fill.time), excess: ZERO };
  return closed(p, fees, fill.qty, fill.price, multiplier, fill.time);
}

export function addFunding(p: LedgerPosition, amount: Decimal, time: number): LedgerPosition {
  return { ...p, funding: p.funding.add(amount), updateTime: Math.max(p.updateTime, time) };
}

/** Signed exposure for sharing funding: longs count positive, shorts negative. */
export function signedQty(p: Pick<LedgerPosition, 'qty' | 'positionSide'>): Decimal {
  return p.positionSide === 'LONG' ? p.qty : p.qty.neg();
}
