/**
 * `stratd/strategy`: everything a strategy module imports, in one entry (the bundled strategies and a
 * user's own strategy folder alike). Strategies import nothing else of stratd; what is here is the
 * strategy API's promise, the rest of src/ may change.
 */
export { Decimal, aboveZero, compareDecimals, dec, parseDecimal } from '../core/decimal.js';
export { distanceAbove } from '../core/decimal-estimate.js';
export { emptyDoubleArray, emptyObjectArray } from '../core/empty-arrays.js';
export type { Clock } from '../core/clock.js';
export type { Logger } from '../core/logger.js';

export * from '../engine/strategy/api.js';

export type * from '../model/intents.js';
export type { Category, Side, PositionSide, TimeInForce, TriggerBy, MarginType, SymbolStatus, PriceBand, Instrument } from '../model/instrument.js';
export { isOpening, statusAllows } from '../model/instrument.js';
export type { OrderStatus, AlgoStatus, AlgoKind, OrderSnapshot, AlgoOrderSnapshot, TrailingStop, Fill } from '../model/orders.js';
export { isOpenStatus, isOpenAlgoStatus } from '../model/orders.js';
export type * from '../model/market-events.js';
export type { Balance, FundingPayment, Position } from '../model/account.js';
export type { AccountEvent } from '../model/account-events.js';
export type { KernelEvent } from '../model/kernel-events.js';
export type { DenialCode, Denial } from '../model/denials.js';
export type { ExchangeCommand } from '../model/commands.js';
export { EXTERNAL_LEDGER } from '../model/ledger.js';
export type { PositionLossCause, PositionLost, PositionClaimed, LedgerEvent } from '../model/ledger.js';
export { z } from 'zod';
