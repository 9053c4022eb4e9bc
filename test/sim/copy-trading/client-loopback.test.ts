import { dec } from '../../../src/core/decimal.js';
import { systemTime } from '../../../src/core/system-time.js';
import type { KeyringEntry } from '../../../src/sim/server/index.js';
import { SimHttpServer } from '../../../src/sim/server/index.js';
import type { FollowerConfigUpdate } from '../../../src/venue/api/follower-config-rules.js';
import { ExchangeClient } from '../../../src/venue/exchange-client.js';
import { DEFAULT_FOLLOW_LIMITS } from '../../../src/sim/copy-trading/index.js';
import { BTC, ETH, FOLLOWER, HOUR, MINUTE, S5, T0, TORTOISE, followerUser, handRig, runTo, setPrice } from './fixtures.js';

const KEY: KeyringEntry = { apiKey: 'copyTradingKey000001', secret: 'copyTradingSecret00001', userId: FOLLOWER, readOnly: false, accountType: 'COPY_TRADING' };
const READ_ONLY: KeyringEntry = { apiKey: 'copyTradingKey000002', secret: 'copyTradingSecret00002', userId: FOLLOWER, readOnly: true, accountType: 'COPY_TRADING' };

const CONFIG: FollowerConfigUpdate = {
  leaderUserId: TORTOISE.leaderUserId,
  investAmount: dec(1000),
  singlePlaceAmount: dec(100),
  dailyMaxInvestAmount: dec(0),
  leverage: dec(10),
  maxInvestRate: dec('0.5'),
  stopProfitRate: dec(0),
  stopLossRate: dec('0.5'),
  realInvestAmount: dec(1000),
  isolatedReservedAmount: dec(0),
  followAmountMode: 0,
  stopLossDelay: 0,
  followMarginType: 0,
  followSymbolIds: 'all',
  zeroSlippageSwitch: false,
};
const LIMITS = { minSingleAmount: DEFAULT_FOLLOW_LIMITS.minSingleAmount, minFixedRateAmount: DEFAULT_FOLLOW_LIMITS.minFixedRateAmount, maxFollowLeverage: DEFAULT_FOLLOW_LIMITS.maxFollowLeverage };

describe('the project client against the follower routes over loopback', () => {
  const r = handRig({ seed: 4, users: [followerUser(FOLLOWER)], leaders: [S5, TORTOISE] });
  setPrice(r.ex, T0, BTC, '100000');
  setPrice(r.ex, T0, ETH, '4000');
  const server = new SimHttpServer({ time: systemTime, seed: 1, keys: [KEY, READ_ONLY], adminToken: 'adminToken-0123456789abcdef' });
  server.mount(r.routes);
  let client: ExchangeClient;
  let readOnly: ExchangeClient;

  beforeAll(async () => {
    const { baseUrl } = await server.start();
    const make = (k: KeyringEntry) => new ExchangeClient({ baseUrl, credentials: { apiKey: k.apiKey, apiSecret: k.secret }, time: systemTime, timeoutMs: 2000 });
    client = make(KEY);
    readOnly = make(READ_ONLY);
  });
  afterAll(() => server.stop());

  it('follows, reads the config, positions, leaders and history, and unfollows', async () => {
    expect((await client.follower.currentPositions()).ok).toBe(false);
    expect(await client.follower.setConfig(CONFIG, LIMITS)).toEqual({ ok: true, value: undefined });
    const config = await client.follower.getConfig(TORTOISE.leaderUserId);
    expect(config.ok && config.value.stopLossRate.toFixed()).toBe('0.5');
    expect(config.ok && config.value.followAmountMode).toBe(0);

    for (let t = T0 + MINUTE; r.desk.leaderPositions(TORTOISE.leaderUserId).length === 0; t += MINUTE) {
      if (t > T0 + 24 * HOUR) throw new Error('the leader never opened');
      runTo(r, t);
    }
    const current = await client.follower.currentPositions();
    expect(current.ok && current.value.map((p) => [p.symbolId, p.quantity?.toFixed(), p.stopLossRate?.toFixed()])).toEqual([[ETH, '0.25', '0.5']]);
    const position = current.ok ? current.value[0] : undefined;
    const stops = await client.follower.setPositionStopProfitLoss({ leaderUserId: TORTOISE.leaderUserId, symbolId: ETH, isLong: position?.isLong ?? 0, stopProfitRate: dec('0.3') });
    expect(stops).toEqual({ ok: true, value: undefined });

    const leaders = await client.follower.leaders();
    expect(leaders.ok && leaders.value.map((l) => l.leaderNickname)).toEqual(['Tortoise']);

    const refused = await client.follower.unfollow(TORTOISE.leaderUserId);
    expect(!refused.ok && refused.error.code).toBe(-120055);
    const denied = await readOnly.follower.unfollow(TORTOISE.leaderUserId);
    expect(!denied.ok && denied.error.code).toBe(-1020);

    const openCopies = (): number => {
      const rows = r.desk.currentPositions(FOLLOWER);
      return rows.ok ? rows.value.length : 0;
    };
    for (let t = r.ex.now() + MINUTE; openCopies() > 0; t += MINUTE) {
      if (t > T0 + 72 * HOUR) throw new Error('the copies never closed');
      runTo(r, t);
    }
    const history = await client.follower.history({ page: 1, size: 5 });
    expect(history.ok && history.value.total).toBeGreaterThan(0);
    expect(history.ok && history.value.list.every((row) => row.leaderNickname === 'Tortoise' && row.closeStatus === 1)).toBe(true);
    expect(await client.follower.unfollow(TORTOISE.leaderUserId)).toEqual({ ok: true, value: undefined });
    const gone = await client.follower.getConfig(TORTOISE.leaderUserId);
    expect(!gone.ok && gone.error.code).toBe(-32045);
  });
});
