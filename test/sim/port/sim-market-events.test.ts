import { dec } from '../../../src/core/decimal.js';
import type { BookSnapshot, IndexPriceUpdated, MarkPriceUpdated, TradePrinted } from '../../../src/model/market-events.js';
import { SymbolMarket } from '../../../src/engine/symbol-market.js';
import { modelMarketEvent } from '../../../src/sim/port/market-events.js';
import type { DepthEvent, TradeEvent } from '../../../src/sim/market-stream/events.js';

const depth: DepthEvent = {
  type: 'depth',
  ts: 1_767_225_600_000,
  symbol: 'BTC-SWAP-USDT',
  bids: [
    ['111022.2', '112'],
    ['111022.1', '383.5'],
  ],
  asks: [['111022.3', '149.3']],
};
const trade: TradeEvent = { type: 'trade', ts: 1_767_225_600_005, symbol: 'BTC-SWAP-USDT', id: '42', price: '111022.3', qty: '0.7', buyerIsMaker: true };

describe('modelMarketEvent (levels and trade amounts made decimals when read)', () => {
  it('a depth event reads as the book of decimal levels, the same arrays on every read', () => {
    const book = modelMarketEvent(depth) as BookSnapshot;
    expect(book.type).toBe('market.book');
    expect(book.symbol).toBe('BTC-SWAP-USDT');
    expect(book.time).toBe(depth.ts);
    expect(book.bids.map((l) => [l.price.toString(), l.qty.toString()])).toEqual([
      ['111022.2', '112'],
      ['111022.1', '383.5'],
    ]);
    expect(book.asks[0]!.price.equals(dec('111022.3'))).toBe(true);
    expect(book.bids).toBe(book.bids);
    expect(book.asks).toBe(book.asks);
    expect(JSON.parse(JSON.stringify(book))).toEqual({
      type: 'market.book',
      symbol: 'BTC-SWAP-USDT',
      time: depth.ts,
      bids: [
        { price: '111022.2', qty: '112' },
        { price: '111022.1', qty: '383.5' },
      ],
      asks: [{ price: '111022.3', qty: '149.3' }],
    });
  });

  it("a book's best prices and the mid price are read without building a side's levels (a prepared row's best prices)", () => {
    const unread = (): never => {
      throw new Error('a side was built');
    };
    const row = { type: 'depth', ts: depth.ts, symbol: depth.symbol, bestBidPrice: '111022.2', bestAskPrice: '111022.3', get bids() { return unread(); }, get asks() { return unread(); } } satisfies DepthEvent;
    const book = modelMarketEvent(row) as BookSnapshot;
    const market = new SymbolMarket(10);
    market.apply(book);
    expect(market.bestBid()?.toString()).toBe('111022.2');
    expect(market.bestAsk()?.toString()).toBe('111022.3');
    expect(market.midPrice()?.toString()).toBe('111022.25');
    // A plain snapshot (a live poll's) answers from its first levels.
    market.apply(modelMarketEvent({ ...depth, ts: depth.ts + 1 })!);
    expect(market.midPrice()?.toString()).toBe('111022.25');
    market.apply(modelMarketEvent({ ...depth, ts: depth.ts + 2, asks: [['111022.5', '1']] })!);
    expect(market.midPrice()?.toString()).toBe('111022.35');
  });

  it('a trade reads as its decimal price and quantity, the taker side from buyerIsMaker', () => {
    const printed = modelMarketEvent(trade) as TradePrinted;
    expect(printed.type).toBe('market.trade');
    expect(printed.tradeId).toBe('42');
    expect(printed.takerSide).toBe('SELL');
    expect(printed.price.equals(dec('111022.3'))).toBe(true);
    expect(printed.qty.toString()).toBe('0.7');
    expect(printed.price).toBe(printed.price);
    expect(JSON.parse(JSON.stringify(printed))).toEqual({ type: 'market.trade', symbol: 'BTC-SWAP-USDT', time: trade.ts, tradeId: '42', price: '111022.3', qty: '0.7', takerSide: 'SELL' });
    expect((modelMarketEvent({ ...trade, buyerIsMaker: false }) as TradePrinted).takerSide).toBe('BUY');
  });

  it('mark and index prices read as their decimal, the same value on every read, and serialize as the eager events did', () => {
    const mark = modelMarketEvent({ type: 'mark', ts: trade.ts, symbol: 'BTC-SWAP-USDT', price: '111021.6' }) as MarkPriceUpdated;
    const index = modelMarketEvent({ type: 'index', ts: trade.ts, symbol: 'ETH-SWAP-USDT', price: '4439.92' }) as IndexPriceUpdated;
    expect([mark.type, mark.symbol, mark.time, mark.price.toString()]).toEqual(['market.markPrice', 'BTC-SWAP-USDT', trade.ts, '111021.6']);
    expect([index.type, index.symbol, index.time, index.price.toString()]).toEqual(['market.indexPrice', 'ETH-SWAP-USDT', trade.ts, '4439.92']);
    expect(mark.price).toBe(mark.price);
    expect(JSON.parse(JSON.stringify(mark))).toEqual({ type: 'market.markPrice', symbol: 'BTC-SWAP-USDT', time: trade.ts, price: '111021.6' });
    expect(JSON.parse(JSON.stringify(index))).toEqual({ type: 'market.indexPrice', symbol: 'ETH-SWAP-USDT', time: trade.ts, price: '4439.92' });
  });
});
