import { concatWith, defer, filter, map, mergeAll } from 'rxjs';
import { defineStreamStrategy, isOpening, isOpenStatus } from 'stratd/strategy';
import type { BusEvent, Intent, OrderSnapshot, StrategyContext } from 'stratd/strategy';
import { cancelRefused, forget, newCarryState } from './carry-state.js';
import type { CarryState } from './carry-state.js';
import { closeIntent, evaluate, held, tradedSides } from './carry-decisions.js';
import { carryParams } from './params.js';
import type { CarryParams } from './params.js';

type Ctx = StrategyContext<CarryParams>;

/**
 * Funding carry: while the funding rate is at or above `entryRate` (optionally with mark above index),
 * it builds a short — longs pay shorts — with POST_ONLY orders at the best ask, `quantity` at a time up
 * to `maxPosition`; once funding falls to `exitRate` it closes the short at market. With allowLong, the
 * mirror image on negative funding. Stopping cancels its orders (and closes with closeOnStop).
 */
export default defineStreamStrategy({
  name: 'funding-carry',
  description: 'Holds the side the funding rate pays, POST_ONLY entries, exit when funding falls back',
  params: carryParams,
  run: (ctx, events$) => {
    const states = new Map<string, CarryState>(ctx.symbols.map((s) => [s, newCarryState()]));
    /** Untracked orders of ours being cancelled (one cancel each). */
    const strays = new Set<string>();
    // Orders an earlier life left open (a crash, a restart) are taken over or cancelled first.
    return defer(() => adoptOrCancel(states, strays, ctx.openOrders())).pipe(
      // Only a decision with intents is flattened: most events decide nothing (no inner subscription each).
      concatWith(
        events$.pipe(
          map((event) => decide(ctx, states, strays, event)),
          filter((intents) => intents.length > 0),
          mergeAll(),
        ),
      ),
      concatWith(defer(() => cleanUp(ctx))),
    );
  },
});

function decide(ctx: Ctx, states: Map<string, CarryState>, strays: Set<string>, event: BusEvent): Intent[] {
  switch (event.type) {
    case 'market.fundingRate':
    case 'market.markPrice':
    case 'market.indexPrice':
    case 'market.book':
    case 'market.bookTicker': {
      const state = states.get(event.symbol);
      return state === undefined ? [] : evaluate(ctx, event.symbol, state);
    }
    case 'account.position': {
      const state = states.get(event.position.symbol);
      return state === undefined ? [] : evaluate(ctx, event.position.symbol, state);
    }
    case 'timer':
      return [...states].flatMap(([symbol, state]) => evaluate(ctx, symbol, state));
    case 'account.order': {
      const { order } = event;
      if (isOpenStatus(order.status)) return adoptOrCancel(states, strays, [order]);
      strays.delete(order.clientOrderId);
      if (order.status !== 'FILLED' && order.status !== 'CANCELED' && order.status !== 'REJECTED') return [];
      forget(states.values(), order.clientOrderId, order.filledQty.gt(0) ? ctx.clock.now() : undefined);
      // A cancelled entry (a re-quote) is placed again at once, without waiting for the next price.
      const state = states.get(order.symbol);
      return order.status === 'CANCELED' && state !== undefined ? evaluate(ctx, order.symbol, state) : [];
    }
    // A refused entry is not retried before addIntervalMs (no denial on every price update).
    case 'intent.denied':
      if (event.intent.type === 'place' && event.intent.key !== undefined) forget(states.values(), ctx.clientOrderIdFor(event.intent.key), ctx.clock.now());
      if (event.intent.type === 'cancel') {
        cancelRefused(states.values(), event.intent.clientOrderId);
        strays.delete(event.intent.clientOrderId);
      }
      return [];
    case 'command.failed':
      if (event.command.type === 'place-order') forget(states.values(), event.command.clientOrderId, ctx.clock.now());
      if (event.command.type === 'cancel-order') {
        cancelRefused(states.values(), event.command.clientOrderId);
        strays.delete(event.command.clientOrderId);
      }
      return [];
    case 'account.resynced': {
      // Our view may have missed changes while disconnected: trust only what the exchange shows open.
      const open = new Set(ctx.openOrders().map((o) => o.clientOrderId));
      for (const state of states.values()) {
        if (state.entry !== undefined && !open.has(state.entry.clientOrderId)) state.entry = undefined;
        if (state.exit !== undefined && !open.has(state.exit)) state.exit = undefined;
      }
      return adoptOrCancel(states, strays, ctx.openOrders());
    }
    default:
      return [];
  }
}

/**
 * Own open orders the state does not track (an earlier life's, or ones a disconnect hid): an opening
 * LIMIT order on a symbol without an entry becomes its entry (requoted or cancelled by the next
 * evaluation like any other), a closing one without an exit its exit; any other is cancelled.
 */
function adoptOrCancel(states: Map<string, CarryState>, strays: Set<string>, open: readonly OrderSnapshot[]): Intent[] {
  const intents: Intent[] = [];
  for (const order of open) {
    const state = states.get(order.symbol);
    if (!isOpenStatus(order.status) || strays.has(order.clientOrderId) || (state !== undefined && (state.entry?.clientOrderId === order.clientOrderId || state.exit === order.clientOrderId))) continue;
    const opening = isOpening(order.side, order.positionSide);
    if (state !== undefined && opening && state.entry === undefined && order.type === 'LIMIT') {
      state.entry = { clientOrderId: order.clientOrderId, positionSide: order.positionSide, price: order.price, cancelling: false };
    } else if (state !== undefined && !opening && state.exit === undefined) {
      state.exit = order.clientOrderId;
    } else {
      strays.add(order.clientOrderId);
      intents.push({ type: 'cancel', clientOrderId: order.clientOrderId });
    }
  }
  return intents;
}

/** On stop: cancel its orders; with closeOnStop also close the positions of the sides it trades. */
function cleanUp(ctx: Ctx): Intent[] {
  return ctx.symbols.flatMap((symbol) => [
    { type: 'cancel-all', symbol } satisfies Intent,
    ...(ctx.params.closeOnStop ? tradedSides(ctx).filter((side) => held(ctx, symbol, side).gt(0)).map((side) => closeIntent(ctx, symbol, side)) : []),
  ]);
}
