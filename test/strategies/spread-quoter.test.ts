import { dec } from '../../src/core/decimal.js';
import type { StrategyInstance } from '../../src/engine/strategy/instance.js';
import type { OrderView } from '../../src/sim/engine/types.js';
import spreadQuoter from '../../strategies/spread-quoter/index.js';
import { ACCOUNT, BTC, KernelRig, World } from '../engine/kernel/kernel-support.js';

/**
 * The spread quoter in-process, in virtual time, over the simulated exchange's engine (standard book:
 * bid 99999.9, ask 100000). A process that dies leaves its quotes resting; the next life of the same
 * instance takes them over (or cancels them): none is left resting unmanaged.
 */
const PARAMS = { quantity: 1, halfSpreadBps: 5, requoteBps: 3, maxPosition: 5, staleAfterMs: 60_000 };

function quoter(): StrategyInstance {
  return { id: 'sq', symbols: [BTC], definition: spreadQuoter, params: spreadQuoter.params.parse(PARAMS), limits: {} };
}

/** Open orders as [side, price], bid first. */
function resting(world: World): string[][] {
  return world
    .openOrders()
    .map((o: OrderView) => [o.side, dec(o.price).toFixed()])
    .sort((a, b) => Number(a[1]) - Number(b[1]));
}

describe('spread-quoter across restarts', () => {
  test('a restart adopts the quotes of the earlier life: one quote per side, and a move requotes them all', async () => {
    const world = new World();
    const first = new KernelRig(world, { strategies: [quoter()] });
    await first.start();
    world.book([['100009.9', '5']], [['100010', '5']]);
    await first.settle();
    const earlier = world.openIds();
    expect(earlier).toHaveLength(2);
    first.detach(); // a crash: nothing is cancelled

    const second = new KernelRig(world, { strategies: [quoter()] });
    await second.start();
    await second.settle();
    // Still one quote per side: the earlier ones were taken over, not quoted beside.
    expect(world.openIds()).toHaveLength(2);
    expect(second.of('intent.denied')).toEqual([]);

    // 4 bps up (beyond requoteBps, short of crossing a quote): every resting quote is cancelled, and the
    // next price places new ones around the new mid. An unmanaged quote would stay behind.
    world.book([['100049.9', '5']], [['100050', '5']]);
    await second.settle();
    world.book([['100049.9', '6']], [['100050', '6']]);
    await second.settle();
    const after = resting(world);
    expect(after.map((r) => r[0])).toEqual(['BUY', 'SELL']);
    expect(world.openIds().filter((id) => earlier.includes(id))).toEqual([]);
    const mid = dec('100049.95');
    for (const [, price] of after) expect(dec(price ?? '0').minus(mid).abs().div(mid).mul(10_000).lte(5 + 3)).toBe(true);
    await second.stop(false);
    expect(world.openOrders()).toEqual([]);
  });

  test('extra orders of an earlier life on a side already quoted are cancelled', async () => {
    const world = new World();
    const first = new KernelRig(world, { strategies: [quoter()] });
    await first.start();
    world.book([['100009.9', '5']], [['100010', '5']]);
    await first.settle();
    first.detach();
    // Orders of the same instance beside the first life's quotes, as a life that quoted without adopting
    // left them (the bug this guards against): placed here by hand with the instance's own ids.
    const extra = new KernelRig(world, { strategies: [quoter()] });
    await extra.start();
    const ids = ['x1', 'x2'].map((key) => extra.kernel.executor.clientOrderId('sq', key));
    extra.detach();
    for (const [i, side] of (['BUY', 'SELL'] as const).entries()) {
      const price = dec(side === 'BUY' ? '99000' : '101000');
      const placed = world.ex.placeOrder(ACCOUNT, { symbol: BTC, side, positionSide: side === 'BUY' ? 'LONG' : 'SHORT', type: 'LIMIT', price, priceType: 'INPUT', quantity: dec(1), timeInForce: 'GTC', clientOrderId: ids[i] ?? '', generation: 'v2' });
      expect(placed.ok).toBe(true);
    }
    expect(world.openOrders()).toHaveLength(4);
    const third = new KernelRig(world, { strategies: [quoter()] });
    await third.start();
    await third.settle();
    expect(world.openOrders().map((o) => o.side).sort()).toEqual(['BUY', 'SELL']);
    await third.stop(false);
  });
});
