import { assertNever } from '../../core/errors.js';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import type { ExchangeCommand } from '../../model/commands.js';
import type { CallTrace, ExchangeFailure, ExchangePort } from '../../model/exchange-port.js';
import { thrownFailure } from './execution-failures.js';
import type { Reply } from './execution-events.js';
import type { OrderKind } from './order-tracker.js';

export type CallResult<T> = Result<T, ExchangeFailure>;

/** A port call that throws (a bug below) has an unknown outcome, like a lost reply. */
async function guarded<T>(call: () => Promise<CallResult<T>>): Promise<CallResult<T>> {
  try {
    return await call();
  } catch (error: unknown) {
    return err(thrownFailure(error));
  }
}

function asReply<T>(result: CallResult<T>, wrap: (value: T) => Reply): CallResult<Reply> {
  return result.ok ? ok(wrap(result.value)) : result;
}

/** Sends one command through the port; `trace` (latency figures) goes along when given. */
export async function send(port: ExchangePort, command: ExchangeCommand, trace?: CallTrace): Promise<CallResult<Reply>> {
  switch (command.type) {
    case 'place-order':
      return asReply(await guarded(() => (trace === undefined ? port.placeOrder(command) : port.placeOrder(command, trace))), (order) => ({ kind: 'order', order }));
    case 'modify-order':
      return asReply(await guarded(() => (trace === undefined ? port.modifyOrder(command) : port.modifyOrder(command, trace))), (order) => ({ kind: 'order', order }));
    case 'cancel-order':
      return asReply(await guarded(() => (trace === undefined ? port.cancelOrder(command) : port.cancelOrder(command, trace))), (order) => ({ kind: 'order', order }));
    case 'cancel-all':
      return asReply(await guarded(() => (trace === undefined ? port.cancelAll(command) : port.cancelAll(command, trace))), () => ({ kind: 'none' }));
    case 'place-algo':
      return asReply(await guarded(() => (trace === undefined ? port.placeAlgo(command) : port.placeAlgo(command, trace))), (order) => ({ kind: 'algo', order }));
    case 'modify-algo':
      return asReply(await guarded(() => (trace === undefined ? port.modifyAlgo(command) : port.modifyAlgo(command, trace))), (order) => ({ kind: 'algo', order }));
    case 'cancel-algo':
      return asReply(await guarded(() => (trace === undefined ? port.cancelAlgo(command) : port.cancelAlgo(command, trace))), (order) => ({ kind: 'algo', order }));
    default:
      return assertNever(command, 'exchange command');
  }
}

/** The order (or plan row) with this client order id: a reply with its snapshot, none when absent. */
export async function query(port: ExchangePort, kind: OrderKind, symbol: string, clientOrderId: string): Promise<CallResult<Reply>> {
  if (kind === 'algo') return asReply(await guarded(() => port.queryAlgo(symbol, clientOrderId)), (order) => (order === undefined ? { kind: 'none' } : { kind: 'algo', order }));
  return asReply(await guarded(() => port.queryOrder(symbol, clientOrderId)), (order) => (order === undefined ? { kind: 'none' } : { kind: 'order', order }));
}
