import type { OrderSnapshot } from '../model/orders.js';
import type { OrderRow } from './backtest-types.js';

/** Every order the engine accepted for the account, in the order it first appeared, with its latest state. */
export class OrderLog {
  private readonly byId = new Map<string, { createTime: number; strategy: string; order: OrderSnapshot }>();

  /** An order event of the engine (`time` is the engine's event time). */
  onOrder(order: OrderSnapshot, time: number, strategy: string): void {
    const row = this.byId.get(order.orderId);
    if (row === undefined) this.byId.set(order.orderId, { createTime: time, strategy, order });
    else row.order = order;
  }

  rows(): OrderRow[] {
    return [...this.byId.values()].map((row) => ({ ...row }));
  }

  /** Orders per owner ('' for none). */
  countBy(strategy: string): number {
    let n = 0;
    for (const row of this.byId.values()) if (row.strategy === strategy) n++;
    return n;
  }

  get size(): number {
    return this.byId.size;
  }
}
