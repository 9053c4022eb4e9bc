import type { Decimal } from '../../core/decimal.js';
import type { MarginType } from '../engine/types.js';

/** 0 fixed-amount follow, 1 fixed-rate follow (document 001 rules 4, 5). */
export type FollowAmountMode = 0 | 1;
/** 0 every lead order, 1 cross-margin lead orders only, 2 isolated-margin lead orders only (rule 10). */
export type FollowMarginType = 0 | 1 | 2;

/** A PUT /config body once every field is present and well-typed, before the ten rules. */
export interface FollowConfigRequest {
  readonly leaderUserId: string;
  readonly investAmount: Decimal;
  readonly singlePlaceAmount: Decimal;
  readonly dailyMaxInvestAmount: Decimal;
  readonly leverage: Decimal;
  readonly maxInvestRate: Decimal;
  readonly stopProfitRate: Decimal;
  readonly stopLossRate: Decimal;
  readonly realInvestAmount: Decimal;
  readonly isolatedReservedAmount: Decimal;
  readonly followAmountMode: number;
  readonly stopLossDelay: number;
  readonly followMarginType: number;
  readonly followSymbolIds: string;
  readonly zeroSlippageSwitch: boolean;
}

/** A follow configuration that passed the rules. */
export interface FollowConfig extends FollowConfigRequest {
  readonly followAmountMode: FollowAmountMode;
  readonly followMarginType: FollowMarginType;
  /** Parsed `followSymbolIds`: undefined for `all`. */
  readonly symbols: ReadonlySet<string> | undefined;
}

/** Does this follow copy a lead order on `symbol` with `marginType`? */
export function copiesLeadOrder(config: FollowConfig, symbol: string, marginType: MarginType): boolean {
  if (config.followMarginType === 1 && marginType !== 'CROSS') return false;
  if (config.followMarginType === 2 && marginType !== 'ISOLATED') return false;
  return config.symbols === undefined || config.symbols.has(symbol);
}
