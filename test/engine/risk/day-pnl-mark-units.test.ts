import type { Decimal } from '../../../src/core/decimal.js';
import { dec } from '../../../src/core/decimal.js';
import type { MarkPriceUpdated } from '../../../src/model/market-events.js';
import { BTC, RiskHarness, d } from './risk-harness.js';

/** A mark price carrying its integer digits, counting the reads of its decimal. */
function markWithUnits(time: number, text: string, units: number, scale: number): { readonly event: MarkPriceUpdated; readonly reads: () => number } {
  let reads = 0;
  const event: MarkPriceUpdated = {
    type: 'market.markPrice',
    symbol: BTC,
    time,
    get price(): Decimal {
      reads++;
      return dec(text);
    },
    priceUnits: units,
    priceScale: scale,
  };
  return { event, reads: () => reads };
}

/** A harness past the account's synchronisation holding one BTC position opened today. */
function holding(positionSide: 'LONG' | 'SHORT', avgPrice: string): RiskHarness {
  const h = new RiskHarness({ global: { dailyLossLimit: d(1e9) } });
  h.feed({ type: 'account.resynced', time: h.clock.now(), epoch: 1, adopted: 0, cancelled: 0, settled: 0 });
  h.position(BTC, positionSide, '3', avgPrice, '0');
  return h;
}

describe('day PnL: a mark price with integer digits', () => {
  it('revalues the position from the digits, its decimal not read, to the value the decimal gives', () => {
    const h = holding('LONG', '100000.12');
    // 99999.9 as 999999 tenths: (99999.9 − 100000.12) × 3 × 0.001
    const tenths = markWithUnits(h.clock.now(), '99999.9', 999_999, 1);
    h.feed(tenths.event);
    expect(tenths.reads()).toBe(0);
    expect(h.engine.dayPnl().toFixed()).toBe('-0.00066');
    // Digits on a finer grid than the average price's (99000.1 as 9900010000 ten-thousandths).
    const fine = markWithUnits(h.clock.now(), '99000.1', 9_900_010_000, 5);
    h.feed(fine.event);
    expect(fine.reads()).toBe(0);
    expect(h.engine.dayPnl().toFixed()).toBe(d('99000.1').sub(d('100000.12')).mul(3).mul(d('0.001')).toFixed());
  });

  it('a mark off the average price’s grid reads its decimal, as without digits', () => {
    const h = holding('SHORT', '100000.1');
    const off = markWithUnits(h.clock.now(), '99999.95', 9_999_995, 2);
    h.feed(off.event);
    expect(off.reads()).toBeGreaterThan(0);
    expect(h.engine.dayPnl().toFixed()).toBe(d('100000.1').sub(d('99999.95')).mul(3).mul(d('0.001')).toFixed());
  });
});
