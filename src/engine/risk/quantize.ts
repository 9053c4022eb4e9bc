import { compareDecimals, Decimal, dec } from '../../core/decimal.js';
import { ok } from '../../core/result.js';
import type { GridRounding } from '../../core/scaled-integer.js';
import { onGrid, scaledInteger } from '../../core/scaled-integer.js';
import type { Side } from '../../model/instrument.js';
import type { Checked } from './denial.js';
import { deny } from './denial.js';

/** No perpetual carries a price or a contract count this large: it is a typo or an overflow. */
export const ABSURD_VALUE = dec('1e12');

/** Nor a price, contract count or rate this small: an underflow (and 1e-9000000000000000 printed in full would take petabytes). */
export const NEGLIGIBLE_VALUE = dec('1e-12');

/**
 * `value <= 0` without the decimal `lte(0)` makes of its argument (every check of an order's price
 * and quantity asks it several times). NaN is not: as `lte`.
 */
export function notPositive(value: Decimal): boolean {
  return value.isZero() || value.isNegative();
}

/** Why a number from a strategy cannot be used (strategies are plain code: check the runtime type too). */
export function numberProblem(value: unknown): string | undefined {
  if (value === undefined) return 'is missing';
  if (!Decimal.isDecimal(value)) return 'is not a decimal';
  if (value.isNaN()) return 'is NaN';
  if (!value.isFinite()) return 'is not finite';
  if (notPositive(value)) return 'is not positive';
  if (compareDecimals(value, ABSURD_VALUE) > 0) return 'is absurdly large';
  if (compareDecimals(value, NEGLIGIBLE_VALUE) < 0) return 'is absurdly small';
  return undefined;
}

/** Whether `step` is a power of ten no larger than 1 (0.1, 0.001, 1: every tick and lot step of the venue), read from its digits. */
function isPowerOfTenStep(step: Decimal): boolean {
  const digits = step.d;
  if (digits.length !== 1 || step.e > 0) return false;
  const word = digits[0]!;
  return word === 1 || word === 10 || word === 100 || word === 1_000 || word === 10_000 || word === 100_000 || word === 1_000_000;
}

/** A step's decimal places and whether it is a power of ten, read once per step (an instrument's tick and lot steps live as long as it). */
const stepFacts = new WeakMap<Decimal, { readonly places: number; readonly powerOfTen: boolean }>();

function factsOf(step: Decimal): { readonly places: number; readonly powerOfTen: boolean } {
  let facts = stepFacts.get(step);
  if (facts === undefined) {
    facts = { places: step.decimalPlaces(), powerOfTen: isPowerOfTenStep(step) };
    stepFacts.set(step, facts);
  }
  return facts;
}

/**
 * `value` on the grid of a positive `step`, rounded as asked; `value` itself, without a decimal made,
 * when it is already a multiple that `toNearest` gives back as it is: the step a power of ten and the
 * value a safe integer of units at the step's decimal places (so no more places than the step, and
 * well within the precision `toNearest` rounds its answer to). Most quantities a strategy asks for
 * (its configured size) and many prices are. Any other value goes to `onGrid`, which answers the same
 * value for one already on the grid.
 */
function onStepGrid(value: Decimal, step: Decimal, rounding: GridRounding): Decimal {
  const facts = factsOf(step);
  if (facts.powerOfTen && scaledInteger(value, facts.places) !== undefined) return value;
  const places = value.decimalPlaces();
  return onGrid(value, step, rounding, places > facts.places ? places : facts.places);
}

/** A limit price on the tick grid, never more aggressive than asked: BUY rounds down, SELL rounds up. */
export function quantizePrice(price: Decimal, tick: Decimal, side: Side): Decimal {
  if (notPositive(tick)) return price;
  return onStepGrid(price, tick, side === 'BUY' ? Decimal.ROUND_FLOOR : Decimal.ROUND_CEIL);
}

/** A trigger price has no aggressive side: it goes to the nearest tick. */
export function quantizeTrigger(price: Decimal, tick: Decimal): Decimal {
  if (notPositive(tick)) return price;
  return onGrid(price, tick, Decimal.ROUND_HALF_UP);
}

/** Contracts round down to the step. */
export function quantizeQty(qty: Decimal, step: Decimal): Decimal {
  if (notPositive(step)) return qty;
  return onStepGrid(qty, step, Decimal.ROUND_DOWN);
}

/** Validates a limit price and puts it on the grid (INVALID_PRICE when unusable or below one tick). */
export function limitPrice(value: unknown, what: string, tick: Decimal, side: Side): Checked<Decimal> {
  const problem = numberProblem(value);
  if (problem !== undefined) return deny('INVALID_PRICE', `${what} ${problem}`);
  const price = quantizePrice(value as Decimal, tick, side);
  if (notPositive(price)) return deny('INVALID_PRICE', `${what} is below one tick (${tick.toFixed()})`);
  return ok(price);
}

export function triggerPrice(value: unknown, what: string, tick: Decimal): Checked<Decimal> {
  const problem = numberProblem(value);
  if (problem !== undefined) return deny('INVALID_PRICE', `${what} ${problem}`);
  const price = quantizeTrigger(value as Decimal, tick);
  if (notPositive(price)) return deny('INVALID_PRICE', `${what} is below one tick (${tick.toFixed()})`);
  return ok(price);
}

/** Validates a quantity and rounds it down to the step (INVALID_QUANTITY when it becomes 0). */
export function quantity(value: unknown, step: Decimal): Checked<Decimal> {
  const problem = numberProblem(value);
  if (problem !== undefined) return deny('INVALID_QUANTITY', `quantity ${problem}`);
  const qty = quantizeQty(value as Decimal, step);
  if (notPositive(qty)) return deny('INVALID_QUANTITY', `quantity ${(value as Decimal).toFixed()} is below one step (${step.toFixed()})`);
  return ok(qty);
}
