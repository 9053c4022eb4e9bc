import type { Decimal } from '../../../core/decimal.js';
import type { AlgoOrderUpdated, BalanceUpdated, OrderFilled, OrderUpdated, PositionUpdated } from '../../../model/account-events.js';
import type { PositionSide } from '../../../model/instrument.js';
import type { Fill } from '../../../model/orders.js';
import type { SkippedRows } from '../../wire/tolerant-list.js';

/** What one inbound user-stream frame means (parsers/user-stream-frames.ts reads them). */

/** Pushed every minute from 5 minutes before the listen key expires. */
export interface ListenKeyWillExpire {
  readonly type: 'listenKey.willExpire';
  readonly time: number;
  readonly listenKey: string;
}

/**
 * A `ticketInfo` fill. The frame carries no position side (nor, in the documented shape, fee or realized
 * PnL): the side comes from the order's execution report (`toOrderFilled`).
 */
export interface FillTicket {
  readonly type: 'stream.ticket';
  readonly time: number;
  readonly fill: Omit<Fill, 'positionSide'>;
}

/**
 * What an execution report says about the fill it reports (`l` > 0): its commission (`n`, `N`) and the
 * order's realized PnL so far (`rp`). `ticketInfo` carries neither, so the session completes the
 * ticket of that fill with them.
 */
export interface ExecutionDetail {
  readonly type: 'stream.execution';
  readonly orderId: string;
  readonly qty: Decimal;
  readonly fee: Decimal;
  readonly feeAsset: string;
  /** Cumulative over the order's fills. */
  readonly orderRealizedPnl: Decimal;
}

export type StreamAccountItem = BalanceUpdated | PositionUpdated | OrderUpdated | AlgoOrderUpdated | FillTicket | ExecutionDetail;

export type UserStreamFrame =
  | { readonly kind: 'account'; readonly items: readonly StreamAccountItem[] }
  | { readonly kind: 'willExpire'; readonly notice: ListenKeyWillExpire }
  | { readonly kind: 'pong'; readonly value: string }
  | { readonly kind: 'error'; readonly code: string; readonly message: string };

export interface UserStreamFrameError {
  /** `not-json`: unreadable text; `unknown-event`: a shape or event name the parser does not know; `invalid`: a known event with a bad field. */
  readonly kind: 'not-json' | 'unknown-event' | 'invalid';
  readonly event?: string;
  readonly field?: string;
  readonly message: string;
}

export interface FrameContext {
  /** Coins per contract: the execution report's `Z` is a coin notional, so the average price is Z / (z × multiplier). */
  contractMultiplier?(symbol: string): Decimal | undefined;
  /** Rows of a frame's list (an account frame's balances) that lacked what stratd needs and were left out. */
  onSkipped?(skipped: SkippedRows): void;
}

/** The fill of a ticket once its position side is known. */
export function toOrderFilled(ticket: FillTicket, positionSide: PositionSide): OrderFilled {
  return { type: 'account.fill', source: 'stream', time: ticket.time, fill: { ...ticket.fill, positionSide } };
}
