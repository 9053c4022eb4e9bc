import { dec } from '../../src/core/decimal.js';
import type { FollowAmountMode, FollowerConfigLimits, FollowerConfigUpdate, FollowMarginType } from '../../src/venue/api/follower-config-rules.js';
import type { ExchangeClient } from '../../src/venue/exchange-client.js';
import { outcomeOf } from '../support/skipped-rows.js';
import { clientFor, TEST_KEY, v2 } from '../support/client.js';
import { FixtureVenue, paramsOf } from '../support/fixture-venue.js';

// API-NOTES §5.13 (DOC-FOL examples).
const CURRENT_ROW = {
  leaderUserId: '123456789', leaderNickname: 'S5', leaderAvatar: 'https://static.example.com/avatar.png', symbolId: 'BTC-SWAP-USDT', isLong: 1,
  positionType: 1, leverage: '20', openAvgPrice: '6805', markPrice: '7121.97', currentPrice: '6805', quantity: '0.01', margin: '3.3854',
  liquidationPrice: '', unrealizedProfit: '3.17', unrealizedProfitRate: '0.9315', stopProfitRate: '', stopLossRate: '',
};
const HISTORY_DATA = {
  pages: '1', total: '1',
  list: [{
    symbolId: 'BTC-SWAP-USDT', positionType: 1, leverage: '20', isLong: 1, leaderNickname: 'S5', leaderAvatar: 'https://static.example.com/avatar.png',
    openTimeMs: '1717200000000', lastCloseTimeMs: '1717203600000', openAvgPrice: '6805', closeAvgPrice: '7100', maxPositionQuantity: '0.02',
    closedQuantity: '0.02', realizedProfit: '5.9', closeStatus: 2,
  }],
};
const CONFIG_DATA = {
  leaderUserId: '123456789', investAmount: '100', singlePlaceAmount: '10', dailyMaxInvestAmount: '50', leverage: '20', maxInvestRate: '0.5',
  stopProfitRate: '0.1', stopLossRate: '0.2', followAmountMode: 1, stopLossDelay: 30, isolatedReservedAmount: '5', followMarginType: 2,
  followSymbolIds: 'BTC-SWAP-USDT,ETH-SWAP-USDT', zeroSlippageSwitch: true,
};
const LEADER_ROW = {
  leaderUserId: '123456789', leaderNickname: 'S5', leaderAvatar: 'https://static.example.com/avatar.png', marginBalance: '521.64',
  availableMargin: '518.25', unrealisedPnl: '-0.03', realisedProfit: '0', holdingProfitSharing: '0', settledProfitSharing: '0.58', netProfit: '-0.58',
};

const VALID: FollowerConfigUpdate = {
  leaderUserId: '1234567890123456789',
  investAmount: dec(100),
  singlePlaceAmount: dec(10),
  dailyMaxInvestAmount: dec(50),
  leverage: dec(20),
  maxInvestRate: dec('0.5'),
  stopProfitRate: dec('0.1'),
  stopLossRate: dec('0.2'),
  realInvestAmount: dec(100),
  isolatedReservedAmount: dec(5),
  followAmountMode: 0,
  stopLossDelay: 30,
  followMarginType: 2,
  followSymbolIds: 'BTC-SWAP-USDT,ETH-SWAP-USDT',
  zeroSlippageSwitch: true,
};
const VALID_BODY =
  '{"leaderUserId":1234567890123456789,"investAmount":"100","singlePlaceAmount":"10","dailyMaxInvestAmount":"50","leverage":"20","maxInvestRate":"0.5","stopProfitRate":"0.1","stopLossRate":"0.2","realInvestAmount":"100","isolatedReservedAmount":"5","followAmountMode":0,"stopLossDelay":30,"followMarginType":2,"followSymbolIds":"BTC-SWAP-USDT,ETH-SWAP-USDT","zeroSlippageSwitch":true}';

const PREFIX = '/api/v2/copy-trading/follower';

let venue: FixtureVenue;
let client: ExchangeClient;

beforeAll(async () => {
  venue = await FixtureVenue.start();
  client = clientFor(venue);
});
afterAll(() => venue.close());
beforeEach(() => venue.clear());

const keysOf = (params: ReadonlyArray<readonly [string, string]>): string[] => params.map(([k]) => k);

describe('follower reads', () => {
  it('reads current follow positions; "" fields stay absent', async () => {
    venue.reply(`GET ${PREFIX}/orders/current`, { body: v2([CURRENT_ROW]) });
    const result = await client.follower.currentPositions();
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const row = result.value[0];
    expect(row?.leaderUserId).toBe('123456789');
    expect(row?.isLong).toBe(1);
    expect(row?.positionType).toBe(1);
    expect(row?.markPrice?.toString()).toBe('7121.97');
    expect(row?.margin?.equals('3.3854')).toBe(true);
    expect(row !== undefined && 'liquidationPrice' in row).toBe(false);
    expect(row !== undefined && 'stopProfitRate' in row).toBe(false);
    expect(row !== undefined && 'stopLossRate' in row).toBe(false);
    const wire = venue.last();
    expect(wire.method).toBe('GET');
    expect(wire.path).toBe(`${PREFIX}/orders/current`);
    expect(keysOf(wire.params)).toEqual(['recvWindow', 'timestamp']);
    expect(wire.signature).toBe('valid');
    expect(wire.headers['x-bb-apikey']).toBe(TEST_KEY);
  });

  it('reads a history page; pages and total become numbers', async () => {
    venue.reply(`GET ${PREFIX}/orders/history`, { body: v2(HISTORY_DATA) });
    const result = await client.follower.history({ page: 1, size: 10 });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.pages).toBe(1);
    expect(result.value.total).toBe(1);
    expect(result.value.list[0]?.openTimeMs).toBe(1717200000000);
    expect(result.value.list[0]?.closeAvgPrice.toString()).toBe('7100');
    expect(result.value.list[0]?.closeStatus).toBe(2);
    const wire = venue.last();
    expect(wire.path).toBe(`${PREFIX}/orders/history`);
    expect(wire.params.slice(0, 2)).toEqual([['page', '1'], ['size', '10']]);
    expect(wire.signature).toBe('valid');
  });

  it('refuses page below 1 and size outside 1..100', async () => {
    const page = await client.follower.history({ page: 0 });
    expect(!page.ok && page.error.rule).toBe('page-range');
    const size = await client.follower.history({ size: 101 });
    expect(!size.ok && size.error.rule).toBe('size-range');
    expect(venue.requests).toHaveLength(0);
  });

  it('reads the follow config of a leader', async () => {
    venue.reply(`GET ${PREFIX}/config`, { body: v2(CONFIG_DATA) });
    const result = await client.follower.getConfig('123456789');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.leaderUserId).toBe('123456789');
    expect(result.value.maxInvestRate.toString()).toBe('0.5');
    expect(result.value.followAmountMode).toBe(1);
    expect(result.value.stopLossDelay).toBe(30);
    expect(result.value.followMarginType).toBe(2);
    expect(result.value.zeroSlippageSwitch).toBe(true);
    expect(result.value.followSymbolIds).toBe('BTC-SWAP-USDT,ETH-SWAP-USDT');
    const wire = venue.last();
    expect(wire.method).toBe('GET');
    expect(wire.params[0]).toEqual(['leaderUserId', '123456789']);
    expect(paramsOf(wire)).toMatchObject({ leaderUserId: '123456789' });
    expect(wire.signature).toBe('valid');
    const missing = await client.follower.getConfig('');
    expect(!missing.ok && missing.error.rule).toBe('leader-user-id');
    expect(venue.requests).toHaveLength(1);
  });

  it('lists leaders', async () => {
    venue.reply(`GET ${PREFIX}/leaders`, { body: v2([LEADER_ROW]) });
    const result = await client.follower.leaders();
    expect(result.ok && result.value[0]?.netProfit.toString()).toBe('-0.58');
    expect(result.ok && result.value[0]?.leaderNickname).toBe('S5');
    expect(venue.last().path).toBe(`${PREFIX}/leaders`);
    expect(venue.last().signature).toBe('valid');
  });

  it('reports malformed replies naming the field', async () => {
    venue.reply(`GET ${PREFIX}/orders/current`, { body: v2([{ ...CURRENT_ROW, isLong: 3 }]) });
    expect(await outcomeOf(client, () => client.follower.currentPositions())).toEqual({ kind: 'skipped', field: '[0].isLong' });
    const { followMarginType: _dropped, ...noMarginType } = CONFIG_DATA;
    venue.reply(`GET ${PREFIX}/config`, { body: v2(noMarginType) });
    const config = await client.follower.getConfig('123456789');
    expect(!config.ok && config.error.field).toBe('followMarginType');
    venue.reply(`GET ${PREFIX}/orders/history`, { body: v2({ ...HISTORY_DATA, total: 'many' }) });
    const history = await client.follower.history();
    expect(!history.ok && history.error.field).toBe('total');
  });

  it('maps -32045 (no follow relationship) to rejected', async () => {
    venue.reply(`GET ${PREFIX}/orders/current`, { status: 400, body: { code: -32045, msg: 'Copy trading follower not the service.', data: null } });
    const result = await client.follower.currentPositions();
    expect(!result.ok && result.error.kind).toBe('rejected');
    expect(!result.ok && result.error.code).toBe(-32045);
  });
});

describe('follower writes', () => {
  it('sets position TP/SL with a JSON body and a bare-number leader id', async () => {
    venue.reply(`PUT ${PREFIX}/positions/stop-profit-loss`, { body: v2(null) });
    const result = await client.follower.setPositionStopProfitLoss({
      leaderUserId: '123456789', symbolId: 'BTC-SWAP-USDT', isLong: 1, stopProfitRate: dec('0.1'), stopLossRate: dec('0.05'), stopLossDelay: 30,
    });
    expect(result).toEqual({ ok: true, value: undefined });
    const wire = venue.last();
    expect(wire.method).toBe('PUT');
    expect(wire.path).toBe(`${PREFIX}/positions/stop-profit-loss`);
    expect(wire.headers['content-type']).toBe('application/json');
    expect(wire.rawBody).toBe('{"leaderUserId":123456789,"symbolId":"BTC-SWAP-USDT","isLong":1,"stopProfitRate":"0.1","stopLossRate":"0.05","stopLossDelay":30}');
    expect(wire.signedText.endsWith(wire.rawBody)).toBe(true);
    expect(keysOf(wire.params)).toEqual(['recvWindow', 'timestamp']);
    expect(wire.signature).toBe('valid');
  });

  it('refuses a bad isLong, stop rate or delay on position TP/SL', async () => {
    const base = { leaderUserId: '123456789', symbolId: 'BTC-SWAP-USDT', isLong: 0 as const };
    const isLong = await client.follower.setPositionStopProfitLoss({ ...base, isLong: 2 as number as 0 | 1 });
    expect(!isLong.ok && isLong.error.rule).toBe('is-long');
    const rate = await client.follower.setPositionStopProfitLoss({ ...base, stopLossRate: dec('0.005') });
    expect(!rate.ok && rate.error.rule).toBe('stop-rate');
    expect(!rate.ok && rate.error.field).toBe('stopLossRate');
    const delay = await client.follower.setPositionStopProfitLoss({ ...base, stopLossDelay: -1 });
    expect(!delay.ok && delay.error.rule).toBe('stopLossDelay-integer');
    const fraction = await client.follower.setPositionStopProfitLoss({ ...base, stopLossDelay: 1.5 });
    expect(!fraction.ok && fraction.error.rule).toBe('stopLossDelay-integer');
    const leader = await client.follower.setPositionStopProfitLoss({ ...base, leaderUserId: '12a' });
    expect(!leader.ok && leader.error.rule).toBe('leader-user-id');
    expect(venue.requests).toHaveLength(0);
  });

  it('sends a valid config with leaderUserId as a bare JSON number and decimals as strings', async () => {
    venue.reply(`PUT ${PREFIX}/config`, { body: v2(null) });
    const result = await client.follower.setConfig(VALID, { minSingleAmount: dec(10), maxFollowLeverage: dec(25) });
    expect(result).toEqual({ ok: true, value: undefined });
    const wire = venue.last();
    expect(wire.method).toBe('PUT');
    expect(wire.path).toBe(`${PREFIX}/config`);
    expect(wire.rawBody).toBe(VALID_BODY);
    expect(wire.signedText.endsWith(VALID_BODY)).toBe(true);
    expect(wire.signature).toBe('valid');
  });

  it('accepts 0 stop rates, 0 daily limit and `all` symbols', async () => {
    venue.reply(`PUT ${PREFIX}/config`, { body: v2(null) });
    const result = await client.follower.setConfig(
      { ...VALID, stopProfitRate: dec(0), stopLossRate: dec(0), dailyMaxInvestAmount: dec(0), followSymbolIds: 'all' },
      { minSingleAmount: dec(10) },
    );
    expect(result.ok).toBe(true);
    expect(venue.requests).toHaveLength(1);
  });

  it('leaves minimum checks to the server when the limits are unknown', async () => {
    venue.reply(`PUT ${PREFIX}/config`, { body: { code: -1130, msg: "Data sent for paramter 'investAmount' is not valid", data: null }, status: 400 });
    const result = await client.follower.setConfig({ ...VALID, followAmountMode: 1, investAmount: dec(1), dailyMaxInvestAmount: dec(1), leverage: dec(125) });
    expect(!result.ok && result.error.kind).toBe('rejected');
    expect(!result.ok && result.error.code).toBe(-1130);
    expect(venue.requests).toHaveLength(1);
  });

  const violations: ReadonlyArray<readonly [number, string, Partial<FollowerConfigUpdate>, FollowerConfigLimits, string]> = [
    [1, 'negative amount', { investAmount: dec(-1) }, {}, 'investAmount'],
    [1, 'more than 8 decimals', { singlePlaceAmount: dec('0.123456789') }, {}, 'singlePlaceAmount'],
    [1, 'negative reserved amount', { isolatedReservedAmount: dec('-0.01') }, {}, 'isolatedReservedAmount'],
    [2, 'maxInvestRate above 1', { maxInvestRate: dec('1.5') }, {}, 'maxInvestRate'],
    [2, 'maxInvestRate with 9 decimals', { maxInvestRate: dec('0.123456789') }, {}, 'maxInvestRate'],
    [3, 'blank followSymbolIds', { followSymbolIds: ' ' }, {}, 'followSymbolIds'],
    [3, 'empty part', { followSymbolIds: 'BTC-SWAP-USDT,,ETH-SWAP-USDT' }, {}, 'followSymbolIds'],
    [3, 'trailing comma', { followSymbolIds: 'BTC-SWAP-USDT,' }, {}, 'followSymbolIds'],
    [3, '`all` combined', { followSymbolIds: 'all,BTC-SWAP-USDT' }, {}, 'followSymbolIds'],
    [4, 'realInvestAmount below reserved + single', { realInvestAmount: dec(14) }, {}, 'realInvestAmount'],
    [4, 'singlePlaceAmount below the per-order minimum', { singlePlaceAmount: dec(10) }, { minSingleAmount: dec(20) }, 'singlePlaceAmount'],
    [5, 'realInvestAmount below reserved + fixed-rate minimum', { followAmountMode: 1, realInvestAmount: dec(100) }, { minFixedRateAmount: dec(200) }, 'realInvestAmount'],
    [6, 'investAmount below the fixed-rate minimum', { followAmountMode: 1, investAmount: dec(40) }, { minFixedRateAmount: dec(50) }, 'investAmount'],
    [6, 'investAmount below the per-order minimum', { investAmount: dec(5) }, { minSingleAmount: dec(10) }, 'investAmount'],
    [7, 'daily limit below the per-order minimum', { dailyMaxInvestAmount: dec(5) }, { minSingleAmount: dec(10) }, 'dailyMaxInvestAmount'],
    [8, 'leverage above the maximum follow leverage', { leverage: dec(50) }, { maxFollowLeverage: dec(25) }, 'leverage'],
    [9, 'stopProfitRate below 0.01', { stopProfitRate: dec('0.005') }, {}, 'stopProfitRate'],
    [9, 'stopLossRate below 0.01', { stopLossRate: dec('0.009') }, {}, 'stopLossRate'],
    [10, 'followMarginType 3', { followMarginType: 3 as number as FollowMarginType }, {}, 'followMarginType'],
    [10, 'followAmountMode 2', { followAmountMode: 2 as number as FollowAmountMode }, {}, 'followAmountMode'],
  ];

  it.each(violations)('rule %i: refuses %s without sending', async (n, _what, change, limits, field) => {
    const result = await client.follower.setConfig({ ...VALID, ...change }, limits);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.kind).toBe('invalid-request');
    expect(result.error.rule).toBe(`follower-config-rule-${n}`);
    expect(result.error.field).toBe(field);
    expect(result.error.endpoint).toBe(`PUT ${PREFIX}/config`);
    expect(venue.requests).toHaveLength(0);
  });

  it('refuses a config with a missing field or a bad leader id', async () => {
    const missing = await client.follower.setConfig({ ...VALID, zeroSlippageSwitch: undefined } as unknown as FollowerConfigUpdate);
    expect(!missing.ok && missing.error.rule).toBe('mandatory-parameter');
    expect(!missing.ok && missing.error.field).toBe('zeroSlippageSwitch');
    const noAmount = await client.follower.setConfig({ ...VALID, realInvestAmount: undefined } as unknown as FollowerConfigUpdate);
    expect(!noAmount.ok && noAmount.error.field).toBe('realInvestAmount');
    const zeroLeader = await client.follower.setConfig({ ...VALID, leaderUserId: '0' });
    expect(!zeroLeader.ok && zeroLeader.error.rule).toBe('leader-user-id');
    const delay = await client.follower.setConfig({ ...VALID, stopLossDelay: -5 });
    expect(!delay.ok && delay.error.rule).toBe('stopLossDelay-integer');
    expect(venue.requests).toHaveLength(0);
  });

  it('unfollows a leader by path parameter (data null)', async () => {
    venue.reply(`DELETE ${PREFIX}/leaders/123456789`, { body: v2(null) });
    const result = await client.follower.unfollow('123456789');
    expect(result).toEqual({ ok: true, value: undefined });
    const wire = venue.last();
    expect(wire.method).toBe('DELETE');
    expect(wire.path).toBe(`${PREFIX}/leaders/123456789`);
    expect(keysOf(wire.params)).toEqual(['recvWindow', 'timestamp']);
    expect(wire.signature).toBe('valid');
  });

  it('refuses a leader id below 1 and maps -120055 to rejected', async () => {
    const zero = await client.follower.unfollow('0');
    expect(!zero.ok && zero.error.rule).toBe('leader-user-id');
    const negative = await client.follower.unfollow('-3');
    expect(!negative.ok && negative.error.rule).toBe('leader-user-id');
    expect(venue.requests).toHaveLength(0);
    venue.reply(`DELETE ${PREFIX}/leaders/123456789`, {
      status: 400, body: { code: -120055, msg: 'The follower currently has copy position, cannot be removed.', data: null },
    });
    const result = await client.follower.unfollow('123456789');
    expect(!result.ok && result.error.kind).toBe('rejected');
    expect(!result.ok && result.error.code).toBe(-120055);
    expect(!result.ok && result.error.retryable).toBe(false);
  });

  it('maps -32045 on a config write to rejected', async () => {
    venue.reply(`PUT ${PREFIX}/config`, { status: 400, body: { code: -32045, msg: 'Copy trading follower not the service.', data: null } });
    const result = await client.follower.setConfig(VALID);
    expect(!result.ok && result.error.kind).toBe('rejected');
    expect(!result.ok && result.error.code).toBe(-32045);
  });
});
