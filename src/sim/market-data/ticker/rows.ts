import type { SymbolState } from '../symbol-state.js';
import type { RealtimeInterval } from './window.js';
import { changeRatio, windowStart, windowStats } from './window.js';
import type { Ticker24hRow } from '../wire-rows.js';

/** A contract's 24h ticker: window stats of its minute trade candles, the book touch, open interest as `op`. */
export function contractTickerRow(state: SymbolState, window: RealtimeInterval, now: number): Ticker24hRow {
  const grid = state.grid;
  const last = state.lastTicks;
  const stats = windowStats(state.tradeKlines.of('1m'), windowStart(now, window), last);
  const bid = state.depth?.bids[0]?.[0] ?? '0';
  const ask = state.depth?.asks[0]?.[0] ?? '0';
  return {
    t: now,
    s: state.instrument.symbol,
    c: grid.priceText(last),
    h: grid.priceText(stats.high),
    l: grid.priceText(stats.low),
    o: grid.priceText(stats.open),
    b: bid,
    a: ask,
    v: grid.quantityText(stats.volume),
    qv: grid.quoteText(stats.quote),
    op: grid.quantityText(state.openInterest.lots),
    pc: grid.priceText(last - stats.open),
    pcp: changeRatio(stats.open, last),
  };
}

/** A spot symbol's ticker: its index's minute candles, no volume, the index price on both sides of the book. */
export function spotTickerRow(token: string, state: SymbolState, window: RealtimeInterval, now: number): Ticker24hRow {
  const grid = state.grid;
  const last = state.indexTicks;
  const stats = windowStats(state.indexKlines.of('1m'), windowStart(now, window), last);
  const price = grid.priceText(last);
  return {
    t: now,
    s: token,
    c: price,
    h: grid.priceText(stats.high),
    l: grid.priceText(stats.low),
    o: grid.priceText(stats.open),
    b: price,
    a: price,
    v: '0',
    qv: '0',
    pc: grid.priceText(last - stats.open),
    pcp: changeRatio(stats.open, last),
  };
}
