import type { Decimal } from '../core/decimal.js';

export type Category = 'USDT' | 'USDC';
export type Side = 'BUY' | 'SELL';
export type PositionSide = 'LONG' | 'SHORT';
export type TimeInForce = 'GTC' | 'IOC' | 'FOK' | 'POST_ONLY';
export type TriggerBy = 'CONTRACT_PRICE' | 'MARK_PRICE';
export type MarginType = 'CROSS' | 'ISOLATED';

/**
 * Symbol status of exchangeInfo. OPEN_FORBIDDEN allows only closing orders, CLOSE_FORBIDDEN only
 * opening ones, API_TRADE_FORBIDDEN and OFFLINE nothing.
 */
export type SymbolStatus = 'TRADING' | 'ONLINE' | 'OFFLINE' | 'API_TRADE_FORBIDDEN' | 'OPEN_FORBIDDEN' | 'CLOSE_FORBIDDEN';

/** A percentage band around a reference price: buys up to ref × (1 + up), sells down to ref × (1 − down). */
export interface PriceBand {
  readonly buyUpRate: Decimal;
  readonly sellDownRate: Decimal;
}

/**
 * A contract as the kernel sees it. Every quantity is in CONTRACTS (API-NOTES §6.2): the adapter
 * converts exchangeInfo's coin LOT_SIZE by dividing by the contract multiplier. Notional of a
 * quantity q at price p is p × q × contractMultiplier, in the margin asset.
 */
export interface Instrument {
  readonly symbol: string;
  readonly category: Category;
  readonly status: SymbolStatus;
  readonly baseAsset: string;
  readonly marginAsset: string;
  /** Coins per contract. */
  readonly contractMultiplier: Decimal;
  /** The index it tracks (exchangeInfo `indexToken ?? index`, e.g. BTCUSDT): the key of GET /quote/v1/index. */
  readonly indexToken?: string;
  readonly tickSize: Decimal;
  readonly minPrice: Decimal;
  readonly maxPrice: Decimal;
  /** Contract step, min and max per order. */
  readonly qtyStep: Decimal;
  readonly minQty: Decimal;
  readonly maxQty: Decimal;
  /** Quote notional bounds per order (MIN_NOTIONAL, TRADE_AMOUNT); absent when the exchange gives none. */
  readonly minNotional?: Decimal;
  readonly maxNotional?: Decimal;
  /** LIMIT_TRADING band for limit orders and MARKET_TRADING band for market orders, against the mark price. */
  readonly limitBand?: PriceBand;
  readonly marketBand?: PriceBand;
  /** Open regular and conditional orders allowed per symbol (LIMIT_TRADING maxEntrustNum/maxConditionNum). */
  readonly maxOpenOrders?: number;
  readonly maxOpenAlgoOrders?: number;
  /** Highest leverage of the lowest risk tier (1 / its initial margin rate). */
  readonly maxLeverage: Decimal;
}

/** Whether a status lets an order of this direction through. */
export function statusAllows(status: SymbolStatus, opening: boolean): boolean {
  switch (status) {
    case 'TRADING':
    case 'ONLINE':
      return true;
    case 'OPEN_FORBIDDEN':
      return !opening;
    case 'CLOSE_FORBIDDEN':
      return opening;
    case 'OFFLINE':
    case 'API_TRADE_FORBIDDEN':
      return false;
  }
}

/** Hedge mode: BUY LONG and SELL SHORT open; SELL LONG and BUY SHORT close. */
export function isOpening(side: Side, positionSide: PositionSide): boolean {
  return (side === 'BUY') === (positionSide === 'LONG');
}
