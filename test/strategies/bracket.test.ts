import { fileURLToPath } from 'node:url';
import { prepareRun } from '../../src/app/commands/run.js';
import { dec } from '../../src/core/decimal.js';
import type { StrategyInstance } from '../../src/engine/strategy/instance.js';
import type { ExchangeCommand } from '../../src/model/commands.js';
import type { AlgoOrderView } from '../../src/sim/engine/types.js';
import bracket from '../../strategies/bracket/index.js';
import { stopTargets } from '../../strategies/bracket/stop-targets.js';
import type { TestStrategy } from '../engine/kernel/kernel-support.js';
import { ACCOUNT, BTC, closeLong, KernelRig, marketBuy, scripted, T0, World } from '../engine/kernel/kernel-support.js';

/**
 * The bracket guard in-process, in virtual time, over the simulated exchange's engine (standard book:
 * asks 100000 ×2, 100000.1 ×3, 100000.5 ×50; mark 100000). Another strategy ("opener") opens and
 * closes positions; the guard keeps closing plan orders on them. Stops trigger on the mark price.
 */

const BRACKET_YML = fileURLToPath(new URL('../../config/strategies/bracket.yml', import.meta.url));

function guardInstance(params: Record<string, unknown> = {}): StrategyInstance {
  return { id: 'guard', symbols: [BTC], definition: bracket, params: bracket.params.parse(params), limits: {} };
}

/** The account's open plan rows on the exchange as [clientOrderId, side, positionSide, trigger, quantity, triggerBy]. */
function plans(world: World): string[][] {
  return world.ex
    .openAlgoOrders(ACCOUNT, { limit: 100, stopCategory: 'STOP' })
    .map((r: AlgoOrderView) => [r.clientOrderId, r.side, r.positionSide, dec(r.stopPrice).toFixed(), dec(r.origQty).toFixed(), r.triggerBy])
    .sort((a, b) => a[0]!.localeCompare(b[0]!));
}

function history(world: World): AlgoOrderView[] {
  return [...world.ex.historyAlgoOrders(ACCOUNT, { limit: 100, stopCategory: 'STOP', startTime: T0 - 1 })];
}

function guardCommands(rig: KernelRig): ExchangeCommand[] {
  return rig
    .of('command.submitted')
    .filter((e) => e.strategyId === 'guard')
    .map((e) => e.command);
}

function opener(): TestStrategy {
  return scripted('opener');
}

describe('bracket stop targets', () => {
  const params = bracket.params.parse({ stopLossPct: 1, takeProfitPct: 2, trailingStopPct: '0.5', trailingActivationPct: '0.2' });
  const tick = dec('0.1');

  test('stop-loss and take-profit from the entry, long and short', () => {
    const long = stopTargets('LONG', dec(100000), dec(100000), params, tick);
    expect([long.STOP_LOSS?.toFixed(), long.TAKE_PROFIT?.toFixed()]).toEqual(['99000', '102000']);
    const short = stopTargets('SHORT', dec(100000), dec(100000), params, tick);
    expect([short.STOP_LOSS?.toFixed(), short.TAKE_PROFIT?.toFixed()]).toEqual(['101000', '98000']);
  });

  test('the trailing stop starts once the price is activation% in profit, and only ever helps', () => {
    expect(stopTargets('LONG', dec(100000), dec(100100), params, tick).STOP_LOSS?.toFixed()).toBe('99000');
    expect(stopTargets('LONG', dec(100000), dec(101000), params, tick).STOP_LOSS?.toFixed()).toBe('100495');
    expect(stopTargets('SHORT', dec(100000), dec(99000), params, tick).STOP_LOSS?.toFixed()).toBe('99495');
  });

  test('params: at least one stop is required', () => {
    expect(bracket.params.safeParse({ stopLossPct: 0, takeProfitPct: 0 }).success).toBe(false);
    expect(bracket.params.safeParse({ stopLossPct: 0, takeProfitPct: 0, trailingStopPct: 1 }).success).toBe(true);
  });
});

describe('bracket strategy (in-process, virtual time)', () => {
  test('guards a position someone else opened: places SL and TP plans, resizes and re-prices them with the position, removes them when flat', async () => {
    const world = new World();
    const open = opener();
    const rig = new KernelRig(world, { strategies: [open, guardInstance({ stopLossPct: 1, takeProfitPct: 2 })] });
    await rig.start();
    expect(plans(world)).toEqual([]);

    open.emit(marketBuy('2', 'entry-1'));
    await rig.settle();
    expect(rig.kernel.cache.position(BTC, 'LONG')?.avgPrice.toFixed()).toBe('100000');
    expect(plans(world)).toEqual([
      ['guard-sl1', 'SELL', 'LONG', '99000', '2', 'MARK_PRICE'],
      ['guard-tp2', 'SELL', 'LONG', '102000', '2', 'MARK_PRICE'],
    ]);
    const placedAlgo = guardCommands(rig).filter((c) => c.type === 'place-algo');
    expect(placedAlgo).toEqual([
      expect.objectContaining({ clientOrderId: 'guard-sl1', side: 'SELL', positionSide: 'LONG', orderType: 'MARKET', triggerPrice: dec(99000), quantity: dec(2) }),
      expect.objectContaining({ clientOrderId: 'guard-tp2', side: 'SELL', positionSide: 'LONG', orderType: 'MARKET', triggerPrice: dec(102000), quantity: dec(2) }),
    ]);
    // The guard's stops are its own: the opener's view shows none of them.
    expect(open.ctx().openAlgoOrders()).toEqual([]);

    // The position grows at 101000: average 100500, both stops follow (modify, same orders).
    world.book([['100990', '5']], [['101000', '5']]);
    open.emit(marketBuy('2', 'entry-2'));
    await rig.settle();
    expect(rig.kernel.cache.position(BTC, 'LONG')?.avgPrice.toFixed()).toBe('100500');
    expect(plans(world)).toEqual([
      ['guard-sl1', 'SELL', 'LONG', '99495', '4', 'MARK_PRICE'],
      ['guard-tp2', 'SELL', 'LONG', '102510', '4', 'MARK_PRICE'],
    ]);
    expect(guardCommands(rig).filter((c) => c.type === 'modify-algo')).toEqual([
      expect.objectContaining({ clientOrderId: 'guard-sl1', kind: 'PLAN', triggerPrice: dec(99495), quantity: dec(4) }),
      expect.objectContaining({ clientOrderId: 'guard-tp2', kind: 'PLAN', triggerPrice: dec(102510), quantity: dec(4) }),
    ]);

    // Closed by its owner: nothing left to guard, both plans are cancelled.
    open.emit(closeLong());
    await rig.settle();
    expect(rig.kernel.cache.position(BTC, 'LONG')).toBeUndefined();
    expect(plans(world)).toEqual([]);
    expect(history(world).map((r) => [r.clientOrderId, r.status]).sort()).toEqual([
      ['guard-sl1', 'ORDER_CANCELED'],
      ['guard-tp2', 'ORDER_CANCELED'],
    ]);
    expect(rig.of('intent.denied')).toEqual([]);
    await rig.stop(false);
  });

  test('a short position gets its stop above and its target below', async () => {
    const world = new World();
    const open = opener();
    const rig = new KernelRig(world, { strategies: [open, guardInstance({ stopLossPct: 1, takeProfitPct: 2 })] });
    await rig.start();
    open.emit({ type: 'place', key: 'short', symbol: BTC, side: 'SELL', orderType: 'MARKET', quantity: dec(3) });
    await rig.settle();
    expect(rig.kernel.cache.position(BTC, 'SHORT')?.avgPrice.toFixed()).toBe('99999.9');
    expect(plans(world)).toEqual([
      ['guard-sl1', 'BUY', 'SHORT', '100999.9', '3', 'MARK_PRICE'],
      ['guard-tp2', 'BUY', 'SHORT', '97999.9', '3', 'MARK_PRICE'],
    ]);
    await rig.stop(false);
    expect(plans(world)).toEqual([]);
  });

  test('trailing: the stop-loss follows the best mark price up, never down, and fires; the take-profit is then removed', async () => {
    const world = new World();
    const open = opener();
    const rig = new KernelRig(world, { strategies: [open, guardInstance({ stopLossPct: 1, takeProfitPct: 5, trailingStopPct: '0.5' })] });
    await rig.start();
    open.emit(marketBuy('2', 'entry'));
    await rig.settle();
    // Trailing from the start (no activation threshold): 0.5% under the best mark so far, above the fixed 1%.
    expect(plans(world).map((p) => p[3])).toEqual(['99500', '105000']);

    world.mark('101000');
    await rig.settle();
    expect(plans(world).map((p) => p[3])).toEqual(['100495', '105000']);
    world.mark('101500');
    await rig.settle();
    expect(plans(world).map((p) => p[3])).toEqual(['100992.5', '105000']);
    // A pull-back leaves the stop where it is.
    world.mark('101200');
    await rig.settle();
    expect(plans(world).map((p) => p[3])).toEqual(['100992.5', '105000']);
    expect(guardCommands(rig).filter((c) => c.type === 'modify-algo')).toHaveLength(2);
    world.mark('101520');
    await rig.settle();
    // Less than trailingStepPct (0.05%) better: not worth a modify.
    expect(plans(world).map((p) => p[3])).toEqual(['100992.5', '105000']);

    // Through the stop: the exchange closes the position; the guard removes the take-profit.
    world.mark('100900');
    await rig.settle();
    expect(rig.kernel.cache.position(BTC, 'LONG')).toBeUndefined();
    expect(plans(world)).toEqual([]);
    expect(history(world).map((r) => [r.clientOrderId, r.status]).sort()).toEqual([
      ['guard-sl1', 'ORDER_FILLED'],
      ['guard-tp2', 'ORDER_CANCELED'],
    ]);
    // Nothing was placed again after the stop fired, and nothing was refused on the way.
    expect(guardCommands(rig).filter((c) => c.type === 'place-algo')).toHaveLength(2);
    expect(guardCommands(rig).filter((c) => c.type === 'place-order')).toEqual([]);
    expect(rig.of('intent.denied')).toEqual([]);
    expect(rig.of('command.failed')).toEqual([]);
    await rig.stop(false);
  });

  test('a stop the price has already passed closes the position at market (closeOnBreach)', async () => {
    const world = new World();
    const open = opener();
    const first = new KernelRig(world, { strategies: [open] });
    await first.start();
    open.emit(marketBuy('2', 'entry'));
    await first.settle();
    await first.stop(false);
    // While no guard runs, the mark falls below where the stop-loss belongs (99000).
    world.mark('98900');

    const rig = new KernelRig(world, { strategies: [guardInstance({ stopLossPct: 1, takeProfitPct: 2 })] });
    await rig.start();
    expect(rig.kernel.cache.position(BTC, 'LONG')).toBeUndefined();
    expect(guardCommands(rig)).toEqual([expect.objectContaining({ type: 'place-order', side: 'SELL', positionSide: 'LONG', orderType: 'MARKET', quantity: dec(2) })]);
    expect(plans(world)).toEqual([]);
    await rig.stop(false);
  });

  test('a restart re-adopts its stops (cancelOnStop: false): nothing placed twice, and they keep being managed', async () => {
    const world = new World();
    const open = opener();
    const instance = guardInstance({ stopLossPct: 1, takeProfitPct: 2, cancelOnStop: false });
    const first = new KernelRig(world, { strategies: [open, instance] });
    await first.start();
    open.emit(marketBuy('2', 'entry'));
    await first.settle();
    const before = plans(world);
    expect(before).toHaveLength(2);
    await first.stop(false);
    expect(plans(world)).toEqual(before);

    const again = opener();
    const second = new KernelRig(world, { strategies: [again, instance] });
    await second.start();
    expect(second.faulty.count('placeAlgo')).toBe(0);
    expect(plans(world)).toEqual(before);
    again.emit(closeLong());
    await second.settle();
    expect(plans(world)).toEqual([]);
    await second.stop(false);
  });

  test('stopping the strategy cancels its stops (the daemon itself cancels nothing here)', async () => {
    const world = new World();
    const open = opener();
    const rig = new KernelRig(world, { strategies: [open, guardInstance()] });
    await rig.start();
    open.emit(marketBuy('1', 'entry'));
    await rig.settle();
    expect(plans(world)).toHaveLength(2);
    await rig.stop(false);
    expect(plans(world)).toEqual([]);
    expect(rig.kernel.cache.position(BTC, 'LONG')?.qty.toFixed()).toBe('1');
  });
});

describe('config/strategies/bracket.yml', () => {
  test('passes stratd run\'s preparation', async () => {
    const prepared = await prepareRun({ config: BRACKET_YML }, {});
    if (!prepared.ok) throw prepared.error;
    expect(prepared.value.config.venue.mode).toBe('paper');
    expect(prepared.value.strategies.map((s) => s.definition.name)).toContain('bracket');
  });
});
