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

export function positionKey(symbol: string, positionSide: PositionSide): string {
  return `${symbol}/${positionSide}`;
}
