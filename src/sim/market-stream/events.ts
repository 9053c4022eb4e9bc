/**
 * The market stream: what the simulator, the recorder and the backtest replayer exchange.
 * Prices and quantities stay decimal text (exact, as on the wire); quantities are CONTRACTS
 * (API-NOTES §6.2). Convert to integer ticks/lots with `StepGrid` (ticks.ts) before hot loops.
 */

/** One book level: [price, quantity in contracts], both decimal text. */
export type PriceLevel = readonly [price: string, quantity: string];

/** A full snapshot of the visible book: bids high→low, asks low→high. */
export interface DepthEvent {
  readonly type: 'depth';
  readonly ts: number;
  readonly symbol: string;
  readonly bids: readonly PriceLevel[];
  readonly asks: readonly PriceLevel[];
  /**
   * The best bid's and ask's price text, when the event can tell them without building its sides (a
   * prepared recording's event reads them from its columns; undefined on a side without levels).
   * Absent on a plain event: read `bids[0]` / `asks[0]` then (`bestPrices`).
   */
  readonly bestBidPrice?: string | undefined;
  readonly bestAskPrice?: string | undefined;
}

/** The best bid's and ask's price text of a depth event (undefined: no level on that side), without building a lazy event's sides. */
export function bestBidPrice(event: DepthEvent): string | undefined {
  return 'bestBidPrice' in event ? event.bestBidPrice : event.bids[0]?.[0];
}

export function bestAskPrice(event: DepthEvent): string | undefined {
  return 'bestAskPrice' in event ? event.bestAskPrice : event.asks[0]?.[0];
}

/**
 * `event` stamped `ts`, as a plain object whatever made it: a prepared recording's depth event keeps its
 * levels in accessors, and its trade event its id, which a spread (`{ ...event }`) would leave behind.
 */
export function eventAt(event: MarketEvent, ts: number): MarketEvent {
  if (event.type === 'depth') return { type: 'depth', ts, symbol: event.symbol, bids: event.bids, asks: event.asks };
  if (event.type === 'trade') return { type: 'trade', ts, symbol: event.symbol, id: event.id, price: event.price, qty: event.qty, buyerIsMaker: event.buyerIsMaker };
  return { ...event, ts };
}

/** A public trade print. `buyerIsMaker` true means the taker sold. */
export interface TradeEvent {
  readonly type: 'trade';
  readonly ts: number;
  readonly symbol: string;
  readonly id: string;
  readonly price: string;
  readonly qty: string;
  readonly buyerIsMaker: boolean;
}

export interface MarkPriceEvent {
  readonly type: 'mark';
  readonly ts: number;
  readonly symbol: string;
  readonly price: string;
}

export interface IndexPriceEvent {
  readonly type: 'index';
  readonly ts: number;
  readonly symbol: string;
  readonly price: string;
}

export type FundingPeriod = '1H' | '4H' | '8H';

/**
 * The current funding rate, charged at `nextFundingTime` unless a later event changes it.
 * Settlement: when an event's `nextFundingTime` moves past the previous one, the previous interval
 * settled at the previous event's `rate`. The generator emits such an event exactly at each boundary.
 */
export interface FundingEvent {
  readonly type: 'funding';
  readonly ts: number;
  readonly symbol: string;
  readonly rate: string;
  readonly nextFundingTime: number;
  readonly period: FundingPeriod;
}

/** Which price a bar describes: the contract's trades, the mark price or the index price. */
export type BarSource = 'contract' | 'mark' | 'index';

export const BAR_SOURCES = ['contract', 'mark', 'index'] as const satisfies readonly BarSource[];

/**
 * One OHLC bar of a fixed interval, as a downloaded history holds them (`stratd download`). `ts` is the
 * bar's OPEN time, so a recording stays in time order; what the bar says is known only at its end
 * (`ts + durationMs`): a replay must not hand its high, low or close on before then (the backtest's bar
 * model walks its path inside the interval and hands the bar itself on at its end). Volume in contracts
 * (contract bars; '0' for mark and index bars).
 */
export interface BarEvent {
  readonly type: 'bar';
  readonly ts: number;
  readonly symbol: string;
  readonly source: BarSource;
  readonly durationMs: number;
  readonly open: string;
  readonly high: string;
  readonly low: string;
  readonly close: string;
  readonly volume: string;
}

export type MarketEvent = DepthEvent | TradeEvent | MarkPriceEvent | IndexPriceEvent | FundingEvent | BarEvent;

export type MarketChannel = MarketEvent['type'];

/** The tick-level channels the generator and the recorder produce (bars come only from `stratd download`). */
export const MARKET_CHANNELS = ['depth', 'trade', 'mark', 'index', 'funding'] as const satisfies readonly MarketChannel[];

/** Every channel a recording may declare. */
export const STREAM_CHANNELS = [...MARKET_CHANNELS, 'bar'] as const satisfies readonly MarketChannel[];

/**
 * How completely a recording holds a channel (header `levels`; a channel not listed, and every channel of
 * a recording without the field, is 'tick'): 'tick' every event as it happened; 'bar' OHLC bars only (no
 * path inside a bar); 'sparse' real events, but only some of them (a download's recent trades).
 */
export type ChannelLevel = 'tick' | 'bar' | 'sparse';

export const CHANNEL_LEVELS = ['tick', 'bar', 'sparse'] as const satisfies readonly ChannelLevel[];

export const FUNDING_PERIODS = ['1H', '4H', '8H'] as const satisfies readonly FundingPeriod[];

export function isMarketChannel(value: unknown): value is MarketChannel {
  return value === 'depth' || value === 'trade' || value === 'mark' || value === 'index' || value === 'funding' || value === 'bar';
}
