import { dec } from '../../../src/core/decimal.js';
import type { Decimal } from '../../../src/core/decimal.js';
import type { SimLeaderConfig } from '../../../src/sim/config/sim-config.js';
import { followerHistoryPageSchema, followerPositionsSchema } from '../../../src/venue/parsers/follower.js';
import { BTC, ETH, MINUTE, T0, call, follow, followerUser, handRig, parsed, runTo, setPrice } from './fixtures.js';

/** A busy leader on two symbols (up to three positions), prices held still by the test. */
const BUSY: SimLeaderConfig = {
  leaderUserId: '777000111',
  nickname: 'Busy',
  symbols: [BTC, ETH],
  marginType: 'CROSS',
  leverage: 10,
  meanDecisionIntervalMs: 20 * MINUTE,
  marginBalance: '10000',
};
const DAILY = '900000011'; // 100 a copy, at most 250 a UTC day
const CAPPED = '900000012'; // 100 a copy, at most 150 invested at a time
const POOR = '900000013'; // 100 a copy, but only 120 USDT in the copy-trading account
const DAY = 86_400_000;

/** BTC 100000 and ETH 4000 at leverage 10: margins are exact (0.0001 BTC = 1 USDT, 0.01 ETH = 4 USDT of margin). */
function margin(symbol: string, quantity: Decimal): Decimal {
  return quantity.mul(symbol === BTC ? 100000 : 4000).div(10);
}

describe('investment limits of a follow', () => {
  const r = handRig({ seed: 12, users: [followerUser(DAILY), followerUser(CAPPED), followerUser(POOR, '120')], leaders: [BUSY] });
  setPrice(r.ex, T0, BTC, '100000');
  setPrice(r.ex, T0, ETH, '4000');
  follow(r, BUSY.leaderUserId, { dailyMaxInvestAmount: '250' }, DAILY);
  follow(r, BUSY.leaderUserId, { investAmount: '150', realInvestAmount: '150' }, CAPPED);
  follow(r, BUSY.leaderUserId, {}, POOR);
  const openMargins: Decimal[] = [];
  const poorMargins: Decimal[] = [];
  for (let t = T0 + 5 * MINUTE; t <= T0 + 3 * DAY; t += 5 * MINUTE) {
    runTo(r, t, 5 * MINUTE);
    const open = parsed(call(r, 'followerCurrent', { userId: CAPPED }), followerPositionsSchema, 'followerCurrent');
    openMargins.push(open.reduce((sum, p) => sum.add(p.margin ?? dec(0)), dec(0)));
    const poor = parsed(call(r, 'followerCurrent', { userId: POOR }), followerPositionsSchema, 'followerCurrent');
    poorMargins.push(poor.reduce((sum, p) => sum.add(p.margin ?? dec(0)), dec(0)));
  }
  const opens = r.trades.filter((t) => t.kind === 'open');

  it('sees enough lead orders to hit the limits', () => {
    expect(opens.length).toBeGreaterThan(20);
  });

  it('invests at most dailyMaxInvestAmount per UTC day, the last copy of a day cut to what is left', () => {
    const history = parsed(call(r, 'followerHistory', { userId: DAILY, query: { size: '100' } }), followerHistoryPageSchema, 'followerHistory').list;
    const byDay = new Map<number, Decimal>();
    for (const row of history) {
      const day = Math.floor(row.openTimeMs / DAY);
      byDay.set(day, (byDay.get(day) ?? dec(0)).add(margin(row.symbolId, row.closedQuantity)));
    }
    expect(byDay.size).toBeGreaterThanOrEqual(2);
    for (const total of byDay.values()) expect(total.lte(250)).toBe(true);
    // A day with more lead opens than the limit allows ends near 250, not at 200.
    expect([...byDay.values()].some((total) => total.gt(240))).toBe(true);
    expect(history.length).toBeLessThan(opens.length);
  });

  it('keeps the margin of open copies within investAmount', () => {
    for (const m of openMargins) expect(m.lte(150)).toBe(true);
    expect(openMargins.some((m) => m.gt(100))).toBe(true);
  });

  it('copies only what the copy-trading funds (balance plus realized profit) cover', () => {
    for (const m of poorMargins) expect(m.lte(120)).toBe(true);
    expect(poorMargins.some((m) => m.gt(0))).toBe(true);
  });
});
