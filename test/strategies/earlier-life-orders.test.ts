import { dec } from '../../src/core/decimal.js';
import type { StrategyInstance } from '../../src/engine/strategy/instance.js';
import breakout from '../../strategies/breakout/index.js';
import trend from '../../strategies/trend/index.js';
import { ACCOUNT, BTC, KernelRig, World } from '../engine/kernel/kernel-support.js';

/**
 * trend and breakout enter and exit with market orders: a regular order of theirs still open when a
 * life starts is an earlier life's and stale. The new life cancels it (none is left resting unmanaged).
 */
const instances: Record<string, () => StrategyInstance> = {
  trend: () => ({ id: 'tr', symbols: [BTC], definition: trend, params: trend.params.parse({}), limits: {} }),
  breakout: () => ({ id: 'bo', symbols: [BTC], definition: breakout, params: breakout.params.parse({ quantity: 1, windowMs: 20_000 }), limits: {} }),
};

describe.each(Object.keys(instances))('%s across restarts', (name) => {
  test('an open order of an earlier life is cancelled at start', async () => {
    const make = instances[name];
    if (make === undefined) throw new Error(name);
    const world = new World();
    // The instance's own ids, as an earlier life would have placed them (then died: nothing cancelled).
    const earlier = new KernelRig(world, { strategies: [make()] });
    await earlier.start();
    const id = earlier.kernel.executor.clientOrderId(make().id, 'stale-entry');
    earlier.detach();
    const placed = world.ex.placeOrder(ACCOUNT, { symbol: BTC, side: 'BUY', positionSide: 'LONG', type: 'LIMIT', price: dec('90000'), priceType: 'INPUT', quantity: dec(1), timeInForce: 'GTC', clientOrderId: id, generation: 'v2' });
    expect(placed.ok).toBe(true);
    expect(world.openIds()).toContain(id);

    const next = new KernelRig(world, { strategies: [make()] });
    await next.start();
    await next.settle();
    expect(world.openIds()).not.toContain(id);
    await next.stop(false);
  });
});
