import type { Decimal } from '../../../core/decimal.js';
import { dec } from '../../../core/decimal.js';
import { invariant } from '../../../core/errors.js';
import { err, ok } from '../../../core/result.js';
import type {
  AlgoOrderView,
  FallbackType,
  ModifyAlgoCommand,
  ModifyOrderCommand,
  OrderView,
  PriceType,
  SimReject,
  SimResult,
  StopType,
  TpSlView,
  TrailingParams,
} from '../../engine/types.js';
import type { SimInstrument } from '../../market-stream/instruments.js';
import { contractsForValue } from '../quantity-rules.js';
import { rejects } from '../rejects.js';
import type { UpdateRequest } from './request.js';
import { sideV1Of } from '../wire-vocabulary.js';

/** The order a modify names, as the engine holds it: a regular order or a plan/TP-SL row. */
export type OriginalOrder = { readonly kind: 'order'; readonly view: OrderView } | { readonly kind: 'algo'; readonly view: AlgoOrderView };

export type AlgoFamily = 'STOP' | 'STOP_PROFIT_LOSS';

export type ResolvedUpdate =
  | { readonly kind: 'order'; readonly command: ModifyOrderCommand }
  | { readonly kind: 'algo'; readonly family: AlgoFamily; readonly command: ModifyAlgoCommand };

/** What turning a quote notional into contracts needs (rule 8 with valueQuantity). */
export interface UpdateMarket {
  readonly instrument: Pick<SimInstrument, 'contractMultiplier' | 'quantityStep'>;
  /** Latest trade price, for a market order's notional. */
  readonly lastPrice?: string;
}

export function familyOf(view: AlgoOrderView): AlgoFamily {
  return view.type === 'STOP' || view.type === 'STOP_MARKET' ? 'STOP' : 'STOP_PROFIT_LOSS';
}

/**
 * Document 000's modify rules 2-9 against the original order (rule 1 and rule 7's "stopPrice
 * required" are parameter checks, see update/request.ts). Omitted values and zeros keep the original;
 * the result is the complete new state the engine applies, or the exchange's refusal.
 */
export function resolveUpdate(request: UpdateRequest, original: OriginalOrder, market: UpdateMarket, generation: 'v1' | 'v2'): SimResult<ResolvedUpdate> {
  const mismatch = checkSameOrder(request, original) ?? checkWorking(original);
  if (mismatch !== undefined) return err(mismatch);
  if (original.kind === 'order') return resolveLimit(request, original.view, market, generation);
  return familyOf(original.view) === 'STOP' ? resolveStop(request, original.view, market) : resolveTpSl(request, original.view, market, generation);
}

/** `type` must match the original (document 000); rule 4: side and symbol cannot change. */
function checkSameOrder(request: UpdateRequest, original: OriginalOrder): SimReject | undefined {
  const family = original.kind === 'order' ? 'LIMIT' : familyOf(original.view);
  if (request.type !== family) return rejects.badOrderType();
  const view = original.view;
  if (request.symbol !== undefined && request.symbol !== view.symbol) return rejects.invalid('symbol');
  if (request.side !== undefined && request.side !== sideV1Of(view.side, view.positionSide)) return rejects.invalid('side');
  return undefined;
}

/** Rule 5: LIMIT orders NEW or PARTIALLY_FILLED (PENDING_NEW is NEW on its way), stop and TP/SL rows ORDER_NEW. */
function checkWorking(original: OriginalOrder): SimReject | undefined {
  switch (original.view.status) {
    case 'PENDING_NEW':
    case 'NEW':
    case 'PARTIALLY_FILLED':
    case 'ORDER_NEW':
      return undefined;
    case 'FILLED':
    case 'ORDER_FILLED':
      return rejects.orderFilled();
    case 'CANCELED':
    case 'ORDER_CANCELED':
      return rejects.orderCanceled();
    default:
      return rejects.orderNotWorking();
  }
}

interface Pricing {
  readonly priceType: PriceType;
  /** The limit price; for MARKET what the family writes for "market" (the protective price, or 0). */
  readonly price: Decimal;
}

/**
 * Rules 6 and 9. An omitted priceType takes the original's. INPUT: a price above 0 is used, omitted or 0
 * keeps the original price, which a market original does not have (-1102 price). MARKET: no price may
 * come with it (-1128). With `priceMeansLimit` (TP/SL, rule 7) a price above 0 without a priceType
 * makes the fill a limit one even when the original was market.
 */
function resolvePricing(request: UpdateRequest, original: Pricing, marketPrice: Decimal, priceMeansLimit: boolean): SimResult<Pricing> {
  const given = request.price !== undefined && request.price.gt(0) ? request.price : undefined;
  const priceType = request.priceType ?? (priceMeansLimit && given !== undefined ? 'INPUT' : original.priceType);
  if (priceType === 'MARKET') return given === undefined ? ok({ priceType, price: marketPrice }) : err(rejects.badCombination());
  if (given !== undefined) return ok({ priceType, price: given });
  return original.priceType === 'INPUT' ? ok({ priceType, price: original.price }) : err(rejects.missing('price'));
}

/**
 * Rule 8. quantity above 0 wins; else valueQuantity above 0, in contracts at `referencePrice`; else the
 * original. A fixed TP/SL takes any sent quantity, 0 meaning the whole position.
 */
function resolveQuantity(request: UpdateRequest, original: Decimal, referencePrice: Decimal, market: UpdateMarket, fixedTpSl: boolean): SimResult<Decimal> {
  if (fixedTpSl && request.quantity !== undefined) return ok(request.quantity);
  if (request.quantity !== undefined && request.quantity.gt(0)) return ok(request.quantity);
  if (request.valueQuantity === undefined || !request.valueQuantity.gt(0)) return ok(original);
  const contracts = contractsForValue(request.valueQuantity, referencePrice, market.instrument);
  return contracts.gt(0) ? ok(contracts) : err(rejects.quantityTooSmall());
}

function lastOr(market: UpdateMarket, fallback: Decimal): Decimal {
  return market.lastPrice === undefined ? fallback : dec(market.lastPrice);
}

function newClientOrderId(request: UpdateRequest): { newClientOrderId?: string } {
  return request.newClientOrderId === undefined ? {} : { newClientOrderId: request.newClientOrderId };
}

/** A regular LIMIT order: the new quantity is the new UNFILLED quantity; omitted keeps the unfilled remainder. */
function resolveLimit(request: UpdateRequest, view: OrderView, market: UpdateMarket, generation: 'v1' | 'v2'): SimResult<ResolvedUpdate> {
  const originalPrice = dec(view.price);
  const pricing = resolvePricing(request, { priceType: view.priceType, price: originalPrice }, originalPrice, false);
  if (!pricing.ok) return pricing;
  const { priceType, price } = pricing.value;
  const remaining = dec(view.origQty).minus(dec(view.executedQty));
  const quantity = resolveQuantity(request, remaining, priceType === 'INPUT' ? price : lastOr(market, price), market, false);
  if (!quantity.ok) return quantity;
  // Rule 3: identical to the original.
  if (quantity.value.eq(remaining) && price.eq(originalPrice) && priceType === view.priceType) return err(rejects.unchanged());
  return ok({ kind: 'order', command: { quantity: quantity.value, price, priceType, ...newClientOrderId(request), generation } });
}

/** A plan row: STOP (limit after the trigger) or STOP_MARKET; stopPrice 0 keeps the original (rule 2). */
function resolveStop(request: UpdateRequest, view: AlgoOrderView, market: UpdateMarket): SimResult<ResolvedUpdate> {
  const originalPrice = dec(view.price);
  const pricing = resolvePricing(request, { priceType: view.type === 'STOP_MARKET' ? 'MARKET' : 'INPUT', price: originalPrice }, dec(0), false);
  if (!pricing.ok) return pricing;
  const stopPrice = keepOnZero(request.stopPrice, view.stopPrice);
  const triggerBy = request.triggerBy ?? view.triggerBy;
  const price = pricing.value.price;
  const quantity = resolveQuantity(request, dec(view.origQty), price.gt(0) ? price : stopPrice, market, false);
  if (!quantity.ok) return quantity;
  if (quantity.value.eq(dec(view.origQty)) && price.eq(originalPrice) && stopPrice.eq(dec(view.stopPrice)) && triggerBy === view.triggerBy) {
    return err(rejects.unchanged());
  }
  return ok({ kind: 'algo', family: 'STOP', command: { quantity: quantity.value, price, stopPrice, triggerBy, ...newClientOrderId(request) } });
}

/**
 * A TP/SL row (rules 7-9): one leg per call; price 0 means a market fill; stopType switches between
 * fixed and trailing, trailing needing fallbackType and fallbackQuantity (sent or kept) and taking no
 * trailing parameter when fixed (-1128). newClientOrderId is ignored by v1 (document 000).
 */
function resolveTpSl(request: UpdateRequest, view: AlgoOrderView, market: UpdateMarket, generation: 'v1' | 'v2'): SimResult<ResolvedUpdate> {
  const tpsl = view.tpsl;
  invariant(tpsl !== undefined, 'SIM_TPSL_VIEW', `TP/SL row ${view.orderId} has no tpsl part`);
  const originalPrice = dec(view.price);
  const pricing = resolvePricing(request, { priceType: view.type === 'STOP_PROFIT_LOSS_MARKET' ? 'MARKET' : 'INPUT', price: originalPrice }, dec(0), true);
  if (!pricing.ok) return pricing;
  const price = pricing.value.price;
  const stopPrice = keepOnZero(request.stopPrice, view.stopPrice);
  const triggerBy = request.triggerBy ?? view.triggerBy;
  const stopType: StopType = request.stopType ?? tpsl.stopType;
  const trailing = resolveTrailing(request, tpsl, stopType);
  if (!trailing.ok) return trailing;
  const originalQuantity = tpsl.wholePosition ? dec(0) : dec(view.origQty);
  const referencePrice = price.gt(0) ? price : stopPrice.gt(0) ? stopPrice : lastOr(market, dec(0));
  const quantity = resolveQuantity(request, originalQuantity, referencePrice, market, stopType === 'FIXED_STOP');
  if (!quantity.ok) return quantity;
  const unchanged =
    quantity.value.eq(originalQuantity) &&
    price.eq(originalPrice) &&
    stopPrice.eq(dec(view.stopPrice)) &&
    triggerBy === view.triggerBy &&
    stopType === tpsl.stopType &&
    sameTrailing(trailing.value, tpsl);
  if (unchanged) return err(rejects.unchanged());
  const command: ModifyAlgoCommand = {
    quantity: quantity.value,
    price,
    stopPrice,
    triggerBy,
    ...(generation === 'v2' ? newClientOrderId(request) : { keepClientOrderId: true }),
    stopType,
    ...(trailing.value === undefined ? {} : { trailing: trailing.value }),
  };
  return ok({ kind: 'algo', family: 'STOP_PROFIT_LOSS', command });
}

function resolveTrailing(request: UpdateRequest, tpsl: TpSlView, stopType: StopType): SimResult<TrailingParams | undefined> {
  if (stopType === 'FIXED_STOP') {
    const stray = request.activePrice ?? request.fallbackType ?? request.fallbackQuantity;
    return stray === undefined ? ok(undefined) : err(rejects.badCombination());
  }
  const fallbackType: FallbackType | undefined = request.fallbackType ?? tpsl.fallbackType;
  if (fallbackType === undefined) return err(rejects.missing('fallbackType'));
  const keptQuantity = dec(tpsl.fallbackQuantity);
  const fallbackQuantity = request.fallbackQuantity ?? (keptQuantity.gt(0) ? keptQuantity : undefined);
  if (fallbackQuantity === undefined) return err(rejects.missing('fallbackQuantity'));
  return ok({ activePrice: request.activePrice ?? dec(tpsl.activePrice), fallbackType, fallbackQuantity });
}

function sameTrailing(trailing: TrailingParams | undefined, tpsl: TpSlView): boolean {
  if (trailing === undefined) return true;
  return trailing.activePrice.eq(dec(tpsl.activePrice)) && trailing.fallbackType === tpsl.fallbackType && trailing.fallbackQuantity.eq(dec(tpsl.fallbackQuantity));
}

/** Rule 2: 0 or omitted keeps the original value. */
function keepOnZero(given: Decimal | undefined, original: string): Decimal {
  return given !== undefined && given.gt(0) ? given : dec(original);
}
