import type { MarketDataService } from '../market-data/market-data-service.js';
import type { PriceLevel, TradeEvent } from '../market-stream/events.js';
import type { Topic } from './topics.js';
import { klineTopicInterval } from './topics.js';

/** One book frame's payload (API-NOTES §8 diffDepth / depth): `e` 301 on a snapshot, 0 on a delta. */
export interface DepthData {
  readonly e: 301 | 0;
  readonly s?: string;
  readonly t: number;
  readonly v: string;
  readonly b: readonly PriceLevel[];
  readonly a: readonly PriceLevel[];
  readonly o: number;
}

/** What a frame is, before it is serialised per subscriber (its `binary` flag and send time differ). */
export interface MarketFrame {
  readonly topic: Topic;
  /** The top-level `symbol` (none for bookTicker, markPrice and the whole-market topics). */
  readonly symbol?: string;
  readonly data: unknown;
  readonly f: boolean;
}

/** The envelope as the exchange sends it; kline frames carry topic "kline" and `params.klineType`. */
export function envelopeText(frame: MarketFrame, binary: boolean, sendTime: number): string {
  const interval = klineTopicInterval(frame.topic);
  const params = interval === undefined ? { realtimeInterval: '24h', binary: String(binary) } : { realtimeInterval: '24h', klineType: interval, binary: String(binary) };
  const head = frame.symbol === undefined ? {} : { symbol: frame.symbol, symbolName: frame.symbol };
  return JSON.stringify({ ...head, topic: interval === undefined ? frame.topic : 'kline', params, data: frame.data, f: frame.f, sendTime, shared: false });
}

/** A book version text in the live shape (`<time>_<tick>_<sequence>`), opaque to clients. */
export function bookVersion(time: number, sequence: number): string {
  return `${time}_0.000000000000000001_${sequence}`;
}

/** Public trade rows of the socket: `v` id, `m` true when the buyer took (API-NOTES §8). */
export function tradeRows(trades: readonly TradeEvent[]): unknown[] {
  return trades.map((t) => ({ v: t.id, t: t.ts, p: t.price, q: t.qty, m: !t.buyerIsMaker }));
}

/**
 * The snapshot (`f:true`) or the current push of a topic for one symbol, from the market-data service
 * (so a socket shows what the REST routes show at the same instant). Undefined when there is nothing
 * to send for it (a kline interval without a candle yet).
 */
export function topicFrame(service: MarketDataService, topic: Topic, symbol: string, snapshot: boolean, sequence: number, now: number): MarketFrame | undefined {
  const interval = klineTopicInterval(topic);
  if (interval !== undefined) {
    const row = service.klines(symbol, interval, undefined, undefined, 1)?.[0];
    if (row === undefined) return undefined;
    const [t, o, h, l, c, v] = row;
    return { topic, symbol, data: [{ t, s: symbol, sn: symbol, c, h, l, o, v, st: 0 }], f: snapshot };
  }
  switch (topic) {
    case 'depth':
    case 'diffDepth': {
      const book = service.depth(symbol, 0, now);
      if (book === undefined) return undefined;
      const data: DepthData = { e: 301, s: symbol, t: book.t, v: bookVersion(book.t, sequence), b: book.b, a: book.a, o: 0 };
      return { topic, symbol, data: [data], f: snapshot };
    }
    case 'trade':
      // The first push replays recent trades (docs: 60).
      return { topic, symbol, data: tradeRows(service.recentTrades(symbol, snapshot ? 60 : 1) ?? []), f: snapshot };
    case 'realtimes': {
      const row = service.ticker24h(symbol, '24h', now);
      return row === undefined ? undefined : { topic, symbol, data: [{ ...row, sn: symbol }], f: snapshot };
    }
    case 'bookTicker': {
      const row = service.bookTicker(symbol, now);
      return row === undefined ? undefined : { topic, data: row, f: snapshot };
    }
    case 'markPrice': {
      const row = service.markPrice(symbol, now);
      return row === undefined ? undefined : { topic, data: row, f: snapshot };
    }
    case 'index': {
      const token = service.indexTokenFor(symbol);
      const prices = service.indexPrices(token, now);
      if (token === undefined) return undefined;
      const index = prices.index[token];
      return index === undefined ? undefined : { topic, symbol: token, data: [{ symbol: token, index, edp: prices.edp[token] ?? index, t: now }], f: snapshot };
    }
    case 'wholeRealTime':
      return { topic, data: Object.fromEntries(service.contractTickers24h('24h', now).map((r) => [r.s, r])), f: snapshot };
    case 'wholeBookTicker':
      return { topic, data: Object.fromEntries(service.contractBookTickers(now).map((r) => [r.s, r])), f: snapshot };
    default:
      return undefined;
  }
}
