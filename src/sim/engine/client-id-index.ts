import type { OrderRecord } from './order-record.js';

/**
 * The engine's orders (open and still in history) by account and client order id, so a lookup by client
 * id reads the few orders that carry it instead of every order kept. Each list is in creation order
 * (order ids are fixed-width counters, so their text order is their creation order), the order the
 * engine's order map iterates in.
 */
export class ClientIdIndex {
  private readonly lists = new Map<string, OrderRecord[]>();

  /** A new order (created after every order indexed so far). */
  add(order: OrderRecord): void {
    const key = keyOf(order.accountId, order.clientOrderId);
    const list = this.lists.get(key);
    if (list === undefined) this.lists.set(key, [order]);
    else list.push(order);
  }

  /** The order left the engine's history. */
  remove(order: OrderRecord): void {
    const key = keyOf(order.accountId, order.clientOrderId);
    const list = this.lists.get(key);
    if (list === undefined) return;
    const at = list.indexOf(order);
    if (at >= 0) list.splice(at, 1);
    if (list.length === 0) this.lists.delete(key);
  }

  /** Gives `order` a new client id, moving it to that id's list at its place in creation order. */
  rename(order: OrderRecord, clientOrderId: string): void {
    this.remove(order);
    order.clientOrderId = clientOrderId;
    const key = keyOf(order.accountId, clientOrderId);
    const list = this.lists.get(key);
    if (list === undefined) {
      this.lists.set(key, [order]);
      return;
    }
    let at = list.length;
    while (at > 0 && (list[at - 1]?.orderId ?? '') > order.orderId) at--;
    list.splice(at, 0, order);
  }

  /**
   * The account's order with this client id: the newest of its open ones (`isOpen` says which are),
   * else the newest kept in history; undefined when none.
   */
  find(accountId: string, clientOrderId: string, isOpen: (order: OrderRecord) => boolean): OrderRecord | undefined {
    const list = this.lists.get(keyOf(accountId, clientOrderId));
    if (list === undefined) return undefined;
    for (let i = list.length - 1; i >= 0; i--) {
      const order = list[i];
      if (order !== undefined && isOpen(order)) return order;
    }
    return list.at(-1);
  }
}

function keyOf(accountId: string, clientOrderId: string): string {
  return `${accountId}\n${clientOrderId}`;
}
