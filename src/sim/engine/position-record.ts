import type { Decimal } from '../../core/decimal.js';
import { compareDecimals, dec } from '../../core/decimal.js';
import { decimalOfText } from '../../core/decimal-cache.js';
import type { RiskLimitTier } from '../market-stream/instruments.js';
import type { MarginType, PositionSide } from './types.js';

const ZERO = dec(0);

/** One side (LONG or SHORT) of one symbol in a futures account: hedge mode keeps both. */
export class PositionRecord {
  lots = 0;
  /** Lots reserved by open closing orders. */
  closingLots = 0;
  avgPrice: Decimal = ZERO;
  /** Initial margin held (cross) or the isolated margin, adjustments included. */
  margin: Decimal = ZERO;
  realizedPnl: Decimal = ZERO;
  /** The current life of the position, from the fill that opened it (historyPositions rows). */
  life: PositionLife | undefined;

  constructor(
    readonly symbol: string,
    readonly side: PositionSide,
    public leverage: number,
    public marginType: MarginType,
  ) {}

  get direction(): 1 | -1 {
    return this.side === 'LONG' ? 1 : -1;
  }

  get availableLots(): number {
    return this.lots - this.closingLots;
  }
}

/** What one life of a position (flat → open → flat) did, kept while it is open. */
export interface PositionLife {
  readonly openedAt: number;
  maxLots: number;
  /** Contracts closed so far, and the sum of price × contracts of those closes (for the average). */
  closedQty: Decimal;
  closeValue: Decimal;
  realized: Decimal;
  /** The average entry price before the last close (it is reset when the position goes flat). */
  openAvgPrice: Decimal;
  /** Closed by liquidation. */
  liquidated: boolean;
}

/** Coins of a position: lots × step × contract multiplier, as a Decimal. */
export interface PositionMath {
  readonly coins: Decimal;
  readonly unrealizedPnl: Decimal;
  readonly value: Decimal;
  readonly maintMargin: Decimal;
  readonly maintRate: Decimal;
}

/** The risk-limit tier for a position of `contracts` (the last tier when beyond all). */
export function tierFor(tiers: readonly RiskLimitTier[], contracts: Decimal): RiskLimitTier {
  for (const tier of tiers) if (compareDecimals(contracts, decimalOfText(tier.maxQuantity)) <= 0) return tier;
  const last = tiers[tiers.length - 1];
  if (last === undefined) throw new RangeError('instrument without risk-limit tiers');
  return last;
}

/** Highest leverage a tier allows: 1 / initial margin rate, rounded down. */
export function maxLeverageOf(tier: RiskLimitTier): number {
  return dec(1).div(tier.initialMarginRate).floor().toNumber();
}

export function positionMath(position: PositionRecord, contracts: Decimal, multiplier: Decimal, mark: Decimal, tiers: readonly RiskLimitTier[]): PositionMath {
  const coins = contracts.mul(multiplier);
  const unrealizedPnl = mark.sub(position.avgPrice).mul(coins).mul(position.direction);
  const value = mark.mul(coins);
  const maintRate = decimalOfText(tierFor(tiers, contracts).maintMarginRate);
  return { coins, unrealizedPnl, value, maintMargin: value.mul(maintRate), maintRate };
}

/**
 * The mark price at which `cushion` (margin available to this position beyond its own unrealized PnL)
 * no longer covers maintenance: long p = (avg·Q − cushion) / (Q·(1 − mmr)), short p = (avg·Q + cushion) / (Q·(1 + mmr)).
 */
export function liquidationPrice(position: PositionRecord, coins: Decimal, cushion: Decimal, maintRate: Decimal): Decimal {
  if (coins.isZero()) return ZERO;
  const entry = position.avgPrice.mul(coins);
  const price = position.side === 'LONG' ? entry.sub(cushion).div(coins.mul(dec(1).sub(maintRate))) : entry.add(cushion).div(coins.mul(dec(1).add(maintRate)));
  return price.isNegative() ? ZERO : price;
}
