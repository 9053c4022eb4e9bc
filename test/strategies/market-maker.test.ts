import { fileURLToPath } from 'node:url';
import { prepareRun } from '../../src/app/commands/run.js';
import { dec } from '../../src/core/decimal.js';
import type { StrategyInstance } from '../../src/engine/strategy/instance.js';
import type { ExchangeCommand } from '../../src/model/commands.js';
import type { OrderView } from '../../src/sim/engine/types.js';
import { ladder } from '../../strategies/market-maker/ladder.js';
import marketMaker from '../../strategies/market-maker/index.js';
import { BTC, KernelRig, World } from '../engine/kernel/kernel-support.js';

/**
 * The market maker in-process, in virtual time, over the simulated exchange's engine (standard book:
 * bid 99999.9, ask 100000, mid 99999.95, mark 100000). Moving the book moves the mid; a snapshot that
 * crosses a resting quote fills it.
 */

const MM_YML = fileURLToPath(new URL('../../config/strategies/market-maker.yml', import.meta.url));

const BASE = { quantity: 1, levels: 2, halfSpreadBps: 5, levelSpacingBps: 5, skewBps: 10, requoteBps: 3, maxInventory: 2, staleAfterMs: 60_000 };

function makerInstance(params: Record<string, unknown> = {}): StrategyInstance {
  return { id: 'mm', symbols: [BTC], definition: marketMaker, params: marketMaker.params.parse({ ...BASE, ...params }), limits: {} };
}

/** Open orders on the exchange as [side, positionSide, price, quantity], best bid first then asks upward. */
function resting(world: World): string[][] {
  return world
    .openOrders()
    .map((o: OrderView) => [o.side, o.positionSide, dec(o.price).toFixed(), dec(o.origQty).toFixed()])
    .sort((a, b) => Number(a[2]) - Number(b[2]));
}

function commands(rig: KernelRig): ExchangeCommand[] {
  return rig
    .of('command.submitted')
    .filter((e) => e.strategyId === 'mm')
    .map((e) => e.command);
}

const STANDARD_QUOTES = [
  ['BUY', 'LONG', '99899.9', '1'],
  ['BUY', 'LONG', '99949.9', '1'],
  ['SELL', 'SHORT', '100050', '1'],
  ['SELL', 'SHORT', '100100', '1'],
];

describe('market-maker ladder', () => {
  const params = marketMaker.params.parse(BASE);
  const flat = { reference: dec(100000), long: dec(0), short: dec(0), bestBid: dec('99999.9'), bestAsk: dec(100000) };

  test('levels per side around the reference, further levels spaced out', () => {
    expect(ladder(flat, params).map((t) => [t.slot, t.price.toFixed(), t.positionSide, t.reduceOnly])).toEqual([
      ['BUY/0', '99950', 'LONG', false],
      ['BUY/1', '99900', 'LONG', false],
      ['SELL/0', '100050', 'SHORT', false],
      ['SELL/1', '100100', 'SHORT', false],
    ]);
  });

  test('a long inventory lowers both sides, closes first on the sell side and caps the buy side', () => {
    const targets = ladder({ ...flat, long: dec(1) }, params);
    // Half the cap: shifted 5 bps down.
    expect(targets.map((t) => [t.slot, t.price.toFixed(), t.positionSide, t.reduceOnly])).toEqual([
      ['BUY/0', '99900.025', 'LONG', false],
      ['SELL/0', '99999.975', 'LONG', true],
      ['SELL/1', '100049.95', 'SHORT', false],
    ]);
    expect(ladder({ ...flat, long: dec(2) }, params).filter((t) => t.side === 'BUY')).toEqual([]);
    expect(ladder({ ...flat, short: dec(2) }, params).filter((t) => t.side === 'SELL')).toEqual([]);
  });

  test('a quote that would cross the book joins its own side of the touch', () => {
    const wide = marketMaker.params.parse({ ...BASE, skewBps: 50 });
    const sell = ladder({ ...flat, long: dec(2) }, wide).find((t) => t.slot === 'SELL/0');
    expect(sell?.price.toFixed()).toBe('100000');
  });
});

describe('market-maker strategy (in-process, virtual time)', () => {
  test('quotes both sides POST_ONLY; a move beyond requoteBps modifies the quotes in place', async () => {
    const world = new World();
    const rig = new KernelRig(world, { strategies: [makerInstance()] });
    await rig.start();
    expect(resting(world)).toEqual(STANDARD_QUOTES);
    expect(commands(rig).every((c) => c.type === 'place-order' && c.timeInForce === 'POST_ONLY' && c.orderType === 'LIMIT')).toBe(true);
    const ids = world.openIds();

    // 1 bp: within requoteBps, nothing moves.
    world.book([['100009.9', '5']], [['100010', '5']]);
    await rig.settle();
    expect(rig.faulty.count('modifyOrder')).toBe(0);

    // 4 bps up: every quote is modified (same orders, new prices), none cancelled or placed anew.
    world.book([['100039.9', '5']], [['100040', '5']]);
    await rig.settle();
    expect(rig.faulty.count('modifyOrder')).toBe(4);
    expect(rig.faulty.count('placeOrder')).toBe(4);
    expect(rig.faulty.count('cancelOrder')).toBe(0);
    expect(world.openIds()).toEqual(ids);
    expect(resting(world)).toEqual([
      ['BUY', 'LONG', '99939.9', '1'],
      ['BUY', 'LONG', '99989.9', '1'],
      ['SELL', 'SHORT', '100090', '1'],
      ['SELL', 'SHORT', '100140', '1'],
    ]);
    expect(rig.of('intent.denied')).toEqual([]);
    await rig.stop(false);
  });

  test('mark as reference: quotes around the mark price', async () => {
    const world = new World();
    const rig = new KernelRig(world, { strategies: [makerInstance({ reference: 'mark', levels: 1 })] });
    await rig.start();
    expect(resting(world)).toEqual([
      ['BUY', 'LONG', '99950', '1'],
      ['SELL', 'SHORT', '100050', '1'],
    ]);
    await rig.stop(false);
  });

  test('fills skew the quotes against the inventory; at maxInventory no quote may grow it', async () => {
    const world = new World();
    const rig = new KernelRig(world, { strategies: [makerInstance()] });
    await rig.start();

    // The first bid is hit: long 1 of at most 2.
    world.book([['99940', '5']], [['99949', '5']]);
    await rig.settle();
    expect(rig.kernel.cache.position(BTC, 'LONG')?.qty.toFixed()).toBe('1');
    const afterOne = resting(world);
    // One bid left (1 held + 1 quoted = the cap); the sell side closes the long first, then opens a short.
    expect(afterOne.map((r) => [r[0], r[1]])).toEqual([
      ['BUY', 'LONG'],
      ['SELL', 'LONG'],
      ['SELL', 'SHORT'],
    ]);
    // Skewed: the ask is closer to the mid than the bid.
    const mid = dec(99944.5);
    const bid = dec(afterOne[0]![2]!);
    const ask = dec(afterOne[1]![2]!);
    expect(ask.minus(mid).lt(mid.minus(bid))).toBe(true);
    expect(commands(rig).find((c) => c.type === 'place-order' && c.side === 'SELL' && c.positionSide === 'LONG')).toMatchObject({ timeInForce: 'POST_ONLY' });

    // The second bid is hit: long 2, no bid at all any more, and falling further buys nothing.
    world.book([['99800', '5']], [['99810', '5']]);
    await rig.settle();
    expect(rig.kernel.cache.position(BTC, 'LONG')?.qty.toFixed()).toBe('2');
    expect(world.openOrders().filter((o) => o.side === 'BUY')).toEqual([]);
    expect(resting(world).map((r) => [r[0], r[1], r[3]])).toEqual([
      ['SELL', 'LONG', '1'],
      ['SELL', 'LONG', '1'],
    ]);
    world.book([['99500', '5']], [['99510', '5']]);
    await rig.settle();
    expect(rig.kernel.cache.position(BTC, 'LONG')?.qty.toFixed()).toBe('2');
    expect(world.openOrders().filter((o) => o.side === 'BUY')).toEqual([]);
    const everPlaced = commands(rig).filter((c) => c.type === 'place-order' && c.side === 'BUY' && c.positionSide === 'LONG');
    expect(everPlaced.length).toBeGreaterThanOrEqual(3);
    await rig.stop(false);
  });

  test('stale market data cancels every quote; fresh data brings them back', async () => {
    const world = new World();
    const rig = new KernelRig(world, { strategies: [makerInstance({ staleAfterMs: 5000 })], tickMs: 1000 });
    await rig.start();
    expect(world.openOrders()).toHaveLength(4);
    await rig.advance(4000);
    expect(world.openOrders()).toHaveLength(4);
    await rig.advance(3000);
    expect(world.openOrders()).toEqual([]);
    expect(commands(rig).filter((c) => c.type === 'cancel-order')).toHaveLength(4);
    // Nothing is placed while the data stays stale.
    await rig.advance(5000);
    expect(world.openOrders()).toEqual([]);

    world.book(
      [
        ['99999.9', '5'],
        ['99999.8', '10'],
      ],
      [
        ['100000', '2'],
        ['100000.1', '3'],
      ],
    );
    await rig.settle();
    expect(resting(world)).toEqual(STANDARD_QUOTES);
    await rig.stop(false);
  });

  test('stopping the strategy cancels its quotes', async () => {
    const world = new World();
    const rig = new KernelRig(world, { strategies: [makerInstance()] });
    await rig.start();
    expect(world.openOrders()).toHaveLength(4);
    await rig.stop(false);
    expect(world.openOrders()).toEqual([]);
  });

  test('a restart cancels the quotes an earlier run left and quotes afresh', async () => {
    const world = new World();
    const first = new KernelRig(world, { strategies: [makerInstance()] });
    await first.start();
    const before = world.openIds();
    first.detach();
    const second = new KernelRig(world, { strategies: [makerInstance()] });
    await second.start();
    const after = world.openIds();
    expect(after).toHaveLength(4);
    expect(after.filter((id) => before.includes(id))).toEqual([]);
    await second.stop(false);
  });
});

describe('config/strategies/market-maker.yml', () => {
  test('passes stratd run\'s preparation', async () => {
    const prepared = await prepareRun({ config: MM_YML }, {});
    if (!prepared.ok) throw prepared.error;
    expect(prepared.value.config.venue.mode).toBe('paper');
    expect(prepared.value.strategies.map((s) => [s.id, s.definition.name])).toEqual([['mm-btc', 'market-maker']]);
  });
});
