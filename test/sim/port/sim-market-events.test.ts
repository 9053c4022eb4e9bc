import { dec } from '../../../src/core/decimal.js';
import type { Decimal } from '../../../src/core/decimal.js';
import { midpoint } from '../../../src/core/scaled-integer.js';
import { GridDecimals } from '../../../src/sim/engine/grid-decimals.js';
import type { BookPrices } from '../../../src/sim/engine/symbol-book.js';
import { StepGrid } from '../../../src/sim/market-stream/ticks.js';
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

  it("a replayed book's mid is made from the engine's ticks, the midpoint of its best prices digit words and all, neither price read", () => {
    const words = (x: Decimal | undefined): unknown => (x === undefined ? undefined : { s: x.s, e: x.e, d: x.d, text: x.toString() });
    const wrong: string[] = [];
    for (const step of ['0.1', '0.5', '0.01', '0.25', '1', '0.0001', '0.00000000000001']) {
      const grid = new StepGrid(step);
      const decimals = new GridDecimals(grid);
      for (const [bid, ask] of [[1, 2], [1_110_222, 1_110_223], [1_110_222, 1_110_224], [7, 7], [3, 1_000_001], [2 ** 52, 2 ** 52 + 1]] as const) {
        const got = words(decimals.midOf(bid, ask));
        if (got !== undefined && JSON.stringify(got) !== JSON.stringify(words(midpoint(decimals.of(bid), decimals.of(ask))))) wrong.push(`${step}: ${bid}, ${ask}`);
      }
    }
    expect(wrong).toEqual([]);
    // The engine's ticks of this event's best prices: the book's mid asks the grid's decimals for no price.
    const read = new GridDecimals(new StepGrid('0.1'));
    const prices: BookPrices = { bestBidTicks: 1_110_222, bestAskTicks: 1_110_223, lastTicks: 0, markTicks: 0, indexTicks: 0, priceDecimals: read };
    const of = read.of.bind(read);
    let guarded = true;
    read.of = (units: number): Decimal => {
      if (guarded) throw new Error('a best price was read');
      return of(units);
    };
    const market = new SymbolMarket(10);
    market.apply(modelMarketEvent(depth, prices)!);
    expect(words(market.midPrice())).toEqual(words(midpoint(dec('111022.2'), dec('111022.3'))));
    // A fresher book ticker's side wins over the book's, as bestBid/bestAsk answer.
    guarded = false;
    market.apply({ type: 'market.bookTicker', symbol: depth.symbol, time: depth.ts + 1, bidPrice: dec('111022.4'), bidQty: dec('1'), askPrice: dec('111022.6'), askQty: dec('1') });
    expect(market.midPrice()?.toString()).toBe('111022.5');
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

  it("a replayed mark price carries the engine's ticks as the grid's integer digits (its decimal's value), an unreplayed one none", () => {
    const grid = new GridDecimals(new StepGrid('0.1'));
    const prices: BookPrices = { bestBidTicks: 0, bestAskTicks: 0, lastTicks: 0, markTicks: 1_110_216, indexTicks: 0, priceDecimals: grid };
    const mark = modelMarketEvent({ type: 'mark', ts: trade.ts, symbol: 'BTC-SWAP-USDT', price: '111021.6' }, prices) as MarkPriceUpdated;
    expect([mark.priceUnits, mark.priceScale]).toEqual([1_110_216, 1]);
    expect(mark.price.equals(dec(mark.priceUnits!).div(10 ** mark.priceScale!))).toBe(true);
    expect(JSON.parse(JSON.stringify(mark))).toEqual({ type: 'market.markPrice', symbol: 'BTC-SWAP-USDT', time: trade.ts, price: '111021.6' });
    const plain = modelMarketEvent({ type: 'mark', ts: trade.ts, symbol: 'BTC-SWAP-USDT', price: '111021.6' }) as MarkPriceUpdated;
    expect([plain.priceUnits, plain.priceScale]).toEqual([undefined, undefined]);
  });
});
