import type { Decimal } from '../../core/decimal.js';
import { dec } from '../../core/decimal.js';
import type { AccountRef, PlaceOrderCommand, PlacePlanCommand, SimResult, TimeInForce } from '../engine/types.js';
import { readAttachedStops } from './attached-stops.js';
import type { ParamReader } from './param-reader.js';
import { rejects } from './rejects.js';
import type { InstrumentLookup } from './route-context.js';
import { readSymbol } from './route-context.js';
import {
  POSITION_SIDES,
  PRICE_TYPE_ALIASES,
  PRICE_TYPES,
  SIDES,
  SIDES_V1,
  sidesOfV1,
  TIME_IN_FORCE,
  TIME_IN_FORCE_ALIASES,
  TRIGGER_BY,
} from './wire-vocabulary.js';

/** A v1 create is a regular order (type LIMIT, priceType INPUT or MARKET) or a plan order (type STOP). */
export type CreateV1 = { readonly kind: 'order'; readonly command: PlaceOrderCommand } | { readonly kind: 'plan'; readonly command: PlacePlanCommand };

type Quantities = { quantity?: Decimal; valueQuantity?: Decimal };

/** quantity wins when both are sent; at least one must be non-zero (document 000 create tables). */
function readQuantities(r: ParamReader): Quantities {
  const quantity = r.decimal('quantity');
  const valueQuantity = r.decimal('valueQuantity');
  if (quantity !== undefined && quantity.gt(0)) return { quantity };
  if (valueQuantity !== undefined && valueQuantity.gt(0)) return { valueQuantity };
  r.fail(rejects.missingOneOf('quantity', 'valueQuantity'));
  return {};
}

function readTimeInForce(r: ParamReader): TimeInForce {
  return r.choice('timeInForce', TIME_IN_FORCE, rejects.badTimeInForce, TIME_IN_FORCE_ALIASES) ?? 'GTC';
}

function priceField(price: Decimal | undefined): { price?: Decimal } {
  return price === undefined ? {} : { price };
}

/**
 * POST /api/v1/futures/order and each v1 batch leg (document 000). A market order is type LIMIT with
 * priceType MARKET: no price, IOC, priced by the engine at the latest price ±5%; type MARKET is read as
 * that too (JKorf knows it). Old-docs priceTypes OPPONENT, QUEUE and OVER are market orders here. Type
 * STOP makes a plan order: a limit (INPUT) or market (MARKET) order placed when `stopPrice` trades.
 */
export function readCreateV1(r: ParamReader, venue: InstrumentLookup, category: AccountRef['category']): SimResult<CreateV1> {
  const symbol = readSymbol(r, venue, category) ?? '';
  const { side, positionSide } = sidesOfV1(r.requiredChoice('side', SIDES_V1, rejects.badSide));
  const type = r.requiredChoice('type', ['LIMIT', 'STOP', 'MARKET'] as const, rejects.badOrderType);
  const quantities = readQuantities(r);
  const priceType = type === 'MARKET' ? 'MARKET' : (r.choice('priceType', PRICE_TYPES, () => rejects.invalid('priceType'), PRICE_TYPE_ALIASES) ?? 'INPUT');
  const price = priceType === 'INPUT' ? r.decimal('price', 'positive') : undefined;
  if (priceType === 'INPUT' && price === undefined) r.fail(rejects.missing('price'));
  const stopPrice = type === 'STOP' ? r.requiredDecimal('stopPrice') : dec(0);
  const timeInForce = readTimeInForce(r);
  const clientOrderId = r.requiredText('newClientOrderId');
  const triggerBy = r.choice('triggerBy', TRIGGER_BY) ?? 'CONTRACT_PRICE';
  const stops = readAttachedStops(r);
  if (type === 'STOP') {
    const command: PlacePlanCommand = {
      symbol,
      side,
      positionSide,
      type: priceType === 'INPUT' ? 'STOP' : 'STOP_MARKET',
      stopPrice,
      triggerBy,
      ...quantities,
      ...priceField(price),
      timeInForce,
      clientOrderId,
      ...stops,
    };
    return r.finish((): CreateV1 => ({ kind: 'plan', command }));
  }
  const command: PlaceOrderCommand = {
    symbol,
    side,
    positionSide,
    type: priceType === 'INPUT' ? 'LIMIT' : 'MARKET',
    ...quantities,
    ...priceField(price),
    priceType,
    timeInForce: priceType === 'INPUT' ? timeInForce : 'IOC',
    clientOrderId,
    ...stops,
    generation: 'v1',
  };
  return r.finish((): CreateV1 => ({ kind: 'order', command }));
}

/**
 * POST /api/v2/futures/order and each v2 batch leg: side + positionSide, type LIMIT (price required) or
 * MARKET (price ignored, IOC). `withStops` is false for batch legs, which carry no TP/SL (document 000).
 */
export function readCreateV2(r: ParamReader, venue: InstrumentLookup, category: AccountRef['category'], withStops = true): SimResult<PlaceOrderCommand> {
  const symbol = readSymbol(r, venue, category) ?? '';
  const side = r.requiredChoice('side', SIDES, rejects.badSide);
  const positionSide = r.requiredChoice('positionSide', POSITION_SIDES);
  const type = r.requiredChoice('type', ['LIMIT', 'MARKET'] as const, rejects.badOrderType);
  const clientOrderId = r.requiredText('newClientOrderId');
  const quantities = readQuantities(r);
  const price = type === 'LIMIT' ? r.decimal('price', 'positive') : undefined;
  if (type === 'LIMIT' && price === undefined) r.fail(rejects.missing('price'));
  const timeInForce = readTimeInForce(r);
  const stops = withStops ? readAttachedStops(r) : {};
  const command: PlaceOrderCommand = {
    symbol,
    side,
    positionSide,
    type,
    ...quantities,
    ...priceField(price),
    priceType: type === 'LIMIT' ? 'INPUT' : 'MARKET',
    timeInForce: type === 'LIMIT' ? timeInForce : 'IOC',
    clientOrderId,
    ...stops,
    generation: 'v2',
  };
  return r.finish(() => command);
}

/** POST /api/v2/futures/algo-order: a plan order, STOP (limit at `price` after the trigger) or STOP_MARKET. */
export function readPlanCreate(r: ParamReader, venue: InstrumentLookup, category: AccountRef['category']): SimResult<PlacePlanCommand> {
  const symbol = readSymbol(r, venue, category) ?? '';
  const side = r.requiredChoice('side', SIDES, rejects.badSide);
  const positionSide = r.requiredChoice('positionSide', POSITION_SIDES);
  const type = r.requiredChoice('type', ['STOP', 'STOP_MARKET'] as const, rejects.badOrderType);
  const stopPrice = r.requiredDecimal('stopPrice');
  const clientOrderId = r.requiredText('newClientOrderId');
  const quantities = readQuantities(r);
  const price = type === 'STOP' ? r.decimal('price', 'positive') : undefined;
  if (type === 'STOP' && price === undefined) r.fail(rejects.missing('price'));
  const timeInForce = readTimeInForce(r);
  const triggerBy = r.choice('triggerBy', TRIGGER_BY) ?? 'CONTRACT_PRICE';
  const stops = readAttachedStops(r);
  const command: PlacePlanCommand = {
    symbol,
    side,
    positionSide,
    type,
    stopPrice,
    triggerBy,
    ...quantities,
    ...priceField(price),
    timeInForce,
    clientOrderId,
    ...stops,
  };
  return r.finish(() => command);
}
