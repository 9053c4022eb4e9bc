import type { MarketEvent, PriceLevel } from '../../sim/market-stream/events.js';
import { eventAt } from '../../sim/market-stream/events.js';
import type { SimInstrument } from '../../sim/market-stream/instruments.js';
import { StepGrid } from '../../sim/market-stream/ticks.js';

/** A symbol's grids: prices land on its tick, merged book quantities stay on its quantity step. */
export interface SymbolGrids {
  readonly tick: StepGrid;
  readonly lot: StepGrid;
}

export function gridsOf(instruments: readonly SimInstrument[]): Map<string, SymbolGrids> {
  return new Map(instruments.map((i) => [i.symbol, { tick: new StepGrid(i.tickSize), lot: new StepGrid(i.quantityStep) }]));
}

/**
 * `event` moved to `ts` with every price multiplied by `factor` and put back on the tick grid (at least
 * one tick): bids round down and asks up, so the book never crosses, and levels that meet are merged.
 * Quantities, ids and funding rates stay as recorded.
 */
export function scaledEvent(event: MarketEvent, ts: number, factor: number, grids: SymbolGrids | undefined): MarketEvent {
  if (grids === undefined || factor === 1) return eventAt(event, ts);
  const { tick } = grids;
  // A float is fine here: the result is a synthetic price put back on the exact tick grid, not money.
  const units = (text: string): number => (Number(text) * factor) / tick.approx;
  const price = (u: number): string => tick.toText(Math.max(1, u));
  const down = (text: string): string => price(Math.floor(units(text) + 1e-9));
  const up = (text: string): string => price(Math.ceil(units(text) - 1e-9));
  const nearest = (text: string): string => price(Math.round(units(text)));
  switch (event.type) {
    case 'trade':
      // Fields named: a prepared recording's trade keeps its id in an accessor, which a spread leaves behind.
      return { type: 'trade', ts, symbol: event.symbol, id: event.id, price: nearest(event.price), qty: event.qty, buyerIsMaker: event.buyerIsMaker };
    case 'mark':
    case 'index':
      return { ...event, ts, price: nearest(event.price) };
    case 'bar':
      return { ...event, ts, open: nearest(event.open), high: nearest(event.high), low: nearest(event.low), close: nearest(event.close) };
    case 'depth':
      return { ...event, ts, bids: merged(event.bids.map(([p, q]) => [down(p), q]), grids.lot), asks: merged(event.asks.map(([p, q]) => [up(p), q]), grids.lot) };
    case 'funding':
      return { ...event, ts };
  }
}

/** Adjacent levels at one price as one level (their quantities added on the lot grid). */
function merged(levels: readonly PriceLevel[], lot: StepGrid): PriceLevel[] {
  const out: PriceLevel[] = [];
  for (const level of levels) {
    const last = out.at(-1);
    if (last !== undefined && last[0] === level[0]) {
      const a = lot.tryUnits(last[1]);
      const b = lot.tryUnits(level[1]);
      out[out.length - 1] = [last[0], a === undefined || b === undefined ? String(Number(last[1]) + Number(level[1])) : lot.toText(a + b)];
    } else out.push(level);
  }
  return out;
}
