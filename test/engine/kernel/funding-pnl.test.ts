import { dec } from '../../../src/core/decimal.js';
import { ACCOUNT, BTC, KernelRig, marketBuy, ofType, scripted, World } from './kernel-support.js';

/**
 * Funding is part of the day's PnL: the simulator settles funding on the held position (balance flow 32),
 * the port reports it as `account.funding`, and the kill switch's daily loss counts it.
 */
function fundingAt(world: World, rate: string, nextInMs: number): void {
  const ts = world.clock.now();
  world.ex.applyMarketEvent({ type: 'funding', ts, symbol: BTC, rate, nextFundingTime: ts + nextInMs, period: '8H' });
}

describe('funding in the day PnL', () => {
  test('a funding payment moves the day PnL by its amount, once, and can trip the kill switch', async () => {
    const world = new World();
    const alpha = scripted('alpha', { onStart: (ctx) => ctx.emit(marketBuy('10', 'entry')) });
    const rig = new KernelRig(world, { strategies: [alpha], globalLimits: { dailyLossLimit: dec(8) } });
    await rig.start();
    expect(rig.kernel.cache.position(BTC, 'LONG')?.qty.toFixed()).toBe('10');
    const before = dec(rig.kernel.status().killSwitch.dayPnl);
    expect(rig.kernel.status().killSwitch.engaged).toBe(false);

    // Rate 0.01 due in one second; the mark stays at 100000: 10 × 0.001 BTC × 100000 × 0.01 = 10 USDT paid.
    fundingAt(world, '0.01', 1000);
    await rig.advance(1000);
    fundingAt(world, '0.0001', 8 * 3_600_000);
    await rig.advance(200);

    const paid = ofType(rig.events, 'account.funding');
    expect(paid.map((e) => [e.funding.symbol, e.funding.amount.toFixed()])).toEqual([[BTC, '-10']]);
    expect(alpha.of('account.funding')).toHaveLength(1);
    const after = dec(rig.kernel.status().killSwitch.dayPnl);
    expect(after.sub(before).toFixed()).toBe('-10');
    const flows = world.ex.balanceFlows({ userId: ACCOUNT.userId, kind: 'FUNDING', limit: 10 });
    expect(flows.map((f) => f.change)).toEqual(['-10']);

    // The fee of the entry plus 10 of funding pass the 8 limit.
    expect(rig.kernel.status().killSwitch.engaged).toBe(true);
    expect(ofType(rig.events, 'risk.killSwitch').at(-1)?.reason).toMatch(/daily loss/);

    // A reconciliation lists the day's payments again: counted once.
    const reconciled = await rig.kernel.reconcile(0);
    expect(reconciled.ok).toBe(true);
    await rig.settle();
    expect(dec(rig.kernel.status().killSwitch.dayPnl).toFixed()).toBe(after.toFixed());
    await rig.stop(false);
  });

  test('funding received counts too; a new day starts from zero', async () => {
    const world = new World();
    const alpha = scripted('alpha', { onStart: (ctx) => ctx.emit(marketBuy('10', 'entry')) });
    const rig = new KernelRig(world, { strategies: [alpha] });
    await rig.start();
    rig.kernel.startNewDay();
    expect(dec(rig.kernel.status().killSwitch.dayPnl).toFixed()).toBe('0');
    // A negative rate: shorts pay longs, the long receives 5.
    fundingAt(world, '-0.005', 1000);
    await rig.advance(1000);
    fundingAt(world, '0.0001', 8 * 3_600_000);
    await rig.advance(200);
    expect(dec(rig.kernel.status().killSwitch.dayPnl).toFixed()).toBe('5');
    await rig.stop(false);
  });
});
