import type { Decimal } from '../../core/decimal.js';
import { compareDecimals, dec } from '../../core/decimal.js';
import { decimalOfScaled, powerOfTen, rescaled, scaledInteger } from '../../core/scaled-integer.js';
import { assertNever } from '../../core/errors.js';
import type { Position } from '../../model/account.js';
import { positionKey } from '../../model/account.js';
import type { BusEvent } from '../../model/bus-events.js';
import type { CacheView } from '../../model/cache-view.js';
import type { Instrument, PositionSide } from '../../model/instrument.js';
import type { MarkPriceUpdated } from '../../model/market-events.js';
import type { DayFigure } from './kill-switch.js';

const POSITION_SIDES: readonly PositionSide[] = ['LONG', 'SHORT'];
const ZERO = dec(0);

/**
 * Today's PnL in quote units: realized PnL − fees of today's fills, plus today's funding payments
 * (`account.funding`: received adds, paid subtracts), plus the change of each position's unrealized
 * PnL since the day's start.
 *
 * A position's baseline is its unrealized PnL at the day's start. For a position first seen before the
 * account was synchronised (start-up), the first value seen is its baseline (it existed before);
 * positions first seen afterwards opened today and start from zero.
 *
 * Fills and funding payments come here once: the kernel hands on only those the cache applied (it drops
 * the stream's and the resync's duplicates), so this keeps no memory of their ids of its own.
 *
 * Every mark price with a position open moves the figures (five decimals made per mark on a decimal
 * path), so they are kept as safe integers of 10^−scale quote units while every figure and every
 * intermediate result fits: a safe integer has at most 16 digits, below decimal.js's 20 significant
 * digits, so each step is exactly what the decimal step would give and the results are the same
 * values. The first figure that does not fit turns the figures into decimals for good (the decimal
 * path, step by step as before).
 */
export class DayPnl implements DayFigure {
  private dayStart: number;
  private synced = false;
  private readonly positions = new Map<string, Position>();
  /** Integer figures while they fit (`exact`): counts of 10^−scale quote units. */
  private exact = true;
  private scale = 0;
  private realizedUnits = 0;
  private readonly baselineUnits = new Map<string, number>();
  private readonly unrealizedUnits = new Map<string, number>();
  /** Σ (unrealized − baseline) over the positions, kept as they change (every mark price asks for the total). */
  private unrealizedTodayUnits = 0;
  /** A position's average price, quantity and contract multiplier as integers, made once per position seen. */
  private readonly terms = new Map<string, PositionTerms | undefined>();
  /** Decimal figures, once a figure did not fit. */
  private realized = ZERO;
  private readonly baseline = new Map<string, Decimal>();
  private readonly unrealized = new Map<string, Decimal>();
  private unrealizedToday = ZERO;
  private total: Decimal | undefined;

  constructor(
    private readonly cache: CacheView,
    now: number,
  ) {
    this.dayStart = now;
    for (const position of cache.positions()) this.observe(position);
  }

  value(): Decimal {
    if (this.total !== undefined) return this.total;
    let total: Decimal;
    if (!this.exact) total = this.realized.add(this.unrealizedToday);
    else {
      const units = this.realizedUnits + this.unrealizedTodayUnits;
      total = Number.isSafeInteger(units)
        ? decimalOfScaled(units, this.scale)
        : decimalOfScaled(this.realizedUnits, this.scale).add(decimalOfScaled(this.unrealizedTodayUnits, this.scale));
    }
    this.total = total;
    return total;
  }

  /** `value() > x`, read from the integer figures while they are exact and `x` is on their grid (no decimal made). */
  isAbove(x: Decimal): boolean {
    if (this.total === undefined && this.exact) {
      const units = this.realizedUnits + this.unrealizedTodayUnits;
      const bound = scaledInteger(x, this.scale);
      if (Number.isSafeInteger(units) && bound !== undefined) return units > bound;
    }
    return compareDecimals(this.value(), x) > 0;
  }

  /** Begins a new day at `now`: today's figures restart from zero, open positions from their current PnL. */
  startDay(now: number): void {
    this.dayStart = now;
    this.total = undefined;
    this.synced = true;
    if (this.exact) {
      this.realizedUnits = 0;
      for (const [key, pnl] of this.unrealizedUnits) this.baselineUnits.set(key, pnl);
      this.unrealizedTodayUnits = 0;
      return;
    }
    this.realized = dec(0);
    for (const [key, pnl] of this.unrealized) this.baseline.set(key, pnl);
    this.unrealizedToday = dec(0);
  }

  /** Answers whether the day's PnL may have changed. */
  onEvent(event: BusEvent): boolean {
    switch (event.type) {
      case 'account.fill': {
        const fill = event.fill;
        if (fill.time < this.dayStart) return false;
        this.addRealized(fill.realizedPnl, fill.fee);
        return true;
      }
      case 'account.funding': {
        const funding = event.funding;
        if (funding.time < this.dayStart) return false;
        this.addRealized(funding.amount, undefined);
        return true;
      }
      case 'account.position':
        return this.observe(event.position);
      case 'market.markPrice':
        return this.markTo(event);
      case 'account.resynced':
        this.synced = true;
        return false;
      case 'account.order':
      case 'account.algo':
      case 'account.balance':
      case 'market.book':
      case 'market.trade':
      case 'market.kline':
      case 'market.bookTicker':
      case 'market.ticker24h':
      case 'market.indexPrice':
      case 'market.fundingRate':
      case 'market.openInterest':
      case 'stream.connected':
      case 'stream.disconnected':
      case 'instruments.loaded':
      case 'instrument.status':
      case 'intent.denied':
      case 'command.submitted':
      case 'command.failed':
      case 'risk.killSwitch':
      case 'risk.protection':
      case 'strategy.started':
      case 'strategy.stopped':
      case 'timer':
      case 'job.finished':
      case 'bus.dropped':
      case 'catalog.changed':
      case 'catalog.synced':
      case 'signal.received':
      case 'ledger.positionLost':
      case 'ledger.claimed':
        return false;
      default:
        return assertNever(event, 'bus event');
    }
  }

  /** realized + gain − cost, as `realized.add(gain).sub(cost)` gives it. */
  private addRealized(gain: Decimal, cost: Decimal | undefined): void {
    this.total = undefined;
    if (this.exact) {
      const gainUnits = this.unitsOf(gain);
      const costUnits = cost === undefined ? 0 : this.unitsOf(cost);
      if (gainUnits !== undefined && costUnits !== undefined) {
        const added = this.realizedUnits + gainUnits;
        const result = added - costUnits;
        if (Number.isSafeInteger(added) && Number.isSafeInteger(result)) {
          this.realizedUnits = result;
          return;
        }
      }
      this.toDecimals();
    }
    const added = this.realized.add(gain);
    this.realized = cost === undefined ? added : added.sub(cost);
  }

  private observe(position: Position): boolean {
    const key = positionKey(position.symbol, position.positionSide);
    const known = this.positions.get(key);
    if (known !== undefined && known.updateTime > position.updateTime) return false;
    this.positions.set(key, position);
    this.terms.delete(key);
    const pnl = position.qty.isZero() ? ZERO : position.unrealizedPnl;
    if (this.exact) {
      const units = this.unitsOf(pnl);
      if (units !== undefined) {
        if (!this.baselineUnits.has(key)) this.baselineUnits.set(key, this.synced ? 0 : units);
        if (this.setUnrealizedUnits(key, units)) return true;
      }
      this.toDecimals();
    }
    if (!this.baseline.has(key)) this.baseline.set(key, this.synced ? dec(0) : pnl);
    this.setUnrealized(key, pnl);
    return true;
  }

  /** A position's unrealized PnL now in units; its baseline is set. False (nothing changed) when a sum would not fit. */
  private setUnrealizedUnits(key: string, pnl: number): boolean {
    const before = this.unrealizedUnits.get(key) ?? this.baselineUnits.get(key) ?? 0;
    const move = pnl - before;
    const today = this.unrealizedTodayUnits + move;
    if (!Number.isSafeInteger(move) || !Number.isSafeInteger(today)) return false;
    this.unrealizedUnits.set(key, pnl);
    this.unrealizedTodayUnits = today;
    this.total = undefined;
    return true;
  }

  /** A position's unrealized PnL now; its baseline is set. */
  private setUnrealized(key: string, pnl: Decimal): void {
    const before = this.unrealized.get(key) ?? this.baseline.get(key) ?? ZERO;
    this.unrealized.set(key, pnl);
    this.unrealizedToday = this.unrealizedToday.add(pnl.sub(before));
    this.total = undefined;
  }

  /** Revalues the symbol's positions at a new mark price (position events may come less often). */
  private markTo(event: MarkPriceUpdated): boolean {
    const symbol = event.symbol;
    // Every mark price of a replay comes here; most find no position (the instrument is looked up only for one).
    if (this.positions.size === 0) return false;
    let instrument: Instrument | undefined;
    let changed = false;
    for (const side of POSITION_SIDES) {
      const key = positionKey(symbol, side);
      const position = this.positions.get(key);
      if (position === undefined || position.qty.isZero()) continue;
      instrument ??= this.cache.instrument(symbol);
      if (instrument === undefined) return false;
      changed = true;
      if (this.exact && this.markUnits(key, side, position, instrument, event)) continue;
      // Read only now: a replay's mark prices become decimals when something reads them.
      const mark = event.price;
      const move = side === 'LONG' ? mark.sub(position.avgPrice) : position.avgPrice.sub(mark);
      const pnl = move.mul(position.qty).mul(instrument.contractMultiplier);
      if (this.exact) {
        const units = this.unitsOf(pnl);
        if (units !== undefined && this.setUnrealizedUnits(key, units)) continue;
        this.toDecimals();
      }
      this.setUnrealized(key, pnl);
    }
    return changed;
  }

  /**
   * `(mark − avgPrice) × qty × multiplier` (the other way round for a short) in integers, each step
   * checked as `markTo`'s decimal steps would round it: false when one does not fit.
   */
  private markUnits(key: string, side: PositionSide, position: Position, instrument: Instrument, event: MarkPriceUpdated): boolean {
    let terms = this.terms.get(key);
    if (terms === undefined || terms.multiplier !== instrument.contractMultiplier) {
      if (this.terms.has(key) && terms === undefined) return false;
      terms = termsOf(position, instrument.contractMultiplier);
      this.terms.set(key, terms);
      if (terms === undefined) return false;
    }
    // A mark on the average price's grid (as most are) is read at its scale without counting its places.
    // The event's integer digits when it has them (no decimal read), on the same grid as the decimal's.
    let moveScale = terms.avgScale;
    const given = event.priceUnits;
    const givenScale = event.priceScale;
    let markUnits = given !== undefined && givenScale !== undefined ? rescaled(given, givenScale, moveScale) : scaledInteger(event.price, moveScale);
    if (markUnits === undefined) {
      const mark = event.price;
      moveScale = Math.max(mark.decimalPlaces(), terms.avgScale);
      if (moveScale > 15) return false;
      markUnits = scaledInteger(mark, moveScale);
    }
    const avgUnits = terms.avgUnits * powerOfTen(moveScale - terms.avgScale);
    if (markUnits === undefined || !Number.isSafeInteger(avgUnits)) return false;
    const move = side === 'LONG' ? markUnits - avgUnits : avgUnits - markUnits;
    const coins = move * terms.qtyUnits;
    const pnl = coins * terms.multiplierUnits;
    const pnlScale = moveScale + terms.qtyScale + terms.multiplierScale;
    if (!Number.isSafeInteger(move) || !Number.isSafeInteger(coins) || !Number.isSafeInteger(pnl)) return false;
    if (pnlScale > this.scale && !this.rescale(pnlScale)) return false;
    if (this.scale - pnlScale > 15) return false;
    const units = pnl * powerOfTen(this.scale - pnlScale);
    return Number.isSafeInteger(units) && this.setUnrealizedUnits(key, units);
  }

  /** A decimal in units, the scale raised to its decimal places first; undefined when it does not fit. */
  private unitsOf(x: Decimal): number | undefined {
    // Most values are on the figures' grid already: read at its scale without counting their places.
    const units = scaledInteger(x, this.scale);
    if (units !== undefined) return units;
    const places = x.decimalPlaces();
    if (places > this.scale && !this.rescale(places)) return undefined;
    return scaledInteger(x, this.scale);
  }

  /** Raises every integer figure to `scale` decimal places; false (nothing changed) when one does not fit. */
  private rescale(scale: number): boolean {
    if (scale > 15) return false;
    const factor = powerOfTen(scale - this.scale);
    const fits = (units: number): boolean => Number.isSafeInteger(units * factor);
    if (!fits(this.realizedUnits) || !fits(this.unrealizedTodayUnits)) return false;
    for (const units of this.baselineUnits.values()) if (!fits(units)) return false;
    for (const units of this.unrealizedUnits.values()) if (!fits(units)) return false;
    this.realizedUnits *= factor;
    this.unrealizedTodayUnits *= factor;
    for (const [key, units] of this.baselineUnits) this.baselineUnits.set(key, units * factor);
    for (const [key, units] of this.unrealizedUnits) this.unrealizedUnits.set(key, units * factor);
    this.scale = scale;
    return true;
  }

  /** The integer figures as decimals (the same values), and decimals from now on. */
  private toDecimals(): void {
    this.exact = false;
    this.realized = decimalOfScaled(this.realizedUnits, this.scale);
    this.unrealizedToday = decimalOfScaled(this.unrealizedTodayUnits, this.scale);
    for (const [key, units] of this.baselineUnits) this.baseline.set(key, decimalOfScaled(units, this.scale));
    for (const [key, units] of this.unrealizedUnits) this.unrealized.set(key, decimalOfScaled(units, this.scale));
  }
}

interface PositionTerms {
  readonly multiplier: Decimal;
  readonly avgUnits: number;
  readonly avgScale: number;
  readonly qtyUnits: number;
  readonly qtyScale: number;
  readonly multiplierUnits: number;
  readonly multiplierScale: number;
}

function termsOf(position: Position, multiplier: Decimal): PositionTerms | undefined {
  const avgScale = position.avgPrice.decimalPlaces();
  const qtyScale = position.qty.decimalPlaces();
  const multiplierScale = multiplier.decimalPlaces();
  if (avgScale > 15 || qtyScale > 15 || multiplierScale > 15) return undefined;
  const avgUnits = scaledInteger(position.avgPrice, avgScale);
  const qtyUnits = scaledInteger(position.qty, qtyScale);
  const multiplierUnits = scaledInteger(multiplier, multiplierScale);
  if (avgUnits === undefined || qtyUnits === undefined || multiplierUnits === undefined) return undefined;
  return { multiplier, avgUnits, avgScale, qtyUnits, qtyScale, multiplierUnits, multiplierScale };
}
