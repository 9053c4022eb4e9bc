import { assertNever } from '../../core/errors.js';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import type { ExchangeCommand } from '../../model/commands.js';
import type { CallTrace, ExchangeFailure, ExchangePort } from '../../model/exchange-port.js';
import { thrownFailure } from './execution-failures.js';
import type { AlgoOrderSnapshot, OrderSnapshot } from '../../model/orders.js';
import type { Reply } from './execution-events.js';
import type { OrderKind } from './order-tracker.js';

export type CallResult<T> = Result<T, ExchangeFailure>;

/** A port call that throws (a bug below) has an unknown outcome, like a lost reply. */
async function guarded<T>(call: () => Promise<CallResult<T>>): Promise<CallResult<T>> {
  try {
    return await call();
  } catch (error: unknown) {
    return thrown(error);
  }
}

function asReply<T>(result: CallResult<T>, wrap: (value: T) => Reply): CallResult<Reply> {
  return result.ok ? ok(wrap(result.value)) : result;
}

function orderReply(result: CallResult<OrderSnapshot>): CallResult<Reply> {
  return result.ok ? ok({ kind: 'order', order: result.value }) : result;
}

function algoReply(result: CallResult<AlgoOrderSnapshot>): CallResult<Reply> {
  return result.ok ? ok({ kind: 'algo', order: result.value }) : result;
}

const NO_REPLY: CallResult<Reply> = ok({ kind: 'none' });

/** A rejected port call: an unknown outcome (a port that throws is a bug below). */
function thrown(error: unknown): CallResult<never> {
  return err(thrownFailure(error));
}

/** A port call that resolved without a snapshot to reply with (cancel-all). */
function noReply(result: CallResult<void>): CallResult<Reply> {
  return result.ok ? NO_REPLY : result;
}

/**
 * Sends one command through the port; `trace` (latency figures) goes along when given. No async step
 * of its own and no closures: the port's promise answers through one reaction, and a port that throws
 * or rejects answers an unknown outcome, as `guarded` does.
 */
export function send(port: ExchangePort, command: ExchangeCommand, trace?: CallTrace): Promise<CallResult<Reply>> {
  try {
    switch (command.type) {
      case 'place-order':
        return (trace === undefined ? port.placeOrder(command) : port.placeOrder(command, trace)).then(orderReply, thrown);
      case 'modify-order':
        return (trace === undefined ? port.modifyOrder(command) : port.modifyOrder(command, trace)).then(orderReply, thrown);
      case 'cancel-order':
        return (trace === undefined ? port.cancelOrder(command) : port.cancelOrder(command, trace)).then(orderReply, thrown);
      case 'cancel-all':
        return (trace === undefined ? port.cancelAll(command) : port.cancelAll(command, trace)).then(noReply, thrown);
      case 'place-algo':
        return (trace === undefined ? port.placeAlgo(command) : port.placeAlgo(command, trace)).then(algoReply, thrown);
      case 'modify-algo':
        return (trace === undefined ? port.modifyAlgo(command) : port.modifyAlgo(command, trace)).then(algoReply, thrown);
      case 'cancel-algo':
        return (trace === undefined ? port.cancelAlgo(command) : port.cancelAlgo(command, trace)).then(algoReply, thrown);
      default:
        break;
    }
  } catch (error: unknown) {
    return Promise.resolve(thrown(error));
  }
  return assertNever(command, 'exchange command');
}

/** The order (or plan row) with this client order id: a reply with its snapshot, none when absent. */
export async function query(port: ExchangePort, kind: OrderKind, symbol: string, clientOrderId: string): Promise<CallResult<Reply>> {
  if (kind === 'algo') return asReply(await guarded(() => port.queryAlgo(symbol, clientOrderId)), (order) => (order === undefined ? { kind: 'none' } : { kind: 'algo', order }));
  return asReply(await guarded(() => port.queryOrder(symbol, clientOrderId)), (order) => (order === undefined ? { kind: 'none' } : { kind: 'order', order }));
}
