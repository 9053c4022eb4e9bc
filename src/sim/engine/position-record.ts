import type { Decimal } from '../../core/decimal.js';
import { dec } from '../../core/decimal.js';
import { decimalOfScaled, powerOfTen, scaledInteger } from '../../core/scaled-integer.js';
import type { RiskLimitTier } from '../market-stream/instruments.js';
import type { SymbolBook } from './symbol-book.js';
import type { MarginType, PositionSide } from './types.js';

const ZERO = dec(0);
const ONE = dec(1);
const NEGATIVE_ZERO = dec(0).neg();
const { isSafeInteger } = Number;

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
  /** Its figures last made by `mathOf` (account-math.ts) with their inputs; a field, not a weak map's entry: read ~70,000 times per backtest of the sample. */
  mathMemo: PositionMathMemo | undefined;

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

/** A position's figures (`math`) and the inputs they are a pure function of (decimals are immutable: the same objects are the same values). */
export interface PositionMathMemo {
  book: SymbolBook;
  lots: number;
  avgPrice: Decimal;
  mark: Decimal;
  math: PositionMath;
}

/** A position's figures at one mark. */
export interface PositionMath {
  /** Coins of the position: lots × step × contract multiplier. */
  readonly coins: Decimal;
  readonly unrealizedPnl: Decimal;
  readonly value: Decimal;
  readonly maintMargin: Decimal;
  readonly maintRate: Decimal;
  /** What does not move with the mark. */
  readonly size: PositionSize;
}

/** Digits of a decimal: `units × 10^−scale`, units a safe integer. */
export interface ScaledDigits {
  readonly units: number;
  readonly scale: number;
}

/**
 * What a position's figures take from its size alone (kept while its lots stay): its coins and its
 * tier's maintenance rate, each with its digits when they fit a safe integer.
 */
export class PositionSize {
  private adverse: Decimal | undefined;
  private longDivisor: Decimal | undefined;

  constructor(
    readonly coins: Decimal,
    readonly coinsDigits: ScaledDigits | undefined,
    readonly maintRate: Decimal,
    readonly maintRateDigits: ScaledDigits | undefined,
  ) {}

  /** coins × (1 + maintenance rate): the margin one unit of adverse price move uses up at most. */
  get adverseMove(): Decimal {
    return (this.adverse ??= this.coins.mul(ONE.add(this.maintRate)));
  }

  /** The divisor of a liquidation price: coins × (1 − maintenance rate) for a long, coins × (1 + maintenance rate) (`adverseMove`) for a short. */
  liquidationDivisor(side: PositionSide): Decimal {
    return side === 'LONG' ? (this.longDivisor ??= this.coins.mul(ONE.sub(this.maintRate))) : this.adverseMove;
  }
}

/**
 * The figures that move with the mark. Value and maintenance margin are products of the mark's, the
 * coins' and the rate's digits when those fit a safe integer (at most 16 digits: decimal.js's 20-digit
 * products of the same values are exact too, so the values are the same); the value is made when read.
 */
class MarkedPosition implements PositionMath {
  readonly coins: Decimal;
  readonly maintRate: Decimal;
  readonly unrealizedPnl: Decimal;
  readonly maintMargin: Decimal;
  private valueDecimal: Decimal | undefined;
  private readonly valueDigits: ScaledDigits | undefined;

  constructor(
    position: PositionRecord,
    readonly size: PositionSize,
    private readonly mark: Decimal,
    markDigits: ScaledDigits | undefined,
  ) {
    this.coins = size.coins;
    this.maintRate = size.maintRate;
    const coins = size.coinsDigits;
    this.unrealizedPnl = unrealizedOf(position, mark, markDigits, size.coins, coins);
    const value = markDigits === undefined || coins === undefined ? undefined : markDigits.units * coins.units;
    this.valueDigits = value !== undefined && isSafeInteger(value) && markDigits !== undefined && coins !== undefined ? { units: value, scale: markDigits.scale + coins.scale } : undefined;
    const rate = size.maintRateDigits;
    const maint = this.valueDigits === undefined || rate === undefined ? undefined : this.valueDigits.units * rate.units;
    this.maintMargin = maint !== undefined && isSafeInteger(maint) && this.valueDigits !== undefined && rate !== undefined ? decimalOfScaled(maint, this.valueDigits.scale + rate.scale) : this.value.mul(size.maintRate);
  }

  get value(): Decimal {
    return (this.valueDecimal ??= this.valueDigits === undefined ? this.mark.mul(this.coins) : decimalOfScaled(this.valueDigits.units, this.valueDigits.scale));
  }
}

/** Highest leverage a tier allows: 1 / initial margin rate, rounded down. */
export function maxLeverageOf(tier: RiskLimitTier): number {
  return dec(1).div(tier.initialMarginRate).floor().toNumber();
}

/**
 * (mark − entry) × coins × direction. In integers when the mark's and the entry's digits at the larger
 * of their places, their difference and its product with the coins' digits fit a safe integer (exact
 * in decimal.js's 20 digits too); a zero then takes the sign decimal.js's steps give it (the difference's,
 * a zero difference unsigned, times the direction). Else decimal.js's steps, where × 1 gives back the
 * product already at the precision, sign and all: only a short's is negated.
 */
function unrealizedOf(position: PositionRecord, mark: Decimal, markDigits: ScaledDigits | undefined, coins: Decimal, coinsDigits: ScaledDigits | undefined): Decimal {
  const entry = position.avgPrice;
  if (markDigits !== undefined && coinsDigits !== undefined) {
    const places = entry.decimalPlaces();
    const scale = places > markDigits.scale ? places : markDigits.scale;
    const entryUnits = scale <= 15 ? scaledInteger(entry, scale) : undefined;
    const markUnits = markDigits.units * powerOfTen(scale - markDigits.scale);
    if (entryUnits !== undefined && isSafeInteger(markUnits)) {
      const difference = markUnits - entryUnits;
      const units = difference * coinsDigits.units * position.direction;
      if (isSafeInteger(difference) && isSafeInteger(units)) {
        if (units !== 0) return decimalOfScaled(units, scale + coinsDigits.scale);
        return (difference < 0 ? -1 : 1) * position.direction < 0 ? NEGATIVE_ZERO : ZERO;
      }
    }
  }
  const move = mark.sub(entry).mul(coins);
  return position.direction === 1 ? move : move.mul(-1);
}

/** A position's figures at `mark` (`markDigits`: its digits, when known). */
export function positionMath(position: PositionRecord, size: PositionSize, mark: Decimal, markDigits: ScaledDigits | undefined): PositionMath {
  return new MarkedPosition(position, size, mark, markDigits);
}

/**
 * The mark price at which `cushion` (margin available to this position beyond its own unrealized PnL)
 * no longer covers maintenance: long p = (avg·Q − cushion) / (Q·(1 − mmr)), short p = (avg·Q + cushion) / (Q·(1 + mmr)).
 */
export function liquidationPrice(position: PositionRecord, size: PositionSize, cushion: Decimal): Decimal {
  const coins = size.coins;
  if (coins.isZero()) return ZERO;
  const entry = position.avgPrice.mul(coins);
  const price = (position.side === 'LONG' ? entry.sub(cushion) : entry.add(cushion)).div(size.liquidationDivisor(position.side));
  return price.isNegative() ? ZERO : price;
}
