import { Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import type { Decimal } from '../../core/decimal.js';
import type { Position } from '../../model/account.js';

/** What the trading gauges read at scrape time: the kernel's risk engine and cache. */
export interface TradingView {
  /** Today's PnL as the daily loss limit sees it (/status pnlToday). */
  readonly dayPnl: () => Decimal;
  readonly positions: () => Iterable<Position>;
}

/**
 * The account's trading state as gauges read at scrape time (what the Grafana dashboard charts): the
 * day's PnL, and per open position its size and unrealized PnL. A closed position's series disappears.
 * Decimals become floats here only, for charts; /status keeps the exact text.
 */
export function registerTradingGauges(registry: Registry, view: TradingView): void {
  const registers = [registry];
  new Gauge({
    name: 'stratd_pnl_today',
    help: "Today's PnL in the quote currency since the daily reset, as the daily loss limit counts it (/status pnlToday)",
    registers,
    collect() {
      this.set(view.dayPnl().toNumber());
    },
  });
  const open = (): Position[] => [...view.positions()].filter((p) => !p.qty.isZero());
  new Gauge({
    name: 'stratd_position_contracts',
    help: 'Size of each open position in contracts, by symbol and side',
    labelNames: ['symbol', 'side'],
    registers,
    collect() {
      this.reset();
      for (const p of open()) this.set({ symbol: p.symbol, side: p.positionSide }, p.qty.toNumber());
    },
  });
  new Gauge({
    name: 'stratd_position_unrealized_pnl',
    help: 'Unrealized PnL of each open position in the quote currency, at the mark price, by symbol and side',
    labelNames: ['symbol', 'side'],
    registers,
    collect() {
      this.reset();
      for (const p of open()) this.set({ symbol: p.symbol, side: p.positionSide }, p.unrealizedPnl.toNumber());
    },
  });
}
