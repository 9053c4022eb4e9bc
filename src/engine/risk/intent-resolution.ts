import type { Decimal } from '../../core/decimal.js';
import { compareDecimals } from '../../core/decimal.js';
import { ok } from '../../core/result.js';
import type { AttachedStop } from '../../model/commands.js';
import type { Instrument, PositionSide, Side, TimeInForce, TriggerBy } from '../../model/instrument.js';
import { isOpening } from '../../model/instrument.js';
import type { AttachedStopIntent, PlaceIntent, PlanIntent, TpSlIntent } from '../../model/intents.js';
import { availableToClose, heldToClose } from './available-position.js';
import type { Checked } from './denial.js';
import { deny } from './denial.js';
import { limitPrice, notPositive, quantity, quantizeQty, triggerPrice } from './quantize.js';
import type { RiskContext } from './risk-context.js';

/** The exchange's default for triggers (API-NOTES: `CONTRACT_PRICE`). */
export const DEFAULT_TRIGGER_BY: TriggerBy = 'CONTRACT_PRICE';

export interface Direction {
  readonly side: Side;
  readonly positionSide: PositionSide;
  readonly opening: boolean;
}

/** A new order, resolved and quantized: the input of the limit checks and of the command. */
export interface OrderDraft {
  /** A plan or TP/SL order (v2 algo-order) rather than a regular one. */
  readonly algo: boolean;
  readonly instrument: Instrument;
  readonly direction: Direction;
  readonly orderType: 'LIMIT' | 'MARKET';
  readonly price: Decimal | undefined;
  readonly quantity: Decimal;
  readonly timeInForce: TimeInForce;
  readonly trigger: { readonly price: Decimal; readonly by: TriggerBy } | undefined;
  readonly takeProfit: AttachedStop | undefined;
  readonly stopLoss: AttachedStop | undefined;
}

function opposite(side: Side): Side {
  return side === 'BUY' ? 'SELL' : 'BUY';
}

/** The side that closes a position side. */
export function closingSide(positionSide: PositionSide): Side {
  return positionSide === 'LONG' ? 'SELL' : 'BUY';
}

/**
 * Hedge-mode position side (PlaceIntent): given, or BUY→LONG and SELL→SHORT, the opposite when the order
 * only reduces. A reducing order whose explicit side would open is refused.
 */
export function resolveDirection(side: Side, positionSide: PositionSide | undefined, reducing: boolean): Checked<Direction> {
  const resolved = positionSide ?? ((side === 'BUY') === reducing ? 'SHORT' : 'LONG');
  const opening = isOpening(side, resolved);
  if (reducing && opening) return deny('NO_POSITION', `a reducing ${side} order on the ${resolved} side would open a position`);
  return ok({ side, positionSide: resolved, opening });
}

/**
 * Contracts of a closing order: the whole position (`whole`, or no quantity given), or the requested
 * quantity capped at the position (hedge mode cannot close more than it holds). Flat: NO_POSITION.
 * A `regular` order (not a plan or TP/SL, which reserve nothing until they trigger) must also fit in
 * what the open closing orders leave available: the whole position then means what is available, and
 * a quantity above it is CLOSE_ABOVE_AVAILABLE (the exchange would refuse it with -2010).
 */
function closingQuantity(ctx: RiskContext, instrument: Instrument, positionSide: PositionSide, requested: unknown, whole: boolean, regular: boolean): Checked<Decimal> {
  const { symbol } = instrument;
  const holdings = ctx.holdings(symbol, positionSide);
  const held = heldToClose(holdings);
  if (held === undefined || notPositive(held)) return deny('NO_POSITION', `no ${positionSide} position on ${symbol} to close`);
  const size = quantizeQty(held, instrument.qtyStep);
  const available = regular ? quantizeQty(availableToClose(ctx, symbol, positionSide, undefined, holdings), instrument.qtyStep) : size;
  const reserved = (): string => `${size.sub(available).toFixed()} of ${size.toFixed()} reserved by open closing orders`;
  if (whole || requested === undefined) {
    if (notPositive(size)) return deny('INVALID_QUANTITY', `the ${positionSide} position ${held.toFixed()} is below one step`);
    return !notPositive(available) ? ok(available) : deny('CLOSE_ABOVE_AVAILABLE', `nothing of the ${positionSide} position on ${symbol} is available to close (${reserved()})`);
  }
  const asked = quantity(requested, instrument.qtyStep);
  if (!asked.ok) return asked;
  const capped = compareDecimals(asked.value, size) > 0 ? size : asked.value;
  if (compareDecimals(capped, available) > 0) return deny('CLOSE_ABOVE_AVAILABLE', `closing ${capped.toFixed()} of the ${positionSide} position on ${symbol}: ${available.toFixed()} available (${reserved()})`);
  return ok(capped);
}

function orderQuantity(ctx: RiskContext, instrument: Instrument, direction: Direction, requested: unknown, whole: boolean, regular: boolean): Checked<Decimal> {
  return direction.opening ? quantity(requested, instrument.qtyStep) : closingQuantity(ctx, instrument, direction.positionSide, requested, whole, regular);
}

/** The answer for an order without this TP/SL: one shared result, not one per order. */
const NO_STOP: Checked<AttachedStop | undefined> = ok(undefined);

/** A TP/SL attached to an order of `side`: it closes, so its limit price rounds for the opposite side. */
function attachedStop(stop: AttachedStopIntent | undefined, what: string, instrument: Instrument, side: Side): Checked<AttachedStop | undefined> {
  if (stop === undefined) return NO_STOP;
  const trigger = triggerPrice(stop.triggerPrice, `${what} trigger price`, instrument.tickSize);
  if (!trigger.ok) return trigger;
  if (stop.limitPrice === undefined) return ok({ triggerPrice: trigger.value, triggerBy: stop.triggerBy ?? DEFAULT_TRIGGER_BY });
  const limit = limitPrice(stop.limitPrice, `${what} limit price`, instrument.tickSize, opposite(side));
  if (!limit.ok) return limit;
  return ok({ triggerPrice: trigger.value, triggerBy: stop.triggerBy ?? DEFAULT_TRIGGER_BY, limitPrice: limit.value });
}

function orderPrice(intent: { readonly orderType: 'LIMIT' | 'MARKET'; readonly price?: Decimal }, instrument: Instrument, side: Side): Checked<Decimal | undefined> {
  if (intent.orderType === 'MARKET') return ok(undefined);
  return limitPrice(intent.price, 'price', instrument.tickSize, side);
}

export function resolvePlace(ctx: RiskContext, intent: PlaceIntent, instrument: Instrument, direction: Direction): Checked<OrderDraft> {
  const price = orderPrice(intent, instrument, direction.side);
  if (!price.ok) return price;
  const qty = orderQuantity(ctx, instrument, direction, intent.quantity, intent.closePosition === true, true);
  if (!qty.ok) return qty;
  const takeProfit = attachedStop(intent.takeProfit, 'take-profit', instrument, direction.side);
  if (!takeProfit.ok) return takeProfit;
  const stopLoss = attachedStop(intent.stopLoss, 'stop-loss', instrument, direction.side);
  if (!stopLoss.ok) return stopLoss;
  return ok({
    algo: false,
    instrument,
    direction,
    orderType: intent.orderType,
    price: price.value,
    quantity: qty.value,
    timeInForce: intent.timeInForce ?? (intent.orderType === 'LIMIT' ? 'GTC' : 'IOC'),
    trigger: undefined,
    takeProfit: takeProfit.value,
    stopLoss: stopLoss.value,
  });
}

export function resolvePlan(ctx: RiskContext, intent: PlanIntent, instrument: Instrument, direction: Direction): Checked<OrderDraft> {
  const trigger = triggerPrice(intent.triggerPrice, 'trigger price', instrument.tickSize);
  if (!trigger.ok) return trigger;
  const price = orderPrice(intent, instrument, direction.side);
  if (!price.ok) return price;
  const qty = orderQuantity(ctx, instrument, direction, intent.quantity, false, false);
  if (!qty.ok) return qty;
  const takeProfit = attachedStop(intent.takeProfit, 'take-profit', instrument, direction.side);
  if (!takeProfit.ok) return takeProfit;
  const stopLoss = attachedStop(intent.stopLoss, 'stop-loss', instrument, direction.side);
  if (!stopLoss.ok) return stopLoss;
  return ok({
    algo: true,
    instrument,
    direction,
    orderType: intent.orderType,
    price: price.value,
    quantity: qty.value,
    timeInForce: intent.timeInForce ?? 'GTC',
    trigger: { price: trigger.value, by: intent.triggerBy ?? DEFAULT_TRIGGER_BY },
    takeProfit: takeProfit.value,
    stopLoss: stopLoss.value,
  });
}

/** A fixed TP/SL on a position: a closing plan order for the given quantity or the whole position. */
export function resolveTpSl(ctx: RiskContext, intent: TpSlIntent, instrument: Instrument, direction: Direction): Checked<OrderDraft> {
  const trigger = triggerPrice(intent.triggerPrice, 'trigger price', instrument.tickSize);
  if (!trigger.ok) return trigger;
  const price = intent.limitPrice === undefined ? ok(undefined) : limitPrice(intent.limitPrice, 'limit price', instrument.tickSize, direction.side);
  if (!price.ok) return price;
  const qty = closingQuantity(ctx, instrument, direction.positionSide, intent.quantity, false, false);
  if (!qty.ok) return qty;
  return ok({
    algo: true,
    instrument,
    direction,
    orderType: price.value === undefined ? 'MARKET' : 'LIMIT',
    price: price.value,
    quantity: qty.value,
    timeInForce: 'GTC',
    trigger: { price: trigger.value, by: intent.triggerBy ?? DEFAULT_TRIGGER_BY },
    takeProfit: undefined,
    stopLoss: undefined,
  });
}
