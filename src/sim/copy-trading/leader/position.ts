import type { Decimal } from '../../../core/decimal.js';
import type { MarginType } from '../../engine/types.js';

/** A synthetic leader's open position (quantities in coins). */
export interface LeaderPosition {
  readonly id: string;
  readonly leaderUserId: string;
  readonly symbol: string;
  readonly isLong: boolean;
  readonly marginType: MarginType;
  readonly leverage: Decimal;
  readonly quantity: Decimal;
  readonly openPrice: Decimal;
  readonly margin: Decimal;
  readonly openTime: number;
}

/** A leader's decision that changed its book: what followers copy. */
export type LeaderTrade =
  | {
      readonly kind: 'open';
      readonly time: number;
      readonly position: LeaderPosition;
      /** The leader's margin balance just before the open: the base of fixed-rate sizing. */
      readonly marginBalanceBefore: Decimal;
    }
  | {
      readonly kind: 'close';
      readonly time: number;
      readonly position: LeaderPosition;
      readonly closePrice: Decimal;
      readonly realizedProfit: Decimal;
    };
