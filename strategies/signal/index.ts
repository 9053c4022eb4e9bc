import { defineStrategy, signalIntents } from 'stratd/strategy';
import type { HandlerContext, SignalReceived } from 'stratd/strategy';
import type { SignalParams } from './params.js';
import { signalParams } from './params.js';

/**
 * Trades external signals (the daemon's authenticated `POST /signals` endpoint, e.g. TradingView
 * alerts): each verified signal for this instance becomes intents (close the side it exits, open the
 * side it enters), which go through the risk engine and the executor like any strategy's. It keeps no
 * state of its own: its own ledger (`ctx.position`: what its fills built) decides what a close closes,
 * so a position another strategy or a person holds on the symbol is never closed by it. Size limits are the risk
 * engine's (`limits:` of the instance: a typo in an alert meets maxPosition and maxNotional).
 */
export default defineStrategy({
  name: 'signal',
  description: 'Orders from authenticated external signals (TradingView alerts, webhooks)',
  params: signalParams,
  create: (ctx) => ({
    onEvent: (event) => {
      if (event.type === 'signal.received') onSignal(ctx, event);
    },
  }),
});

function onSignal(ctx: HandlerContext<SignalParams>, event: SignalReceived): void {
  const { signal } = event;
  if (!ctx.symbols.includes(signal.symbol)) {
    ctx.logger.warn({ signal: signal.key, symbol: signal.symbol }, 'signal for a symbol this instance does not trade: ignored');
    return;
  }
  const intents = signalIntents(signal, (symbol, side) => ctx.position(symbol, side)?.qty, {
    defaultQuantity: ctx.params.quantity,
    closeOpposite: ctx.params.closeOpposite,
    keyPrefix: event.ref,
  });
  for (const intent of intents) ctx.emit(intent);
}
