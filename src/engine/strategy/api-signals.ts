import type { Decimal } from '../../core/decimal.js';
import type { PositionSide } from '../../model/instrument.js';
import type { Intent, PlaceIntent } from '../../model/intents.js';
import type { ExternalSignal } from '../../model/signal-events.js';

/**
 * External signals for strategies: how a signal becomes intents. One pure function, used by the
 * bundled `signal` strategy and by the daemon's dry run (which risk-checks the same intents without
 * sending them), so both answer alike.
 */

export interface SignalIntentOptions {
  /** Contracts when the signal names none. */
  readonly defaultQuantity: Decimal;
  /** A buy while short (a sell while long) first closes the opposite side. */
  readonly closeOpposite: boolean;
  /** Intent keys are `<keyPrefix>-<n>`, n = 0, 1, … in emission order. */
  readonly keyPrefix: string;
}

/** The size of each side of the symbol the strategy holds itself (its own ledger, not the account's). */
export type PositionSize = (symbol: string, side: PositionSide) => Decimal | undefined;

/**
 * The intents for a signal: closing orders (market, `closePosition`) for the sides it closes, then the
 * opening order of a buy or sell (market or limit, TP/SL attached). A close of a flat side yields no
 * intent; an empty list means there was nothing to do.
 */
export function signalIntents(signal: ExternalSignal, size: PositionSize, options: SignalIntentOptions): readonly Intent[] {
  const intents: Intent[] = [];
  const key = (): string => `${options.keyPrefix}-${intents.length}`;
  const close = (side: PositionSide): void => {
    if (size(signal.symbol, side)?.gt(0) !== true) return;
    intents.push({ type: 'place', key: key(), symbol: signal.symbol, side: side === 'LONG' ? 'SELL' : 'BUY', positionSide: side, orderType: 'MARKET', closePosition: true });
  };
  switch (signal.action) {
    case 'close':
      close('LONG');
      close('SHORT');
      return intents;
    case 'close-long':
      close('LONG');
      return intents;
    case 'close-short':
      close('SHORT');
      return intents;
    case 'buy':
    case 'sell': {
      const opens: PositionSide = signal.action === 'buy' ? 'LONG' : 'SHORT';
      const opposite: PositionSide = opens === 'LONG' ? 'SHORT' : 'LONG';
      // TradingView: an order that leaves the strategy flat is the exit of the opposite side.
      if (signal.marketPosition === 'flat') {
        close(opposite);
        return intents;
      }
      if (options.closeOpposite) close(opposite);
      intents.push(opening(signal, opens, key(), options.defaultQuantity));
      return intents;
    }
  }
}

function opening(signal: ExternalSignal, positionSide: PositionSide, key: string, defaultQuantity: Decimal): PlaceIntent {
  return {
    type: 'place',
    key,
    symbol: signal.symbol,
    side: positionSide === 'LONG' ? 'BUY' : 'SELL',
    positionSide,
    orderType: signal.orderType,
    quantity: signal.quantity ?? defaultQuantity,
    ...(signal.price === undefined ? {} : { price: signal.price }),
    ...(signal.takeProfit === undefined ? {} : { takeProfit: { triggerPrice: signal.takeProfit } }),
    ...(signal.stopLoss === undefined ? {} : { stopLoss: { triggerPrice: signal.stopLoss } }),
  };
}
