import type { MarketEvent } from '../../sim/market-stream/events.js';

/**
 * Each symbol's price path as the block bootstrap measures returns on it: its mark price where the
 * recording has one, else its trade prints, else its contract bars' closes, else its book's mid — one
 * kind per symbol, so returns never mix two prices.
 */
export class ReferencePrices {
  private constructor(private readonly paths: ReadonlyMap<string, { readonly times: Float64Array; readonly prices: Float64Array }>) {}

  static of(events: readonly MarketEvent[]): ReferencePrices {
    const kinds = new Map<string, Set<string>>();
    for (const event of events) {
      const kind = kindOf(event);
      if (kind === undefined) continue;
      let set = kinds.get(event.symbol);
      if (set === undefined) kinds.set(event.symbol, (set = new Set()));
      set.add(kind);
    }
    const chosen = new Map<string, string>();
    for (const [symbol, set] of kinds) chosen.set(symbol, KIND_ORDER.find((k) => set.has(k))!);
    const times = new Map<string, number[]>();
    const prices = new Map<string, number[]>();
    for (const event of events) {
      const kind = kindOf(event);
      if (kind === undefined || chosen.get(event.symbol) !== kind) continue;
      const price = priceOf(event);
      if (price === undefined || !(price > 0)) continue;
      if (!times.has(event.symbol)) {
        times.set(event.symbol, []);
        prices.set(event.symbol, []);
      }
      times.get(event.symbol)!.push(event.ts);
      prices.get(event.symbol)!.push(price);
    }
    const paths = new Map<string, { times: Float64Array; prices: Float64Array }>();
    for (const [symbol, t] of times) paths.set(symbol, { times: Float64Array.from(t), prices: Float64Array.from(prices.get(symbol)!) });
    return new ReferencePrices(paths);
  }

  get symbols(): readonly string[] {
    return [...this.paths.keys()];
  }

  /** The symbol's last price at or before `time` (its first price before that); undefined: never priced. */
  at(symbol: string, time: number): number | undefined {
    const path = this.paths.get(symbol);
    if (path === undefined || path.times.length === 0) return undefined;
    let low = 0;
    let high = path.times.length - 1;
    if (path.times[0]! > time) return path.prices[0];
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (path.times[mid]! <= time) low = mid;
      else high = mid - 1;
    }
    return path.prices[low];
  }
}

const KIND_ORDER = ['mark', 'trade', 'bar', 'depth'] as const;

function kindOf(event: MarketEvent): string | undefined {
  switch (event.type) {
    case 'mark':
    case 'trade':
    case 'depth':
      return event.type;
    case 'bar':
      return event.source === 'contract' ? 'bar' : undefined;
    default:
      return undefined;
  }
}

function priceOf(event: MarketEvent): number | undefined {
  switch (event.type) {
    case 'mark':
    case 'trade':
      return Number(event.price);
    case 'bar':
      return Number(event.close);
    case 'depth': {
      const bid = event.bids[0];
      const ask = event.asks[0];
      return bid === undefined || ask === undefined ? undefined : (Number(bid[0]) + Number(ask[0])) / 2;
    }
    default:
      return undefined;
  }
}
