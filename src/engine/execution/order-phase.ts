import { assertNever } from '../../core/errors.js';
import type { JournalState } from '../../model/journal.js';
import type { AlgoOrderSnapshot, OrderSnapshot } from '../../model/orders.js';
import { isOpenAlgoStatus, isOpenStatus, supersedes } from '../../model/orders.js';

/**
 * What the executor learns about a submission:
 * - `sent`: it went on the wire;
 * - `lost`: the reply was lost (timeout, network, 5xx);
 * - `refused`: the exchange (or the port) refused it: no effect;
 * - `absent`: a query found no such order;
 * - `exists`: a reply, stream event or query shows the order (open, or finished).
 */
export type PhaseInput =
  | { readonly kind: 'sent' }
  | { readonly kind: 'lost' }
  | { readonly kind: 'refused' }
  | { readonly kind: 'absent' }
  | { readonly kind: 'exists'; readonly finished: boolean };

/**
 * The order state machine (journal states). Evidence that the exchange has the order beats every
 * "unknown" or "absent", whatever order REST replies and stream events arrive in; `done` is final.
 * A rejected order that later shows up (a reply lost, then a late stream event) is accepted after all.
 */
export function nextPhase(current: JournalState, input: PhaseInput): JournalState {
  if (current === 'done') return current;
  switch (input.kind) {
    case 'sent':
      return current === 'pending' ? 'sent' : current;
    case 'lost':
      return current === 'pending' || current === 'sent' ? 'unknown' : current;
    case 'refused':
      return current === 'pending' || current === 'sent' || current === 'unknown' ? 'rejected' : current;
    case 'absent':
      // An accepted order no query can find any more is over (the caller rules out a race first).
      return current === 'accepted' ? 'done' : current === 'rejected' ? current : 'rejected';
    case 'exists':
      return input.finished ? 'done' : 'accepted';
    default:
      return assertNever(input, 'phase input');
  }
}

/** Phases in which the exchange may not have answered yet. */
export function isAwaitingAnswer(phase: JournalState): boolean {
  return phase === 'pending' || phase === 'sent' || phase === 'unknown';
}

/** Phases of a live submission: counted as open and owned. */
export function isLive(phase: JournalState): boolean {
  return phase === 'pending' || phase === 'sent' || phase === 'unknown' || phase === 'accepted';
}

export function isFinishedOrder(snapshot: OrderSnapshot): boolean {
  return !isOpenStatus(snapshot.status);
}

export function isFinishedAlgo(snapshot: AlgoOrderSnapshot): boolean {
  return !isOpenAlgoStatus(snapshot.status);
}

/** `supersedes` for plan and TP/SL rows: a finished row is never replaced; else the newer (or as new) wins. */
export function algoSupersedes(current: AlgoOrderSnapshot, next: AlgoOrderSnapshot): boolean {
  return !isFinishedAlgo(current) && next.updateTime >= current.updateTime;
}

export { supersedes };
