import type { Logger } from '../../core/logger.js';
import type { ExchangePort } from '../../model/exchange-port.js';
import type { JournalState } from '../../model/journal.js';
import type { AlgoOrderSnapshot, OrderSnapshot } from '../../model/orders.js';
import type { CallResult } from './exchange-calls.js';
import { query } from './exchange-calls.js';
import type { ExecutionEvents, Reply } from './execution-events.js';
import { absentFailure, notEffectiveFailure } from './execution-failures.js';
import { isAwaitingAnswer, isFinishedAlgo, isFinishedOrder } from './order-phase.js';
import type { OrderTracker, Tracked } from './order-tracker.js';
import { isPlacing, kindOf } from './order-tracker.js';

/** What settling found: the entry's phase now, no answer yet, or a call for it already on the wire. */
export type SettleResult = JournalState | 'unresolved' | 'busy';

export interface SettleContext {
  readonly port: ExchangePort;
  readonly tracker: OrderTracker;
  readonly events: ExecutionEvents;
  /** Ids with a port call outstanding: never queried or settled meanwhile. */
  readonly busy: Set<string>;
  readonly logger: Logger;
}

/** An order the exchange no longer knows at all, shown as cancelled so that local state matches. */
export function vanished(snapshot: OrderSnapshot): OrderSnapshot;
export function vanished(snapshot: AlgoOrderSnapshot): AlgoOrderSnapshot;
export function vanished(snapshot: OrderSnapshot | AlgoOrderSnapshot): OrderSnapshot | AlgoOrderSnapshot {
  return 'kind' in snapshot ? { ...snapshot, status: 'ORDER_CANCELED' } : { ...snapshot, status: 'CANCELED' };
}

export function applyReply(tracker: OrderTracker, reply: Reply): void {
  if (reply.kind === 'order') tracker.applyOrder(reply.order);
  else if (reply.kind === 'algo') tracker.applyAlgo(reply.order);
}

function isOpenReply(reply: Reply): boolean {
  if (reply.kind === 'order') return !isFinishedOrder(reply.order);
  if (reply.kind === 'algo') return !isFinishedAlgo(reply.order);
  return false;
}

async function whileBusy<T>(ctx: SettleContext, id: string, call: () => Promise<CallResult<T>>): Promise<CallResult<T>> {
  ctx.busy.add(id);
  try {
    return await call();
  } finally {
    ctx.busy.delete(id);
  }
}

/**
 * Settles one live submission by asking the exchange, never by sending it again. `known` is the
 * order as a just-fetched open list shows it (then no query is needed).
 */
export async function settle(ctx: SettleContext, tracked: Tracked, known?: Reply): Promise<SettleResult> {
  if (ctx.busy.has(tracked.id)) return 'busy';
  return isPlacing(tracked.command) ? settlePlacement(ctx, tracked, known) : settleCommand(ctx, tracked);
}

async function settlePlacement(ctx: SettleContext, tracked: Tracked, known: Reply | undefined): Promise<SettleResult> {
  const { id, strategyId, command } = tracked;
  const before = tracked.phase;
  if (known !== undefined && known.kind !== 'none') {
    applyReply(ctx.tracker, known);
    if (isAwaitingAnswer(before)) ctx.events.submitted(strategyId, command);
    return tracked.phase;
  }
  const result = await whileBusy(ctx, id, () => query(ctx.port, kindOf(command), tracked.symbol, id));
  if (!result.ok) {
    ctx.logger.warn({ clientOrderId: id, failure: result.error }, 'settling query failed');
    return 'unresolved';
  }
  // A reply or stream event settled it while the query was out: that evidence is newer.
  if (tracked.phase !== before) return tracked.phase;
  const reply = result.value;
  if (reply.kind === 'none') {
    const phase = ctx.tracker.advance(id, { kind: 'absent' }, 'absent on query') ?? tracked.phase;
    if (phase === 'rejected' && before !== 'rejected') ctx.events.failed(strategyId, command, absentFailure(id));
    if (phase === 'done') {
      ctx.logger.warn({ clientOrderId: id }, 'an accepted order is unknown to the exchange now: closed locally');
      if (tracked.order !== undefined) ctx.events.order(vanished(tracked.order));
      if (tracked.algo !== undefined) ctx.events.algo(vanished(tracked.algo));
    }
    return phase;
  }
  applyReply(ctx.tracker, reply);
  ctx.events.reply(reply);
  if (isAwaitingAnswer(before)) ctx.events.submitted(strategyId, command);
  return tracked.phase;
}

/**
 * A modify or cancel whose outcome is unknown: the target order's state answers it. A cancel that left
 * the order open had no effect (failed, so the strategy may cancel again); a modify is done either way,
 * the published state showing what the order is now.
 */
async function settleCommand(ctx: SettleContext, tracked: Tracked): Promise<SettleResult> {
  const { id, strategyId, command } = tracked;
  if (command.type === 'place-order' || command.type === 'place-algo') return tracked.phase;
  let stillOpen = false;
  if (command.type === 'cancel-all') {
    const targets = ctx.tracker.all().filter((t) => t.symbol === command.symbol && t.command.type === 'place-order' && t.phase === 'accepted');
    for (const target of targets) {
      const result = await whileBusy(ctx, id, () => query(ctx.port, 'order', target.symbol, target.id));
      if (!result.ok) return 'unresolved';
      applyReply(ctx.tracker, result.value);
      ctx.events.reply(result.value);
      stillOpen ||= isOpenReply(result.value);
    }
  } else {
    const result = await whileBusy(ctx, id, () => query(ctx.port, kindOf(command), command.symbol, command.clientOrderId));
    if (!result.ok) return 'unresolved';
    if (!isAwaitingAnswer(tracked.phase)) return tracked.phase;
    const reply = result.value;
    if (reply.kind === 'none') {
      ctx.tracker.advance(id, { kind: 'refused' }, 'target absent on query');
      ctx.events.failed(strategyId, command, absentFailure(command.clientOrderId));
      return 'rejected';
    }
    applyReply(ctx.tracker, reply);
    ctx.events.reply(reply);
    stillOpen = (command.type === 'cancel-order' || command.type === 'cancel-algo') && isOpenReply(reply);
  }
  if (!isAwaitingAnswer(tracked.phase)) return tracked.phase;
  if (stillOpen) {
    ctx.tracker.advance(id, { kind: 'refused' }, 'no effect: still open');
    ctx.events.failed(strategyId, command, notEffectiveFailure(command));
    return 'rejected';
  }
  ctx.tracker.advance(id, { kind: 'exists', finished: true }, 'settled by query');
  ctx.events.submitted(strategyId, command);
  return 'done';
}
