import type { Clock } from '../../core/clock.js';
import type { BookSnapshot, BookTickerUpdated, IndexPriceUpdated, KlineInterval, MarkPriceUpdated, MarketEvent, Ticker24hUpdated } from '../../model/market-events.js';
import { klineCloseTime } from '../../protocol/market-params.js';
import { readBookTickerRow } from '../parsers/book-ticker-rows.js';
import type { KlineCandle } from '../sources/kline-tracker.js';
import type { PollChannel } from '../sources/poll-channel.js';
import { channelKey } from '../sources/poll-channel.js';
import type { SharedChannelState } from '../sources/shared-trackers.js';
import { parseWire } from '../wire/schema.js';
import type { SkippedRowsSink } from '../wire/tolerant-list.js';
import { LocalBook } from './local-book.js';
import type { Envelope } from './wire.js';
import { depthFrameDataSchema, wsBookTickerSchema, wsIndexSchema, wsKlinesSchema, wsMarkPriceSchema, wsTickersSchema, wsTradesSchema } from './wire.js';

/** Kline intervals the socket offers (API-NOTES §6.4 RULE: the WS page's 12; 3m and 8h stay polled). */
export const WS_KLINE_INTERVALS: readonly KlineInterval[] = ['1m', '5m', '15m', '30m', '1h', '2h', '4h', '6h', '12h', '1d', '1w', '1M'];

/** Levels a side the REST depth route answers without a limit: a socket book is cut to the same. */
const DEFAULT_DEPTH_LIMIT = 100;

/** What one frame did to a channel. */
export interface FrameOutcome {
  readonly events: readonly MarketEvent[];
  /** The frame was read and applied (a delta held back by an unsynced book is not). */
  readonly good: boolean;
  /** The channel's state is inconsistent: subscribe again for a fresh snapshot. */
  readonly resync?: 'gap' | 'crossed' | 'bad-frame' | 'no-snapshot';
}

export interface WsChannelDeps {
  readonly clock: Clock;
  readonly shared: SharedChannelState;
  /** Index token of a contract (the `index` topic is keyed by it). */
  readonly indexTokenOf: (symbol: string) => string | undefined;
  readonly onSkipped?: SkippedRowsSink;
}

/** One configured channel carried by the socket: its subscription and how its frames become market events. */
export interface WsChannel {
  readonly key: string;
  readonly symbol: string;
  readonly channel: PollChannel['channel'];
  /** The subscription: wire topic and symbol (an index token for `index`: undefined while the contract's token is unknown). */
  readonly topic: string;
  wireSymbol(): string | undefined;
  handle(frame: Envelope): FrameOutcome;
  /** The connection was lost: anything kept from it is void until the next snapshot. */
  reset(): void;
  /** A book channel's book, for inspection (undefined for other channels). */
  readonly book?: LocalBook;
}

/** The socket channel of a polled channel, or undefined where the exchange has no topic for it (funding, open interest, 3m/8h klines, an unknown index token). */
export function wsChannelFor(channel: PollChannel, deps: WsChannelDeps): WsChannel | undefined {
  const key = channelKey(channel);
  const { symbol } = channel;
  const base = { key, symbol, channel: channel.channel };
  const endpoint = (topic: string): string => `ws ${topic}`;
  switch (channel.channel) {
    case 'depth':
      return depthChannel(base, channel.depthLimit ?? DEFAULT_DEPTH_LIMIT, deps);
    case 'trades': {
      const deduper = deps.shared.deduper(symbol);
      return {
        ...base,
        topic: 'trade',
        wireSymbol: () => symbol,
        handle: (frame) => {
          const parsed = parseWire(wsTradesSchema, frame.data, endpoint('trade'), deps.onSkipped);
          if (!parsed.ok) return { events: [], good: false, resync: 'bad-frame' };
          return { events: deduper.accept(symbol, parsed.value), good: true };
        },
        reset: () => undefined,
      };
    }
    case 'klines': {
      const interval = channel.klineInterval;
      if (interval === undefined || !WS_KLINE_INTERVALS.includes(interval)) return undefined;
      const tracker = deps.shared.klineTracker(symbol, interval);
      let forming: KlineCandle | undefined;
      return {
        ...base,
        topic: `kline_${interval}`,
        wireSymbol: () => symbol,
        handle: (frame) => {
          const parsed = parseWire(wsKlinesSchema, frame.data, endpoint(`kline_${interval}`), deps.onSkipped);
          if (!parsed.ok) return { events: [], good: false, resync: 'bad-frame' };
          // A push carries the forming candle only: the last push of the previous one is its final state,
          // handed to the tracker beside the new candle so it is delivered closed.
          const rows = parsed.value.map((r) => klineRow(r, interval));
          const newest = rows.reduce<KlineCandle | undefined>((a, r) => (a === undefined || r.openTime > a.openTime ? r : a), undefined);
          const batch = forming !== undefined && newest !== undefined && forming.openTime < newest.openTime ? [forming, ...rows] : rows;
          if (newest !== undefined && (forming === undefined || newest.openTime >= forming.openTime)) forming = newest;
          return { events: tracker.accept(batch, deps.clock.now()), good: true };
        },
        reset: () => undefined,
      };
    }
    case 'bookTicker':
      return {
        ...base,
        topic: 'bookTicker',
        wireSymbol: () => symbol,
        handle: (frame) => {
          // One plain pass on the way to an order (the schema's rules); the schema reads only a frame that pass does not take whole, and names what is wrong.
          let row = readBookTickerRow(frame.data);
          if (row === undefined) {
            const parsed = parseWire(wsBookTickerSchema, frame.data, endpoint('bookTicker'), deps.onSkipped);
            if (!parsed.ok) return { events: [], good: false };
            row = parsed.value;
          }
          const event: BookTickerUpdated = { type: 'market.bookTicker', symbol, time: row.time, bidPrice: row.bidPrice, bidQty: row.bidQty, askPrice: row.askPrice, askQty: row.askQty };
          return { events: [event], good: true };
        },
        reset: () => undefined,
      };
    case 'ticker24h':
      return {
        ...base,
        topic: 'realtimes',
        wireSymbol: () => symbol,
        handle: (frame) => {
          const parsed = parseWire(wsTickersSchema, frame.data, endpoint('realtimes'), deps.onSkipped);
          if (!parsed.ok) return { events: [], good: false };
          const row = parsed.value.filter((r) => r.symbol === symbol).at(-1);
          if (row === undefined) return { events: [], good: false };
          const event: Ticker24hUpdated = { type: 'market.ticker24h', symbol, time: row.time, open: row.open, high: row.high, low: row.low, last: row.lastPrice, volume: row.volume, quoteVolume: row.quoteVolume };
          return { events: [event], good: true };
        },
        reset: () => undefined,
      };
    case 'markPrice':
      return {
        ...base,
        topic: 'markPrice',
        wireSymbol: () => symbol,
        handle: (frame) => {
          const parsed = parseWire(wsMarkPriceSchema, frame.data, endpoint('markPrice'), deps.onSkipped);
          if (!parsed.ok) return { events: [], good: false };
          const event: MarkPriceUpdated = { type: 'market.markPrice', symbol, time: parsed.value.time, price: parsed.value.price };
          return { events: [event], good: true };
        },
        reset: () => undefined,
      };
    case 'index': {
      // Read at each (re)subscribe: the daemon learns its instruments' tokens after the feed is built.
      const tokenNow = (): string | undefined => deps.indexTokenOf(symbol);
      return {
        ...base,
        topic: 'index',
        wireSymbol: tokenNow,
        handle: (frame) => {
          const token = tokenNow();
          const parsed = parseWire(wsIndexSchema, frame.data, endpoint('index'), deps.onSkipped);
          if (!parsed.ok) return { events: [], good: false };
          const row = parsed.value.filter((r) => r.symbol === undefined || r.symbol === token).at(-1);
          if (row === undefined) return { events: [], good: false };
          // As the poll: the index route carries no time, so the event takes the local clock's.
          const event: IndexPriceUpdated = { type: 'market.indexPrice', symbol, time: deps.clock.now(), price: row.index };
          return { events: [event], good: true };
        },
        reset: () => undefined,
      };
    }
    case 'fundingRate':
    case 'openInterest':
      return undefined;
  }
}

function klineRow(row: Omit<KlineCandle, 'closeTime'>, interval: KlineInterval): KlineCandle {
  return { ...row, closeTime: klineCloseTime(row.openTime, interval) };
}

function depthChannel(base: Pick<WsChannel, 'key' | 'symbol' | 'channel'>, limit: number, deps: WsChannelDeps): WsChannel {
  const book = new LocalBook();
  const { symbol } = base;
  const emit = (): MarketEvent[] => {
    const levels = book.levels(limit);
    if (levels === undefined) return [];
    const event: BookSnapshot = { type: 'market.book', symbol, time: book.time, bids: levels.bids, asks: levels.asks };
    return [event];
  };
  return {
    ...base,
    topic: 'diffDepth',
    wireSymbol: () => symbol,
    book,
    handle: (frame) => {
      const parsed = parseWire(depthFrameDataSchema, frame.data, 'ws diffDepth', deps.onSkipped);
      if (!parsed.ok) {
        book.invalidate();
        return { events: [], good: false, resync: 'bad-frame' };
      }
      let applied = false;
      for (const data of parsed.value) {
        const outcome = frame.f === true ? book.snapshot(data.time, data.bids, data.asks) : book.delta(data.sequence, data.time, data.bids, data.asks);
        if (outcome === 'unsynced') return { events: [], good: false, resync: 'no-snapshot' };
        if (outcome !== 'applied') return { events: [], good: false, resync: outcome };
        applied = true;
      }
      return { events: applied ? emit() : [], good: applied };
    },
    reset: () => book.invalidate(),
  };
}
