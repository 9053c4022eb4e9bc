import type { Decimal } from '../core/decimal.js';

/**
 * External signals: an order wish from outside the daemon (a TradingView alert, another program),
 * authenticated and validated at the daemon's edge, then handed to a `signal` strategy on the bus.
 */

/** `close` closes both sides of the symbol; `close-long`/`close-short` one side. */
export type SignalAction = 'buy' | 'sell' | 'close' | 'close-long' | 'close-short';

export interface ExternalSignal {
  /** The sender's idempotency key: a second signal with it is answered with the first one's result. */
  readonly key: string;
  readonly symbol: string;
  readonly action: SignalAction;
  /** Contracts; absent: the strategy's default quantity. */
  readonly quantity?: Decimal;
  readonly orderType: 'MARKET' | 'LIMIT';
  /** Required for LIMIT. */
  readonly price?: Decimal;
  /** Exchange-side take-profit and stop-loss trigger prices attached to an opening order. */
  readonly takeProfit?: Decimal;
  readonly stopLoss?: Decimal;
  /**
   * The position the sender expects after this order (TradingView's `{{strategy.market_position}}`):
   * `flat` turns a buy into closing the short side and a sell into closing the long side.
   */
  readonly marketPosition?: 'long' | 'short' | 'flat';
  /** Free text from the sender, kept in the journal. */
  readonly comment?: string;
  /** The sender's timestamp (epoch ms) that passed the replay window. */
  readonly sentAt: number;
}

/** A verified signal for one strategy instance. */
export interface SignalReceived {
  readonly type: 'signal.received';
  readonly time: number;
  readonly strategyId: string;
  readonly signal: ExternalSignal;
  /**
   * Short, intent-key-safe reference of the signal (from its idempotency key): the strategy keys the
   * intents it emits for the signal `<ref>-<n>`, n = 0, 1, …, so the endpoint can find their outcome.
   */
  readonly ref: string;
}

export type SignalEvent = SignalReceived;
