// Snapshots and trades repeat most of their prices and many quantities from one event to the next.
import { decimalOfText as decimalOf } from '../../core/decimal-cache.js';
import { assertNever } from '../../core/errors.js';
import type { BookLevel, MarketEvent } from '../../model/market-events.js';
import type { MarketEvent as SimMarketEvent, PriceLevel } from '../market-stream/events.js';

function levelsOf(side: readonly PriceLevel[]): BookLevel[] {
  const out: BookLevel[] = new Array<BookLevel>(side.length);
  for (let i = 0; i < side.length; i++) {
    const [price, qty] = side[i]!;
    out[i] = { price: decimalOf(price), qty: decimalOf(qty) };
  }
  return out;
}

/**
 * One engine market event as the kernel's model event, stamped with the engine event's `ts`:
 * depth → market.book, trade → market.trade, mark → market.markPrice, index → market.indexPrice,
 * funding → market.fundingRate. Quantities stay contracts on both sides. A bar (a downloaded history)
 * has no model event of its own: undefined (the backtest builds klines from bars).
 */
export function modelMarketEvent(event: SimMarketEvent): MarketEvent | undefined {
  switch (event.type) {
    case 'depth':
      return { type: 'market.book', symbol: event.symbol, time: event.ts, bids: levelsOf(event.bids), asks: levelsOf(event.asks) };
    case 'trade':
      return {
        type: 'market.trade',
        symbol: event.symbol,
        time: event.ts,
        tradeId: event.id,
        price: decimalOf(event.price),
        qty: decimalOf(event.qty),
        // The buyer was the maker: the taker sold.
        takerSide: event.buyerIsMaker ? 'SELL' : 'BUY',
      };
    case 'mark':
      return { type: 'market.markPrice', symbol: event.symbol, time: event.ts, price: decimalOf(event.price) };
    case 'index':
      return { type: 'market.indexPrice', symbol: event.symbol, time: event.ts, price: decimalOf(event.price) };
    case 'funding':
      return { type: 'market.fundingRate', symbol: event.symbol, time: event.ts, rate: decimalOf(event.rate), nextFundingTime: event.nextFundingTime };
    case 'bar':
      return undefined;
    default:
      return assertNever(event, 'sim market event');
  }
}
