import { crossing, dec, defineStrategy, Indicators } from 'stratd/strategy';
import type { BusEvent, Decimal, HandlerContext, Indicator, Intent, KlineUpdated, PositionSide } from 'stratd/strategy';
import { trendParams } from './params.js';
import type { TrendParams } from './params.js';
import { riskSizedQuantity } from './sizing.js';

type Ctx = HandlerContext<TrendParams>;

interface SymbolState {
  readonly fast: Indicator<Decimal>;
  readonly slow: Indicator<Decimal>;
  readonly atr: Indicator<Decimal>;
  /** Client order ids emitted and not finished yet: no new signal is acted on meanwhile. */
  readonly inFlight: Set<string>;
}

/**
 * EMA crossover on closed klines: a golden cross goes long, a death cross short (flat: enter; the
 * opposite position: close it, then enter), at market, with take-profit and stop-loss at ATR multiples
 * attached so the exchange guards the position. Each entry risks `riskPerTrade` at its stop.
 */
export default defineStrategy({
  name: 'trend',
  description: 'EMA crossover with ATR-based exchange-side TP/SL, sized by risk per trade',
  params: trendParams,
  create: (ctx) => {
    const indicators = new Indicators(ctx);
    const { interval, fastPeriod, slowPeriod, atrPeriod } = ctx.params;
    const states = new Map<string, SymbolState>(
      ctx.symbols.map((symbol) => [
        symbol,
        {
          fast: indicators.ema({ symbol, interval, period: fastPeriod }),
          slow: indicators.ema({ symbol, interval, period: slowPeriod }),
          atr: indicators.atr({ symbol, interval, period: atrPeriod }),
          inFlight: new Set(),
        },
      ]),
    );
    return {
      // Entries and exits are market orders: one an earlier life left open is stale, and cancelled (its
      // attached TP/SL orders stay: they guard the position).
      onStart: () => {
        for (const symbol of ctx.symbols) cancelStrays(ctx, symbol, new Set());
      },
      onEvent: (event) => {
        const kline = indicators.onEvent(event);
        const state = kline === undefined ? undefined : states.get(kline.symbol);
        if (kline !== undefined && state !== undefined) onKline(ctx, state, kline);
        else settle(ctx, states, event);
      },
      onStop: () => {
        for (const symbol of ctx.symbols) cleanUp(ctx, symbol);
      },
    };
  },
});

function held(ctx: Ctx, symbol: string, side: PositionSide): Decimal {
  return ctx.position(symbol, side)?.qty ?? dec(0);
}

function onKline(ctx: Ctx, state: SymbolState, kline: KlineUpdated): void {
  const cross = crossing(state.fast, state.slow);
  const atr = state.atr.value();
  if (cross === undefined || atr === undefined) return;
  const { symbol } = kline;
  if (state.inFlight.size > 0) {
    ctx.logger.warn({ symbol, cross }, 'crossing ignored: an order is still in flight');
    return;
  }
  const want: PositionSide = cross === 'up' ? 'LONG' : 'SHORT';
  const against: PositionSide = want === 'LONG' ? 'SHORT' : 'LONG';
  if (held(ctx, symbol, want).gt(0)) return;
  if (held(ctx, symbol, against).gt(0)) send(ctx, state, { type: 'place', key: nextKey(ctx, 'x'), symbol, side: want === 'LONG' ? 'BUY' : 'SELL', positionSide: against, orderType: 'MARKET', closePosition: true });
  if (want === 'SHORT' && !ctx.params.allowShort) return;
  const entry = entryIntent(ctx, symbol, want, atr, ctx.cache.midPrice(symbol) ?? kline.close);
  if (entry === undefined) ctx.logger.warn({ symbol, atr: atr.toFixed() }, 'no entry: unknown instrument, or the risk-sized quantity is below the minimum');
  else send(ctx, state, entry);
}

/** A market entry with TP/SL at ATR multiples around `reference` (mid, else the close). */
function entryIntent(ctx: Ctx, symbol: string, side: PositionSide, atr: Decimal, reference: Decimal): Intent | undefined {
  const instrument = ctx.cache.instrument(symbol);
  const { riskPerTrade, slMultiple, tpMultiple, maxPosition, triggerBy } = ctx.params;
  const quantity = instrument === undefined ? undefined : riskSizedQuantity(riskPerTrade, atr, slMultiple, instrument, maxPosition.minus(held(ctx, symbol, side)));
  if (quantity === undefined) return undefined;
  const sign = side === 'LONG' ? 1 : -1;
  return {
    type: 'place',
    key: nextKey(ctx, 'e'),
    symbol,
    side: side === 'LONG' ? 'BUY' : 'SELL',
    positionSide: side,
    orderType: 'MARKET',
    quantity,
    takeProfit: { triggerPrice: reference.plus(atr.mul(tpMultiple).mul(sign)), triggerBy },
    stopLoss: { triggerPrice: reference.minus(atr.mul(slMultiple).mul(sign)), triggerBy },
  };
}

function send(ctx: Ctx, state: SymbolState, intent: Intent & { readonly key?: string }): void {
  if (intent.key !== undefined) state.inFlight.add(ctx.clientOrderIdFor(intent.key));
  ctx.emit(intent);
}

/** Forgets orders that are done: finished, denied, failed, or gone after a resync. */
function settle(ctx: Ctx, states: ReadonlyMap<string, SymbolState>, event: BusEvent): void {
  const forget = (clientOrderId: string): void => {
    for (const state of states.values()) state.inFlight.delete(clientOrderId);
  };
  switch (event.type) {
    case 'account.order':
      if (event.order.status === 'FILLED' || event.order.status === 'CANCELED' || event.order.status === 'REJECTED') forget(event.order.clientOrderId);
      return;
    case 'intent.denied':
      if (event.intent.type === 'place' && event.intent.key !== undefined) forget(ctx.clientOrderIdFor(event.intent.key));
      return;
    case 'command.failed':
      if (event.command.type === 'place-order') forget(event.command.clientOrderId);
      return;
    case 'account.resynced': {
      const open = new Set(ctx.openOrders().map((o) => o.clientOrderId));
      for (const state of states.values()) for (const id of state.inFlight) if (!open.has(id)) state.inFlight.delete(id);
      for (const [symbol, state] of states) cancelStrays(ctx, symbol, state.inFlight);
      return;
    }
    default:
      return;
  }
}

/** Own open regular orders of the symbol that nothing in flight accounts for (an earlier life's) are cancelled. */
function cancelStrays(ctx: Ctx, symbol: string, inFlight: ReadonlySet<string>): void {
  for (const order of ctx.openOrders(symbol)) if (!inFlight.has(order.clientOrderId)) ctx.emit({ type: 'cancel', clientOrderId: order.clientOrderId });
}

/** Cancels own orders; positions stay under their TP/SL unless closeOnStop. */
function cleanUp(ctx: Ctx, symbol: string): void {
  if (ctx.params.closeOnStop) {
    for (const side of ['LONG', 'SHORT'] as const) {
      if (held(ctx, symbol, side).gt(0)) ctx.emit({ type: 'place', key: nextKey(ctx, 'x'), symbol, side: side === 'LONG' ? 'SELL' : 'BUY', positionSide: side, orderType: 'MARKET', closePosition: true });
    }
  }
  ctx.emit({ type: 'cancel-all', symbol, includeAlgo: ctx.params.closeOnStop });
}

/** Keys never repeat, across restarts too: the sequence lives in the instance's store. */
function nextKey(ctx: Ctx, prefix: string): string {
  const next = Number(ctx.store.get('seq') ?? 0) + 1;
  ctx.store.set('seq', next);
  return `${prefix}${next}`;
}
