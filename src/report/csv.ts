import type { Decimal } from '../core/decimal.js';
import type { EquityRow, FillRecord, OrderRow } from '../backtest/types.js';
import { drawdowns } from '../backtest/metrics.js';
import { money, ratio } from '../backtest/summary.js';

type Cell = string | number | boolean;

/** One CSV line (RFC 4180): a cell with a comma, quote or line break is quoted, quotes doubled. */
export function csvLine(cells: readonly Cell[]): string {
  return `${cells.map((cell) => quote(String(cell))).join(',')}\n`;
}

function quote(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csv(header: readonly string[], rows: ReadonlyArray<readonly Cell[]>): string {
  return csvLine(header) + rows.map(csvLine).join('');
}

function iso(time: number): string {
  return new Date(time).toISOString();
}

function text(value: Decimal): string {
  return value.toFixed();
}

export function fillsCsv(fills: readonly FillRecord[]): string {
  return csv(
    ['time', 'isoTime', 'strategy', 'symbol', 'clientOrderId', 'orderId', 'tradeId', 'side', 'positionSide', 'isClose', 'isMaker', 'price', 'qty', 'fee', 'feeAsset', 'realizedPnl'],
    fills.map((f) => [f.time, iso(f.time), f.strategy, f.symbol, f.clientOrderId, f.orderId, f.tradeId, f.side, f.positionSide, f.isClose, f.isMaker, text(f.price), text(f.qty), text(f.fee), f.feeAsset, text(f.realizedPnl)]),
  );
}

export function ordersCsv(orders: readonly OrderRow[]): string {
  return csv(
    ['createTime', 'updateTime', 'strategy', 'symbol', 'clientOrderId', 'orderId', 'side', 'positionSide', 'type', 'timeInForce', 'price', 'quantity', 'filledQty', 'avgPrice', 'status'],
    orders.map(({ createTime, strategy, order: o }) => [
      createTime,
      o.updateTime,
      strategy,
      o.symbol,
      o.clientOrderId,
      o.orderId,
      o.side,
      o.positionSide,
      o.type,
      o.timeInForce,
      text(o.price),
      text(o.quantity),
      text(o.filledQty),
      text(o.avgPrice),
      o.status,
    ]),
  );
}

/** time, equity and its drawdown from the running peak, then each strategy's PnL so far (`pnl:<id>`). */
export function equityCsv(rows: readonly EquityRow[], strategyIds: readonly string[]): string {
  const down = drawdowns(rows.map((r) => r.equity));
  return csv(
    ['time', 'isoTime', 'equity', 'drawdown', ...strategyIds.map((id) => `pnl:${id}`)],
    rows.map((r, i) => [r.time, iso(r.time), money(r.equity), ratio(down[i]!), ...r.strategyPnl.map(money)]),
  );
}
