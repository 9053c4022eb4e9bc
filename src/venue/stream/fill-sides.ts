import type { OrderFilled } from '../../model/account-events.js';
import type { PositionSide } from '../../model/instrument.js';
import type { OrderSnapshot } from '../../model/orders.js';
import { isOpenStatus } from '../../model/orders.js';
import type { Decimal } from '../../core/decimal.js';
import type { ExecutionDetail, FillTicket } from './frames/frame-types.js';
import { toOrderFilled } from './frames/frame-types.js';

/** Fee and realized PnL of one reported fill, waiting for its ticket. */
interface Execution {
  readonly qty: Decimal;
  readonly fee: Decimal;
  readonly feeAsset: string;
  readonly realizedPnl: Decimal;
}

/** What the stream told about one order: its side once reported, and its executions not yet ticketed. */
interface OrderMemory {
  side?: { readonly positionSide: PositionSide; readonly clientOrderId: string };
  /** The order's cumulative realized PnL over the executions seen (the next one reports the difference). */
  realizedSoFar?: Decimal;
  readonly pending: Execution[];
  /** Its last report was final (filled, cancelled, rejected). */
  finished: boolean;
  /** Exchange time of its last report. */
  lastReport: number;
}

/** How long (exchange time) a finished order is remembered for tickets still on their way. */
export const FINISHED_ORDER_GRACE_MS = 5 * 60_000;
/** How long a ticket waits for its order's report before it is given up (the REST resync brings it back). */
export const TICKET_WAIT_MS = 15 * 60_000;
/** How often (exchange time) the tables are swept by age. */
const SWEEP_EVERY_MS = 60_000;

/**
 * Completes `ticketInfo` fills, which carry no position side, from the execution reports of their orders.
 * A ticket that arrives before any report of its order (delivery may reorder) waits for that report.
 *
 * Retention follows the orders' lives, in exchange time: an open order is remembered while it is open
 * (its cumulative realized PnL is needed for its next fill), a finished one for FINISHED_ORDER_GRACE_MS
 * after its last report, a waiting ticket for TICKET_WAIT_MS. `capacity` bounds each table besides.
 */
export class FillSides {
  /** By order id; least recently reported first. */
  private readonly orders = new Map<string, OrderMemory>();
  private readonly waiting = new Map<string, FillTicket[]>();
  private droppedCount = 0;
  private newest = -Infinity;
  private sweptAt = -Infinity;

  constructor(private readonly capacity = 10_000) {}

  /** Learns the order's side; answers the fills that were waiting for it, oldest first. */
  noteOrder(order: OrderSnapshot): readonly OrderFilled[] {
    const memory = this.memoryOf(order.orderId);
    memory.side = { positionSide: order.positionSide, clientOrderId: order.clientOrderId };
    memory.finished = !isOpenStatus(order.status);
    this.touch(order.orderId, memory, order.updateTime);
    const tickets = this.waiting.get(order.orderId);
    if (tickets === undefined) return [];
    this.waiting.delete(order.orderId);
    return tickets.map((ticket) => this.complete(ticket, memory));
  }

  /** Learns the fee and realized PnL of a fill from its execution report; the fill's ticket takes them. */
  noteExecution(detail: ExecutionDetail): void {
    const memory = this.memoryOf(detail.orderId);
    const soFar = memory.realizedSoFar ?? detail.orderRealizedPnl.mul(0);
    memory.pending.push({ qty: detail.qty, fee: detail.fee, feeAsset: detail.feeAsset, realizedPnl: detail.orderRealizedPnl.minus(soFar) });
    memory.realizedSoFar = detail.orderRealizedPnl;
  }

  /** The ticket's fill, or undefined while its order's side is unknown (then it waits). */
  resolve(ticket: FillTicket): OrderFilled | undefined {
    this.sweep(ticket.time);
    const memory = this.orders.get(ticket.fill.orderId);
    if (memory?.side !== undefined) return this.complete(ticket, memory);
    const list = this.waiting.get(ticket.fill.orderId);
    if (list !== undefined) list.push(ticket);
    else this.waiting.set(ticket.fill.orderId, [ticket]);
    if (this.waiting.size > this.capacity) this.droppedCount += this.evictOldest(this.waiting)?.length ?? 0;
    return undefined;
  }

  /** Tickets given up on (waited too long, or too many waited): their fills come back with the REST resync. */
  get dropped(): number {
    return this.droppedCount;
  }

  get waitingCount(): number {
    let count = 0;
    for (const list of this.waiting.values()) count += list.length;
    return count;
  }

  /** Orders whose tickets wait for their report. */
  get waitingOrderCount(): number {
    return this.waiting.size;
  }

  /** Orders remembered (open ones, finished ones within their grace, ones known only by an execution). */
  get orderCount(): number {
    return this.orders.size;
  }

  /** How many entries each table keeps at most. */
  get limit(): number {
    return this.capacity;
  }

  private memoryOf(orderId: string): OrderMemory {
    let memory = this.orders.get(orderId);
    if (memory === undefined) {
      memory = { pending: [], finished: false, lastReport: this.newest };
      this.orders.set(orderId, memory);
      if (this.orders.size > this.capacity) this.evictOldest(this.orders);
    }
    return memory;
  }

  /** Moves the order to the newest end of the table, then sweeps by age. */
  private touch(orderId: string, memory: OrderMemory, time: number): void {
    memory.lastReport = Math.max(memory.lastReport, time);
    this.orders.delete(orderId);
    this.orders.set(orderId, memory);
    this.sweep(time);
  }

  private sweep(time: number): void {
    this.newest = Math.max(this.newest, time);
    if (this.newest - this.sweptAt < SWEEP_EVERY_MS) return;
    this.sweptAt = this.newest;
    const finishedBefore = this.newest - FINISHED_ORDER_GRACE_MS;
    // Least recently reported first: past the first order reported after the cutoff, none can qualify.
    for (const [orderId, memory] of this.orders) {
      if (memory.lastReport >= finishedBefore) break;
      if (memory.finished || memory.side === undefined) this.orders.delete(orderId);
    }
    const waitedBefore = this.newest - TICKET_WAIT_MS;
    for (const [orderId, tickets] of this.waiting) {
      if ((tickets[0]?.time ?? -Infinity) >= waitedBefore) break;
      this.waiting.delete(orderId);
      this.droppedCount += tickets.length;
    }
  }

  private complete(ticket: FillTicket, memory: OrderMemory): OrderFilled {
    const side = memory.side;
    if (side === undefined) throw new Error(`order ${ticket.fill.orderId} completed before its side was known`);
    const clientOrderId = ticket.fill.clientOrderId === '' ? side.clientOrderId : ticket.fill.clientOrderId;
    const execution = takeExecution(memory.pending, ticket);
    const fill = execution === undefined ? { ...ticket.fill, clientOrderId } : { ...ticket.fill, clientOrderId, fee: execution.fee, feeAsset: execution.feeAsset, realizedPnl: execution.realizedPnl };
    return toOrderFilled({ ...ticket, fill }, side.positionSide);
  }

  private evictOldest<V>(map: Map<string, V>): V | undefined {
    const oldest = map.keys().next();
    if (oldest.done === true) return undefined;
    const value = map.get(oldest.value);
    map.delete(oldest.value);
    return value;
  }
}

/** The reported execution of the same order and size, oldest first. */
function takeExecution(pending: Execution[], ticket: FillTicket): Execution | undefined {
  const at = pending.findIndex((e) => e.qty.eq(ticket.fill.qty));
  return at < 0 ? undefined : pending.splice(at, 1)[0];
}
