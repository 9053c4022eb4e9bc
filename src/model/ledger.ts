import type { Decimal } from '../core/decimal.js';
import type { PositionSide } from './instrument.js';

/**
 * Ledgers: which part of the account's position belongs to which strategy. Every fill is booked to the
 * strategy whose order it filled; what the account holds beyond the strategies' ledgers (a manual
 * trade, an orphan, a position found at start) belongs to the `external` ledger until a strategy
 * claims it. The ledgers of one symbol and side sum to the account's position.
 */
export const EXTERNAL_LEDGER = 'external';

/** One ledger's holding of one symbol and position side. `qty` in contracts, never negative. */
export interface LedgerPosition {
  readonly owner: string;
  readonly symbol: string;
  readonly positionSide: PositionSide;
  readonly qty: Decimal;
  /** Average entry price of what is held; zero when flat. */
  readonly avgPrice: Decimal;
  /** Realized PnL of the owner's closing fills against its own average price (quote units). */
  readonly realizedPnl: Decimal;
  /** Fees paid on the owner's fills (a rebate is negative). */
  readonly fees: Decimal;
  /** The owner's share of funding payments: positive received, negative paid. */
  readonly funding: Decimal;
  readonly updateTime: number;
}

/**
 * What took a strategy's position away: a liquidation order, an auto-deleverage, a guard strategy
 * acting on the whole account (`guard`), or something else that was not its own fill.
 */
export type PositionLossCause = 'liquidation' | 'adl' | 'guard' | 'unattributed';

/**
 * A position (or part of it) vanished without a fill of the owning strategy: the ledger has been
 * corrected (the lost quantity closed at `price`) and its protective orders are being cancelled.
 */
export interface PositionLost {
  readonly type: 'ledger.positionLost';
  readonly time: number;
  readonly strategyId: string;
  readonly symbol: string;
  readonly positionSide: PositionSide;
  readonly cause: PositionLossCause;
  /** Contracts the strategy lost. */
  readonly qty: Decimal;
  /** The price the ledger closed them at (the foreign fill's, or the account's average when none). */
  readonly price: Decimal;
  /** What the strategy's ledger still holds on that side. */
  readonly remaining: Decimal;
  /** The foreign order that closed it, when one was seen. */
  readonly clientOrderId?: string;
}

/** The external ledger's holding moved to a strategy (config `claims:` or the control plane). */
export interface PositionClaimed {
  readonly type: 'ledger.claimed';
  readonly time: number;
  readonly strategyId: string;
  readonly symbol: string;
  readonly positionSide: PositionSide;
  readonly qty: Decimal;
  readonly price: Decimal;
  readonly by: 'config' | 'operator';
}

export type LedgerEvent = PositionLost | PositionClaimed;
