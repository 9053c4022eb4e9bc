import type { AccountType, FallbackType, PositionSide, PriceType, Side, StopType, TimeInForce, TriggerBy } from '../engine/types.js';

/** The wire enums the trading routes accept, with the aliases older clients send (API-NOTES §6.3). */

export type SideV1 = 'BUY_OPEN' | 'SELL_OPEN' | 'BUY_CLOSE' | 'SELL_CLOSE';
export const SIDES_V1: readonly [SideV1, ...SideV1[]] = ['BUY_OPEN', 'SELL_OPEN', 'BUY_CLOSE', 'SELL_CLOSE'];
export const SIDES: readonly [Side, ...Side[]] = ['BUY', 'SELL'];
export const POSITION_SIDES: readonly [PositionSide, ...PositionSide[]] = ['LONG', 'SHORT'];

/** v1 side ↔ v2 side + positionSide (API-NOTES §6.3). */
const V1_TO_V2: Readonly<Record<SideV1, { readonly side: Side; readonly positionSide: PositionSide }>> = {
  BUY_OPEN: { side: 'BUY', positionSide: 'LONG' },
  SELL_OPEN: { side: 'SELL', positionSide: 'SHORT' },
  BUY_CLOSE: { side: 'BUY', positionSide: 'SHORT' },
  SELL_CLOSE: { side: 'SELL', positionSide: 'LONG' },
};

export function sidesOfV1(side: SideV1): { readonly side: Side; readonly positionSide: PositionSide } {
  return V1_TO_V2[side];
}

export function sideV1Of(side: Side, positionSide: PositionSide): SideV1 {
  if (side === 'BUY') return positionSide === 'LONG' ? 'BUY_OPEN' : 'BUY_CLOSE';
  return positionSide === 'SHORT' ? 'SELL_OPEN' : 'SELL_CLOSE';
}

export const TIME_IN_FORCE: readonly [TimeInForce, ...TimeInForce[]] = ['GTC', 'IOC', 'FOK', 'POST_ONLY'];
/** v1 clients (ccxt, JKorf, old docs) send LIMIT_MAKER for post-only. */
export const TIME_IN_FORCE_ALIASES: Readonly<Record<string, TimeInForce>> = { LIMIT_MAKER: 'POST_ONLY' };

export const PRICE_TYPES: readonly [PriceType, ...PriceType[]] = ['INPUT', 'MARKET'];
/**
 * Old-docs priceType values (API-NOTES §6.3 RULE: accept). OPPONENT (best opposite price), QUEUE (best
 * same-side price) and OVER (beyond the opposite price) all fill like a market order here: the
 * simulator prices them as priceType MARKET, with the same protective band.
 */
export const PRICE_TYPE_ALIASES: Readonly<Record<string, PriceType>> = { OPPONENT: 'MARKET', QUEUE: 'MARKET', OVER: 'MARKET' };

export const TRIGGER_BY: readonly [TriggerBy, ...TriggerBy[]] = ['CONTRACT_PRICE', 'MARK_PRICE'];
export const STOP_TYPES: readonly [StopType, ...StopType[]] = ['FIXED_STOP', 'TRAILING_STOP'];
export const FALLBACK_TYPES: readonly [FallbackType, ...FallbackType[]] = ['RATE', 'PRICE'];
export const STOP_CATEGORIES: readonly ['STOP', 'STOP_PROFIT_LOSS'] = ['STOP', 'STOP_PROFIT_LOSS'];
export type StopCategory = (typeof STOP_CATEGORIES)[number];

/** Transfer account types; FUTURES_USDC is the USDC-M contract account, which the coin already selects. */
export const TRANSFER_ACCOUNT_TYPES: readonly [AccountType, ...AccountType[]] = ['MAIN', 'FUTURES', 'COPY_TRADING'];
export const TRANSFER_ACCOUNT_ALIASES: Readonly<Record<string, AccountType>> = { FUTURES_USDC: 'FUTURES' };
