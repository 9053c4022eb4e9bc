import type { OrderRecord } from './order-record.js';

/**
 * The engine's orders (open and still in history) by account and client order id, so a lookup by client
 * id reads the few orders that carry it instead of every order kept. Each list is in creation order
 * (order ids are fixed-width counters, so their text order is their creation order), the order the
 * engine's order map iterates in.
 */
export class ClientIdIndex {
  /** Per account, per client id (two lookups: no key text made per order placed and ended). */
  private readonly accounts = new Map<string, Map<string, OrderRecord[]>>();

  /** A new order (created after every order indexed so far). */
  add(order: OrderRecord): void {
    const lists = this.listsOf(order.accountId);
    const list = lists.get(order.clientOrderId);
    if (list === undefined) lists.set(order.clientOrderId, [order]);
    else list.push(order);
  }

  /** The order left the engine's history. */
  remove(order: OrderRecord): void {
    const lists = this.accounts.get(order.accountId);
    const list = lists?.get(order.clientOrderId);
    if (lists === undefined || list === undefined) return;
    const at = list.indexOf(order);
    if (at >= 0) list.splice(at, 1);
    if (list.length === 0) lists.delete(order.clientOrderId);
  }

  /** Gives `order` a new client id, moving it to that id's list at its place in creation order. */
  rename(order: OrderRecord, clientOrderId: string): void {
    this.remove(order);
    order.clientOrderId = clientOrderId;
    const lists = this.listsOf(order.accountId);
    const list = lists.get(clientOrderId);
    if (list === undefined) {
      lists.set(clientOrderId, [order]);
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
    const list = this.accounts.get(accountId)?.get(clientOrderId);
    if (list === undefined) return undefined;
    for (let i = list.length - 1; i >= 0; i--) {
      const order = list[i];
      if (order !== undefined && isOpen(order)) return order;
    }
    return list.at(-1);
  }

  private listsOf(accountId: string): Map<string, OrderRecord[]> {
    let lists = this.accounts.get(accountId);
    if (lists === undefined) {
      lists = new Map();
      this.accounts.set(accountId, lists);
    }
    return lists;
  }
}
