import type { OrderFilled } from '../../model/account-events.js';
import type { PositionSide } from '../../model/instrument.js';
import type { OrderSnapshot } from '../../model/orders.js';
import type { Decimal } from '../../core/decimal.js';
import type { ExecutionDetail, FillTicket } from './frames/frame-types.js';
import { toOrderFilled } from './frames/frame-types.js';

interface Known {
  readonly positionSide: PositionSide;
  readonly clientOrderId: string;
}

/** Fee and realized PnL of one reported fill, waiting for its ticket. */
interface Execution {
  readonly qty: Decimal;
  readonly fee: Decimal;
  readonly feeAsset: string;
  readonly realizedPnl: Decimal;
}

/**
 * Completes `ticketInfo` fills, which carry no position side, from the execution reports of their orders.
 * A ticket that arrives before any report of its order (delivery may reorder) waits for that report.
 * Both tables are bounded: the oldest entries go first.
 */
export class FillSides {
  private readonly known = new Map<string, Known>();
  private readonly waiting = new Map<string, FillTicket[]>();
  private readonly executions = new Map<string, { realizedSoFar: Decimal; pending: Execution[] }>();
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

  /** Learns the fee and realized PnL of a fill from its execution report; the fill's ticket takes them. */
  noteExecution(detail: ExecutionDetail): void {
    let order = this.executions.get(detail.orderId);
    if (order === undefined) {
      order = { realizedSoFar: detail.orderRealizedPnl.mul(0), pending: [] };
      this.executions.set(detail.orderId, order);
      if (this.executions.size > this.capacity) this.evictOldest(this.executions);
    }
    order.pending.push({ qty: detail.qty, fee: detail.fee, feeAsset: detail.feeAsset, realizedPnl: detail.orderRealizedPnl.minus(order.realizedSoFar) });
    order.realizedSoFar = detail.orderRealizedPnl;
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
    const clientOrderId = ticket.fill.clientOrderId === '' ? known.clientOrderId : ticket.fill.clientOrderId;
    const execution = this.takeExecution(ticket);
    const fill = execution === undefined ? { ...ticket.fill, clientOrderId } : { ...ticket.fill, clientOrderId, fee: execution.fee, feeAsset: execution.feeAsset, realizedPnl: execution.realizedPnl };
    return toOrderFilled({ ...ticket, fill }, known.positionSide);
  }

  /** The reported execution of the same order and size, oldest first. */
  private takeExecution(ticket: FillTicket): Execution | undefined {
    const pending = this.executions.get(ticket.fill.orderId)?.pending;
    if (pending === undefined) return undefined;
    const at = pending.findIndex((e) => e.qty.eq(ticket.fill.qty));
    return at < 0 ? undefined : pending.splice(at, 1)[0];
  }

  private evictOldest<V>(map: Map<string, V>): V | undefined {
    const oldest = map.keys().next();
    if (oldest.done === true) return undefined;
    const value = map.get(oldest.value);
    map.delete(oldest.value);
    return value;
  }
}
