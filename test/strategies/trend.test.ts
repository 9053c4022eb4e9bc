import type { Intent } from '../../src/model/intents.js';
import trend from '../../strategies/trend/index.js';
import { BTC, KernelRig, World } from '../engine/kernel/kernel-support.js';
import { instanceOf, minute, prepareExample, recorded, rows } from './trend-funding-support.js';

/**
 * trend: EMA(2)/EMA(4) crossover on 1m klines, ATR(3), in virtual time against the simulated
 * exchange. Every kline has a true range of 100, so ATR = 100; the book is 99999.9 / 100000.1 (mid
 * 100000), deep enough for every market order here.
 */
const DOWN = [100000, 99980, 99960, 99940, 99920, 99900, 99940];
/** After DOWN, the close of kline 7 makes the golden cross (fast 99963.33 > slow 99951.56). */
const GOLDEN = 99980;
const UP = [100020, 100060, 100100, 100060];
/** After UP, the death cross (fast 100035.57 < slow 100039.25). */
const DEATH = 100020;

const BASE = { fastPeriod: 2, slowPeriod: 4, atrPeriod: 3, slMultiple: 2, tpMultiple: 3, riskPerTrade: 2 };

async function setUp(params: Record<string, unknown>): Promise<{ world: World; rig: KernelRig; intents: Intent[] }> {
  const world = new World();
  world.book([['99999.9', '1000']], [['100000.1', '1000']]);
  const { definition, intents } = recorded(trend);
  const rig = new KernelRig(world, { strategies: [instanceOf('trend', definition, { ...BASE, ...params })] });
  await rig.start();
  return { world, rig, intents };
}

async function play(rig: KernelRig, closes: readonly number[]): Promise<void> {
  for (const close of closes) await minute(rig, close);
}

function qty(rig: KernelRig, side: 'LONG' | 'SHORT'): string {
  return rig.kernel.cache.position(BTC, side)?.qty.toFixed() ?? '0';
}

function algos(rig: KernelRig): string[] {
  return rig.kernel.cache
    .openAlgoOrders(BTC)
    .map((a) => `${a.positionSide} ${a.kind} ${a.triggerPrice.toFixed()} ${a.triggerBy}`)
    .sort();
}

describe('trend strategy (EMA crossover, ATR TP/SL, risk sizing)', () => {
  test('golden cross: long at market, 2 USDT risk / (ATR 100 × 2 × 0.001) = 10 contracts, TP/SL at mid ± 3/2 ATR on the exchange', async () => {
    const { rig, intents } = await setUp({});
    await play(rig, DOWN);
    expect(intents).toEqual([]); // not ready, then no crossing
    await minute(rig, GOLDEN);
    expect(rows(intents)).toEqual([
      {
        type: 'place',
        key: 'e1',
        symbol: BTC,
        side: 'BUY',
        positionSide: 'LONG',
        orderType: 'MARKET',
        quantity: '10',
        takeProfit: { triggerPrice: '100300', triggerBy: 'MARK_PRICE' },
        stopLoss: { triggerPrice: '99800', triggerBy: 'MARK_PRICE' },
      },
    ]);
    expect(qty(rig, 'LONG')).toBe('10');
    expect(algos(rig)).toEqual(['LONG STOP_LOSS 99800 MARK_PRICE', 'LONG TAKE_PROFIT 100300 MARK_PRICE']);
    expect(rig.of('intent.denied')).toEqual([]);
    await rig.stop(false);
  });

  test('death cross with a long: close it, then go short with its own TP/SL; the long’s TP/SL are gone', async () => {
    const { rig, intents } = await setUp({});
    await play(rig, [...DOWN, GOLDEN, ...UP]);
    expect(intents).toHaveLength(1);
    await minute(rig, DEATH);
    expect(rows(intents.slice(1))).toEqual([
      { type: 'place', key: 'x2', symbol: BTC, side: 'SELL', positionSide: 'LONG', orderType: 'MARKET', closePosition: true },
      {
        type: 'place',
        key: 'e3',
        symbol: BTC,
        side: 'SELL',
        positionSide: 'SHORT',
        orderType: 'MARKET',
        quantity: '10',
        takeProfit: { triggerPrice: '99700', triggerBy: 'MARK_PRICE' },
        stopLoss: { triggerPrice: '100200', triggerBy: 'MARK_PRICE' },
      },
    ]);
    expect([qty(rig, 'LONG'), qty(rig, 'SHORT')]).toEqual(['0', '10']);
    expect(algos(rig)).toEqual(['SHORT STOP_LOSS 100200 MARK_PRICE', 'SHORT TAKE_PROFIT 99700 MARK_PRICE']);
    await rig.stop(false);
  });

  test('allowShort: false — a death cross only closes the long', async () => {
    const { rig, intents } = await setUp({ allowShort: false });
    await play(rig, [...DOWN, GOLDEN, ...UP, DEATH]);
    expect(intents.map((i) => (i.type === 'place' ? `${i.side} ${i.positionSide ?? ''} ${i.closePosition === true ? 'close' : 'open'}` : i.type))).toEqual(['BUY LONG open', 'SELL LONG close']);
    expect([qty(rig, 'LONG'), qty(rig, 'SHORT')]).toEqual(['0', '0']);
    await rig.stop(false);
  });

  test('respects maxPosition: a risk budget worth 5000 contracts enters 20, and the position never goes above it', async () => {
    const { rig, intents } = await setUp({ riskPerTrade: 1000, maxPosition: 20 });
    // Up, down, up again: three entries, each capped.
    await play(rig, [...DOWN, GOLDEN, ...UP, DEATH, 99980, 99940, 99900, 99860, 99820, 99860, 99900, 99940, 99980]);
    const summary = intents.map((i) => (i.type === 'place' ? `${i.side} ${i.positionSide ?? ''} ${i.closePosition === true ? 'close' : (i.quantity?.toFixed() ?? '')}` : i.type));
    expect(summary).toEqual(['BUY LONG 20', 'SELL LONG close', 'SELL SHORT 20', 'BUY SHORT close', 'BUY LONG 20']);
    expect(qty(rig, 'LONG')).toBe('20');
    expect(qty(rig, 'SHORT')).toBe('0');
    // The exchange saw no regular order above 20 contracts, and no denial was needed.
    for (const order of rig.world.allOrders()) expect(Number(order.origQty)).toBeLessThanOrEqual(20);
    expect(rig.of('intent.denied')).toEqual([]);
    await rig.stop(false);
  });

  test('on stop: cancel-all of its orders; the position stays under its exchange-side TP/SL', async () => {
    const { rig, intents } = await setUp({});
    await play(rig, [...DOWN, GOLDEN]);
    await rig.kernel.strategies.stop('trend');
    await rig.settle();
    expect(rows(intents.slice(1))).toEqual([{ type: 'cancel-all', symbol: BTC, includeAlgo: false }]);
    expect(rig.world.openOrders()).toEqual([]);
    expect(qty(rig, 'LONG')).toBe('10');
    expect(algos(rig)).toHaveLength(2);
    await rig.stop(false);
  });

  test('closeOnStop: on stop the position is closed at market and nothing of it is left open', async () => {
    const { rig, intents } = await setUp({ closeOnStop: true });
    await play(rig, [...DOWN, GOLDEN]);
    await rig.kernel.strategies.stop('trend');
    await rig.settle();
    expect(rows(intents.slice(1))).toEqual([
      { type: 'place', key: 'x2', symbol: BTC, side: 'SELL', positionSide: 'LONG', orderType: 'MARKET', closePosition: true },
      { type: 'cancel-all', symbol: BTC, includeAlgo: true },
    ]);
    expect(qty(rig, 'LONG')).toBe('0');
    expect(rig.world.openOrders()).toEqual([]);
    expect(algos(rig)).toEqual([]);
    await rig.stop(false);
  });

  test('params: fastPeriod must be below slowPeriod; defaults fill the rest', () => {
    expect(trend.params.safeParse({ fastPeriod: 21, slowPeriod: 9 }).success).toBe(false);
    expect(trend.params.parse({})).toMatchObject({ interval: '1m', fastPeriod: 9, slowPeriod: 21, atrPeriod: 14, allowShort: true, closeOnStop: false, triggerBy: 'MARK_PRICE' });
  });

  test('config/strategies/trend.yml passes prepareRun: paper mode, one trend instance with its params', async () => {
    const example = await prepareExample('trend');
    expect(example.mode).toBe('paper');
    expect(example.strategies.map((s) => [s.id, s.module])).toEqual([['trend-btc', 'trend']]);
    expect(example.strategies[0]?.params).toMatchObject({ interval: '1m', fastPeriod: 9, slowPeriod: 21, closeOnStop: false });
  });
});
