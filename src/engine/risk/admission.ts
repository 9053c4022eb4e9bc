import type { Decimal } from '../../core/decimal.js';
import type { Denial } from '../../model/denials.js';
import type { Instrument, PositionSide, Side } from '../../model/instrument.js';
import { denial } from './denial.js';
import type { OrderScope } from './exposure.js';
import { equityOf, positionsNotional, sideExposure } from './exposure.js';
import { checkBand, checkNotionalFilter, checkPriceFilter, checkQtyFilter, notionalOf } from './filters.js';
import { checkMaxLeverage, checkMaxNotional, checkMaxOpenOrders, checkMaxPosition, checkOrderRate, checkPriceBandPct } from './limits.js';
import type { RiskContext } from './risk-context.js';

/** An order about to be placed or changed, as the filters and limits see it. */
export interface Candidate {
  readonly instrument: Instrument;
  readonly side: Side;
  readonly positionSide: PositionSide;
  readonly opening: boolean;
  /** A plan or TP/SL order: exchange algo-order limits, no price bands (its price applies at the trigger). */
  readonly algo: boolean;
  readonly orderType: 'LIMIT' | 'MARKET';
  readonly price: Decimal | undefined;
  readonly triggerPrice: Decimal | undefined;
  /** Further prices the order carries (attached TP/SL), checked against PRICE_FILTER only. */
  readonly otherPrices: ReadonlyArray<readonly [string, Decimal]>;
  /** Contracts of the whole order; undefined for a TP/SL that covers the whole position. */
  readonly quantity: Decimal | undefined;
  /** Contracts the order adds to its side once placed or changed (its remaining quantity). */
  readonly exposure: Decimal;
  /** Whether exposure limits apply: a new order, or a modification that grows the order. */
  readonly grows: boolean;
  /** A new order rather than a modification: open-order limits apply. */
  readonly isNew: boolean;
  /** Whether the price bands apply: a regular order with a new price, or a new MARKET order. */
  readonly banded: boolean;
  /** The order being modified, left out of the exposure sums. */
  readonly replaces: string | undefined;
}

/**
 * Everything an order must pass besides the gate: instrument filters and bands (all orders: the exchange
 * would refuse them anyway), then the configured limits, which hold back only opening orders.
 */
export function admit(ctx: RiskContext, c: Candidate): Denial | undefined {
  return instrumentFilters(ctx, c) ?? priceBands(ctx, c) ?? openOrderLimits(ctx, c) ?? exposureLimits(ctx, c) ?? protectionCaps(ctx, c) ?? rateLimits(ctx, c);
}

function instrumentFilters(ctx: RiskContext, c: Candidate): Denial | undefined {
  const { instrument } = c;
  if (c.price !== undefined) {
    const bad = checkPriceFilter(instrument, c.price, 'price');
    if (bad !== undefined) return bad;
  }
  if (c.triggerPrice !== undefined) {
    const bad = checkPriceFilter(instrument, c.triggerPrice, 'trigger price');
    if (bad !== undefined) return bad;
  }
  for (const [what, price] of c.otherPrices) {
    const bad = checkPriceFilter(instrument, price, what);
    if (bad !== undefined) return bad;
  }
  if (c.quantity === undefined) return undefined;
  const bad = checkQtyFilter(instrument, c.quantity);
  if (bad !== undefined) return bad;
  const symbol = instrument.symbol;
  const reference =
    c.orderType === 'LIMIT' && c.price !== undefined ? c.price : (c.triggerPrice ?? ctx.cache.markPrice(symbol) ?? ctx.cache.lastPrice(symbol) ?? ctx.cache.midPrice(symbol));
  return reference === undefined ? undefined : checkNotionalFilter(instrument, reference, c.quantity, c.opening);
}

/** Instrument bands (LIMIT_TRADING / MARKET_TRADING) and the configured band, all against the mark price. */
function priceBands(ctx: RiskContext, c: Candidate): Denial | undefined {
  if (c.algo || !c.banded) return undefined;
  const mark = ctx.cache.markPrice(c.instrument.symbol);
  if (c.orderType === 'LIMIT' && c.price !== undefined) {
    if (mark !== undefined && c.instrument.limitBand !== undefined) {
      const bad = checkBand(c.instrument.limitBand, c.side, c.price, mark, 'price');
      if (bad !== undefined) return bad;
    }
    for (const scope of ctx.scopes) {
      if (scope.limits.priceBandPct === undefined) continue;
      // Without a mark an exit is let through: missing data must not lock a position in.
      if (mark === undefined) {
        if (c.opening) return denial('NO_MARK_PRICE', `${scope.label} price band: no mark price of ${c.instrument.symbol} known`);
        continue;
      }
      const bad = checkPriceBandPct(scope.limits, scope.label, c.price, mark);
      if (bad !== undefined) return bad;
    }
    return undefined;
  }
  if (!c.opening) return undefined;
  // A MARKET order has no price of its own: the book it would sweep must lie within the band.
  if (mark !== undefined && c.instrument.marketBand !== undefined) {
    const touch = c.side === 'BUY' ? ctx.cache.bestAsk(c.instrument.symbol) : ctx.cache.bestBid(c.instrument.symbol);
    if (touch !== undefined) {
      const bad = checkBand(c.instrument.marketBand, c.side, touch, mark, c.side === 'BUY' ? 'best ask' : 'best bid');
      if (bad !== undefined) return bad;
    }
  }
  for (const scope of ctx.scopes) {
    if (scope.limits.priceBandPct !== undefined && mark === undefined) {
      return denial('NO_MARK_PRICE', `${scope.label} price band: a MARKET order needs a mark price of ${c.instrument.symbol}`);
    }
  }
  return undefined;
}

function openOrderLimits(ctx: RiskContext, c: Candidate): Denial | undefined {
  if (!c.isNew) return undefined;
  const symbol = c.instrument.symbol;
  const exchangeMax = c.algo ? c.instrument.maxOpenAlgoOrders : c.instrument.maxOpenOrders;
  if (exchangeMax !== undefined) {
    const open = c.algo ? ctx.cache.openAlgoOrderCount(symbol) : ctx.cache.openOrderCount(symbol);
    if (open >= exchangeMax) return denial('MAX_OPEN_ORDERS', `${symbol} allows ${exchangeMax} open ${c.algo ? 'conditional' : 'regular'} orders`);
  }
  if (!c.opening) return undefined;
  // Counted only for a limit that is set (the global count looks up every open order of the account).
  const { limits } = ctx.strategy;
  const own = limits.maxOpenOrders === undefined ? undefined : checkMaxOpenOrders(limits, ctx.label, ctx.ownedIdList().length);
  const globalMax = ctx.global.maxOpenOrders;
  return own ?? (globalMax === undefined ? undefined : checkMaxOpenOrders(ctx.global, 'global', ctx.openOrderCountUnder(globalMax)));
}

function exposureLimits(ctx: RiskContext, c: Candidate): Denial | undefined {
  if (!c.opening || !c.grows) return undefined;
  const symbol = c.instrument.symbol;
  for (const scope of ctx.scopes) {
    const { limits } = scope;
    if (limits.maxPosition === undefined && limits.maxNotional === undefined && limits.maxLeverage === undefined) continue;
    const contracts = sideExposure(ctx.cache, symbol, c.positionSide, orderScope(scope.strategy ? ctx.ownedIds() : undefined, c.replaces)).add(c.exposure);
    const position = checkMaxPosition(limits, scope.label, contracts);
    if (position !== undefined) return position;
    if (limits.maxNotional === undefined && limits.maxLeverage === undefined) continue;
    const reference = ctx.cache.markPrice(symbol) ?? c.price ?? c.triggerPrice ?? ctx.cache.lastPrice(symbol);
    if (reference === undefined) return denial('NO_MARK_PRICE', `${scope.label} notional limits: no price of ${symbol} known`);
    const notional = checkMaxNotional(limits, scope.label, notionalOf(c.instrument, reference, contracts));
    if (notional !== undefined) return notional;
    if (limits.maxLeverage === undefined) continue;
    const asset = c.instrument.marginAsset;
    const equity = equityOf(ctx.cache, asset);
    if (equity === undefined) return denial('NOT_READY', `no ${asset} balance known yet`);
    const symbols = scope.strategy ? new Set(ctx.strategy.symbols) : undefined;
    const total = positionsNotional(ctx.cache, asset, symbols).add(notionalOf(c.instrument, reference, c.exposure));
    const leverage = checkMaxLeverage(limits, scope.label, total, equity);
    if (leverage !== undefined) return leverage;
  }
  return undefined;
}

/** The account's open orders (no order being modified): one shared scope. */
const ALL_ORDERS: OrderScope = Object.freeze({});

/** Which open orders an exposure sum counts, as a literal of a fixed shape (no spreads per check). */
function orderScope(owned: ReadonlySet<string> | undefined, exclude: string | undefined): OrderScope {
  if (owned === undefined) return exclude === undefined ? ALL_ORDERS : { exclude };
  return exclude === undefined ? { owned } : { owned, exclude };
}

/** The protections' caps (notional, leverage, margin ratio, distance to liquidation) on an order that adds exposure. */
function protectionCaps(ctx: RiskContext, c: Candidate): Denial | undefined {
  if (!c.opening || !c.grows || !ctx.protectionsConfigured) return undefined;
  const symbol = c.instrument.symbol;
  const reference = ctx.cache.markPrice(symbol) ?? c.price ?? c.triggerPrice ?? ctx.cache.lastPrice(symbol);
  const notional = reference === undefined ? undefined : notionalOf(c.instrument, reference, c.exposure);
  const refused = ctx.protectionRefusal({ symbol, positionSide: c.positionSide, notional });
  return refused === undefined ? undefined : denial('PROTECTION', refused);
}

function rateLimits(ctx: RiskContext, c: Candidate): Denial | undefined {
  if (!c.opening) return undefined;
  const { limits } = ctx.strategy;
  if (limits.maxOrdersPerMinute !== undefined) {
    const own = checkOrderRate(limits, ctx.label, ctx.recentStrategyCommands());
    if (own !== undefined) return own;
  }
  return ctx.global.maxOrdersPerMinute === undefined ? undefined : checkOrderRate(ctx.global, 'global', ctx.recentGlobalCommands());
}
