import { dec } from '../../../src/core/decimal.js';
import { DEFAULT_FOLLOW_LIMITS } from '../../../src/sim/copy-trading/index.js';
import type { FollowerConfigUpdate } from '../../../src/venue/api/follower-config-rules.js';
import type { ExchangeClient } from '../../../src/venue/exchange-client.js';
import type { RunningSim } from './sim-harness.js';
import { failure, MINUTE, startSim, value } from './sim-harness.js';

/** The copy-trading follower endpoints with the COPY_TRADING key of config/sim.yml and its configured leaders. */
let s: RunningSim;
let follower: ExchangeClient;
const S5 = '123456789';
const HOUR = 60 * MINUTE;

const CONFIG: FollowerConfigUpdate = {
  leaderUserId: S5,
  investAmount: dec(2000),
  singlePlaceAmount: dec(100),
  dailyMaxInvestAmount: dec(0),
  leverage: dec(10),
  maxInvestRate: dec('0.5'),
  stopProfitRate: dec(0),
  stopLossRate: dec('0.5'),
  realInvestAmount: dec(2000),
  isolatedReservedAmount: dec(0),
  followAmountMode: 0,
  stopLossDelay: 0,
  followMarginType: 0,
  followSymbolIds: 'all',
  zeroSlippageSwitch: false,
};

beforeAll(async () => {
  s = await startSim({ tickMs: 10 * MINUTE });
  follower = s.client('copy-trading');
});
afterAll(() => s.stop());

/** Advances virtual time in 10-minute steps until `done` (each poll is a request, so the market catches up). */
async function advanceUntil(done: () => Promise<boolean>, limitMs: number): Promise<void> {
  const until = s.clock.now() + limitMs;
  while (!(await done())) {
    if (s.clock.now() >= until) throw new Error(`not reached within ${limitMs / HOUR} h of virtual time`);
    s.clock.advanceBy(10 * MINUTE);
  }
}

describe('copy-trading follower', () => {
  it('before following: no follow relation (-32045); trading keys are refused on follower routes (-2015)', async () => {
    expect(failure(await follower.follower.currentPositions())).toMatchObject({ kind: 'rejected', code: -32045 });
    expect(failure(await follower.follower.getConfig(S5))).toMatchObject({ code: -32045 });
    expect(failure(await s.client('trader').follower.leaders())).toMatchObject({ kind: 'rejected', code: -2015 });
  });

  it('follows a leader: config round trip and the leaders list', async () => {
    const limits = { minSingleAmount: DEFAULT_FOLLOW_LIMITS.minSingleAmount, minFixedRateAmount: DEFAULT_FOLLOW_LIMITS.minFixedRateAmount, maxFollowLeverage: DEFAULT_FOLLOW_LIMITS.maxFollowLeverage };
    value(await follower.follower.setConfig(CONFIG, limits));
    const config = value(await follower.follower.getConfig(S5));
    expect(config).toMatchObject({ leaderUserId: S5, followAmountMode: 0, followSymbolIds: 'all' });
    expect(config.investAmount.eq(2000)).toBe(true);
    expect(config.stopLossRate.eq('0.5')).toBe(true);
    expect(value(await follower.follower.leaders()).map((l) => l.leaderNickname)).toEqual(['S5']);
  });

  it('copies the leader’s next position; stops on it; unfollow is refused while it is open', async () => {
    await advanceUntil(async () => value(await follower.follower.currentPositions()).length > 0, 24 * HOUR);
    const [position] = value(await follower.follower.currentPositions());
    expect(position).toMatchObject({ leaderUserId: S5, leaderNickname: 'S5' });
    expect(position?.quantity?.gt(0)).toBe(true);
    value(await follower.follower.setPositionStopProfitLoss({ leaderUserId: S5, symbolId: position?.symbolId ?? '', isLong: position?.isLong ?? 1, stopProfitRate: dec('0.3') }));
    const updated = value(await follower.follower.currentPositions()).find((p) => p.symbolId === position?.symbolId && p.isLong === position?.isLong);
    expect(updated?.stopProfitRate?.eq('0.3')).toBe(true);
    expect(failure(await follower.follower.unfollow(S5))).toMatchObject({ kind: 'rejected', code: -120055 });
  });

  it('closed copies appear in the history pages', async () => {
    await advanceUntil(async () => value(await follower.follower.history({ page: 1, size: 5 })).total > 0, 24 * HOUR);
    const page = value(await follower.follower.history({ page: 1, size: 5 }));
    expect(page.list.length).toBeGreaterThan(0);
    expect(page.list.every((row) => row.leaderNickname === 'S5' && row.closedQuantity.gt(0))).toBe(true);
  });
  it('unfollows once no copy is open; then the follow relation is gone', async () => {
    await advanceUntil(async () => value(await follower.follower.currentPositions()).length === 0, 24 * HOUR);
    value(await follower.follower.unfollow(S5));
    expect(failure(await follower.follower.getConfig(S5))).toMatchObject({ kind: 'rejected', code: -32045 });
  });
});
