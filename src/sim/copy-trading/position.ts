import type { Decimal } from '../../core/decimal.js';
import type { MarginType } from '../engine/types.js';
import type { CloseReason } from './wire-codes.js';

/** A follower's open copy of one leader position (quantities in coins). */
export class CopyPosition {
  /** 0: not configured. Taken from the follow config at open; PUT positions/stop-profit-loss changes them. */
  stopProfitRate: Decimal;
  stopLossRate: Decimal;
  /** Seconds the stop-loss rate must stay crossed before the copy closes. */
  stopLossDelaySeconds: number;
  /** Since when the stop-loss rate has been crossed without a break (undefined: not crossed). */
  lossCrossedSince: number | undefined;

  constructor(
    readonly followerUserId: string,
    readonly leaderUserId: string,
    readonly leaderPositionId: string,
    readonly symbol: string,
    readonly isLong: boolean,
    readonly marginType: MarginType,
    readonly leverage: Decimal,
    readonly quantity: Decimal,
    readonly openPrice: Decimal,
    readonly margin: Decimal,
    readonly openTime: number,
    stops: { readonly stopProfitRate: Decimal; readonly stopLossRate: Decimal; readonly stopLossDelaySeconds: number },
  ) {
    this.stopProfitRate = stops.stopProfitRate;
    this.stopLossRate = stops.stopLossRate;
    this.stopLossDelaySeconds = stops.stopLossDelaySeconds;
    this.lossCrossedSince = undefined;
  }
}

/** A closed copy position: a row of GET /orders/history. */
export interface ClosedCopy {
  readonly position: CopyPosition;
  readonly closeTime: number;
  readonly closePrice: Decimal;
  readonly realizedProfit: Decimal;
  readonly reason: CloseReason;
}
