import type { Decimal } from '../../core/decimal.js';
import { dec } from '../../core/decimal.js';
import type { FillRecord } from '../../backtest/types.js';

/** One round trip of a position: from flat to flat on one strategy, symbol and position side. */
export interface ClosedTrade {
  readonly strategy: string;
  readonly symbol: string;
  /** Time of the fill that flattened the position. */
  readonly closeTime: number;
  /** Realized PnL of its closing fills minus the fees of all its fills. */
  readonly pnl: Decimal;
}

interface OpenTrade {
  qty: Decimal;
  pnl: Decimal;
}

/**
 * The backtest's closed trades, in the order they closed. A position (strategy, symbol, position
 * side; hedge mode) opens with its first opening fill and closes when closing fills bring it back to
 * zero; its PnL is the realized PnL of those fills less every fill's fee. A position still open at the
 * end is no closed trade; funding is not a trade's (it stays out of trade shuffling).
 */
export function closedTrades(fills: readonly FillRecord[]): ClosedTrade[] {
  const open = new Map<string, OpenTrade>();
  const trades: ClosedTrade[] = [];
  for (const fill of fills) {
    const key = `${fill.strategy}\u0000${fill.symbol}\u0000${fill.positionSide}`;
    const trade = open.get(key) ?? { qty: dec(0), pnl: dec(0) };
    trade.pnl = trade.pnl.add(fill.realizedPnl).sub(fill.fee);
    trade.qty = fill.isClose ? trade.qty.sub(fill.qty) : trade.qty.add(fill.qty);
    if (fill.isClose && !trade.qty.gt(0)) {
      trades.push({ strategy: fill.strategy, symbol: fill.symbol, closeTime: fill.time, pnl: trade.pnl });
      open.delete(key);
    } else open.set(key, trade);
  }
  return trades;
}
