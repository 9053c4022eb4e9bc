import { dec } from '../../../src/core/decimal.js';
import type { PublicTrade } from '../../../src/venue/parsers/market.js';
import { TradeDeduper } from '../../../src/venue/sources/trade-deduper.js';

/** The de-duplication rules on their own (the simulator run covers real replies). */
function trade(time: number, price = '100', qty = '1', isBuyerMaker = false): PublicTrade {
  return { time, price: dec(price), qty: dec(qty), isBuyerMaker };
}

describe('TradeDeduper', () => {
  it('lets identical trades of one reply through, and only once across replies', () => {
    const d = new TradeDeduper();
    expect(d.accept('X', [trade(1), trade(1), trade(2)]).map((t) => t.tradeId)).toHaveLength(3);
    const next = d.accept('X', [trade(1), trade(1), trade(2), trade(2), trade(3, '101', '2', true)]);
    expect(next.map((t) => [t.time, t.takerSide])).toEqual([
      [2, 'BUY'],
      [3, 'SELL'],
    ]);
  });

  it('keeps bounded memory and never lets a forgotten trade back in', () => {
    const d = new TradeDeduper(10);
    const first = Array.from({ length: 30 }, (_, i) => trade(i));
    expect(d.accept('X', first)).toHaveLength(30);
    expect(d.size).toBe(10);
    expect(d.accept('X', first)).toEqual([]);
    expect(d.accept('X', [...first, trade(30)]).map((t) => t.time)).toEqual([30]);
  });
});
