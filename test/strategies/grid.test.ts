import { fileURLToPath } from 'node:url';
import { prepareRun } from '../../src/app/commands/run.js';
import { dec } from '../../src/core/decimal.js';
import type { StrategyInstance } from '../../src/engine/strategy/instance.js';
import type { PlaceOrderCommand } from '../../src/model/commands.js';
import type { OrderView } from '../../src/sim/engine/types.js';
import grid from '../../strategies/grid/index.js';
import { gridLevels } from '../../strategies/grid/levels.js';
import { BTC, KernelRig, World } from '../engine/kernel/kernel-support.js';

/**
 * The grid strategy in-process, in virtual time: the kernel (risk engine, executor, journal) over the
 * simulated exchange's engine, whose standard book sits around 100000 (bid 99999.9, ask 100000). A new
 * depth snapshot that crosses a resting order fills it, so moving the book moves price and fills.
 */

const GRID_YML = fileURLToPath(new URL('../../config/strategies/grid.yml', import.meta.url));

function gridInstance(params: Record<string, unknown>, id = 'grid'): StrategyInstance {
  return { id, symbols: [BTC], definition: grid, params: grid.params.parse(params), limits: {} };
}

/** Open orders on the exchange as [side, positionSide, price, quantity], sorted by price. */
function resting(world: World): string[][] {
  return world
    .openOrders()
    .map((o: OrderView) => [o.side, o.positionSide, dec(o.price).toFixed(), dec(o.origQty).toFixed()])
    .sort((a, b) => Number(a[2]) - Number(b[2]));
}

function placed(rig: KernelRig, strategyId = 'grid'): PlaceOrderCommand[] {
  return rig
    .of('command.submitted')
    .filter((e) => e.strategyId === strategyId)
    .flatMap((e) => (e.command.type === 'place-order' ? [e.command] : []));
}

function longQty(rig: KernelRig): string {
  return (rig.kernel.cache.position(BTC, 'LONG')?.qty ?? dec(0)).toFixed();
}

describe('grid levels', () => {
  test('arithmetic and geometric levels on the tick grid, both bounds included', () => {
    const tick = dec('0.1');
    expect(gridLevels({ lower: dec(100), upper: dec(200), levels: 5, spacing: 'arithmetic' }, tick).map((p) => p.toFixed())).toEqual(['100', '125', '150', '175', '200']);
    expect(gridLevels({ lower: dec(100), upper: dec(400), levels: 3, spacing: 'geometric' }, tick).map((p) => p.toFixed())).toEqual(['100', '200', '400']);
    expect(gridLevels({ lower: dec(100), upper: dec(200), levels: 4, spacing: 'geometric' }, tick).map((p) => p.toFixed())).toEqual(['100', '126', '158.7', '200']);
  });

  test('levels closer than one tick are refused', () => {
    expect(() => gridLevels({ lower: dec(100), upper: dec('100.2'), levels: 5, spacing: 'arithmetic' }, dec('0.1'))).toThrow(RangeError);
  });

  test('params: upper must be above lower; unknown keys are refused', () => {
    expect(grid.params.safeParse({ lower: 100, upper: 90 }).success).toBe(false);
    expect(grid.params.safeParse({ lower: 90, upper: 100, levls: 3 }).success).toBe(false);
    expect(grid.params.safeParse({ lower: 90, upper: 100 }).success).toBe(true);
  });
});

describe('grid strategy (in-process, virtual time)', () => {
  // Levels 98750, 99250, 99750, 100250, 100750, 101250 around the mid 99999.95.
  const neutral = { lower: 98750, upper: 101250, levels: 6, mode: 'neutral', quantity: 1 };

  test('neutral: buys below the start price, sells above; a filled buy arms the sell one level up, and its fill re-arms the buy', async () => {
    const world = new World();
    const rig = new KernelRig(world, { strategies: [gridInstance(neutral)] });
    await rig.start();
    // The cell around the start price (99750–100250) stays idle; the others rest one order each.
    expect(resting(world)).toEqual([
      ['BUY', 'LONG', '98750', '1'],
      ['BUY', 'LONG', '99250', '1'],
      ['SELL', 'SHORT', '100750', '1'],
      ['SELL', 'SHORT', '101250', '1'],
    ]);
    expect(placed(rig).every((c) => c.orderType === 'LIMIT' && c.timeInForce === 'GTC')).toBe(true);

    // The market drops through 99250: that buy fills, and its cell now offers the contract at 99750.
    world.book([['99200', '5']], [['99240', '5']]);
    await rig.settle();
    expect(longQty(rig)).toBe('1');
    expect(resting(world)).toEqual([
      ['BUY', 'LONG', '98750', '1'],
      ['SELL', 'LONG', '99750', '1'],
      ['SELL', 'SHORT', '100750', '1'],
      ['SELL', 'SHORT', '101250', '1'],
    ]);
    const sell = placed(rig).at(-1);
    expect(sell).toMatchObject({ side: 'SELL', positionSide: 'LONG', quantity: dec(1) });

    // Back up through 99750: the sell fills (one level earned) and the buy at 99250 is armed again.
    world.book([['99760', '5']], [['99770', '5']]);
    await rig.settle();
    expect(longQty(rig)).toBe('0');
    expect(resting(world)).toEqual([
      ['BUY', 'LONG', '98750', '1'],
      ['BUY', 'LONG', '99250', '1'],
      ['SELL', 'SHORT', '100750', '1'],
      ['SELL', 'SHORT', '101250', '1'],
    ]);
    const cycle = world
      .allOrders()
      .filter((o) => o.status === 'FILLED')
      .map((o) => [o.side, o.positionSide, dec(o.price).toFixed()]);
    expect(cycle).toEqual(expect.arrayContaining([['BUY', 'LONG', '99250'], ['SELL', 'LONG', '99750']]));
    // Every order had its own key: the re-armed buy is a new order, not the filled one.
    const ids = placed(rig).map((c) => c.clientOrderId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(rig.of('intent.denied')).toEqual([]);
    await rig.stop(false);
  });

  test('short: sells above the price, buys back one level lower, sells again', async () => {
    const world = new World();
    const rig = new KernelRig(world, { strategies: [gridInstance({ lower: 99000, upper: 101000, levels: 5, mode: 'short', quantity: 2 })] });
    await rig.start();
    expect(resting(world)).toEqual([
      ['SELL', 'SHORT', '100000', '2'],
      ['SELL', 'SHORT', '100500', '2'],
      ['SELL', 'SHORT', '101000', '2'],
    ]);
    world.book([['100010', '5']], [['100020', '5']]);
    await rig.settle();
    expect(rig.kernel.cache.position(BTC, 'SHORT')?.qty.toFixed()).toBe('2');
    expect(resting(world)).toEqual([
      ['BUY', 'SHORT', '99500', '2'],
      ['SELL', 'SHORT', '100500', '2'],
      ['SELL', 'SHORT', '101000', '2'],
    ]);
    world.book([['99480', '5']], [['99490', '5']]);
    await rig.settle();
    expect(rig.kernel.cache.position(BTC, 'SHORT')?.qty.toFixed() ?? '0').toBe('0');
    // Every level above the price has its sell again, 99500 included now that the price is below it.
    expect(resting(world)).toEqual([
      ['SELL', 'SHORT', '99500', '2'],
      ['SELL', 'SHORT', '100000', '2'],
      ['SELL', 'SHORT', '100500', '2'],
      ['SELL', 'SHORT', '101000', '2'],
    ]);
    await rig.stop(false);
  });

  test('long: never holds more than maxPosition, counting what its resting buys would add', async () => {
    const world = new World();
    // Levels every 500 from 98000 to 102000; four buy levels under the price, room for two contracts.
    const rig = new KernelRig(world, { strategies: [gridInstance({ lower: 98000, upper: 102000, levels: 9, mode: 'long', quantity: 1, maxPosition: 2 })] });
    await rig.start();
    expect(resting(world)).toEqual([
      ['BUY', 'LONG', '99000', '1'],
      ['BUY', 'LONG', '99500', '1'],
    ]);

    // A drop fills both: two contracts held, each offered one level up; no further buys.
    world.book([['98400', '5']], [['98450', '5']]);
    await rig.settle();
    expect(longQty(rig)).toBe('2');
    expect(resting(world)).toEqual([
      ['SELL', 'LONG', '99500', '1'],
      ['SELL', 'LONG', '100000', '1'],
    ]);
    world.book([['98100', '5']], [['98150', '5']]);
    await rig.settle();
    expect(longQty(rig)).toBe('2');
    expect(world.openOrders().filter((o) => o.side === 'BUY')).toEqual([]);

    // One sells at 99500: room for one buy again, at the nearest level under the price.
    world.book([['99510', '5']], [['99520', '5']]);
    await rig.settle();
    expect(longQty(rig)).toBe('1');
    expect(resting(world)).toEqual([
      ['BUY', 'LONG', '99000', '1'],
      ['SELL', 'LONG', '100000', '1'],
    ]);
    const opening = placed(rig).filter((c) => c.side === 'BUY');
    expect(opening).toHaveLength(3);
    await rig.stop(false);
  });

  test('leaving the range stops the grid: its orders are cancelled and, with closeOnExit, its holding is closed', async () => {
    const world = new World();
    const rig = new KernelRig(world, { strategies: [gridInstance({ lower: 99000, upper: 101000, levels: 5, mode: 'long', quantity: 1, closeOnExit: true })] });
    await rig.start();
    expect(resting(world)).toEqual([
      ['BUY', 'LONG', '99000', '1'],
      ['BUY', 'LONG', '99500', '1'],
    ]);
    world.book([['99400', '5']], [['99450', '5']]);
    await rig.settle();
    expect(resting(world)).toEqual([
      ['BUY', 'LONG', '99000', '1'],
      ['SELL', 'LONG', '100000', '1'],
    ]);

    // Out of the range below 99000 (the buy at 99000 fills on the way): everything cancelled, two contracts sold.
    world.book([['98500', '5']], [['98510', '5']]);
    await rig.settle();
    expect(world.openOrders()).toEqual([]);
    expect(longQty(rig)).toBe('0');
    const close = placed(rig).at(-1);
    expect(close).toMatchObject({ side: 'SELL', positionSide: 'LONG', orderType: 'MARKET', quantity: dec(2) });
    expect(world.store.keyValue('grid').get('grid')).toMatchObject({ stopped: true });

    // Back inside: a stopped grid stays stopped (resumeOnReturn is off).
    world.book([['99990', '5']], [['100000', '5']]);
    await rig.settle();
    expect(world.openOrders()).toEqual([]);
    await rig.stop(false);
  });

  test('a restart re-adopts the resting orders (no duplicates) and books a fill that happened meanwhile', async () => {
    const world = new World();
    const instance = gridInstance({ ...neutral, cancelOnStop: false });
    const first = new KernelRig(world, { strategies: [instance] });
    await first.start();
    const before = world.openIds();
    expect(before).toHaveLength(4);
    await first.stop(false);
    expect(world.openIds()).toEqual(before);

    // While no daemon runs, the buy at 99250 fills.
    world.book([['99200', '5']], [['99240', '5']]);
    expect(world.openOrders()).toHaveLength(3);

    const second = new KernelRig(world, { strategies: [instance] });
    await second.start();
    // The three resting orders are the grid's again; only the sell of the filled cell is new.
    expect(second.faulty.count('placeOrder')).toBe(1);
    expect(placed(second)).toEqual([expect.objectContaining({ side: 'SELL', positionSide: 'LONG', price: dec(99750) })]);
    expect(world.openIds().filter((id) => before.includes(id))).toHaveLength(3);
    expect(resting(world)).toEqual([
      ['BUY', 'LONG', '98750', '1'],
      ['SELL', 'LONG', '99750', '1'],
      ['SELL', 'SHORT', '100750', '1'],
      ['SELL', 'SHORT', '101250', '1'],
    ]);
    // The adopted orders keep working: the sell fills and the buy comes back.
    world.book([['99760', '5']], [['99770', '5']]);
    await second.settle();
    expect(resting(world).map((r) => r[2])).toEqual(['98750', '99250', '100750', '101250']);
    await second.stop(false);
  });

  test('after a stream outage the resync books the fill it missed and the grid carries on', async () => {
    const world = new World();
    const rig = new KernelRig(world, { strategies: [gridInstance(neutral)], tickMs: 1000 });
    await rig.start();
    rig.disconnectStream();
    world.book([['99200', '5']], [['99240', '5']]);
    await rig.settle();
    // The fill happened on the exchange; this process has not heard of it.
    expect(rig.kernel.cache.position(BTC, 'LONG')).toBeUndefined();
    expect(rig.faulty.count('placeOrder')).toBe(4);

    rig.connectStream();
    rig.kernel.ingest({ type: 'stream.connected', time: world.clock.now(), epoch: 1 });
    await rig.settle();
    expect(rig.of('account.resynced').map((e) => e.epoch)).toEqual([0, 1]);
    expect(longQty(rig)).toBe('1');
    // Intents emitted while the kernel still resyncs are refused as NOT_READY; the next tick places them.
    await rig.advance(1000);
    expect(resting(world)).toEqual([
      ['BUY', 'LONG', '98750', '1'],
      ['SELL', 'LONG', '99750', '1'],
      ['SELL', 'SHORT', '100750', '1'],
      ['SELL', 'SHORT', '101250', '1'],
    ]);
    expect(rig.faulty.count('placeOrder')).toBe(5);
    await rig.stop(false);
  });

  test('stopping the strategy cancels its orders (the daemon itself cancels nothing here)', async () => {
    const world = new World();
    const rig = new KernelRig(world, { strategies: [gridInstance(neutral)] });
    await rig.start();
    expect(world.openOrders()).toHaveLength(4);
    await rig.stop(false);
    expect(world.openOrders()).toEqual([]);
  });
});

describe('config/strategies/grid.yml', () => {
  test('passes stratd run\'s preparation: one grid instance with its params checked', async () => {
    const prepared = await prepareRun({ config: GRID_YML }, {});
    if (!prepared.ok) throw prepared.error;
    expect(prepared.value.config.venue.mode).toBe('paper');
    expect(prepared.value.strategies.map((s) => [s.id, s.definition.name, s.symbols])).toEqual([['grid-btc', 'grid', [BTC]]]);
  });
});
