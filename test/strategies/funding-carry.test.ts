import { dec } from '../../src/core/decimal.js';
import type { Intent } from '../../src/model/intents.js';
import type { RiskLimits } from '../../src/model/risk-limits.js';
import carry from '../../strategies/funding-carry/index.js';
import { BTC, KernelRig, marketBuy, scripted, World } from '../engine/kernel/kernel-support.js';
import type { TestStrategy } from '../engine/kernel/kernel-support.js';
import { instanceOf, MINUTE, prepareExample, recorded, rows } from './trend-funding-support.js';

/**
 * funding-carry against the simulated exchange in virtual time. The book is the standard one: best
 * bid 99999.9, best ask 100000 (2 contracts queued there ahead of any order of ours).
 */
const EIGHT_HOURS = 8 * 60 * MINUTE;
const BASE = { entryRate: '0.0003', exitRate: '0.0001', quantity: 2, maxPosition: 5, addIntervalMs: MINUTE, requoteBps: 5 };

interface Setup {
  readonly world: World;
  readonly rig: KernelRig;
  readonly intents: Intent[];
}

async function setUp(params: Record<string, unknown> = {}, others: readonly TestStrategy[] = [], limits: RiskLimits = {}): Promise<Setup> {
  const world = new World();
  const { definition, intents } = recorded(carry);
  const rig = new KernelRig(world, { strategies: [instanceOf('carry', definition, { ...BASE, ...params }, { limits }), ...others] });
  await rig.start();
  return { world, rig, intents };
}

/** The venue publishes a funding rate (through the simulator's market stream, as the poller would see it). */
async function funding({ world, rig }: Setup, rate: string, nextFundingTime = world.clock.now() - (world.clock.now() % EIGHT_HOURS) + EIGHT_HOURS): Promise<void> {
  world.ex.applyMarketEvent({ type: 'funding', ts: world.clock.now(), symbol: BTC, rate, nextFundingTime, period: '8H' });
  await rig.settle();
}

async function index({ world, rig }: Setup, price: string): Promise<void> {
  world.ex.applyMarketEvent({ type: 'index', ts: world.clock.now(), symbol: BTC, price });
  await rig.settle();
}

/** Buyers lift the ask through 100000: the resting sells there fill. */
async function buyersLift({ world, rig }: Setup): Promise<void> {
  world.trade('100000', '100', 'BUY');
  await rig.settle();
}

async function later(setup: Setup, ms = MINUTE): Promise<void> {
  await setup.rig.advance(ms, ms);
}

function short(rig: KernelRig): string {
  return rig.kernel.cache.position(BTC, 'SHORT')?.qty.toFixed() ?? '0';
}

function summary(intents: readonly Intent[]): string[] {
  return intents.map((i) => {
    switch (i.type) {
      case 'place':
        return `${i.side} ${i.positionSide ?? ''} ${i.orderType}${i.price === undefined ? '' : ` ${i.price.toFixed()}`} ${i.closePosition === true ? 'close' : (i.quantity?.toFixed() ?? '')}`;
      case 'cancel':
        return `cancel ${i.clientOrderId}`;
      default:
        return i.type;
    }
  });
}

describe('funding-carry strategy (RxJS style)', () => {
  test('funding at or above entryRate: a POST_ONLY sell at the best ask; nothing below it', async () => {
    const setup = await setUp();
    await funding(setup, '0.0002');
    expect(setup.intents).toEqual([]);
    await funding(setup, '0.0005');
    expect(rows(setup.intents)).toEqual([{ type: 'place', key: 'c1', symbol: BTC, side: 'SELL', positionSide: 'SHORT', orderType: 'LIMIT', price: '100000', quantity: '2', timeInForce: 'POST_ONLY' }]);
    expect(setup.world.openIds()).toEqual(['carry-c1']);
    await setup.rig.stop(false);
  });

  test('builds the short one clip per addIntervalMs after each fill, and stops at maxPosition (2 + 2 + 1)', async () => {
    const setup = await setUp();
    await funding(setup, '0.0005');
    await buyersLift(setup);
    expect(short(setup.rig)).toBe('2');
    await funding(setup, '0.0005'); // too soon after the fill
    expect(setup.intents).toHaveLength(1);
    for (let i = 0; i < 4; i++) {
      await later(setup);
      await funding(setup, '0.0005');
      await buyersLift(setup);
    }
    expect(summary(setup.intents)).toEqual(['SELL SHORT LIMIT 100000 2', 'SELL SHORT LIMIT 100000 2', 'SELL SHORT LIMIT 100000 1']);
    expect(short(setup.rig)).toBe('5');
    expect(setup.world.openOrders()).toEqual([]);
    expect(setup.rig.of('intent.denied')).toEqual([]);
    await setup.rig.stop(false);
  });

  test('funding falls back to exitRate: the resting entry is cancelled and the short closed at market', async () => {
    const setup = await setUp();
    await funding(setup, '0.0005');
    await buyersLift(setup);
    await later(setup);
    await funding(setup, '0.0004'); // the second clip rests
    expect(setup.world.openIds()).toEqual(['carry-c2']);
    await funding(setup, '0.0002'); // between exit and entry: keep the short, stop adding
    expect(summary(setup.intents.slice(2))).toEqual(['cancel carry-c2']);
    await later(setup);
    await funding(setup, '0.0004');
    await funding(setup, '0.00005');
    expect(summary(setup.intents.slice(3))).toEqual(['SELL SHORT LIMIT 100000 2', 'cancel carry-c3', 'BUY SHORT MARKET close']);
    expect(short(setup.rig)).toBe('0');
    expect(setup.world.openOrders()).toEqual([]);
    await setup.rig.stop(false);
  });

  test('a resting entry the ask has moved away from (more than requoteBps) is cancelled and placed again at once', async () => {
    const setup = await setUp();
    await funding(setup, '0.0005');
    setup.world.book([['99899.9', '5']], [['99900', '5']]); // 10 bps lower
    await setup.rig.settle();
    expect(summary(setup.intents)).toEqual(['SELL SHORT LIMIT 100000 2', 'cancel carry-c1', 'SELL SHORT LIMIT 99900 2']);
    expect(setup.world.openIds()).toEqual(['carry-c2']);
    await setup.rig.stop(false);
  });

  test('a restart takes over the resting entry of the earlier life: no second entry beside it, and it is requoted', async () => {
    const first = await setUp();
    await funding(first, '0.0005');
    expect(first.world.openIds()).toEqual(['carry-c1']);
    first.rig.detach(); // a crash: the entry stays on the exchange
    const { definition, intents } = recorded(carry);
    const rig = new KernelRig(first.world, { strategies: [instanceOf('carry', definition, BASE)] });
    await rig.start();
    const second: Setup = { world: first.world, rig, intents };
    await funding(second, '0.0005');
    // The adopted entry works: nothing new is placed while it rests at the touch.
    expect(summary(intents)).toEqual([]);
    expect(second.world.openIds()).toEqual(['carry-c1']);
    second.world.book([['99899.9', '5']], [['99900', '5']]);
    await rig.settle();
    expect(summary(intents)).toEqual(['cancel carry-c1', 'SELL SHORT LIMIT 99900 2']);
    expect(second.world.openIds()).toEqual(['carry-c2']);
    await rig.stop(false);
  });

  test('basis filter: with minPremiumBps, a short also needs the mark that far above the index', async () => {
    const setup = await setUp({ minPremiumBps: 5 });
    await index(setup, '100000'); // mark 100000: no premium
    await funding(setup, '0.0005');
    expect(setup.intents).toEqual([]);
    await index(setup, '99900'); // premium ≈ 10 bps
    expect(summary(setup.intents)).toEqual(['SELL SHORT LIMIT 100000 2']);
    await setup.rig.stop(false);
  });

  test('allowLong: negative funding builds a long at the best bid; closed once funding is back above −exitRate', async () => {
    const setup = await setUp({ allowLong: true });
    await funding(setup, '-0.0005');
    expect(summary(setup.intents)).toEqual(['BUY LONG LIMIT 99999.9 2']);
    setup.world.trade('99999.9', '100', 'SELL');
    await setup.rig.settle();
    expect(setup.rig.kernel.cache.position(BTC, 'LONG')?.qty.toFixed()).toBe('2');
    await funding(setup, '0');
    expect(summary(setup.intents.slice(1))).toEqual(['SELL LONG MARKET close']);
    expect(setup.rig.kernel.cache.position(BTC, 'LONG')?.qty.toFixed() ?? '0').toBe('0');
    await setup.rig.stop(false);
  });

  test('without allowLong: negative funding opens nothing, and a long on the symbol (another strategy’s) is never touched', async () => {
    const other = scripted('other', { onStart: (ctx) => ctx.emit(marketBuy('1', 'long')) });
    const setup = await setUp({}, [other]);
    expect(setup.rig.kernel.cache.position(BTC, 'LONG')?.qty.toFixed()).toBe('1');
    await funding(setup, '-0.0005');
    await funding(setup, '0');
    expect(setup.intents).toEqual([]);
    await setup.rig.kernel.strategies.stop('carry');
    expect(setup.rig.kernel.cache.position(BTC, 'LONG')?.qty.toFixed()).toBe('1');
    await setup.rig.stop(false);
  });

  test('an entry the risk engine refuses (risk.maxPosition 1 < quantity 2) is not retried before addIntervalMs', async () => {
    const setup = await setUp({}, [], { maxPosition: dec(1) });
    await funding(setup, '0.0005');
    for (let i = 0; i < 3; i++) {
      setup.world.book([['99999.9', '5']], [['100000', String(5 + i)]]);
      await setup.rig.settle();
    }
    expect(setup.rig.of('intent.denied').map((e) => e.denial.code)).toEqual(['MAX_POSITION']);
    await later(setup);
    await funding(setup, '0.0005');
    expect(setup.rig.of('intent.denied').map((e) => e.denial.code)).toEqual(['MAX_POSITION', 'MAX_POSITION']);
    await setup.rig.stop(false);
  });

  test('on stop: cancel-all takes its resting entry off the exchange; the short stays', async () => {
    const setup = await setUp();
    await funding(setup, '0.0005');
    await buyersLift(setup);
    await later(setup);
    await funding(setup, '0.0005');
    expect(setup.world.openIds()).toEqual(['carry-c2']);
    await setup.rig.kernel.strategies.stop('carry');
    await setup.rig.settle();
    expect(rows(setup.intents.slice(2))).toEqual([{ type: 'cancel-all', symbol: BTC }]);
    expect(setup.world.openOrders()).toEqual([]);
    expect(short(setup.rig)).toBe('2');
    await setup.rig.stop(false);
  });

  test('closeOnStop: on stop the short is closed too', async () => {
    const setup = await setUp({ closeOnStop: true });
    await funding(setup, '0.0005');
    await buyersLift(setup);
    await setup.rig.kernel.strategies.stop('carry');
    await setup.rig.settle();
    expect(summary(setup.intents.slice(1))).toEqual(['cancel-all', 'BUY SHORT MARKET close']);
    expect(short(setup.rig)).toBe('0');
    expect(setup.world.openOrders()).toEqual([]);
    await setup.rig.stop(false);
  });

  test('the short collects funding when the interval settles', async () => {
    const setup = await setUp({ quantity: 5 });
    const next = setup.world.clock.now() + MINUTE;
    await funding(setup, '0.001', next);
    await buyersLift(setup);
    expect(short(setup.rig)).toBe('5');
    const before = setup.rig.kernel.cache.balance('USDT')?.walletBalance;
    await later(setup);
    await funding(setup, '0.001', next + EIGHT_HOURS); // the interval ending at `next` settles at 0.001
    const after = setup.rig.kernel.cache.balance('USDT')?.walletBalance;
    // 5 contracts × 0.001 BTC × mark 100000 × 0.001 = 0.5 USDT received
    expect(after?.minus(before ?? 0).toFixed()).toBe('0.5');
    await setup.rig.stop(false);
  });

  test('params: exitRate must be below entryRate', () => {
    expect(carry.params.safeParse({ entryRate: '0.0001', exitRate: '0.0002' }).success).toBe(false);
    expect(carry.params.parse({})).toMatchObject({ addIntervalMs: 60_000, allowLong: false, closeOnStop: false });
  });

  test('config/strategies/funding-carry.yml passes prepareRun: paper mode, a BTC and an ETH instance', async () => {
    const example = await prepareExample('funding-carry');
    expect(example.mode).toBe('paper');
    expect(example.strategies.map((s) => [s.id, s.module])).toEqual([
      ['carry-btc', 'funding-carry'],
      ['carry-eth', 'funding-carry'],
    ]);
    expect(example.strategies[1]?.params).toMatchObject({ allowLong: true, addIntervalMs: 60_000 });
  });
});
