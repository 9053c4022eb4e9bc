import { z } from 'zod';
import { aboveZero, compareDecimals, dec, decimalParam, defineStrategy } from 'stratd/strategy';
import type { Decimal } from 'stratd/strategy';
import type { BusEvent, HandlerContext } from 'stratd/strategy';
import { RangeWindow } from './range-window.js';

const params = z
  .object({
    /** Contracts per entry. */
    quantity: decimalParam({ positive: true }).default(dec(1)),
    /** The range a breakout must leave: mid prices of this window. */
    windowMs: z.number().int().positive().default(30_000),
    /** Exchange-side take-profit and stop-loss distances from the entry, in percent. */
    takeProfitPct: decimalParam({ positive: true }).default(dec('0.3')),
    stopLossPct: decimalParam({ positive: true }).default(dec('0.2')),
    /** A position older than this is closed at market. */
    maxHoldMs: z.number().int().positive().default(300_000),
    /** Wait after an entry before the next one. */
    cooldownMs: z.number().int().nonnegative().default(30_000),
  })
  .strict();

type Ctx = HandlerContext<z.output<typeof params>>;

interface SymbolState {
  /** Mid prices of the last `windowMs`. */
  readonly window: RangeWindow;
  /** Entry in flight (emitted, no reply yet): no second entry meanwhile. */
  entering: boolean;
  enteredAt: number | undefined;
  closing: boolean;
}

/**
 * Enters at market when mid leaves the range of the last `windowMs` (long above, short below), with
 * take-profit and stop-loss attached so the exchange guards the position; closes at market after
 * `maxHoldMs` if neither fired.
 */
export default defineStrategy({
  name: 'breakout',
  description: 'Range breakout with exchange-side TP/SL',
  params,
  // The range is of mid prices: trades, marks and klines are not delivered.
  marketEvents: ['market.book', 'market.bookTicker'],
  create: (ctx) => {
    const states = new Map<string, SymbolState>(ctx.symbols.map((s) => [s, { window: new RangeWindow(), entering: false, enteredAt: undefined, closing: false }]));
    return {
      // Entries and exits are market orders: any open order an earlier life left is stale, and cancelled
      // (its attached TP/SL orders stay: they guard the position).
      onStart: () => {
        for (const symbol of ctx.symbols) if (ctx.openOrders(symbol).length > 0) ctx.emit({ type: 'cancel-all', symbol });
      },
      onEvent: (event) => {
        if (event.type === 'account.resynced') {
          // Nothing of ours should rest unless an entry or an exit is on its way.
          for (const [s, st] of states) if (!st.entering && !st.closing && ctx.openOrders(s).length > 0) ctx.emit({ type: 'cancel-all', symbol: s });
          return;
        }
        const symbol = symbolOf(event);
        const state = symbol === undefined ? undefined : states.get(symbol);
        if (symbol !== undefined && state !== undefined) onSymbolEvent(ctx, symbol, state, event);
        if (event.type === 'timer') for (const [s, st] of states) expire(ctx, s, st);
      },
    };
  },
});

function symbolOf(event: BusEvent): string | undefined {
  switch (event.type) {
    case 'market.book':
    case 'market.bookTicker':
      return event.symbol;
    case 'account.order':
      return event.order.symbol;
    case 'account.position':
      return event.position.symbol;
    case 'intent.denied':
      return event.intent.type === 'place' ? event.intent.symbol : undefined;
    case 'command.failed':
      return event.command.type === 'place-order' ? event.command.symbol : undefined;
    default:
      return undefined;
  }
}

function onSymbolEvent(ctx: Ctx, symbol: string, state: SymbolState, event: BusEvent): void {
  switch (event.type) {
    case 'market.book':
    case 'market.bookTicker':
      onPrice(ctx, symbol, state, event.time);
      return;
    case 'account.order':
      if (event.order.status === 'FILLED' || event.order.status === 'CANCELED' || event.order.status === 'REJECTED') {
        state.entering = false;
        state.closing = false;
      }
      return;
    case 'account.position':
      if (event.position.qty.isZero() && !hasPosition(ctx, symbol)) state.enteredAt = undefined;
      return;
    case 'intent.denied':
    case 'command.failed':
      state.entering = false;
      state.closing = false;
      return;
    default:
      return;
  }
}

function hasPosition(ctx: Ctx, symbol: string): boolean {
  return holds(ctx.position(symbol, 'LONG')?.qty) || holds(ctx.position(symbol, 'SHORT')?.qty);
}

function holds(qty: Decimal | undefined): boolean {
  return qty !== undefined && aboveZero(qty);
}

function onPrice(ctx: Ctx, symbol: string, state: SymbolState, time: number): void {
  const mid = ctx.cache.midPrice(symbol);
  if (mid === undefined) return;
  const { window } = state;
  window.expire(time - ctx.params.windowMs);
  const first = window.firstTime;
  const spansWindow = first !== undefined && time - first >= ctx.params.windowMs * 0.9;
  const { high, low } = window;
  window.push(time, mid);
  if (!spansWindow || high === undefined || low === undefined || state.entering) return;
  const long = compareDecimals(mid, high) > 0;
  if (!long && !(compareDecimals(mid, low) < 0)) return;
  // Only a breakout asks for the positions and the cooldown: most books stay inside the range.
  if (hasPosition(ctx, symbol)) return;
  if (state.enteredAt !== undefined && ctx.clock.now() - state.enteredAt < ctx.params.cooldownMs) return;
  const tp = ctx.params.takeProfitPct.div(100);
  const sl = ctx.params.stopLossPct.div(100);
  state.entering = true;
  state.enteredAt = ctx.clock.now();
  ctx.emit({
    type: 'place',
    symbol,
    side: long ? 'BUY' : 'SELL',
    orderType: 'MARKET',
    quantity: ctx.params.quantity,
    takeProfit: { triggerPrice: long ? mid.mul(tp.plus(1)) : mid.mul(dec(1).minus(tp)) },
    stopLoss: { triggerPrice: long ? mid.mul(dec(1).minus(sl)) : mid.mul(sl.plus(1)) },
  });
}

function expire(ctx: Ctx, symbol: string, state: SymbolState): void {
  if (state.enteredAt === undefined || state.closing || ctx.clock.now() - state.enteredAt < ctx.params.maxHoldMs) return;
  for (const side of ['LONG', 'SHORT'] as const) {
    if (!holds(ctx.position(symbol, side)?.qty)) continue;
    state.closing = true;
    ctx.emit({ type: 'place', symbol, side: side === 'LONG' ? 'SELL' : 'BUY', positionSide: side, orderType: 'MARKET', closePosition: true });
  }
}
