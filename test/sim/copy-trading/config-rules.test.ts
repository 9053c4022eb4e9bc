import { dec } from '../../../src/core/decimal.js';
import { DEFAULT_FOLLOW_LIMITS } from '../../../src/sim/copy-trading/index.js';
import type { FollowerConfigUpdate } from '../../../src/venue/api/follower-config-rules.js';
import { checkFollowerConfig } from '../../../src/venue/api/follower-config-rules.js';
import { followerConfigSchema } from '../../../src/venue/parsers/follower.js';
import { BTC, ETH, FOLLOWER, HOUR, MINUTE, S5, T0, TORTOISE, call, configBody, errorOf, follow, followerUser, handRig, parsed, runTo, setPrice } from './fixtures.js';
import type { Rig } from './fixtures.js';

/** The client's view of the simulator's limits (5 USDT a copied order, 50 for fixed rate, leverage 125). */
const LIMITS = {
  minSingleAmount: DEFAULT_FOLLOW_LIMITS.minSingleAmount,
  minFixedRateAmount: DEFAULT_FOLLOW_LIMITS.minFixedRateAmount,
  maxFollowLeverage: DEFAULT_FOLLOW_LIMITS.maxFollowLeverage,
};

function freshRig(): Rig {
  const r = handRig({ seed: 3, users: [followerUser(FOLLOWER)], leaders: [S5, TORTOISE] });
  setPrice(r.ex, T0, BTC, '100000');
  setPrice(r.ex, T0, ETH, '4000');
  return r;
}

/** The client's update type from a well-typed wire body. */
function asUpdate(body: Readonly<Record<string, unknown>>): FollowerConfigUpdate {
  const d = (name: string) => dec(String(body[name]));
  return {
    leaderUserId: String(body['leaderUserId']),
    investAmount: d('investAmount'),
    singlePlaceAmount: d('singlePlaceAmount'),
    dailyMaxInvestAmount: d('dailyMaxInvestAmount'),
    leverage: d('leverage'),
    maxInvestRate: d('maxInvestRate'),
    stopProfitRate: d('stopProfitRate'),
    stopLossRate: d('stopLossRate'),
    realInvestAmount: d('realInvestAmount'),
    isolatedReservedAmount: d('isolatedReservedAmount'),
    followAmountMode: Number(body['followAmountMode']) as FollowerConfigUpdate['followAmountMode'],
    stopLossDelay: Number(body['stopLossDelay']),
    followMarginType: Number(body['followMarginType']) as FollowerConfigUpdate['followMarginType'],
    followSymbolIds: String(body['followSymbolIds']),
    zeroSlippageSwitch: body['zeroSlippageSwitch'] === true,
  };
}

const VALID: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
  ['the defaults of the fixtures', {}],
  ['the docs example values, fixed amount', { investAmount: '100', singlePlaceAmount: '10', dailyMaxInvestAmount: '50', leverage: '20', maxInvestRate: '0.5', stopProfitRate: '0.1', stopLossRate: '0.2', realInvestAmount: '100', isolatedReservedAmount: '5', stopLossDelay: 30, followMarginType: 2, followSymbolIds: `${BTC},${ETH}`, zeroSlippageSwitch: true }],
  ['fixed rate at its minimum', { followAmountMode: 1, investAmount: '50', realInvestAmount: '50' }],
  ['fixed rate with a reserve', { followAmountMode: 1, investAmount: '80', realInvestAmount: '60', isolatedReservedAmount: '10' }],
  ['the per-order minimum', { singlePlaceAmount: '5', investAmount: '5', realInvestAmount: '5', dailyMaxInvestAmount: '5' }],
  ['8 decimal places', { investAmount: '1000.12345678', maxInvestRate: '0.12345678', stopLossRate: '0.01000001' }],
  ['decimals as JSON numbers', { investAmount: 1000, singlePlaceAmount: 100.5, leverage: 20, maxInvestRate: 0.5, stopProfitRate: 0.1 }],
  ['the maximum leverage', { leverage: '125' }],
  ['leverage 0 (the leader\'s)', { leverage: '0' }],
  ['stop rates of exactly 0.01', { stopProfitRate: '0.01', stopLossRate: '0.01' }],
  ['maxInvestRate 1', { maxInvestRate: '1' }],
  ['maxInvestRate 0 (no cap)', { maxInvestRate: '0' }],
  ['ALL in capitals', { followSymbolIds: 'ALL' }],
  ['one symbol', { followSymbolIds: ETH }],
  ['leaderUserId as a digit string', { leaderUserId: S5.leaderUserId }],
  ['integers as digit strings', { followAmountMode: '0', followMarginType: '1', stopLossDelay: '15' }],
];

/** [what, patch, code, field, the client rule that also refuses it (undefined: server-only)] */
const INVALID: ReadonlyArray<readonly [string, Record<string, unknown>, number, string, number | undefined]> = [
  // -1102: missing or malformed.
  ['no leaderUserId', { leaderUserId: undefined }, -1102, 'leaderUserId', undefined],
  ['leaderUserId not a number', { leaderUserId: 'abc' }, -1102, 'leaderUserId', undefined],
  ['leaderUserId fractional', { leaderUserId: 1.5 }, -1102, 'leaderUserId', undefined],
  ['investAmount null', { investAmount: null }, -1102, 'investAmount', undefined],
  ['singlePlaceAmount empty', { singlePlaceAmount: '' }, -1102, 'singlePlaceAmount', undefined],
  ['leverage not decimal', { leverage: '10x' }, -1102, 'leverage', undefined],
  ['no realInvestAmount', { realInvestAmount: undefined }, -1102, 'realInvestAmount', undefined],
  ['maxInvestRate a boolean', { maxInvestRate: true }, -1102, 'maxInvestRate', undefined],
  ['followAmountMode fractional', { followAmountMode: 0.5 }, -1102, 'followAmountMode', undefined],
  ['stopLossDelay text', { stopLossDelay: 'soon' }, -1102, 'stopLossDelay', undefined],
  ['no followMarginType', { followMarginType: undefined }, -1102, 'followMarginType', undefined],
  ['followSymbolIds a number', { followSymbolIds: 7 }, -1102, 'followSymbolIds', undefined],
  ['no zeroSlippageSwitch', { zeroSlippageSwitch: undefined }, -1102, 'zeroSlippageSwitch', undefined],
  ['zeroSlippageSwitch 1', { zeroSlippageSwitch: 1 }, -1102, 'zeroSlippageSwitch', undefined],
  // leader id.
  ['leaderUserId 0', { leaderUserId: 0 }, -1130, 'leaderUserId', undefined],
  ['unknown leader', { leaderUserId: 42 }, -1130, 'leaderUserId', undefined],
  // Rule 1.
  ['negative investAmount', { investAmount: '-1' }, -1130, 'investAmount', 1],
  ['singlePlaceAmount with 9 decimals', { singlePlaceAmount: '100.123456789' }, -1130, 'singlePlaceAmount', 1],
  ['negative dailyMaxInvestAmount', { dailyMaxInvestAmount: '-5' }, -1130, 'dailyMaxInvestAmount', 1],
  ['negative leverage', { leverage: '-2' }, -1130, 'leverage', 1],
  ['stopProfitRate with 9 decimals', { stopProfitRate: '0.123456789' }, -1130, 'stopProfitRate', 1],
  ['negative stopLossRate', { stopLossRate: '-0.1' }, -1130, 'stopLossRate', 1],
  ['negative realInvestAmount', { realInvestAmount: '-1' }, -1130, 'realInvestAmount', 1],
  ['negative isolatedReservedAmount', { isolatedReservedAmount: '-0.01' }, -1130, 'isolatedReservedAmount', 1],
  // Rule 2.
  ['maxInvestRate above 1', { maxInvestRate: '1.01' }, -1130, 'maxInvestRate', 2],
  ['negative maxInvestRate', { maxInvestRate: '-0.1' }, -1130, 'maxInvestRate', 2],
  ['maxInvestRate with 9 decimals', { maxInvestRate: '0.123456789' }, -1130, 'maxInvestRate', 2],
  // Rule 3.
  ['blank followSymbolIds', { followSymbolIds: ' ' }, -1130, 'followSymbolIds', 3],
  ['empty followSymbolIds', { followSymbolIds: '' }, -1130, 'followSymbolIds', 3],
  ['an empty part', { followSymbolIds: `${BTC},,${ETH}` }, -1130, 'followSymbolIds', 3],
  ['a trailing comma', { followSymbolIds: `${BTC},` }, -1130, 'followSymbolIds', 3],
  ['`all` combined', { followSymbolIds: `all,${BTC}` }, -1130, 'followSymbolIds', 3],
  ['a blank inside', { followSymbolIds: `${BTC}, ${ETH}` }, -1130, 'followSymbolIds', 3],
  ['an unknown symbol', { followSymbolIds: 'DOGE-SWAP-USDT' }, -1130, 'followSymbolIds', undefined],
  // Rule 4.
  ['singlePlaceAmount below the per-order minimum', { singlePlaceAmount: '4.99', investAmount: '100', realInvestAmount: '100' }, -1130, 'singlePlaceAmount', 4],
  ['realInvestAmount below reserve + single', { isolatedReservedAmount: '10', realInvestAmount: '109.99' }, -1130, 'realInvestAmount', 4],
  // Rule 5.
  ['fixed rate: realInvestAmount below reserve + minimum', { followAmountMode: 1, investAmount: '100', realInvestAmount: '59', isolatedReservedAmount: '10' }, -1130, 'realInvestAmount', 5],
  // Rule 6.
  ['fixed rate: investAmount below the fixed-rate minimum', { followAmountMode: 1, investAmount: '49.99', realInvestAmount: '100' }, -1130, 'investAmount', 6],
  ['fixed amount: investAmount below the per-order minimum', { singlePlaceAmount: '5', investAmount: '4', realInvestAmount: '5' }, -1130, 'investAmount', 6],
  // Rule 7.
  ['daily limit below the per-order minimum', { dailyMaxInvestAmount: '4.5' }, -1130, 'dailyMaxInvestAmount', 7],
  // Rule 8.
  ['leverage above 125', { leverage: '126' }, -1130, 'leverage', 8],
  // Rule 9.
  ['stopProfitRate below 0.01', { stopProfitRate: '0.005' }, -1130, 'stopProfitRate', 9],
  ['stopLossRate below 0.01', { stopLossRate: '0.00999999' }, -1130, 'stopLossRate', 9],
  // Rule 10 (and the mode and delay ranges).
  ['followMarginType 3', { followMarginType: 3 }, -1130, 'followMarginType', 10],
  ['followMarginType -1', { followMarginType: -1 }, -1130, 'followMarginType', 10],
  ['followAmountMode 2', { followAmountMode: 2 }, -1130, 'followAmountMode', 10],
  ['negative stopLossDelay', { stopLossDelay: -5 }, -1130, 'stopLossDelay', undefined],
];

describe('PUT /config rules', () => {
  it.each(VALID)('accepts %s, and so does the client', (_what, patch) => {
    const r = freshRig();
    const body = configBody(S5.leaderUserId, patch);
    expect(call(r, 'followerConfigSet', { json: body })).toEqual({ kind: 'ok', data: null });
    expect(checkFollowerConfig(asUpdate(body), LIMITS)).toBeUndefined();
    const stored = parsed(call(r, 'followerConfigGet', { query: { leaderUserId: S5.leaderUserId } }), followerConfigSchema, 'followerConfigGet');
    expect(stored.leaderUserId).toBe(S5.leaderUserId);
    expect(stored.investAmount.eq(dec(String(body['investAmount'])))).toBe(true);
    expect(stored.followSymbolIds).toBe(body['followSymbolIds']);
  });

  it.each(INVALID)('refuses %s', (_what, patch, code, field, clientRule) => {
    const r = freshRig();
    const body = configBody(S5.leaderUserId, patch);
    const e = errorOf(call(r, 'followerConfigSet', { json: body }));
    expect(e.code).toBe(code);
    expect(e.msg).toBe(
      code === -1102 ? `Mandatory parameter '${field}' was not sent, was empty/null, or malformed.` : `Data sent for paramter '${field}' is not valid.`,
    );
    // Nothing was stored.
    expect(errorOf(call(r, 'followerConfigGet', { query: { leaderUserId: S5.leaderUserId } })).code).toBe(-32045);
    if (clientRule !== undefined) {
      const problem = checkFollowerConfig(asUpdate(body), LIMITS);
      expect(problem?.rule).toBe(`follower-config-rule-${clientRule}`);
      expect(problem?.field).toBe(field);
    }
  });

  it('refuses a body that is not a JSON object with -1102', () => {
    const r = freshRig();
    expect(errorOf(call(r, 'followerConfigSet', { json: undefined })).code).toBe(-1102);
    expect(errorOf(call(r, 'followerConfigSet', { json: [configBody(S5.leaderUserId)] })).code).toBe(-1102);
  });

  it('keeps the leverage while copy positions are open (rule 8), and updates the rest', () => {
    const r = freshRig();
    follow(r, TORTOISE.leaderUserId, { leverage: '3' });
    for (let t = T0 + MINUTE; r.desk.leaderPositions(TORTOISE.leaderUserId).length === 0; t += MINUTE) {
      if (t > T0 + 24 * HOUR) throw new Error('the leader never opened');
      runTo(r, t);
    }
    expect(call(r, 'followerCurrent').kind).toBe('ok');
    const changed = errorOf(call(r, 'followerConfigSet', { json: configBody(TORTOISE.leaderUserId, { leverage: '4' }) }));
    expect(changed).toEqual({ code: -1130, msg: "Data sent for paramter 'leverage' is not valid." });
    expect(call(r, 'followerConfigSet', { json: configBody(TORTOISE.leaderUserId, { leverage: '3.0', singlePlaceAmount: '50' }) })).toEqual({ kind: 'ok', data: null });
    const stored = parsed(call(r, 'followerConfigGet', { query: { leaderUserId: TORTOISE.leaderUserId } }), followerConfigSchema, 'followerConfigGet');
    expect(stored.singlePlaceAmount.toFixed()).toBe('50');
    expect(stored.leverage.toFixed()).toBe('3');
  });
});
