import { followerConfigSchema, followerHistoryPageSchema, followerPositionsSchema, leaderSummariesSchema } from '../../../src/venue/parsers/follower.js';
import { nullData } from '../../../src/venue/wire/schema.js';
import { BTC, ETH, FOLLOWER, HOUR, MINUTE, S5, T0, TORTOISE, call, configBody, errorOf, follow, followerUser, generatedRig, handRig, okData, parsed, runTo, setPrice } from './fixtures.js';
import type { Rig } from './fixtures.js';

const NOT_FOLLOWER = { code: -32045, msg: 'Copy trading follower not found.' };
const INVALID_LEADER = { code: -1130, msg: "Data sent for paramter 'leaderUserId' is not valid." };

function pricedRig(): Rig {
  const r = handRig({ seed: 9, users: [followerUser(FOLLOWER)], leaders: [S5, TORTOISE] });
  setPrice(r.ex, T0, BTC, '100000');
  setPrice(r.ex, T0, ETH, '4000');
  return r;
}

describe('follower endpoints without a follow', () => {
  it('answers -32045 on orders/current, leaders, orders/history, config GET and leaders DELETE', () => {
    const r = pricedRig();
    expect(errorOf(call(r, 'followerCurrent'))).toEqual(NOT_FOLLOWER);
    expect(errorOf(call(r, 'followerLeaders'))).toEqual(NOT_FOLLOWER);
    expect(errorOf(call(r, 'followerHistory'))).toEqual(NOT_FOLLOWER);
    expect(errorOf(call(r, 'followerConfigGet', { query: { leaderUserId: S5.leaderUserId } }))).toEqual(NOT_FOLLOWER);
    expect(errorOf(call(r, 'followerUnfollow', { path: { leaderUserId: S5.leaderUserId } }))).toEqual(NOT_FOLLOWER);
  });

  it('answers -1130 for a missing, malformed or unknown leader id', () => {
    const r = pricedRig();
    expect(errorOf(call(r, 'followerConfigGet'))).toEqual(INVALID_LEADER);
    expect(errorOf(call(r, 'followerConfigGet', { query: { leaderUserId: 'x1' } }))).toEqual(INVALID_LEADER);
    expect(errorOf(call(r, 'followerConfigGet', { query: { leaderUserId: '0' } }))).toEqual(INVALID_LEADER);
    expect(errorOf(call(r, 'followerConfigGet', { query: { leaderUserId: '42' } }))).toEqual(INVALID_LEADER);
    expect(errorOf(call(r, 'followerUnfollow', { path: { leaderUserId: '-3' } }))).toEqual(INVALID_LEADER);
    expect(errorOf(call(r, 'followerUnfollow', { path: { leaderUserId: '42' } }))).toEqual(INVALID_LEADER);
  });
});

describe('follow, copy positions and Cancel Leader', () => {
  it('creates the follow with PUT /config and returns it with GET /config as the client parses it', () => {
    const r = pricedRig();
    const reply = call(r, 'followerConfigSet', {
      json: configBody(S5.leaderUserId, { followAmountMode: 1, investAmount: '100', singlePlaceAmount: '10', dailyMaxInvestAmount: '50', leverage: '20', maxInvestRate: '0.5', stopProfitRate: '0.1', stopLossRate: '0.2', realInvestAmount: '100', isolatedReservedAmount: '5', stopLossDelay: 30, followMarginType: 2, followSymbolIds: `${BTC},${ETH}`, zeroSlippageSwitch: true }),
    });
    expect(parsed(reply, nullData, 'followerConfigSet')).toBeNull();
    const get = call(r, 'followerConfigGet', { query: { leaderUserId: S5.leaderUserId } });
    // API-NOTES §5.13, byte for byte.
    expect(JSON.stringify(okData(get))).toBe(
      '{"leaderUserId":"123456789","investAmount":"100","singlePlaceAmount":"10","dailyMaxInvestAmount":"50","leverage":"20","maxInvestRate":"0.5","stopProfitRate":"0.1","stopLossRate":"0.2","followAmountMode":1,"stopLossDelay":30,"isolatedReservedAmount":"5","followMarginType":2,"followSymbolIds":"BTC-SWAP-USDT,ETH-SWAP-USDT","zeroSlippageSwitch":true}',
    );
    const config = parsed(get, followerConfigSchema, 'followerConfigGet');
    expect(config.zeroSlippageSwitch).toBe(true);
    // Unset stop rates read "0" here (the client's config schema wants decimals).
    follow(r, TORTOISE.leaderUserId);
    const other = parsed(call(r, 'followerConfigGet', { query: { leaderUserId: TORTOISE.leaderUserId } }), followerConfigSchema, 'followerConfigGet');
    expect(other.stopProfitRate.isZero()).toBe(true);
    // Another follower sees nothing of it.
    expect(errorOf(call(r, 'followerConfigGet', { query: { leaderUserId: S5.leaderUserId }, userId: '1' }))).toEqual(NOT_FOLLOWER);
  });

  it('refuses Cancel Leader with -120055 while a copy is open, then unfollows once the leader closed', () => {
    const r = pricedRig();
    follow(r, TORTOISE.leaderUserId);
    expect(parsed(call(r, 'followerCurrent'), followerPositionsSchema, 'followerCurrent')).toEqual([]);
    expect(parsed(call(r, 'followerLeaders'), leaderSummariesSchema, 'followerLeaders').map((l) => l.leaderNickname)).toEqual(['Tortoise']);
    for (let t = T0 + MINUTE; r.desk.leaderPositions(TORTOISE.leaderUserId).length === 0; t += MINUTE) {
      if (t > T0 + 24 * HOUR) throw new Error('the leader never opened');
      runTo(r, t);
    }
    expect(parsed(call(r, 'followerCurrent'), followerPositionsSchema, 'followerCurrent')).toHaveLength(1);
    expect(errorOf(call(r, 'followerUnfollow', { path: { leaderUserId: TORTOISE.leaderUserId } }))).toEqual({
      code: -120055,
      msg: 'The follower currently has copy position, cannot be removed.',
    });
    for (let t = r.ex.now() + MINUTE; parsed(call(r, 'followerCurrent'), followerPositionsSchema, 'followerCurrent').length > 0; t += MINUTE) {
      if (t > T0 + 48 * HOUR) throw new Error('the leader never closed');
      runTo(r, t);
      // Leaders keep trading; a later open is copied too, and must close as well.
    }
    const unfollowed = call(r, 'followerUnfollow', { path: { leaderUserId: TORTOISE.leaderUserId } });
    expect(parsed(unfollowed, nullData, 'followerUnfollow')).toBeNull();
    expect(errorOf(call(r, 'followerConfigGet', { query: { leaderUserId: TORTOISE.leaderUserId } }))).toEqual(NOT_FOLLOWER);
    expect(errorOf(call(r, 'followerCurrent'))).toEqual(NOT_FOLLOWER);
    expect(errorOf(call(r, 'followerLeaders'))).toEqual(NOT_FOLLOWER);
    // History outlives the follow.
    const history = parsed(call(r, 'followerHistory'), followerHistoryPageSchema, 'followerHistory');
    expect(history.total).toBeGreaterThan(0);
    // No copies after unfollowing.
    const closed = history.total;
    runTo(r, r.ex.now() + 6 * HOUR);
    expect(parsed(call(r, 'followerHistory'), followerHistoryPageSchema, 'followerHistory').total).toBe(closed);
  });
});

describe('orders/history paging', () => {
  const r = generatedRig({ seed: 77, users: [followerUser(FOLLOWER)], leaders: [S5] });
  runTo(r, T0 + 5 * MINUTE);
  follow(r, S5.leaderUserId);
  runTo(r, T0 + 3 * HOUR);
  const all = parsed(call(r, 'followerHistory', { query: { page: '1', size: '100' } }), followerHistoryPageSchema, 'followerHistory');

  it('lists closed copies newest first, 10 by default', () => {
    expect(all.total).toBeGreaterThan(12);
    expect(all.list).toHaveLength(all.total);
    expect(all.pages).toBe(1);
    const closes = all.list.map((row) => row.lastCloseTimeMs);
    expect(closes).toEqual([...closes].sort((a, b) => b - a));
    const first = parsed(call(r, 'followerHistory'), followerHistoryPageSchema, 'followerHistory');
    expect(first.list).toEqual(all.list.slice(0, 10));
    expect(first.pages).toBe(Math.ceil(all.total / 10));
    const raw = okData(call(r, 'followerHistory')) as { pages: unknown; total: unknown };
    expect(raw).toMatchObject({ pages: String(Math.ceil(all.total / 10)), total: String(all.total) });
  });

  it('pages through the same rows', () => {
    const size = 4;
    const pages = Math.ceil(all.total / size);
    const rows = [];
    for (let page = 1; page <= pages; page++) {
      const p = parsed(call(r, 'followerHistory', { query: { page: String(page), size: String(size) } }), followerHistoryPageSchema, 'followerHistory');
      expect(p.pages).toBe(pages);
      expect(p.total).toBe(all.total);
      rows.push(...p.list);
    }
    expect(rows).toEqual(all.list);
    const beyond = parsed(call(r, 'followerHistory', { query: { page: String(pages + 1), size: String(size) } }), followerHistoryPageSchema, 'followerHistory');
    expect(beyond.list).toEqual([]);
  });

  it.each([
    ['page', '0'],
    ['page', '-1'],
    ['page', 'x'],
    ['page', '1.5'],
    ['size', '0'],
    ['size', '101'],
    ['size', 'ten'],
  ])('refuses %s=%s with -1130', (name, value) => {
    expect(errorOf(call(r, 'followerHistory', { query: { [name]: value } }))).toEqual({ code: -1130, msg: `Data sent for paramter '${name}' is not valid.` });
  });

  it('accepts size 100', () => {
    expect(call(r, 'followerHistory', { query: { size: '100' } }).kind).toBe('ok');
  });
});
