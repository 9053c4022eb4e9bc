import type { SimInstrument } from '../market-stream/instruments.js';

/**
 * The index a contract tracks, named as live (API-NOTES §5.1): `index` is the base coin ("BTC") and
 * `indexToken` the spot pair of base and settle coin ("BTCUSDT", "BTCUSDC"). The index token is also
 * the key of GET /quote/v1/index and the name of the spot symbol exchangeInfo lists for it.
 */
export function indexTokenOf(instrument: SimInstrument): string {
  return `${instrument.baseAsset}${instrument.category}`;
}

/** Index token → the first contract that tracks it (its index events feed the token's prices). */
export function indexSources(instruments: readonly SimInstrument[]): ReadonlyMap<string, SimInstrument> {
  const sources = new Map<string, SimInstrument>();
  for (const instrument of instruments) {
    const token = indexTokenOf(instrument);
    if (!sources.has(token)) sources.set(token, instrument);
  }
  return sources;
}
