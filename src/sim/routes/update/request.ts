import type { Decimal } from '../../../core/decimal.js';
import type { FallbackType, OrderRef, PriceType, SimResult, StopType, TriggerBy } from '../../engine/types.js';
import { readRefV1, readRefV2 } from '../order-refs.js';
import type { ParamReader } from '../param-reader.js';
import { rejects } from '../rejects.js';
import type { SideV1, StopCategory } from '../wire-vocabulary.js';
import { FALLBACK_TYPES, PRICE_TYPE_ALIASES, PRICE_TYPES, SIDES_V1, STOP_CATEGORIES, STOP_TYPES, TRIGGER_BY } from '../wire-vocabulary.js';

export type UpdateType = 'LIMIT' | 'STOP' | 'STOP_PROFIT_LOSS';

/**
 * A modify request as sent, before the original order is known: every field absent unless given.
 * The rules of document 000 turn it into an engine command against the original (update/rules.ts).
 */
export interface UpdateRequest {
  readonly type: UpdateType;
  readonly ref: OrderRef;
  readonly newClientOrderId?: string;
  readonly quantity?: Decimal;
  readonly valueQuantity?: Decimal;
  readonly priceType?: PriceType;
  readonly price?: Decimal;
  readonly stopPrice?: Decimal;
  readonly triggerBy?: TriggerBy;
  readonly stopType?: StopType;
  readonly activePrice?: Decimal;
  readonly fallbackType?: FallbackType;
  readonly fallbackQuantity?: Decimal;
  /** Rule 4: side and symbol come from the original; sent values must equal it. */
  readonly symbol?: string;
  readonly side?: SideV1;
}

/** Rule 1: what each type may change. */
export const MODIFIABLE: Readonly<Record<UpdateType, readonly (keyof UpdateRequest)[]>> = {
  LIMIT: ['quantity', 'valueQuantity', 'priceType', 'price'],
  STOP: ['quantity', 'valueQuantity', 'priceType', 'price', 'stopPrice', 'triggerBy'],
  STOP_PROFIT_LOSS: ['quantity', 'valueQuantity', 'priceType', 'price', 'stopPrice', 'triggerBy', 'stopType', 'activePrice', 'fallbackType', 'fallbackQuantity'],
};

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Drops undefined fields (exactOptionalPropertyTypes). */
function defined<T extends object>(fields: { [K in keyof T]: T[K] | undefined }): T {
  const out: Partial<Mutable<T>> = {};
  for (const key of Object.keys(fields) as (keyof T)[]) {
    const value = fields[key];
    if (value !== undefined) out[key] = value;
  }
  return out as T;
}

/** POST /api/v1/futures/order/update: parameters, rule 1 (something modifiable) and rule 7 (TP/SL stopPrice). */
export function readUpdateV1(r: ParamReader): SimResult<UpdateRequest> {
  const ref = readRefV1(r);
  const type = r.requiredChoice('type', ['LIMIT', 'STOP', 'STOP_PROFIT_LOSS'] as const, rejects.badOrderType);
  const request = defined<UpdateRequest>({
    type,
    ref,
    newClientOrderId: r.text('newClientOrderId'),
    quantity: r.decimal('quantity'),
    valueQuantity: r.decimal('valueQuantity'),
    price: r.decimal('price'),
    priceType: r.choice('priceType', PRICE_TYPES, () => rejects.invalid('priceType'), PRICE_TYPE_ALIASES),
    stopPrice: r.decimal('stopPrice'),
    triggerBy: r.choice('triggerBy', TRIGGER_BY),
    stopType: r.choice('stopType', STOP_TYPES, rejects.badStopType),
    activePrice: r.decimal('activePrice', 'positive'),
    fallbackType: r.choice('fallbackType', FALLBACK_TYPES, rejects.badFallbackType),
    fallbackQuantity: r.decimal('fallbackQuantity', 'positive'),
    symbol: r.text('symbol'),
    side: r.choice('side', SIDES_V1, rejects.badSide),
  });
  if (r.failure === undefined && type === 'STOP_PROFIT_LOSS' && request.stopPrice === undefined) r.fail(rejects.missing('stopPrice'));
  if (r.failure === undefined && !MODIFIABLE[type].some((k) => request[k] !== undefined)) r.fail(rejects.nothingToModify(MODIFIABLE[type]));
  return r.finish(() => request);
}

/**
 * POST /api/v2/futures/order/update (LIMIT only): the v1 LIMIT rules without priceType; quantity,
 * valueQuantity and price default to 0, which keeps the original.
 */
export function readUpdateV2(r: ParamReader): SimResult<UpdateRequest> {
  const ref = readRefV2(r);
  const request = defined<UpdateRequest>({
    type: 'LIMIT',
    ref,
    newClientOrderId: r.text('newClientOrderId'),
    quantity: r.decimal('quantity'),
    valueQuantity: r.decimal('valueQuantity'),
    price: r.decimal('price'),
  });
  if (r.failure === undefined && !MODIFIABLE.LIMIT.some((k) => request[k] !== undefined)) r.fail(rejects.nothingToModify(['quantity', 'valueQuantity', 'price']));
  return r.finish(() => request);
}

/**
 * POST /api/v2/futures/algo-order/update: type STOP (plan rows) or STOP_PROFIT_LOSS (TP/SL rows); every
 * amount 0 or omitted keeps the original, an empty triggerBy too. Mapped onto the v1 rules: a price
 * greater than 0 makes the fill a limit (INPUT) one, quantity 0 is "keep" (not "whole position").
 */
export function readAlgoUpdate(r: ParamReader): SimResult<UpdateRequest> {
  const type: StopCategory = r.requiredChoice('type', STOP_CATEGORIES, rejects.badOrderType);
  const ref = readRefV2(r);
  const quantity = r.decimal('quantity');
  const price = r.decimal('price');
  const request = defined<UpdateRequest>({
    type,
    ref,
    newClientOrderId: r.text('newClientOrderId'),
    quantity: quantity !== undefined && quantity.gt(0) ? quantity : undefined,
    valueQuantity: r.decimal('valueQuantity'),
    price: price !== undefined && price.gt(0) ? price : undefined,
    priceType: price !== undefined && price.gt(0) ? 'INPUT' : undefined,
    stopPrice: r.decimal('stopPrice'),
    triggerBy: r.choice('triggerBy', TRIGGER_BY),
  });
  const sent = ['quantity', 'valueQuantity', 'price', 'stopPrice', 'triggerBy'];
  if (r.failure === undefined && !sent.some((k) => r.has(k))) r.fail(rejects.nothingToModify(sent));
  return r.finish(() => request);
}
