import type { AlgoOrderSnapshot, OrderSnapshot } from '../model/orders.js';
import type { AlgoRow, OrderRow } from './types.js';

/** Every order the engine accepted for the account, in the order it first appeared, with its latest state. */
export class OrderLog {
  private readonly byId = new Map<string, { createTime: number; strategy: string; order: OrderSnapshot }>();
  private readonly algos = new Map<string, { createTime: number; strategy: string; order: AlgoOrderSnapshot }>();

  /** An order event of the engine (`time` is the engine's event time). */
  onOrder(order: OrderSnapshot, time: number, strategy: string): void {
    const row = this.byId.get(order.orderId);
    if (row === undefined) this.byId.set(order.orderId, { createTime: time, strategy, order });
    else row.order = order;
  }

  /**
   * A plan or TP/SL order event. A TP/SL attached to a regular order belongs to that order's owner when
   * its own id names none.
   */
  onAlgo(order: AlgoOrderSnapshot, time: number, strategy: string): void {
    const row = this.algos.get(order.orderId);
    if (row !== undefined) {
      row.order = order;
      return;
    }
    const parent = order.parentOrderId === undefined ? undefined : this.byId.get(order.parentOrderId);
    this.algos.set(order.orderId, { createTime: time, strategy: strategy === '' ? (parent?.strategy ?? '') : strategy, order });
  }

  algoRows(): AlgoRow[] {
    return [...this.algos.values()].map((row) => ({ ...row }));
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
