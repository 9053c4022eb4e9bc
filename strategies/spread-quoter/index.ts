import { concatWith, defer, endWith, filter, map, mergeAll } from 'rxjs';
import { z } from 'zod';
import { compareDecimals, dec, decimalParam, defineStreamStrategy, distanceAbove, isOpenStatus } from 'stratd/strategy';
import type { BusEvent, Decimal, Intent, OrderSnapshot, Side, StrategyContext } from 'stratd/strategy';

const params = z
  .object({
    /** Contracts per quote. */
    quantity: decimalParam({ positive: true }).default(dec(1)),
    /** Distance of each quote from mid, in basis points. */
    halfSpreadBps: z.number().positive().default(5),
    /** A quote further than this from its target price is cancelled and re-placed. */
    requoteBps: z.number().positive().default(3),
    /** Largest long or short position (contracts) the quotes may build. */
    maxPosition: decimalParam({ positive: true }).default(dec(5)),
    /** Without market data for this long, every quote is cancelled. */
    staleAfterMs: z.number().int().positive().default(10_000),
  })
  .strict();

type Params = z.output<typeof params>;

/** A symbol's quote prices for one mid (most book updates leave the mid where it was). */
interface Targets {
  readonly mid: Decimal;
  readonly buy: Decimal;
  readonly sell: Decimal;
  /** The symbol's quote slots, BUY then SELL (`symbol/side`). */
  readonly slots: readonly [string, string];
}

/**
 * The basis-point params as fractions of mid, made once: `mid × halfSpread` has the digits of
 * `mid × halfSpreadBps` (then ÷ 10,000, exact), and a drift compared with `requote` answers as its
 * basis points (×10,000, exact) compared with `requoteBps`, with fewer decimals per book.
 */
/**
 * A class, not an object literal: a literal gets V8's boilerplate the second time its line runs (a
 * process's second backtest), which widened its field types and deoptimized `requote`.
 */
class Fractions {
  readonly halfSpread: Decimal;
  readonly requote: Decimal;

  constructor(halfSpreadBps: number, requoteBps: number) {
    this.halfSpread = dec(halfSpreadBps).div(10_000);
    this.requote = dec(requoteBps).div(10_000);
  }
}

const ZERO = dec(0);
/** What most events decide: shared, never changed (a decision with intents is a new array). */
const NOTHING: readonly Intent[] = [];
const SIDES = ['BUY', 'SELL'] as const;

/** One side's quote: the order we have (or are placing), and whether a cancel is on its way. */
interface Quote {
  clientOrderId: string;
  price: Decimal;
  cancelling: boolean;
}

/**
 * Quotes one bid and one ask around mid as POST_ONLY limit orders. A quote that closes the current
 * position is reduce-only, so inventory swings between flat and maxPosition; a quote that has drifted
 * more than requoteBps from its target is cancelled and placed again. Stale market data cancels all.
 */
export default defineStreamStrategy({
  name: 'spread-quoter',
  description: 'Two-sided POST_ONLY quotes around mid with an inventory cap',
  params,
  // Quotes move with the book alone: trades, marks and klines are not delivered.
  marketEvents: ['market.book', 'market.bookTicker'],
  run: (ctx, events$) => {
    const quotes = new Map<string, Quote>();
    const targets = new Map<string, Targets>();
    /** Untracked orders of ours being cancelled (one cancel each). */
    const strays = new Set<string>();
    const cleanup: Intent[] = ctx.symbols.map((symbol) => ({ type: 'cancel-all', symbol }));
    const fractions = new Fractions(ctx.params.halfSpreadBps, ctx.params.requoteBps);
    // Quotes an earlier life left resting (a crash, a restart) are this instance's: adopted or cancelled at once.
    // Most events decide nothing: only a decision with intents is flattened (an inner subscription per
    // event, as `mergeMap` makes, was the largest allocation of a backtest).
    return defer(() => adoptOrCancel(ctx, quotes, strays, ctx.openOrders())).pipe(
      concatWith(
        events$.pipe(
          map((event) => decide(ctx, fractions, quotes, strays, targets, event)),
          filter((intents) => intents.length > 0),
          mergeAll(),
        ),
      ),
      endWith(...cleanup),
    );
  },
});

/**
 * Own open orders no slot tracks (an earlier life's, or ones a disconnect hid): the first on each
 * free side of a symbol is adopted as that side's quote (the next price requotes it if it drifted),
 * any other is cancelled. None is left resting unmanaged.
 */
function adoptOrCancel(ctx: StrategyContext<Params>, quotes: Map<string, Quote>, strays: Set<string>, open: readonly OrderSnapshot[]): Intent[] {
  const tracked = new Set([...quotes.values()].map((q) => q.clientOrderId));
  const intents: Intent[] = [];
  for (const order of open) {
    if (tracked.has(order.clientOrderId) || strays.has(order.clientOrderId) || !isOpenStatus(order.status)) continue;
    const slot = `${order.symbol}/${order.side}`;
    const adoptable = ctx.symbols.includes(order.symbol) && order.type === 'LIMIT' && !quotes.has(slot);
    if (adoptable) {
      quotes.set(slot, { clientOrderId: order.clientOrderId, price: order.price, cancelling: false });
      ctx.logger.info({ clientOrderId: order.clientOrderId, symbol: order.symbol, side: order.side }, 'spread-quoter: adopted a quote of an earlier life');
    } else {
      strays.add(order.clientOrderId);
      intents.push({ type: 'cancel', clientOrderId: order.clientOrderId });
      ctx.logger.info({ clientOrderId: order.clientOrderId, symbol: order.symbol, side: order.side }, 'spread-quoter: cancelling an order no quote slot claims');
    }
    tracked.add(order.clientOrderId);
  }
  return intents;
}

function decide(ctx: StrategyContext<Params>, fractions: Fractions, quotes: Map<string, Quote>, strays: Set<string>, targets: Map<string, Targets>, event: BusEvent): readonly Intent[] {
  switch (event.type) {
    case 'market.book':
    case 'market.bookTicker':
      return requote(ctx, fractions, quotes, targets, event.symbol);
    case 'account.order':
      if (!isOpenStatus(event.order.status)) {
        forget(quotes, event.order.clientOrderId);
        strays.delete(event.order.clientOrderId);
        return NOTHING;
      }
      // Most are a quote's own order (or a stray being cancelled): nothing to adopt, no tracked set made.
      if (strays.has(event.order.clientOrderId) || tracks(quotes, event.order.clientOrderId)) return NOTHING;
      // An open order of ours that no slot tracks (reported late, or reconciled after a start).
      return adoptOrCancel(ctx, quotes, strays, [event.order]);
    case 'intent.denied':
      if (event.intent.type === 'place' && event.intent.key !== undefined) forget(quotes, ctx.clientOrderIdFor(event.intent.key));
      // A refused cancel (e.g. the order is not acknowledged yet) is tried again on the next price.
      if (event.intent.type === 'cancel') {
        for (const quote of quotes.values()) if (quote.clientOrderId === event.intent.clientOrderId) quote.cancelling = false;
        strays.delete(event.intent.clientOrderId);
      }
      return NOTHING;
    case 'command.failed':
      if (event.command.type === 'place-order') forget(quotes, event.command.clientOrderId);
      if (event.command.type === 'cancel-order') {
        for (const quote of quotes.values()) if (quote.clientOrderId === event.command.clientOrderId) quote.cancelling = false;
        strays.delete(event.command.clientOrderId);
      }
      return NOTHING;
    case 'account.resynced': {
      // Our view may have missed changes while disconnected: trust only what the exchange shows open,
      // and take charge of what it shows that no quote tracks.
      const open = ctx.openOrders();
      for (const [slot, quote] of quotes) if (!open.some((o) => o.clientOrderId === quote.clientOrderId)) quotes.delete(slot);
      return adoptOrCancel(ctx, quotes, strays, open);
    }
    case 'timer':
      return ctx.symbols.flatMap((symbol) => {
        const last = ctx.cache.lastMarketTime(symbol);
        const stale = last === undefined || ctx.clock.now() - last > ctx.params.staleAfterMs;
        if (!stale || ![...quotes.keys()].some((k) => k.startsWith(`${symbol}/`))) return NOTHING;
        for (const key of [...quotes.keys()]) if (key.startsWith(`${symbol}/`)) quotes.delete(key);
        return [{ type: 'cancel-all', symbol } satisfies Intent];
      });
    default:
      return NOTHING;
  }
}

function tracks(quotes: Map<string, Quote>, clientOrderId: string): boolean {
  for (const quote of quotes.values()) if (quote.clientOrderId === clientOrderId) return true;
  return false;
}

function forget(quotes: Map<string, Quote>, clientOrderId: string): void {
  for (const [slot, quote] of quotes) if (quote.clientOrderId === clientOrderId) quotes.delete(slot);
}

function requote(ctx: StrategyContext<Params>, fractions: Fractions, quotes: Map<string, Quote>, targets: Map<string, Targets>, symbol: string): readonly Intent[] {
  const mid = ctx.cache.midPrice(symbol);
  if (mid === undefined) return NOTHING;
  let at = targets.get(symbol);
  if (at === undefined || compareDecimals(at.mid, mid) !== 0) {
    const offset = mid.mul(fractions.halfSpread);
    // The slots' keys are made with the symbol's first targets, not per book.
    at = { mid, buy: mid.minus(offset), sell: mid.plus(offset), slots: at?.slots ?? [`${symbol}/BUY`, `${symbol}/SELL`] };
    targets.set(symbol, at);
  }
  let intents: Intent[] | undefined;
  for (let i = 0; i < SIDES.length; i++) {
    const side = SIDES[i]!;
    const target = i === 0 ? at.buy : at.sell;
    const slot = at.slots[i]!;
    const quote = quotes.get(slot);
    if (quote !== undefined) {
      // A quote being cancelled waits for its cancel: its drift is not asked.
      if (!quote.cancelling && distanceAbove(quote.price, target, mid, fractions.requote)) {
        quote.cancelling = true;
        (intents ??= []).push({ type: 'cancel', clientOrderId: quote.clientOrderId });
      }
      continue;
    }
    const place = placeQuote(ctx, symbol, side, target);
    if (place === undefined) continue;
    quotes.set(slot, { clientOrderId: ctx.clientOrderIdFor(place.key), price: target, cancelling: false });
    (intents ??= []).push(place.intent);
  }
  return intents ?? NOTHING;
}

/** BUY closes a short if there is one, else opens a long (up to maxPosition); SELL the mirror image. */
function placeQuote(ctx: StrategyContext<Params>, symbol: string, side: Side, price: Decimal): { key: string; intent: Intent } | undefined {
  const closes = side === 'BUY' ? 'SHORT' : 'LONG';
  const opens = side === 'BUY' ? 'LONG' : 'SHORT';
  const closable = ctx.position(symbol, closes)?.qty ?? ZERO;
  const held = ctx.position(symbol, opens)?.qty ?? ZERO;
  const reduce = compareDecimals(closable, ZERO) > 0;
  if (!reduce && compareDecimals(held, ctx.params.maxPosition) >= 0) return undefined;
  const quantity = reduce && compareDecimals(closable, ctx.params.quantity) < 0 ? closable : ctx.params.quantity;
  const key = nextKey(ctx);
  return {
    key,
    intent: { type: 'place', key, symbol, side, positionSide: reduce ? closes : opens, orderType: 'LIMIT', price, quantity, timeInForce: 'POST_ONLY', reduceOnly: reduce },
  };
}

/** Keys never repeat, across restarts too: the sequence lives in the instance's store. */
function nextKey(ctx: StrategyContext<Params>): string {
  const next = Number(ctx.store.get('seq') ?? 0) + 1;
  ctx.store.set('seq', next);
  return `q${next}`;
}
