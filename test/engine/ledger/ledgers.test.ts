import { dec } from '../../../src/core/decimal.js';
import type { Intent } from '../../../src/model/intents.js';
import { EXTERNAL_LEDGER } from '../../../src/model/ledger.js';
import { order } from '../../sim/engine/engine-support.js';
import { ACCOUNT, BTC, closeLong, KernelRig, marketBuy, scripted, World } from '../kernel/kernel-support.js';

/** The kernel's ledgers on the simulated exchange: two strategies on one symbol, the external ledger, claims, a liquidation. */

function own(rig: KernelRig, owner: string, side: 'LONG' | 'SHORT' = 'LONG'): string {
  return rig.kernel.ledgers.position(owner, BTC, side)?.qty.toFixed() ?? '0';
}

function account(rig: KernelRig, side: 'LONG' | 'SHORT' = 'LONG'): string {
  return rig.kernel.cache.position(BTC, side)?.qty.toFixed() ?? '0';
}

function reduceLong(quantity: string, key: string): Intent {
  return { type: 'place', symbol: BTC, side: 'SELL', positionSide: 'LONG', orderType: 'MARKET', quantity: dec(quantity), reduceOnly: true, key };
}

describe('ledgers: every strategy sees and manages only its own position', () => {
  test('two strategies long on one symbol: each sees its own size, closing "the whole position" closes only its own', async () => {
    const world = new World();
    const alpha = scripted('alpha', { onStart: (ctx) => ctx.emit(marketBuy('3', 'a-entry')) });
    const beta = scripted('beta', { onStart: (ctx) => ctx.emit(marketBuy('2', 'b-entry')) });
    const rig = new KernelRig(world, { strategies: [alpha, beta] });
    await rig.start();

    expect(account(rig)).toBe('5');
    expect(alpha.ctx().position(BTC, 'LONG')?.qty.toFixed()).toBe('3');
    expect(beta.ctx().position(BTC, 'LONG')?.qty.toFixed()).toBe('2');
    expect(alpha.ctx().account.position(BTC, 'LONG')?.qty.toFixed()).toBe('5');
    expect(own(rig, EXTERNAL_LEDGER)).toBe('0');

    // alpha closes "its whole position": the risk engine resolves that to alpha's 3, not the account's 5.
    alpha.emit(closeLong());
    await rig.settle();
    expect(account(rig)).toBe('2');
    expect(own(rig, 'alpha')).toBe('0');
    expect(own(rig, 'beta')).toBe('2');
    const closing = world.allOrders().find((o) => o.clientOrderId.startsWith('alpha-') && o.side === 'SELL');
    expect(closing?.origQty).toBe('3');

    // Reducing the long is denied for alpha (it holds nothing), even though the account holds 2 (beta's).
    alpha.emit(reduceLong('1', 'a-extra'));
    await rig.settle();
    expect(alpha.of('intent.denied').map((e) => e.denial.code)).toEqual(['NO_POSITION']);
    expect(account(rig)).toBe('2');

    // The ledgers' fees add up to the account's; alpha's round trip realized what its own fills say.
    const fills = rig.of('account.fill').map((e) => e.fill);
    const fees = fills.reduce((sum, f) => sum.add(f.fee), dec(0));
    expect(rig.kernel.ledgers.all().reduce((sum, p) => sum.add(p.fees), dec(0)).toFixed()).toBe(fees.toFixed());
    const multiplier = rig.kernel.cache.instrument(BTC)?.contractMultiplier ?? dec(1);
    const alphaFlow = fills.filter((f) => f.clientOrderId.startsWith('alpha-')).reduce((sum, f) => sum.add(f.price.mul(f.qty).mul(multiplier).mul(f.side === 'SELL' ? 1 : -1)), dec(0));
    expect(rig.kernel.ledgers.position('alpha', BTC, 'LONG')?.realizedPnl.toDecimalPlaces(8).toFixed()).toBe(alphaFlow.toDecimalPlaces(8).toFixed());
    // Each strategy saw only its own fills.
    expect(alpha.of('account.fill').every((e) => e.fill.clientOrderId.startsWith('alpha-'))).toBe(true);
    expect(beta.of('account.fill').map((e) => e.fill.clientOrderId)).toEqual(['beta-b-entry']);
    await rig.stop(false);
  });

  test('a manual trade is booked to the external ledger, shown in status, and claimable; a restart rebuilds the ledgers', async () => {
    const world = new World();
    const alpha = scripted('alpha', { onStart: (ctx) => ctx.emit(marketBuy('2', 'entry')) });
    const rig = new KernelRig(world, { strategies: [alpha] });
    await rig.start();

    // Someone trades on the exchange's web page: 4 more contracts long.
    world.ex.placeOrder(ACCOUNT, order({ side: 'BUY', type: 'MARKET', quantity: dec(4), clientOrderId: 'web-123' }));
    await rig.settle();
    expect(account(rig)).toBe('6');
    expect(own(rig, 'alpha')).toBe('2');
    expect(own(rig, EXTERNAL_LEDGER)).toBe('4');
    expect(rig.kernel.status().ledgers).toEqual(
      expect.arrayContaining([expect.objectContaining({ owner: 'alpha', side: 'LONG', qty: '2' }), expect.objectContaining({ owner: EXTERNAL_LEDGER, side: 'LONG', qty: '4' })]),
    );

    // The operator hands 3 of them to alpha.
    const claimed = rig.kernel.claim('alpha', BTC, 'LONG', dec(3));
    expect(claimed.ok).toBe(true);
    await rig.settle();
    expect(own(rig, 'alpha')).toBe('5');
    expect(own(rig, EXTERNAL_LEDGER)).toBe('1');
    expect(alpha.of('ledger.claimed').map((e) => e.qty.toFixed())).toEqual(['3']);
    expect(rig.kernel.claim('alpha', BTC, 'SHORT')).toMatchObject({ ok: false, error: { code: 'NOTHING_TO_CLAIM' } });
    expect(rig.kernel.claim('nobody', BTC, 'LONG')).toMatchObject({ ok: false, error: { code: 'UNKNOWN_STRATEGY' } });
    const before = rig.kernel.ledgers.all().map((p) => ({ ...p, updateTime: 0 }));

    // The process dies (no stop): a new one on the same state finds the same ledgers, fills replayed by the resync are not booked twice.
    rig.detach();
    const again = scripted('alpha');
    const next = new KernelRig(world, { strategies: [again] });
    await next.start();
    expect(next.kernel.ledgers.all().map((p) => ({ ...p, updateTime: 0 }))).toEqual(before);
    expect(again.ctx().position(BTC, 'LONG')?.qty.toFixed()).toBe('5');
    expect(own(next, EXTERNAL_LEDGER)).toBe('1');
    await next.stop(false);
  });

  test('claims from config: the position found at start becomes the claiming strategy\'s', async () => {
    const world = new World();
    world.ex.placeOrder(ACCOUNT, order({ side: 'BUY', type: 'MARKET', quantity: dec(4), clientOrderId: 'web-1' }));
    const alpha = scripted('alpha');
    const instance = { ...alpha.instance, claims: [{ symbol: BTC, sides: ['LONG' as const] }] };
    const rig = new KernelRig(world, { strategies: [instance] });
    await rig.start();
    expect(account(rig)).toBe('4');
    expect(own(rig, 'alpha')).toBe('4');
    expect(own(rig, EXTERNAL_LEDGER)).toBe('0');
    expect(rig.of('ledger.claimed')).toEqual([expect.objectContaining({ strategyId: 'alpha', by: 'config' })]);
    await rig.stop(false);
  });

  test('funding is shared by holding: the shares sum to the payment', async () => {
    const world = new World();
    const alpha = scripted('alpha', { onStart: (ctx) => ctx.emit(marketBuy('6', 'entry')) });
    const beta = scripted('beta', { onStart: (ctx) => ctx.emit(marketBuy('4', 'entry')) });
    const rig = new KernelRig(world, { strategies: [alpha, beta] });
    await rig.start();
    const ts = world.clock.now();
    world.ex.applyMarketEvent({ type: 'funding', ts, symbol: BTC, rate: '0.01', nextFundingTime: ts + 1000, period: '8H' });
    await rig.advance(1000);
    world.ex.applyMarketEvent({ type: 'funding', ts: world.clock.now(), symbol: BTC, rate: '0.0001', nextFundingTime: world.clock.now() + 8 * 3_600_000, period: '8H' });
    await rig.advance(200);
    const paid = rig.of('account.funding').map((e) => e.funding.amount.toFixed());
    expect(paid).toEqual(['-10']);
    expect(rig.kernel.ledgers.position('alpha', BTC, 'LONG')?.funding.toFixed()).toBe('-6');
    expect(rig.kernel.ledgers.position('beta', BTC, 'LONG')?.funding.toFixed()).toBe('-4');
    await rig.stop(false);
  });
});
