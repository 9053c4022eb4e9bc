import { dec, Decimal } from 'stratd/strategy';
import type { Intent, PositionSide, StrategyContext } from 'stratd/strategy';
import type { CarryState } from './carry-state.js';
import type { CarryParams } from './params.js';

type Ctx = StrategyContext<CarryParams>;

/** The sides it trades: shorts always, longs with allowLong. Other sides' positions are never touched. */
export function tradedSides(ctx: Ctx): readonly PositionSide[] {
  return ctx.params.allowLong ? ['SHORT', 'LONG'] : ['SHORT'];
}

export function held(ctx: Ctx, symbol: string, side: PositionSide): Decimal {
  return ctx.position(symbol, side)?.qty ?? dec(0);
}

/** (mark − index) / index in basis points; undefined until both are known. */
function premiumBps(ctx: Ctx, symbol: string): Decimal | undefined {
  const mark = ctx.cache.markPrice(symbol);
  const index = ctx.cache.indexPrice(symbol);
  return mark === undefined || index === undefined || index.isZero() ? undefined : mark.minus(index).div(index).mul(10_000);
}

/** The side funding pays to hold now, if the (optional) basis filter agrees. */
function wanted(ctx: Ctx, symbol: string, rate: Decimal): PositionSide | undefined {
  const { entryRate, minPremiumBps, allowLong } = ctx.params;
  const side: PositionSide | undefined = rate.gte(entryRate) ? 'SHORT' : allowLong && rate.lte(entryRate.neg()) ? 'LONG' : undefined;
  if (side === undefined || minPremiumBps === undefined) return side;
  const premium = premiumBps(ctx, symbol);
  if (premium === undefined) return undefined;
  return (side === 'SHORT' ? premium.gte(minPremiumBps) : premium.lte(-minPremiumBps)) ? side : undefined;
}

function fundingFellBack(ctx: Ctx, side: PositionSide, rate: Decimal): boolean {
  return side === 'SHORT' ? rate.lte(ctx.params.exitRate) : rate.gte(ctx.params.exitRate.neg());
}

/** Keys never repeat, across restarts too: the sequence lives in the instance's store. */
function nextKey(ctx: Ctx, prefix: string): string {
  const next = Number(ctx.store.get('seq') ?? 0) + 1;
  ctx.store.set('seq', next);
  return `${prefix}${next}`;
}

export function closeIntent(ctx: Ctx, symbol: string, side: PositionSide): Intent & { readonly key: string } {
  return { type: 'place', key: nextKey(ctx, 'x'), symbol, side: side === 'SHORT' ? 'BUY' : 'SELL', positionSide: side, orderType: 'MARKET', closePosition: true };
}

/**
 * One symbol, on any news: close a position whose funding fell back (at market, its resting entry
 * cancelled first); keep a resting entry at the touch while funding pays, cancel it otherwise; place
 * the next entry when none is working, addIntervalMs has passed since the last filled one and
 * maxPosition has room.
 */
export function evaluate(ctx: Ctx, symbol: string, state: CarryState): Intent[] {
  const rate = ctx.cache.fundingRate(symbol);
  if (rate === undefined) return [];
  const intents: Intent[] = [];
  const cancelEntry = (): void => {
    if (state.entry === undefined || state.entry.cancelling) return;
    state.entry.cancelling = true;
    intents.push({ type: 'cancel', clientOrderId: state.entry.clientOrderId });
  };
  for (const side of tradedSides(ctx)) {
    if (state.exit !== undefined || !held(ctx, symbol, side).gt(0) || !fundingFellBack(ctx, side, rate)) continue;
    if (state.entry?.positionSide === side) cancelEntry();
    const close = closeIntent(ctx, symbol, side);
    state.exit = ctx.clientOrderIdFor(close.key);
    intents.push(close);
  }
  const side = wanted(ctx, symbol, rate);
  if (state.entry !== undefined) {
    const touch = state.entry.positionSide === 'SHORT' ? ctx.cache.bestAsk(symbol) : ctx.cache.bestBid(symbol);
    const drifted = touch !== undefined && state.entry.price.minus(touch).abs().div(touch).mul(10_000).gt(ctx.params.requoteBps);
    if (state.entry.positionSide !== side || drifted) cancelEntry();
    return intents;
  }
  if (side === undefined || state.exit !== undefined || ctx.clock.now() - state.lastEntryAt < ctx.params.addIntervalMs) return intents;
  const entry = entryIntent(ctx, symbol, side);
  if (entry === undefined) return intents;
  state.entry = { clientOrderId: ctx.clientOrderIdFor(entry.key), positionSide: side, price: entry.price, cancelling: false };
  intents.push(entry);
  return intents;
}

/** POST_ONLY at the touch (a short sells at the best ask), `quantity` cut to what maxPosition leaves. */
function entryIntent(ctx: Ctx, symbol: string, side: PositionSide): (Intent & { readonly key: string; readonly price: Decimal }) | undefined {
  const price = side === 'SHORT' ? ctx.cache.bestAsk(symbol) : ctx.cache.bestBid(symbol);
  const instrument = ctx.cache.instrument(symbol);
  if (price === undefined || instrument === undefined) return undefined;
  const quantity = Decimal.min(ctx.params.quantity, ctx.params.maxPosition.minus(held(ctx, symbol, side)));
  if (quantity.lt(instrument.minQty)) return undefined;
  return { type: 'place', key: nextKey(ctx, 'c'), symbol, side: side === 'SHORT' ? 'SELL' : 'BUY', positionSide: side, orderType: 'LIMIT', price, quantity, timeInForce: 'POST_ONLY' };
}
