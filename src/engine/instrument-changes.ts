import type { CacheView } from '../model/cache-view.js';
import type { Instrument } from '../model/instrument.js';
import type { SymbolStatusChanged } from '../model/kernel-events.js';

/** Status changes between the instruments the cache knows and a fresh exchangeInfo load. */
export function instrumentChanges(cache: CacheView, loaded: readonly Instrument[], time: number): SymbolStatusChanged[] {
  const changes: SymbolStatusChanged[] = [];
  for (const instrument of loaded) {
    const known = cache.instrument(instrument.symbol);
    if (known !== undefined && known.status !== instrument.status) {
      changes.push({ type: 'instrument.status', time, symbol: instrument.symbol, from: known.status, to: instrument.status });
    }
  }
  return changes;
}
