import { DecisionClock } from '../../../src/sim/copy-trading/decision-clock.js';
import type { LeaderTrade } from '../../../src/sim/copy-trading/index.js';
import { BTC, ETH, HOUR, MINUTE, S5, T0, TORTOISE, generatedRig, runTo } from './fixtures.js';

function schedule(seed: number, leaderUserId: string, mean: number, count: number): number[] {
  const clock = new DecisionClock(seed, leaderUserId, mean, T0);
  const out = [clock.next];
  while (out.length < count) out.push(clock.advance());
  return out;
}

function summary(trades: readonly LeaderTrade[]): string[] {
  return trades.map((t) => `${t.time} ${t.kind} ${t.position.leaderUserId} ${t.position.symbol} ${t.position.isLong ? 'L' : 'S'} ${t.position.quantity.toFixed()}@${t.position.openPrice.toFixed()}`);
}

describe('leader decision schedule', () => {
  it('is the same for the same seed and leader, and differs with either', () => {
    const a = schedule(7, S5.leaderUserId, 10 * MINUTE, 50);
    expect(schedule(7, S5.leaderUserId, 10 * MINUTE, 50)).toEqual(a);
    expect(schedule(8, S5.leaderUserId, 10 * MINUTE, 50)).not.toEqual(a);
    expect(schedule(7, TORTOISE.leaderUserId, 10 * MINUTE, 50)).not.toEqual(a);
  });

  it('draws exponential gaps with the configured mean', () => {
    const times = schedule(3, S5.leaderUserId, 10 * MINUTE, 2001);
    const gaps = times.slice(1).map((t, i) => t - (times[i] ?? 0));
    expect(gaps.every((g) => Number.isInteger(g) && g >= 1)).toBe(true);
    const mean = gaps.reduce((a, b) => a + b, 0) / gaps.length;
    expect(mean).toBeGreaterThan(9 * MINUTE);
    expect(mean).toBeLessThan(11 * MINUTE);
    // Exponential: about e^-1 of the gaps exceed the mean.
    const longer = gaps.filter((g) => g > 10 * MINUTE).length / gaps.length;
    expect(longer).toBeGreaterThan(0.3);
    expect(longer).toBeLessThan(0.44);
  });

  it('replays the same leader trades on the same seeded market, and trades only listed symbols', () => {
    const run = (): LeaderTrade[] => {
      const r = generatedRig({ seed: 21, users: [], leaders: [S5, TORTOISE] });
      runTo(r, T0 + 2 * HOUR);
      return r.trades;
    };
    const first = run();
    expect(summary(run())).toEqual(summary(first));
    expect(first.length).toBeGreaterThan(15);
    expect(first.filter((t) => t.position.leaderUserId === TORTOISE.leaderUserId).every((t) => t.position.symbol === ETH)).toBe(true);
    expect(new Set(first.map((t) => t.position.symbol))).toEqual(new Set([BTC, ETH]));
    expect(first.some((t) => t.kind === 'close')).toBe(true);
    expect(first.map((t) => t.time)).toEqual([...first.map((t) => t.time)].sort((a, b) => a - b));
  });

  it('opens at the last price with size from the leader margin and leverage, at most one position per symbol and side', () => {
    const r = generatedRig({ seed: 5, users: [], leaders: [S5] });
    const seen: string[] = [];
    r.desk.onLeaderTrade((t) => {
      if (t.kind !== 'open') return;
      const p = t.position;
      seen.push(p.id);
      expect(p.openPrice.toFixed()).toBe(r.ex.lastPrice(p.symbol));
      expect(p.margin.toFixed()).toBe(p.quantity.mul(p.openPrice).div(20).toFixed());
      // 2% to 10% of the available margin.
      expect(p.margin.lte(t.marginBalanceBefore.mul('0.1'))).toBe(true);
      const open = r.desk.leaderPositions(S5.leaderUserId);
      expect(open.filter((q) => q.symbol === p.symbol && q.isLong === p.isLong)).toHaveLength(1);
      expect(open.length).toBeLessThanOrEqual(3);
    });
    runTo(r, T0 + 2 * HOUR);
    expect(seen.length).toBeGreaterThan(5);
  });
});
