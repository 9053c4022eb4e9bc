import type { OrderFilled } from '../../model/account-events.js';
import type { PositionSide } from '../../model/instrument.js';
import type { OrderSnapshot } from '../../model/orders.js';
import type { FillTicket } from './frames/frame-types.js';
import { toOrderFilled } from './frames/frame-types.js';

interface Known {
  readonly positionSide: PositionSide;
  readonly clientOrderId: string;
}

/**
 * Completes `ticketInfo` fills, which carry no position side, from the execution reports of their orders.
 * A ticket that arrives before any report of its order (delivery may reorder) waits for that report.
 * Both tables are bounded: the oldest entries go first.
 */
export class FillSides {
  private readonly known = new Map<string, Known>();
  private readonly waiting = new Map<string, FillTicket[]>();
  private droppedCount = 0;

  constructor(private readonly capacity = 10_000) {}

  /** Learns the order's side; answers the fills that were waiting for it, oldest first. */
  noteOrder(order: OrderSnapshot): readonly OrderFilled[] {
    this.known.delete(order.orderId);
    this.known.set(order.orderId, { positionSide: order.positionSide, clientOrderId: order.clientOrderId });
    if (this.known.size > this.capacity) this.evictOldest(this.known);
    const tickets = this.waiting.get(order.orderId);
    if (tickets === undefined) return [];
    this.waiting.delete(order.orderId);
    return tickets.map((ticket) => this.complete(ticket, { positionSide: order.positionSide, clientOrderId: order.clientOrderId }));
  }

  /** The ticket's fill, or undefined while its order's side is unknown (then it waits). */
  resolve(ticket: FillTicket): OrderFilled | undefined {
    const known = this.known.get(ticket.fill.orderId);
    if (known !== undefined) return this.complete(ticket, known);
    const list = this.waiting.get(ticket.fill.orderId);
    if (list !== undefined) list.push(ticket);
    else this.waiting.set(ticket.fill.orderId, [ticket]);
    if (this.waiting.size > this.capacity) this.droppedCount += this.evictOldest(this.waiting)?.length ?? 0;
    return undefined;
  }

  /** Tickets given up on because too many waited (their fills come back with the REST resync). */
  get dropped(): number {
    return this.droppedCount;
  }

  get waitingCount(): number {
    let count = 0;
    for (const list of this.waiting.values()) count += list.length;
    return count;
  }

  private complete(ticket: FillTicket, known: Known): OrderFilled {
    const withClientId = ticket.fill.clientOrderId === '' ? { ...ticket, fill: { ...ticket.fill, clientOrderId: known.clientOrderId } } : ticket;
    return toOrderFilled(withClientId, known.positionSide);
  }

  private evictOldest<V>(map: Map<string, V>): V | undefined {
    const oldest = map.keys().next();
    if (oldest.done === true) return undefined;
    const value = map.get(oldest.value);
    map.delete(oldest.value);
    return value;
  }
}
