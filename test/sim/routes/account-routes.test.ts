import {
  accountLeverageListSchema,
  ackSchema,
  balanceFlowListSchema,
  balanceFlowV2ListSchema,
  futuresBalanceFlowListSchema,
  futuresBalanceListSchema,
  leverageResultSchema,
  marginTypeResultSchema,
  positionListSchema,
  subAccountListSchema,
} from '../../../src/venue/parsers/account.js';
import { PARENT, RouteHarness, SUB } from './harness.js';

describe('account routes over the engine', () => {
  let h: RouteHarness;
  beforeEach(() => {
    h = new RouteHarness();
  });

  it('sub-accounts of the caller, filtered by id or email', async () => {
    const all = await h.parsed('subAccountList', subAccountListSchema, {});
    expect(all.map((s) => s.userId)).toEqual([SUB]);
    expect(all[0]?.accountList.map((a) => a.accountType)).toEqual(expect.arrayContaining(['MAIN', 'FUTURES']));
    expect(await h.parsed('subAccountList', subAccountListSchema, { params: { email: 'nobody@example.com' } })).toEqual([]);
    expect(await h.code('subAccountList', { params: { userId: 'abc' } })).toBe(-1130);
  });

  it('transfer answers {code: 200, msg: "success"}; `asset` is read as `coin`; flows record it', async () => {
    const move = { fromUid: PARENT, toUid: PARENT, fromAccountType: 'FUTURES', toAccountType: 'MAIN', quantity: '25', transferId: '42' };
    expect(await h.data('subAccountTransfer', { params: { ...move, asset: 'USDT' } })).toEqual({ code: 200, msg: 'success' });
    expect(await h.parsed('subAccountTransfer', ackSchema, { params: { ...move, coin: 'USDT' } })).toMatchObject({ code: 200 });
    expect(await h.code('subAccountTransfer', { params: { ...move, transferId: '43' } })).toBe(-1102);
    expect(await h.code('subAccountTransfer', { params: { ...move, coin: 'USDT', quantity: '0' } })).toBe(-1130);
    expect(await h.code('subAccountTransfer', { params: { ...move, coin: 'USDT', toAccountType: 'SPOT' } })).toBe(-1130);

    const v1 = await h.parsed('accountBalanceFlow', balanceFlowListSchema, { params: { accountType: '3', flowType: '51' } });
    expect(v1.some((f) => f.change.toFixed() === '-25' && f.flowTypeValue === 51)).toBe(true);
    const futures = await h.parsed('futuresBalanceFlow', futuresBalanceFlowListSchema, { params: { limit: '5' } });
    expect(futures.length).toBeGreaterThan(0);
    const v2 = await h.parsed('balanceFlowV2', balanceFlowV2ListSchema, { params: { accountType: 'MAIN', flowType: 'USER_ACCOUNT_TRANSFER' } });
    expect(v2.some((f) => f.change.toFixed() === '25' && f.accountType === 'MAIN')).toBe(true);
    expect(await h.data('accountBalanceFlow', { params: { flowType: '701' } })).toEqual([]);
    expect(await h.code('accountBalanceFlow', { params: { accountType: '2' } })).toBe(-1130);
    expect(await h.code('balanceFlowV2', { params: { limit: '1001' } })).toBe(-1130);
  });

  it('leverage, margin type and accountLeverage', async () => {
    const leverage = (await h.data('leverage', { params: { symbol: 'ETH-SWAP-USDT', leverage: '3' } })) as Record<string, unknown>;
    expect(leverage).toEqual({ code: '200', symbolId: 'ETH-SWAP-USDT', leverage: '3' });
    expect((await h.parsed('leverage', leverageResultSchema, { params: { symbol: 'ETH-SWAP-USDT', leverage: '5' } })).leverage.toFixed()).toBe('5');
    expect(await h.code('leverage', { params: { symbol: 'ETH-SWAP-USDT', leverage: '0' } })).toBe(-1130);
    expect(await h.code('leverage', { params: { symbol: 'ETH-SWAP-USDT' } })).toBe(-1102);
    expect(await h.parsed('marginType', marginTypeResultSchema, { params: { symbol: 'ETH-SWAP-USDT', marginType: 'ISOLATED' } })).toMatchObject({ marginType: 'ISOLATED' });
    expect(await h.code('marginType', { params: { symbol: 'ETH-SWAP-USDT', marginType: 'HEDGE' } })).toBe(-1130);
    const rows = await h.parsed('accountLeverage', accountLeverageListSchema, { params: { symbol: 'ETH-SWAP-USDT' } });
    // symbol is required (document 000).
    expect(await h.code('accountLeverage', {})).toBe(-1102);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ symbolId: 'ETH-SWAP-USDT', marginType: 'ISOLATED' });
    expect(rows[0]?.leverage.toFixed()).toBe('5');
  });

  it('futures balance per category, and positions ([] when flat)', async () => {
    const usdt = await h.parsed('futuresBalance', futuresBalanceListSchema, {});
    expect(usdt).toHaveLength(1);
    expect(usdt[0]?.coin).toBe('USDT');
    expect(usdt[0]?.balance.toFixed()).toBe('100000');
    const wire = (await h.data('futuresBalance', { category: 'USDC' })) as Record<string, unknown>[];
    expect(wire[0]).toMatchObject({ asset: 'USDC', coin: 'USDC', coupon: '0' });

    expect(await h.parsed('positions', positionListSchema, {})).toEqual([]);
    await h.data('orderV1Create', { params: { symbol: 'BTC-SWAP-USDT', side: 'SELL_OPEN', type: 'LIMIT', priceType: 'MARKET', quantity: '7', newClientOrderId: 's1' } });
    const positions = await h.parsed('positions', positionListSchema, { params: { symbol: 'BTC-SWAP-USDT' } });
    expect(positions.map((p) => [p.side, p.position.toFixed()])).toEqual([['SHORT', '7']]);
    expect(await h.parsed('positions', positionListSchema, { params: { side: 'LONG' } })).toEqual([]);
    expect(await h.code('positions', { params: { side: 'BOTH' } })).toBe(-1130);
  });
});
