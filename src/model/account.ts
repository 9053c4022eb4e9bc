import type { Decimal } from '../core/decimal.js';
import type { MarginType, PositionSide } from './instrument.js';

/** A futures wallet balance in one margin asset. */
export interface Balance {
  readonly asset: string;
  /** Wallet balance, excluding unrealized PnL. */
  readonly walletBalance: Decimal;
  readonly availableBalance: Decimal;
  /** Position margin + order margin. */
  readonly lockedMargin: Decimal;
  readonly unrealizedPnl: Decimal;
  readonly updateTime: number;
}

/**
 * One funding settlement of a position (balance flow type 32, FUNDING_FEE): `amount` is signed, positive
 * when the account received funding, negative when it paid. `flowId` is the exchange's balance-flow id.
 */
export interface FundingPayment {
  readonly flowId: string;
  readonly symbol: string;
  readonly asset: string;
  readonly amount: Decimal;
  readonly time: number;
}

/** One side of a hedge-mode position. `qty` is in contracts and never negative; zero means flat. */
export interface Position {
  readonly symbol: string;
  readonly positionSide: PositionSide;
  readonly qty: Decimal;
  readonly avgPrice: Decimal;
  readonly leverage: Decimal;
  readonly marginType?: MarginType;
  readonly margin: Decimal;
  readonly unrealizedPnl: Decimal;
  readonly realizedPnl: Decimal;
  readonly liquidationPrice?: Decimal;
  readonly markPrice?: Decimal;
  readonly updateTime: number;
}

/** Each symbol's two position keys, made once: the kernel asks for them at every mark price and position event. */
const keysBySymbol = new Map<string, { readonly LONG: string; readonly SHORT: string }>();

export function positionKey(symbol: string, positionSide: PositionSide): string {
  let keys = keysBySymbol.get(symbol);
  if (keys === undefined) {
    keys = { LONG: `${symbol}/LONG`, SHORT: `${symbol}/SHORT` };
    keysBySymbol.set(symbol, keys);
  }
  return keys[positionSide];
}
