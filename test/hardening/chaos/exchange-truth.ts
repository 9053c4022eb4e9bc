import { dec } from '../../../src/core/decimal.js';
import type { SimExchange } from '../../../src/sim/engine/sim-exchange.js';
import type { AccountRef, OrderView } from '../../../src/sim/engine/types.js';

/**
 * What the simulated exchange itself holds for one user, read from its engine in-process (not over
 * REST, where the chaos faults would answer): every order ever placed, every fill, and the open state.
 */
export class ExchangeTruth {
  private readonly refs: readonly AccountRef[];

  constructor(
    private readonly engine: SimExchange,
    userId: string,
    private readonly symbols: readonly string[],
  ) {
    this.refs = [{ userId, category: 'USDT' }, { userId, category: 'USDC' }];
  }

  /** Every regular order of the user, open or finished, over the whole run. */
  allOrders(): OrderView[] {
    const all = { startTime: 1, limit: Number.MAX_SAFE_INTEGER };
    return this.refs.flatMap((ref) => [...this.engine.openOrders(ref, all), ...this.engine.historyOrders(ref, all)]);
  }

  /**
   * The orders a client placed: without those the exchange made itself when a plan or TP/SL row
   * triggered (they carry an id it generated, and no client ever sent them, so no journal has them).
   */
  placedOrders(): OrderView[] {
    return this.allOrders().filter((o) => o.sourceAlgoOrderId === undefined);
  }

  /** Client order ids that name more than one order on the exchange. */
  duplicatedClientOrderIds(): string[] {
    const seen = new Map<string, number>();
    for (const order of this.allOrders()) seen.set(order.clientOrderId, (seen.get(order.clientOrderId) ?? 0) + 1);
    return [...seen].filter(([, count]) => count > 1).map(([id]) => id);
  }

  /** Every fill of the user as `symbol/ticketId` (the id the user stream names a fill by, and the daemon keys fills on). */
  fillKeys(): Set<string> {
    const keys = new Set<string>();
    for (const ref of this.refs) {
      for (const symbol of this.symbols) {
        for (const trade of this.engine.userTrades(ref, { symbol, limit: Number.MAX_SAFE_INTEGER })) keys.add(`${trade.symbol}/${trade.ticketId}`);
      }
    }
    return keys;
  }

  /** Open regular orders as comparable rows. */
  openOrderRows(): string[] {
    const open = { limit: Number.MAX_SAFE_INTEGER };
    return this.refs
      .flatMap((ref) => this.engine.openOrders(ref, open))
      .map((o) => orderRow(o.clientOrderId, o.symbol, o.side, o.positionSide, o.price, o.origQty, o.executedQty))
      .sort();
  }

  /** Non-flat positions as comparable rows. */
  positionRows(): string[] {
    return this.refs
      .flatMap((ref) => this.engine.positions(ref))
      .filter((p) => !dec(p.position).isZero())
      .map((p) => positionRow(p.symbol, p.side, p.position))
      .sort();
  }
}

/** One open order as text both sides produce the same way (decimal text normalized). */
export function orderRow(clientOrderId: string, symbol: string, side: string, positionSide: string, price: string, qty: string, filled: string): string {
  return [clientOrderId, symbol, side, positionSide, norm(price), norm(qty), norm(filled)].join(' ');
}

export function positionRow(symbol: string, positionSide: string, qty: string): string {
  return [symbol, positionSide, dec(qty).abs().toFixed()].join(' ');
}

function norm(decimalText: string): string {
  return dec(decimalText).toFixed();
}
