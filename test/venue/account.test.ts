import { dec, Decimal } from '../../src/core/decimal.js';
import type { ExchangeClient } from '../../src/venue/exchange-client.js';
import { VenueError } from '../../src/venue/venue-error.js';
import { outcomeOf } from '../support/skipped-rows.js';
import type { SkippedRows } from '../../src/venue/wire/tolerant-list.js';
import { clientFor, TEST_KEY, v2 } from '../support/client.js';
import { FixtureVenue } from '../support/fixture-venue.js';
import type { RecordedRequest } from '../support/fixture-venue.js';

// API-NOTES §5.12.
const SUB_ACCOUNTS = [
  {
    userId: '879141111', email: 'aaa@rpbsho.com', remark: '',
    accountList: [
      { accountId: '1795119090857208832', userId: '879145609', accountType: 'MAIN' },
      { accountId: '1795119090857208834', userId: '879145609', accountType: 'FUTURES' },
    ],
  },
];
// API-NOTES §5.11.
const FLOW_V1 = {
  id: '539870570957903104', accountId: '122216245228131', coin: 'BTC', coinId: 'BTC', coinName: 'BTC', flowTypeValue: 51,
  flowType: 'USER_ACCOUNT_TRANSFER', flowName: 'Transfer', change: '-12.5', total: '379.624059937852365', created: '1579093587214',
};
const FLOW_V2 = {
  id: '539870570957903104', accountType: 'MAIN', coin: 'BTC', symbol: 'BTCUSDT', flowType: 'USER_ACCOUNT_TRANSFER', flowName: 'Transfer',
  change: '-12.5', total: '379.624059937852365', created: 1579093587214,
};
// API-NOTES §4.1 (live row with `asset`; 2026 docs row with `coin` and `coupon`).
const BALANCE_ASSET = { balance: '10.07317715', availableBalance: '9.07317715', positionMargin: '0', orderMargin: '1', asset: 'USDT', crossUnRealizedPnl: '0' };
const BALANCE_COIN = { balance: '10.07317715', availableBalance: '9.07317715', positionMargin: '0', orderMargin: '1', coin: 'USDT', crossUnRealizedPnl: '0', coupon: '100.5' };
// API-NOTES §4.2.
const POSITION = {
  symbol: 'DOGE-SWAP-USDT', side: 'LONG', avgPrice: '0.21191', position: '63', available: '63', leverage: '25', lastPrice: '0.20932',
  positionValue: '13.3503', flp: '0.05471', margin: '0.5262', marginRate: '', unrealizedPnL: '-0.1701', profitRate: '-0.3185',
  realizedPnL: '-0.008', minMargin: '0', maxNotionalValue: '10000000', markPrice: '0.20921',
};

let venue: FixtureVenue;
let client: ExchangeClient;

beforeAll(async () => {
  venue = await FixtureVenue.start();
  client = clientFor(venue);
});
afterAll(() => venue.close());
beforeEach(() => venue.clear());

/** Business params as sent, in order (auth params removed). */
function business(wire: RecordedRequest): Array<readonly [string, string]> {
  return wire.params.filter(([k]) => k !== 'recvWindow' && k !== 'timestamp');
}

function expectSigned(wire: RecordedRequest, method: string, path: string): void {
  expect(wire.method).toBe(method);
  expect(wire.path).toBe(path);
  expect(wire.signature).toBe('valid');
  expect(wire.headers['x-bb-apikey']).toBe(TEST_KEY);
}

/** A v1 POST carries every parameter in the form body, none in the query. */
function expectForm(wire: RecordedRequest, params: ReadonlyArray<readonly [string, string]>): void {
  expect(wire.headers['content-type']).toBe('application/x-www-form-urlencoded');
  expect(wire.rawQuery).toBe('');
  expect(business(wire)).toEqual(params);
}

/** A GET carries every parameter in the query, with no body. */
function expectQuery(wire: RecordedRequest, params: ReadonlyArray<readonly [string, string]>): void {
  expect(wire.rawBody).toBe('');
  expect(business(wire)).toEqual(params);
}

describe('sub-accounts and funds', () => {
  it('lists sub-accounts with string ids', async () => {
    venue.reply('GET /api/v1/subAccount/list', { body: SUB_ACCOUNTS });
    const result = await client.account.subAccountList({ userId: '879141111', email: 'aaa@rpbsho.com' });
    const wire = venue.last();
    expectSigned(wire, 'GET', '/api/v1/subAccount/list');
    expectQuery(wire, [['userId', '879141111'], ['email', 'aaa@rpbsho.com']]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value[0]?.userId).toBe('879141111');
    expect(result.value[0]?.accountList[1]).toEqual({ accountId: '1795119090857208834', userId: '879145609', accountType: 'FUTURES' });
  });

  it('transfers with a signed form body, the coin sent as `coin`', async () => {
    venue.reply('POST /api/v1/subAccount/transfer', { body: { code: 200, msg: 'success' } });
    const result = await client.account.subAccountTransfer({
      fromUid: '879141111', toUid: '879145609', fromAccountType: 'MAIN', toAccountType: 'FUTURES', coin: 'USDT', quantity: dec('12.5'), transferId: '1001',
    });
    const wire = venue.last();
    expectSigned(wire, 'POST', '/api/v1/subAccount/transfer');
    expectForm(wire, [
      ['fromUid', '879141111'], ['toUid', '879145609'], ['fromAccountType', 'MAIN'], ['toAccountType', 'FUTURES'],
      ['coin', 'USDT'], ['quantity', '12.5'], ['transferId', '1001'],
    ]);
    expect(result.ok && result.value).toEqual({ code: 200, msg: 'success' });
  });

  it('refuses invalid transfers locally, sending nothing', async () => {
    const base = { fromUid: '1', toUid: '2', fromAccountType: 'MAIN', toAccountType: 'FUTURES', coin: 'USDT', quantity: dec(1) } as const;
    const cases: Array<[Parameters<ExchangeClient['account']['subAccountTransfer']>[0], string, string]> = [
      [{ ...base, quantity: dec(0) }, 'quantity-positive', 'quantity'],
      [{ ...base, quantity: dec(-1) }, 'quantity-positive', 'quantity'],
      [{ ...base, fromUid: 'abc' }, 'fromUid-format', 'fromUid'],
      [{ ...base, toUid: '1.5' }, 'toUid-format', 'toUid'],
      [{ ...base, transferId: 'x1' }, 'transferId-format', 'transferId'],
      [{ ...base, coin: ' ' }, 'mandatory-parameter', 'coin'],
      [{ ...base, toUid: '1', toAccountType: 'MAIN' }, 'transfer-same-account', 'toAccountType'],
    ];
    for (const [move, rule, field] of cases) {
      const result = await client.account.subAccountTransfer(move);
      expect(!result.ok && [result.error.kind, result.error.rule, result.error.field]).toEqual(['invalid-request', rule, field]);
    }
    const badType = JSON.parse('{"fromUid":"1","toUid":"2","fromAccountType":"SPOT","toAccountType":"FUTURES","coin":"USDT"}') as typeof base;
    const typed = await client.account.subAccountTransfer({ ...badType, quantity: dec(1) });
    expect(!typed.ok && typed.error.rule).toBe('account-type');
    expect(!typed.ok && typed.error.endpoint).toBe('POST /api/v1/subAccount/transfer');
    // Same account type on different uids is a real move.
    venue.reply('POST /api/v1/subAccount/transfer', { body: { code: '200', msg: 'success' } });
    expect((await client.account.subAccountTransfer({ ...base, toAccountType: 'MAIN' })).ok).toBe(true);
    expect(venue.requests).toHaveLength(1);
  });

  it('reads the v1 account balance flow with decimals, string ids and epoch times', async () => {
    venue.reply('GET /api/v1/account/balanceFlow', { body: [FLOW_V1] });
    const result = await client.account.accountBalanceFlow({
      accountType: 3, coin: 'BTC', flowType: 51, fromId: '1', endId: '539870570957903104', startTime: 1579093587000, endTime: 1579093588000, limit: 50, category: 'USDT',
    });
    const wire = venue.last();
    expectSigned(wire, 'GET', '/api/v1/account/balanceFlow');
    expectQuery(wire, [
      ['accountType', '3'], ['coin', 'BTC'], ['flowType', '51'], ['fromId', '1'], ['endId', '539870570957903104'],
      ['startTime', '1579093587000'], ['endTime', '1579093588000'], ['limit', '50'], ['category', 'USDT'],
    ]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const row = result.value[0];
    expect(row?.id).toBe('539870570957903104');
    expect(row?.accountId).toBe('122216245228131');
    expect(row?.change).toBeInstanceOf(Decimal);
    expect(row?.change.toString()).toBe('-12.5');
    expect(row?.total?.toFixed()).toBe('379.624059937852365');
    expect(row?.created).toBe(1579093587214);
    expect(row?.flowTypeValue).toBe(51);
    expect(row !== undefined && 'deductionAmount' in row).toBe(false);
  });

  it('refuses a list limit outside 1..1000', async () => {
    for (const limit of [0, 1001, 2.5]) {
      const result = await client.account.accountBalanceFlow({ limit });
      expect(!result.ok && result.error.rule).toBe('limit-range');
    }
    const v2Limit = await client.account.balanceFlowV2({ limit: 1001 });
    expect(!v2Limit.ok && v2Limit.error.rule).toBe('limit-range');
    expect(venue.requests).toHaveLength(0);
  });

  it('reads the futures balance flow with symbol fields', async () => {
    venue.reply('GET /api/v1/futures/balanceFlow', { body: [{ ...FLOW_V1, flowTypeValue: '28', symbol: 'BTC-SWAP-USDT', symbolId: 'BTC-SWAP-USDT', voucherType: '', deductionAmount: '0.5' }] });
    const result = await client.account.futuresBalanceFlow({ coin: 'USDT', limit: 20 });
    const wire = venue.last();
    expectSigned(wire, 'GET', '/api/v1/futures/balanceFlow');
    expectQuery(wire, [['coin', 'USDT'], ['limit', '20']]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value[0]?.symbolId).toBe('BTC-SWAP-USDT');
    expect(result.value[0]?.flowTypeValue).toBe(28);
    expect(result.value[0]?.deductionAmount?.toString()).toBe('0.5');
    expect(result.value[0] !== undefined && 'voucherType' in result.value[0]).toBe(false);
  });

  it('reads the v2 balance flow from the wrapper, types by name, created a number', async () => {
    venue.reply('GET /api/v2/account/balance-flow', { body: v2([FLOW_V2]) });
    const result = await client.account.balanceFlowV2({ accountType: 'MAIN', flowType: 'USER_ACCOUNT_TRANSFER', limit: 10 });
    const wire = venue.last();
    expectSigned(wire, 'GET', '/api/v2/account/balance-flow');
    expectQuery(wire, [['accountType', 'MAIN'], ['flowType', 'USER_ACCOUNT_TRANSFER'], ['limit', '10']]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value[0]?.accountType).toBe('MAIN');
    expect(result.value[0]?.created).toBe(1579093587214);
    expect(result.value[0]?.total?.equals(dec('379.624059937852365'))).toBe(true);
    expect(result.value[0]?.symbol).toBe('BTCUSDT');
  });
});

describe('margin and leverage', () => {
  it('sets the margin type with a form body; string code accepted', async () => {
    venue.reply('POST /api/v1/futures/marginType', { body: { code: '200', symbolId: 'ETH-SWAP-USDT', marginType: 'CROSS' } });
    const result = await client.account.marginType('ETH-SWAP-USDT', 'CROSS', 'USDT');
    const wire = venue.last();
    expectSigned(wire, 'POST', '/api/v1/futures/marginType');
    expectForm(wire, [['symbol', 'ETH-SWAP-USDT'], ['marginType', 'CROSS'], ['category', 'USDT']]);
    expect(result.ok && result.value).toEqual({ code: '200', symbolId: 'ETH-SWAP-USDT', marginType: 'CROSS' });
  });

  it('sets leverage; leverage parsed as a Decimal; `symbol` tolerated for `symbolId`', async () => {
    venue.reply('POST /api/v1/futures/leverage', { body: { code: '200', symbolId: 'ETH-SWAP-USDT', leverage: '3' } });
    const result = await client.account.leverage('ETH-SWAP-USDT', 3);
    const wire = venue.last();
    expectSigned(wire, 'POST', '/api/v1/futures/leverage');
    expectForm(wire, [['symbol', 'ETH-SWAP-USDT'], ['leverage', '3']]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.symbolId).toBe('ETH-SWAP-USDT');
    expect(result.value.leverage).toBeInstanceOf(Decimal);
    expect(result.value.leverage.toNumber()).toBe(3);

    venue.reply('POST /api/v1/futures/leverage', { body: { code: 200, symbol: 'ETH-SWAP-USDT', leverage: '5' } });
    const old = await client.account.leverage('ETH-SWAP-USDT', 5, 'USDT');
    expect(old.ok && old.value.symbolId).toBe('ETH-SWAP-USDT');
    expect(old.ok && 'symbol' in old.value).toBe(false);
  });

  it('refuses a leverage that is not a positive integer', async () => {
    for (const bad of [0, -2, 2.5, Number.NaN]) {
      const result = await client.account.leverage('ETH-SWAP-USDT', bad);
      expect(!result.ok && [result.error.kind, result.error.rule, result.error.field]).toEqual(['invalid-request', 'leverage-positive-integer', 'leverage']);
    }
    expect(venue.requests).toHaveLength(0);
  });

  it('reads account leverage rows', async () => {
    venue.reply('GET /api/v1/futures/accountLeverage', { body: [{ symbolId: 'ETH-SWAP-USDT', leverage: '50', marginType: 'CROSS' }] });
    const result = await client.account.accountLeverage('ETH-SWAP-USDT', 'USDT');
    const wire = venue.last();
    expectSigned(wire, 'GET', '/api/v1/futures/accountLeverage');
    expectQuery(wire, [['symbol', 'ETH-SWAP-USDT'], ['category', 'USDT']]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value[0]?.symbolId).toBe('ETH-SWAP-USDT');
    expect(result.value[0]?.leverage.equals(50)).toBe(true);
    expect(result.value[0]?.marginType).toBe('CROSS');
  });
});

describe('futures balance and positions', () => {
  it('reads a balance row that names the coin only as `asset`', async () => {
    venue.reply('GET /api/v1/futures/balance', { body: [BALANCE_ASSET] });
    const result = await client.account.futuresBalance('USDT');
    const wire = venue.last();
    expectSigned(wire, 'GET', '/api/v1/futures/balance');
    expectQuery(wire, [['category', 'USDT']]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const row = result.value[0];
    expect(row?.coin).toBe('USDT');
    expect(row?.balance.toFixed()).toBe('10.07317715');
    expect(row?.availableBalance).toBeInstanceOf(Decimal);
    expect(row?.orderMargin.equals(1)).toBe(true);
    expect(row !== undefined && 'coupon' in row).toBe(false);
    expect(row !== undefined && 'asset' in row).toBe(false);
  });

  it('reads a balance row that names the coin only as `coin`, with coupon', async () => {
    venue.reply('GET /api/v1/futures/balance', { body: [BALANCE_COIN] });
    const result = await client.account.futuresBalance();
    expectQuery(venue.last(), []);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value[0]?.coin).toBe('USDT');
    expect(result.value[0]?.coupon?.toString()).toBe('100.5');
  });

  it('reads positions in contracts; "" fields become absent', async () => {
    venue.reply('GET /api/v1/futures/positions', { body: [POSITION] });
    const result = await client.account.positions({ symbol: 'DOGE-SWAP-USDT', side: 'LONG' });
    const wire = venue.last();
    expectSigned(wire, 'GET', '/api/v1/futures/positions');
    expectQuery(wire, [['symbol', 'DOGE-SWAP-USDT'], ['side', 'LONG']]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const row = result.value[0];
    expect(row?.side).toBe('LONG');
    expect(row?.position).toBeInstanceOf(Decimal);
    expect(row?.position.equals(63)).toBe(true);
    expect(row?.available?.equals(63)).toBe(true);
    expect(row?.flp?.toString()).toBe('0.05471');
    expect(row?.unrealizedPnL.toString()).toBe('-0.1701');
    expect(row !== undefined && 'marginRate' in row).toBe(false);

    venue.reply('GET /api/v1/futures/positions', { body: [] });
    const flat = await client.account.positions();
    expect(flat.ok && flat.value).toEqual([]);
    expectQuery(venue.last(), []);
  });
});

describe('failures', () => {
  it('turns {"code":-1130} with HTTP 400 into a rejected VenueError carrying the traceId', async () => {
    venue.reply('POST /api/v1/futures/leverage', {
      status: 400,
      headers: { traceId: 'f00dfeed-1130' },
      body: { code: -1130, msg: "Data sent for paramter 'leverage' is not valid." },
    });
    const result = await client.account.leverage('ETH-SWAP-USDT', 500);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toBeInstanceOf(VenueError);
    expect(result.error.kind).toBe('rejected');
    expect(result.error.code).toBe(-1130);
    expect(result.error.httpStatus).toBe(400);
    expect(result.error.traceId).toBe('f00dfeed-1130');
    expect(result.error.endpoint).toBe('POST /api/v1/futures/leverage');
    expect(result.error.retryable).toBe(false);
  });

  it('skips and counts a list row with a wrongly typed field, naming it; a single-object reply fails', async () => {
    venue.reply('GET /api/v1/futures/balance', { body: [{ ...BALANCE_ASSET, balance: true }] });
    expect(await outcomeOf(client, () => client.account.futuresBalance())).toEqual({ kind: 'skipped', field: '[0].balance' });

    venue.reply('GET /api/v1/futures/positions', { body: [POSITION, { ...POSITION, side: 'BOTH' }] });
    const reports: SkippedRows[] = [];
    const watching = client.rest.skippedRows$.subscribe((s) => reports.push(s));
    const side = await client.account.positions();
    watching.unsubscribe();
    expect(side.ok && side.value).toHaveLength(1);
    expect(reports).toEqual([{ endpoint: 'GET /api/v1/futures/positions', rows: [{ list: '', index: 1, row: `symbol=${POSITION.symbol}`, field: 'side', message: expect.any(String) as string }] }]);

    venue.reply('GET /api/v1/account/balanceFlow', { body: [{ ...FLOW_V1, change: 'lots' }] });
    expect(await outcomeOf(client, () => client.account.accountBalanceFlow())).toEqual({ kind: 'skipped', field: '[0].change' });

    venue.reply('GET /api/v1/subAccount/list', { body: [{ ...SUB_ACCOUNTS[0], userId: 'u-1' }] });
    expect(await outcomeOf(client, () => client.account.subAccountList())).toEqual({ kind: 'skipped', field: '[0].userId' });

    venue.reply('GET /api/v1/futures/positions', { body: { positions: [] } });
    expect(await outcomeOf(client, () => client.account.positions())).toEqual({ kind: 'malformed-response', field: '(root)' });

    venue.reply('POST /api/v1/futures/marginType', { body: { code: '200', symbolId: 'ETH-SWAP-USDT', marginType: 'PORTFOLIO' } });
    const margin = await client.account.marginType('ETH-SWAP-USDT', 'ISOLATED');
    expect(!margin.ok && [margin.error.kind, margin.error.field]).toEqual(['malformed-response', 'marginType']);
  });

  it('names the missing field of a truncated reply (a list row: skipped and counted)', async () => {
    const { crossUnRealizedPnl: _dropped, ...truncated } = BALANCE_ASSET;
    venue.reply('GET /api/v1/futures/balance', { body: [truncated] });
    expect(await outcomeOf(client, () => client.account.futuresBalance())).toEqual({ kind: 'skipped', field: '[0].crossUnRealizedPnl' });

    const { asset: _asset, ...nameless } = BALANCE_ASSET;
    venue.reply('GET /api/v1/futures/balance', { body: [nameless] });
    expect(await outcomeOf(client, () => client.account.futuresBalance())).toEqual({ kind: 'skipped', field: '[0].coin' });

    venue.reply('POST /api/v1/futures/leverage', { body: { code: '200', leverage: '3' } });
    const lev = await client.account.leverage('ETH-SWAP-USDT', 3);
    expect(!lev.ok && [lev.error.kind, lev.error.field]).toEqual(['malformed-response', 'symbolId']);

    venue.reply('GET /api/v2/account/balance-flow', { body: v2([{ id: FLOW_V2.id, accountType: 'MAIN', coin: 'BTC' }]) });
    expect(await outcomeOf(client, () => client.account.balanceFlowV2())).toEqual({ kind: 'skipped', field: '[0].flowType' });

    venue.reply('GET /api/v1/futures/positions', { body: '[{"symbol":"DOGE-SWAP-USDT","side":"LO' });
    const cut = await client.account.positions();
    expect(!cut.ok && cut.error.kind).toBe('malformed-response');
  });
});
