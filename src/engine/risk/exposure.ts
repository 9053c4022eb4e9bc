import type { Decimal } from '../../core/decimal.js';
import { dec } from '../../core/decimal.js';
import type { CacheView } from '../../model/cache-view.js';
import type { PositionSide } from '../../model/instrument.js';
import { isOpening } from '../../model/instrument.js';
import { isOpenAlgoStatus, isOpenStatus } from '../../model/orders.js';

/** Which open orders count: all of the account's, or only a strategy's; minus one being modified. */
export interface OrderScope {
  readonly owned?: ReadonlySet<string>;
  readonly exclude?: string;
}

function inScope(scope: OrderScope, clientOrderId: string): boolean {
  if (clientOrderId === scope.exclude) return false;
  return scope.owned === undefined || scope.owned.has(clientOrderId);
}

/**
 * Contracts on one symbol and position side: the position plus what open orders would add to it
 * (remaining quantity of opening regular orders and opening plan orders). Positions belong to the
 * account, not to a strategy: a strategy's view includes the whole position.
 */
export function sideExposure(cache: CacheView, symbol: string, positionSide: PositionSide, scope: OrderScope): Decimal {
  let total = cache.position(symbol, positionSide)?.qty ?? dec(0);
  for (const order of cache.openOrders(symbol)) {
    if (order.positionSide !== positionSide || !isOpening(order.side, order.positionSide) || !inScope(scope, order.clientOrderId)) continue;
    total = total.add(order.quantity.sub(order.filledQty));
  }
  for (const algo of cache.openAlgoOrders(symbol)) {
    if (algo.kind !== 'PLAN' || algo.positionSide !== positionSide || !isOpening(algo.side, algo.positionSide) || !inScope(scope, algo.clientOrderId)) continue;
    total = total.add(algo.quantity);
  }
  return total;
}

/** Quote notional of the open positions settled in `marginAsset` (on `symbols` only, when given), at mark. */
export function positionsNotional(cache: CacheView, marginAsset: string, symbols?: ReadonlySet<string>): Decimal {
  let total = dec(0);
  for (const position of cache.positions()) {
    if (symbols !== undefined && !symbols.has(position.symbol)) continue;
    const instrument = cache.instrument(position.symbol);
    if (instrument === undefined || instrument.marginAsset !== marginAsset) continue;
    const price = cache.markPrice(position.symbol) ?? position.markPrice ?? position.avgPrice;
    total = total.add(position.qty.mul(price).mul(instrument.contractMultiplier));
  }
  return total;
}

/** Wallet balance plus unrealized PnL in the margin asset; undefined before the balance is known. */
export function equityOf(cache: CacheView, marginAsset: string): Decimal | undefined {
  const balance = cache.balance(marginAsset);
  return balance === undefined ? undefined : balance.walletBalance.add(balance.unrealizedPnl);
}

/**
 * How many open regular and plan/TP-SL orders the whole account has, known to the cache or still on their
 * way, each client order id once: counted by lookups, without a set of every id (`pending`: the
 * strategies' live ids, each once).
 */
export function openOrderCount(cache: CacheView, pending: readonly string[]): number {
  let count = cache.openOrderCount();
  for (const algo of cache.openAlgoOrders()) if (!isOpenRegular(cache, algo.clientOrderId)) count += 1;
  for (const id of pending) {
    if (isOpenRegular(cache, id)) continue;
    const algo = cache.algoOrder(id);
    if (algo === undefined || !isOpenAlgoStatus(algo.status)) count += 1;
  }
  return count;
}

/** Whether the cache lists the order among its open regular ones. */
function isOpenRegular(cache: CacheView, clientOrderId: string): boolean {
  const order = cache.order(clientOrderId);
  return order !== undefined && isOpenStatus(order.status);
}
