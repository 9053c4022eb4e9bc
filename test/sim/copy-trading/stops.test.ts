import { dec } from '../../../src/core/decimal.js';
import type { SimLeaderConfig } from '../../../src/sim/config/sim-config.js';
import type { LeaderTrade } from '../../../src/sim/copy-trading/index.js';
import { CLOSE_STATUS } from '../../../src/sim/copy-trading/index.js';
import { followerHistoryPageSchema, followerPositionsSchema } from '../../../src/venue/parsers/follower.js';
import type { FollowerPosition } from '../../../src/venue/parsers/follower.js';
import { BTC, ETH, FOLLOWER, HOUR, MINUTE, T0, call, errorOf, follow, followerUser, handRig, parsed, runTo, setPrice } from './fixtures.js';
import type { Rig } from './fixtures.js';

/** A slow leader: its first decision (always an open) comes, then usually nothing for a long while. */
const SLOW: SimLeaderConfig = {
  leaderUserId: '555000111',
  nickname: 'Slow',
  symbols: [BTC],
  marginType: 'CROSS',
  leverage: 10,
  meanDecisionIntervalMs: 4 * HOUR,
  marginBalance: '10000',
};

/** Fixed 100 USDT at leverage 10 on BTC at 100000: 0.01 BTC, margin 100; 1% move = 10% PnL rate. */
function rigWithCopy(patch: Readonly<Record<string, unknown>>, seed = 1): { readonly r: Rig; readonly open: LeaderTrade; readonly at: number } {
  const r = handRig({ seed, users: [followerUser(FOLLOWER)], leaders: [SLOW] });
  setPrice(r.ex, T0, BTC, '100000');
  setPrice(r.ex, T0, ETH, '4000');
  follow(r, SLOW.leaderUserId, patch);
  for (let t = T0 + MINUTE; r.trades.length === 0; t += MINUTE) {
    if (t > T0 + 24 * HOUR) throw new Error('the leader never opened');
    runTo(r, t);
  }
  const open = r.trades[0];
  if (open?.kind !== 'open') throw new Error('expected an open first');
  return { r, open, at: r.ex.now() };
}

/** The BTC price at which a copy of `open` has PnL rate `rate` (leverage 10: a price move of rate / 10). */
function priceForRate(open: LeaderTrade, rate: string): string {
  const move = dec(rate).div(10).mul(open.position.isLong ? 1 : -1);
  return dec(100000).mul(move.add(1)).toFixed();
}

function current(r: Rig): FollowerPosition[] {
  return parsed(call(r, 'followerCurrent'), followerPositionsSchema, 'followerCurrent');
}

function history(r: Rig) {
  return parsed(call(r, 'followerHistory'), followerHistoryPageSchema, 'followerHistory');
}

describe('stop-profit and stop-loss of copy positions', () => {
  it('opens a copy of 0.01 BTC with the config stop rates', () => {
    const { r, open } = rigWithCopy({ stopProfitRate: '0.5', stopLossRate: '0.2' });
    const rows = current(r);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.quantity?.toFixed()).toBe('0.01');
    expect(rows[0]?.margin?.toFixed()).toBe('100');
    expect(rows[0]?.isLong).toBe(open.position.isLong ? 1 : 0);
    expect(rows[0]?.stopProfitRate?.toFixed()).toBe('0.5');
    expect(rows[0]?.stopLossRate?.toFixed()).toBe('0.2');
  });

  it('closes at the mark price once the PnL rate reaches stopProfitRate (closeStatus 2)', () => {
    const { r, open, at } = rigWithCopy({ stopProfitRate: '0.5' });
    setPrice(r.ex, at + 1000, BTC, priceForRate(open, '0.49'));
    expect(current(r)).toHaveLength(1);
    const target = priceForRate(open, '0.5');
    setPrice(r.ex, at + 2000, BTC, '100000', target);
    expect(current(r)).toHaveLength(0);
    const row = history(r).list[0];
    expect(row?.closeStatus).toBe(CLOSE_STATUS.STOP_PROFIT);
    expect(row?.closeAvgPrice.toFixed()).toBe(target);
    expect(row?.realizedProfit.toFixed()).toBe('50');
    expect(row?.lastCloseTimeMs).toBe(at + 2000);
    expect(row?.openTimeMs).toBe(open.time);
    // The leader keeps its position.
    expect(r.desk.leaderPositions(SLOW.leaderUserId)).toHaveLength(1);
  });

  it('closes once the loss rate reaches stopLossRate, after stopLossDelay seconds of staying there (closeStatus 3)', () => {
    const { r, open, at } = rigWithCopy({ stopLossRate: '0.2', stopLossDelay: 30 });
    const loss = priceForRate(open, '-0.25');
    setPrice(r.ex, at + 1000, BTC, loss);
    runTo(r, at + 20_000, 1000);
    expect(current(r)).toHaveLength(1);
    // Back above the stop: the delay starts again.
    setPrice(r.ex, at + 21_000, BTC, '100000');
    setPrice(r.ex, at + 22_000, BTC, loss);
    runTo(r, at + 51_000, 1000);
    expect(current(r)).toHaveLength(1);
    runTo(r, at + 52_000, 1000);
    expect(current(r)).toHaveLength(0);
    const row = history(r).list[0];
    expect(row?.closeStatus).toBe(CLOSE_STATUS.STOP_LOSS);
    expect(row?.realizedProfit.toFixed()).toBe('-25');
    expect(row?.lastCloseTimeMs).toBe(at + 52_000);
  });

  it('takes position stops from PUT positions/stop-profit-loss, 0 clearing one', () => {
    const { r, open, at } = rigWithCopy({ stopProfitRate: '0.5', stopLossRate: '0.5' });
    const isLong = open.position.isLong ? 1 : 0;
    const change = (json: Record<string, unknown>) => call(r, 'followerStopProfitLoss', { json: { leaderUserId: Number(SLOW.leaderUserId), symbolId: BTC, isLong, ...json } });
    expect(change({ stopLossRate: '0', stopProfitRate: '0.1', stopLossDelay: 5 })).toEqual({ kind: 'ok', data: null });
    expect(current(r)[0]?.stopLossRate).toBeUndefined();
    expect(current(r)[0]?.stopProfitRate?.toFixed()).toBe('0.1');
    // Deep loss, but the stop-loss was cleared.
    setPrice(r.ex, at + 1000, BTC, priceForRate(open, '-0.8'));
    expect(current(r)).toHaveLength(1);
    // Only the profit stop changes when only it is sent.
    expect(change({ stopProfitRate: '0.2' })).toEqual({ kind: 'ok', data: null });
    setPrice(r.ex, at + 2000, BTC, priceForRate(open, '0.2'));
    expect(current(r)).toHaveLength(0);
    expect(history(r).list[0]?.closeStatus).toBe(CLOSE_STATUS.STOP_PROFIT);
  });

  it('validates PUT positions/stop-profit-loss', () => {
    const { r, open } = rigWithCopy({});
    const isLong = open.position.isLong ? 1 : 0;
    const base = { leaderUserId: Number(SLOW.leaderUserId), symbolId: BTC, isLong };
    const cases: ReadonlyArray<readonly [string, Record<string, unknown>, number, string]> = [
      ['missing leaderUserId', { leaderUserId: undefined }, -1102, 'leaderUserId'],
      ['missing symbolId', { symbolId: undefined }, -1102, 'symbolId'],
      ['missing isLong', { isLong: null }, -1102, 'isLong'],
      ['isLong 2', { isLong: 2 }, -1130, 'isLong'],
      ['stop rate below 0.01', { stopProfitRate: '0.005' }, -1130, 'stopProfitRate'],
      ['negative stop rate', { stopLossRate: '-0.1' }, -1130, 'stopLossRate'],
      ['9 decimals', { stopLossRate: '0.123456789' }, -1130, 'stopLossRate'],
      ['stop rate not a number', { stopLossRate: 'x' }, -1102, 'stopLossRate'],
      ['negative delay', { stopLossDelay: -1 }, -1130, 'stopLossDelay'],
      ['fractional delay', { stopLossDelay: 1.5 }, -1102, 'stopLossDelay'],
      ['leader id 0', { leaderUserId: 0 }, -1130, 'leaderUserId'],
      ['unknown leader', { leaderUserId: 42 }, -1130, 'leaderUserId'],
      ['no such copy position', { symbolId: ETH }, -1130, 'symbolId'],
    ];
    for (const [what, patch, code, field] of cases) {
      const e = errorOf(call(r, 'followerStopProfitLoss', { json: { ...base, ...patch } }));
      expect({ what, code: e.code, field: /'(\w+)'/.exec(e.msg)?.[1] }).toEqual({ what, code, field });
    }
    const other = errorOf(call(r, 'followerStopProfitLoss', { json: base, userId: '1' }));
    expect(other).toEqual({ code: -32045, msg: 'Copy trading follower not found.' });
  });
});
