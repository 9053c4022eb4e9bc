/**
 * Why the risk engine refused an intent. Stable codes: they are metric labels and what strategies
 * switch on.
 */
export type DenialCode =
  | 'UNKNOWN_SYMBOL'
  | 'NOT_ALLOWED_SYMBOL'
  | 'SYMBOL_STATUS'
  | 'INVALID_PRICE'
  | 'INVALID_QUANTITY'
  | 'PRICE_FILTER'
  | 'QTY_FILTER'
  | 'NOTIONAL_FILTER'
  | 'PRICE_BAND'
  | 'NO_MARK_PRICE'
  | 'MAX_POSITION'
  | 'MAX_NOTIONAL'
  | 'MAX_LEVERAGE'
  | 'MAX_OPEN_ORDERS'
  | 'ORDER_RATE'
  | 'KILL_SWITCH'
  /** A tripped protection (risk.protections) or an entry its cap refuses. */
  | 'PROTECTION'
  | 'NO_POSITION'
  /** A closing order above the position's available part (what open closing orders have not reserved): the exchange's -2010. */
  | 'CLOSE_ABOVE_AVAILABLE'
  | 'UNKNOWN_ORDER'
  | 'NOT_OWNER'
  | 'DUPLICATE_KEY'
  | 'STRATEGY_HALTED'
  | 'JOURNAL_UNAVAILABLE'
  | 'NOT_READY';

export interface Denial {
  readonly code: DenialCode;
  readonly message: string;
}
