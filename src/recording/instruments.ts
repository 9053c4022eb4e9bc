import type { MarketStreamHeader } from '../sim/market-stream/format.js';
import type { SimInstrument } from '../sim/market-stream/instruments.js';
import { BacktestError } from './error.js';

/**
 * The instruments the engine lists: those the recordings' headers describe for their symbols, in order
 * of first appearance. Two recordings may name the same symbol only with the same contract terms.
 */
export function instrumentsOf(headers: ReadonlyArray<{ readonly path: string; readonly header: MarketStreamHeader }>): SimInstrument[] {
  const bySymbol = new Map<string, { readonly instrument: SimInstrument; readonly path: string; readonly text: string }>();
  for (const { path, header } of headers) {
    const listed = new Set(header.symbols);
    for (const instrument of header.instruments) {
      if (!listed.has(instrument.symbol)) continue;
      const text = JSON.stringify(instrument);
      const seen = bySymbol.get(instrument.symbol);
      if (seen === undefined) bySymbol.set(instrument.symbol, { instrument, path, text });
      else if (seen.text !== text) {
        throw new BacktestError('CONFLICTING_INSTRUMENTS', `${path}: instrument ${instrument.symbol} differs from the one in ${seen.path}; recordings replayed together must describe a symbol alike`);
      }
    }
  }
  return [...bySymbol.values()].map((entry) => entry.instrument);
}
