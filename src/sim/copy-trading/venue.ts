import type { SimInstrument } from '../market-stream/instruments.js';

/**
 * What the copy-trading desk reads from the engine: its time, its prices, its instruments and the
 * follower's copy-trading funds. Read-only: the desk keeps copy positions, invested margin and
 * realized profit in its own state. `SimExchange` satisfies it.
 */
export interface CopyTradingVenue {
  now(): number;
  lastPrice(symbol: string): string | undefined;
  markPrice(symbol: string): string | undefined;
  instrument(symbol: string): SimInstrument | undefined;
  /** Balances of the user's COPY_TRADING account, per coin (decimal text). */
  copyTradingBalances(userId: string): readonly { readonly coin: string; readonly total: string }[];
}
