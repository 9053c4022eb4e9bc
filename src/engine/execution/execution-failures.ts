import type { ExchangeCommand } from '../../model/commands.js';
import type { ExchangeFailure } from '../../model/exchange-port.js';
import type { JournalState } from '../../model/journal.js';

/** Failures the executor itself concludes (stable codes for metrics and strategies). */

/** The client order id was used by an order that already finished: a key names one order; use a new key. */
export function duplicateFailure(clientOrderId: string, state: JournalState): ExchangeFailure {
  return { kind: 'invalid', code: 'DUPLICATE', message: `client order id ${clientOrderId} was already used (journal state ${state})`, retryable: false };
}

/** A command whose reply was lost turned out never to have reached the exchange. */
export function absentFailure(clientOrderId: string): ExchangeFailure {
  return { kind: 'not-found', code: 'NOT_FOUND', message: `the exchange has no order ${clientOrderId}: the command never took effect`, retryable: true };
}

/** A cancel whose reply was lost: the order is still open afterwards. */
export function notEffectiveFailure(command: ExchangeCommand): ExchangeFailure {
  return { kind: 'rejected', code: 'NOT_EFFECTIVE', message: `${command.type} on ${command.symbol} had no effect: the order is still open`, retryable: true };
}

/** The port threw (a bug below us): nothing is known about the outcome. */
export function thrownFailure(error: unknown): ExchangeFailure {
  return { kind: 'unknown', code: 'unknown', message: error instanceof Error ? error.message : String(error), retryable: true };
}
