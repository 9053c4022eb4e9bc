import { dec } from '../../../src/core/decimal.js';
import type { ExchangeClient } from '../../../src/venue/exchange-client.js';
import type { RunningSim } from './sim-harness.js';
import { BTC, BTC_USDC, ETH, failure, startSim, value } from './sim-harness.js';

/** Leverage, margin type, sub-accounts, transfers and balance flows through the project's client. */
let s: RunningSim;
let trader: ExchangeClient;
let sub: ExchangeClient;
const PARENT = '879141111';
const SUB = '879145609';

beforeAll(async () => {
  s = await startSim();
  trader = s.client('trader');
  sub = s.client('sub-account');
});
afterAll(() => s.stop());

describe('leverage and margin type (v1)', () => {
  it('sets leverage and reads it back through accountLeverage', async () => {
    const set = value(await trader.account.leverage(ETH, 7));
    expect(set.symbolId).toBe(ETH);
    expect(set.leverage.eq(7)).toBe(true);
    const [row] = value(await trader.account.accountLeverage(ETH));
    expect(row?.leverage.eq(7)).toBe(true);
    expect(row?.symbolId).toBe(ETH);
  });

  it('switches margin type on a flat symbol, USDT-M and USDC-M', async () => {
    expect(value(await trader.account.marginType(BTC, 'ISOLATED')).marginType).toBe('ISOLATED');
    expect(value(await trader.account.accountLeverage(BTC))[0]?.marginType).toBe('ISOLATED');
    expect(value(await trader.account.marginType(BTC, 'CROSS')).marginType).toBe('CROSS');
    expect(value(await trader.account.marginType(BTC_USDC, 'ISOLATED', 'USDC')).marginType).toBe('ISOLATED');
    expect(value(await trader.account.accountLeverage(BTC_USDC, 'USDC'))[0]?.marginType).toBe('ISOLATED');
  });

  it('a USDC-M symbol without category=USDC is refused', async () => {
    expect(failure(await trader.account.accountLeverage(BTC_USDC))).toMatchObject({ kind: 'rejected', code: -1213 });
  });
});

describe('sub-accounts and transfers', () => {
  it('lists the sub-account of the parent', async () => {
    const subs = value(await trader.account.subAccountList());
    expect(subs.map((u) => u.userId)).toEqual([SUB]);
    expect(subs[0]?.email).toBe('sub1@sim.stratd.local');
    expect(value(await trader.account.subAccountList({ userId: SUB })).length).toBe(1);
  });

  it('moves funds parent spot → sub contract, replays a transferId without moving twice, refuses a reused id', async () => {
    const subBefore = value(await sub.account.futuresBalance()).find((b) => b.coin === 'USDT');
    const move = { fromUid: PARENT, toUid: SUB, fromAccountType: 'MAIN', toAccountType: 'FUTURES', coin: 'USDT', quantity: dec('250.5'), transferId: '7001' } as const;
    expect(value(await trader.account.subAccountTransfer(move)).code).toBe(200);
    expect(value(await trader.account.subAccountTransfer(move)).code).toBe(200); // replay: same answer
    const subAfter = value(await sub.account.futuresBalance()).find((b) => b.coin === 'USDT');
    expect(subAfter?.balance.sub(subBefore?.balance ?? 0).eq('250.5')).toBe(true);

    const reused = await trader.account.subAccountTransfer({ ...move, quantity: dec(1) });
    expect(failure(reused)).toMatchObject({ kind: 'rejected', code: -1300 });
  });

  it('parent spot ↔ contract, and the sub-user sends to the parent spot', async () => {
    expect(value(await trader.account.subAccountTransfer({ fromUid: PARENT, toUid: PARENT, fromAccountType: 'FUTURES', toAccountType: 'MAIN', coin: 'USDT', quantity: dec(100) })).code).toBe(200);
    expect(value(await sub.account.subAccountTransfer({ fromUid: SUB, toUid: PARENT, fromAccountType: 'FUTURES', toAccountType: 'MAIN', coin: 'USDT', quantity: dec('0.5') })).code).toBe(200);
    // Not one of the six permitted moves: a sub-user cannot pull from the parent.
    const pull = await sub.account.subAccountTransfer({ fromUid: PARENT, toUid: SUB, fromAccountType: 'MAIN', toAccountType: 'MAIN', coin: 'USDT', quantity: dec(1) });
    expect(failure(pull)).toMatchObject({ kind: 'rejected', code: -1204 });
  });
});

describe('balance flows', () => {
  it('v1 account flow, v1 futures flow and v2 flow show the transfers', async () => {
    const spot = value(await trader.account.accountBalanceFlow({ accountType: 1, coin: 'USDT' }));
    expect(spot.length).toBeGreaterThan(0);
    expect(spot.every((row) => row.coin === 'USDT' && row.flowTypeValue === 51)).toBe(true);

    const futures = value(await trader.account.futuresBalanceFlow({ coin: 'USDT' }));
    expect(futures.some((row) => row.change.eq(-100))).toBe(true);

    const v2 = value(await trader.account.balanceFlowV2({ accountType: 'MAIN', coin: 'USDT' }));
    expect(v2.some((row) => row.change.eq('-250.5') && row.accountType === 'MAIN')).toBe(true);
    expect(v2.some((row) => row.change.eq(100))).toBe(true);

    const subFlows = value(await sub.account.balanceFlowV2({ accountType: 'FUTURES' }));
    expect(subFlows.some((row) => row.change.eq('250.5'))).toBe(true);
  });
});
