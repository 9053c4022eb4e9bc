import { z } from 'zod';

/** Wire enums of the exchange (documents 000/001), as string-literal unions. */
export const category = z.enum(['USDT', 'USDC']);
export type Category = z.output<typeof category>;

export const orderSide = z.enum(['BUY', 'SELL']);
export type OrderSide = z.output<typeof orderSide>;

export const positionSide = z.enum(['LONG', 'SHORT']);
export type PositionSide = z.output<typeof positionSide>;

/** v1 sides combine direction and open/close. */
export const sideV1 = z.enum(['BUY_OPEN', 'SELL_OPEN', 'BUY_CLOSE', 'SELL_CLOSE']);
export type SideV1 = z.output<typeof sideV1>;

/** v1 priceType: INPUT and MARKET; older clients also send OPPONENT, QUEUE, OVER (API-NOTES §6.3: accept). */
export const priceTypeV1 = z.enum(['INPUT', 'MARKET', 'OPPONENT', 'QUEUE', 'OVER']);
export type PriceTypeV1 = z.output<typeof priceTypeV1>;

/** `type` of a v1 regular row: the spec says LIMIT or STOP; JKORF also knows MARKET (API-NOTES §5.8). */
export const orderTypeV1 = z.enum(['LIMIT', 'MARKET', 'STOP']);
export type OrderTypeV1 = z.output<typeof orderTypeV1>;

/** LIMIT_MAKER is the v1 clients' name for POST_ONLY (API-NOTES §6.3). */
export const timeInForce = z.enum(['GTC', 'FOK', 'IOC', 'POST_ONLY', 'LIMIT_MAKER']);
export type TimeInForce = z.output<typeof timeInForce>;

export const triggerBy = z.enum(['CONTRACT_PRICE', 'MARK_PRICE']);
export type TriggerBy = z.output<typeof triggerBy>;

export const tpSlOrderType = z.enum(['MARKET', 'LIMIT']);
export type TpSlOrderType = z.output<typeof tpSlOrderType>;

export const stopOrderType = z.enum(['TAKE_PROFIT', 'STOP_LOSS']);
export const stopType = z.enum(['FIXED_STOP', 'TRAILING_STOP']);
export type StopType = z.output<typeof stopType>;
export const fallbackType = z.enum(['RATE', 'PRICE']);
export type FallbackType = z.output<typeof fallbackType>;
export const stopCategory = z.enum(['STOP', 'STOP_PROFIT_LOSS']);
export type StopCategory = z.output<typeof stopCategory>;

export const marginType = z.enum(['CROSS', 'ISOLATED']);
export type MarginType = z.output<typeof marginType>;

/** Account kinds of sub-account records, transfers and v2 balance flow (document 000, API-NOTES §5.11). */
export const accountType = z.enum(['MAIN', 'FUTURES', 'COPY_TRADING', 'FUTURES_USDC']);
export type AccountType = z.output<typeof accountType>;

/** Regular order states and the plan/TP-SL states (document 000 "States and transitions"). */
export const orderStatus = z.enum([
  'PENDING_NEW',
  'NEW',
  'PARTIALLY_FILLED',
  'FILLED',
  'CANCELED',
  'PENDING_CANCEL',
  'PARTIALLY_CANCELED',
  'REJECTED',
  'ORDER_NEW',
  'ORDER_FILLED',
  'ORDER_CANCELED',
  'ORDER_REJECTED',
  'ORDER_FAILED',
  'ORDER_NOT_EFFECTIVE',
]);
export type OrderStatus = z.output<typeof orderStatus>;

/** v2 row types: regular, plan, TP/SL. */
export const orderTypeV2 = z.enum(['LIMIT', 'MARKET', 'STOP', 'STOP_MARKET', 'STOP_PROFIT_LOSS', 'STOP_PROFIT_LOSS_MARKET']);
export type OrderTypeV2 = z.output<typeof orderTypeV2>;

export const symbolStatus = z.enum(['TRADING', 'ONLINE', 'OFFLINE', 'API_TRADE_FORBIDDEN', 'OPEN_FORBIDDEN', 'CLOSE_FORBIDDEN']);
export type SymbolStatus = z.output<typeof symbolStatus>;
