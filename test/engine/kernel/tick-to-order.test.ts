import { filter, map } from 'rxjs';
import type { Subscription } from 'rxjs';
import { z } from 'zod';
import { dec } from '../../../src/core/decimal.js';
import { silentLogger } from '../../../src/core/logger.js';
import { Kernel } from '../../../src/engine/kernel.js';
import { defineStreamStrategy } from '../../../src/engine/strategy/api.js';
import type { StrategyInstance } from '../../../src/engine/strategy/instance.js';
import type { CallTrace, ExchangePort } from '../../../src/model/exchange-port.js';
import type { Intent } from '../../../src/model/intents.js';
import type { IndexPriceUpdated } from '../../../src/model/market-events.js';
import { BTC, drain, ETH, limitBuy, scripted, World } from './kernel-support.js';
import type { TestStrategy } from './kernel-support.js';

/** A stopwatch the test moves by hand (fractional ms). */
class Watch {
  value = 5_000;
  readonly now = (): number => this.value;
}

/**
 * The in-process port with a socket's behaviour for traces: each write moves the stopwatch on by
 * `writeMs` (the work between arrival and the write), then reports the write, as the got adapter does
 * on 'finish'. Records which commands went out and whether they were traced.
 */
class WritingPort implements ExchangePort {
  readonly writes: Array<{ readonly command: string; readonly traced: boolean }> = [];

  constructor(
    private readonly inner: ExchangePort,
    private readonly watch: Watch,
    private readonly writeMs = 0.2,
  ) {}

  private wrote(command: string, trace: CallTrace | undefined): void {
    this.writes.push({ command, traced: trace?.written !== undefined });
    trace?.sending?.();
    this.watch.value += this.writeMs;
    trace?.written?.();
  }

  loadInstruments: ExchangePort['loadInstruments'] = () => this.inner.loadInstruments();
  placeOrder: ExchangePort['placeOrder'] = (c, t) => {
    this.wrote(c.type, t);
    return this.inner.placeOrder(c);
  };
  placeOrders: ExchangePort['placeOrders'] = (c) => this.inner.placeOrders(c);
  modifyOrder: ExchangePort['modifyOrder'] = (c, t) => {
    this.wrote(c.type, t);
    return this.inner.modifyOrder(c);
  };
  cancelOrder: ExchangePort['cancelOrder'] = (c, t) => {
    this.wrote(c.type, t);
    return this.inner.cancelOrder(c);
  };
  cancelAll: ExchangePort['cancelAll'] = (c, t) => {
    this.wrote(c.type, t);
    return this.inner.cancelAll(c);
  };
  placeAlgo: ExchangePort['placeAlgo'] = (c, t) => {
    this.wrote(c.type, t);
    return this.inner.placeAlgo(c);
  };
  modifyAlgo: ExchangePort['modifyAlgo'] = (c, t) => {
    this.wrote(c.type, t);
    return this.inner.modifyAlgo(c);
  };
  cancelAlgo: ExchangePort['cancelAlgo'] = (c, t) => {
    this.wrote(c.type, t);
    return this.inner.cancelAlgo(c);
  };
  queryOrder: ExchangePort['queryOrder'] = (s, id) => this.inner.queryOrder(s, id);
  queryAlgo: ExchangePort['queryAlgo'] = (s, id) => this.inner.queryAlgo(s, id);
  fetchAccount: ExchangePort['fetchAccount'] = (s) => this.inner.fetchAccount(s);
  fetchFills: ExchangePort['fetchFills'] = (s, t) => this.inner.fetchFills(s, t);
  fetchAlgoHistory: ExchangePort['fetchAlgoHistory'] = (s, f, b) => this.inner.fetchAlgoHistory(s, f, b);
  queryOrderById: ExchangePort['queryOrderById'] = (s, id) => this.inner.queryOrderById(s, id);
}

/** A kernel on the world's exchange through a WritingPort, its time source carrying the test's stopwatch. */
class Rig {
  readonly watch = new Watch();
  readonly port: WritingPort;
  readonly kernel: Kernel;
  private readonly subscriptions: Subscription[] = [];

  constructor(
    readonly world: World,
    strategies: ReadonlyArray<StrategyInstance | TestStrategy>,
  ) {
    this.port = new WritingPort(world.port, this.watch);
    const { store, clock } = world;
    this.kernel = new Kernel({
      port: this.port,
      journal: store.journal(),
      keyValue: (id) => store.keyValue(id),
      time: { clock, scheduler: clock, stopwatch: this.watch },
      logger: silentLogger,
      globalLimits: {},
      strategies: strategies.map((s) => ('instance' in s ? s.instance : s)),
      symbols: [BTC, ETH],
      orphans: 'adopt',
      tickMs: 0,
    });
    this.subscriptions.push(world.port.accountEvents$.subscribe((event) => this.kernel.ingest(event)));
    // Market data without an arrival stamp: what it causes is not timed.
    this.subscriptions.push(world.market$().subscribe((event) => this.kernel.ingest(event)));
  }

  async start(): Promise<void> {
    const started = await this.kernel.start();
    if (!started.ok) throw new Error(started.error.message);
    await this.settle();
  }

  async settle(): Promise<void> {
    await drain();
    await this.kernel.strategies.idle();
    await this.kernel.executor.flush();
    await drain();
  }

  /** An index price update whose poll reply arrived `agoMs` before now on the stopwatch. */
  tick(price: string, agoMs = 0): void {
    const event: IndexPriceUpdated = { type: 'market.indexPrice', symbol: BTC, time: this.world.clock.now(), price: dec(price) };
    this.kernel.ingest(event, this.watch.value - agoMs);
  }

  async stop(): Promise<void> {
    await this.kernel.stop({ cancelOpenOrders: false });
    for (const s of this.subscriptions.splice(0)) s.unsubscribe();
  }

  /** Histogram sample counts by (command, trigger). */
  async counts(): Promise<Record<string, number>> {
    const metric = this.kernel.metrics.registry.getSingleMetric('stratd_tick_to_order_seconds');
    if (metric === undefined) throw new Error('no tick-to-order histogram');
    const { values } = await metric.get();
    const counts: Record<string, number> = {};
    for (const v of values) {
      if ('metricName' in v && v.metricName === 'stratd_tick_to_order_seconds_count') counts[`${String(v.labels['command'])} ${String(v.labels['trigger'])}`] = v.value;
    }
    return counts;
  }
}

const isIndex = (type: string): boolean => type === 'market.indexPrice';

describe('tick-to-order: the arrival of market data is carried to the write of the order request it causes', () => {
  test('a handler that places and cancels on a market event: both requests are timed from the arrival to the write', async () => {
    const world = new World();
    let n = 0;
    const alpha = scripted('alpha', {
      onEvent: (ctx, event) => {
        if (!isIndex(event.type)) return;
        n++;
        if (n > 1) ctx.emit({ type: 'cancel', clientOrderId: ctx.clientOrderIdFor(`q${n - 1}`) });
        ctx.emit(limitBuy('90000', '1', `q${n}`));
      },
    });
    const rig = new Rig(world, [alpha]);
    await rig.start();
    expect(rig.kernel.metrics.tickToOrder.summary().count).toBe(0);

    // Arrived 0.3 ms ago; the write of the place adds 0.2 ms.
    rig.tick('100000', 0.3);
    await rig.settle();
    expect(rig.port.writes).toEqual([{ command: 'place-order', traced: true }]);
    const first = rig.kernel.metrics.tickToOrder.summary();
    expect(first.count).toBe(1);
    expect(first.p50Ms).toBeCloseTo(0.5, 9);
    expect(first.maxMs).toBeCloseTo(0.5, 9);

    // The next one: the cancel goes first (0.2 after arrival), the place after it (0.4).
    rig.tick('100001');
    await rig.settle();
    expect(rig.port.writes.slice(1)).toEqual([
      { command: 'cancel-order', traced: true },
      { command: 'place-order', traced: true },
    ]);
    const second = rig.kernel.metrics.tickToOrder.summary();
    expect([second.count, second.kept]).toEqual([3, 3]);
    expect(second.p50Ms).toBeCloseTo(0.4, 9);
    expect(second.p99Ms).toBeCloseTo(0.5, 9);
    expect(await rig.counts()).toEqual({ 'place-order market.indexPrice': 2, 'cancel-order market.indexPrice': 1 });
    expect(world.openIds()).toEqual(['alpha-q2']);
    await rig.stop();
  });

  test('the breakdown: each stage from the previous reading, parse through write, adding up to the whole', async () => {
    const world = new World();
    const alpha = scripted('alpha', {
      onEvent: (ctx, event) => {
        if (!isIndex(event.type)) return;
        // The strategy's own work before it emits: 0.1 ms.
        rig.watch.value += 0.1;
        ctx.emit(limitBuy('90000', '1', 'staged'));
      },
    });
    const rig = new Rig(world, [alpha]);
    await rig.start();
    // Arrived 0.3 ms before it enters the kernel (the parse); the write adds 0.2 ms.
    rig.tick('100000', 0.3);
    await rig.settle();
    const summary = rig.kernel.metrics.tickToOrder.summary();
    expect(summary.count).toBe(1);
    expect(summary.stages.parse.p50Ms).toBeCloseTo(0.3, 9);
    expect(summary.stages.kernel.p50Ms).toBeCloseTo(0.1, 9);
    expect(summary.stages.risk.p50Ms).toBe(0);
    expect(summary.stages.journal.p50Ms).toBe(0);
    expect(summary.stages.call.p50Ms).toBe(0);
    expect(summary.stages.write.p50Ms).toBeCloseTo(0.2, 9);
    const total = Object.values(summary.stages).reduce((sum, stage) => sum + stage.p50Ms, 0);
    expect(total).toBeCloseTo(summary.p50Ms, 9);
    await rig.stop();
  });

  test('an async handler that emits after an await still answers the event it is handling', async () => {
    const world = new World();
    const alpha = scripted('alpha', {
      onEvent: async (ctx, event) => {
        if (!isIndex(event.type)) return;
        await Promise.resolve();
        ctx.emit(limitBuy('90000', '1', 'later'));
      },
    });
    const rig = new Rig(world, [alpha]);
    await rig.start();
    rig.tick('100000', 1);
    await rig.settle();
    expect(rig.port.writes).toEqual([{ command: 'place-order', traced: true }]);
    expect(rig.kernel.metrics.tickToOrder.summary().p50Ms).toBeCloseTo(1.2, 9);
    await rig.stop();
  });

  test('an RxJS-style strategy: an intent mapped from the event carries its arrival', async () => {
    const world = new World();
    const definition = defineStreamStrategy({
      name: 'test-rx-tick',
      description: 'places on each index price',
      params: z.unknown(),
      run: (_ctx, events$) =>
        events$.pipe(
          filter((e) => isIndex(e.type)),
          map((): Intent => limitBuy('90000', '1', 'rx')),
        ),
    });
    const rx: StrategyInstance = { id: 'rx', symbols: [BTC], definition, params: {}, limits: {} };
    const rig = new Rig(world, [rx]);
    await rig.start();
    rig.tick('100000', 0.05);
    await rig.settle();
    expect(rig.port.writes).toEqual([{ command: 'place-order', traced: true }]);
    expect(await rig.counts()).toEqual({ 'place-order market.indexPrice': 1 });
    await rig.stop();
  });

  test('requests not caused by stamped market data are sent untraced and never observed', async () => {
    const world = new World();
    const alpha = scripted('alpha', {
      onStart: (ctx) => ctx.emit(limitBuy('90000', '1', 'start')),
      // Market data from a source without arrival stamps (the world's own feed): not timed.
      onEvent: (ctx, event) => {
        if (event.type === 'market.book') ctx.emit(limitBuy('90001', '1', 'book'));
      },
    });
    const rig = new Rig(world, [alpha]);
    await rig.start();
    world.book([['99999.9', '5']], [['100000', '2']]);
    await rig.settle();
    // From the strategy's own timer: nothing is being handled.
    alpha.emit({ type: 'cancel', clientOrderId: 'alpha-start' });
    await rig.settle();
    // The kill switch cancels everything: the kernel's own requests.
    rig.kernel.halt('test');
    await rig.settle();
    // Reconciliation (the periodic job) sends only reads.
    const reconciled = await rig.kernel.reconcile(0);
    expect(reconciled.ok).toBe(true);
    await rig.settle();

    expect(rig.port.writes.map((w) => w.command)).toEqual(['place-order', 'place-order', 'cancel-order', 'cancel-all']);
    expect(rig.port.writes.every((w) => !w.traced)).toBe(true);
    expect(rig.kernel.metrics.tickToOrder.summary()).toMatchObject({ count: 0, kept: 0, p50Ms: 0, p99Ms: 0, maxMs: 0 });
    expect(await rig.counts()).toEqual({});
    await rig.stop();
  });
});
