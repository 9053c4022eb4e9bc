import { concat, defer, from, Subject } from 'rxjs';
import type { Observable, Subscription } from 'rxjs';
import { z } from 'zod';
import { dec } from '../../../src/core/decimal.js';
import { silentLogger } from '../../../src/core/logger.js';
import { VirtualClock } from '../../../src/core/virtual-time.js';
import { Kernel } from '../../../src/engine/kernel.js';
import type { KernelOptions } from '../../../src/engine/kernel.js';
import type { HandlerContext } from '../../../src/engine/strategy/api.js';
import { defineStrategy } from '../../../src/engine/strategy/api.js';
import type { StrategyDefinition } from '../../../src/engine/strategy/api.js';
import type { StrategyInstance } from '../../../src/engine/strategy/instance.js';
import type { RunnerLimits } from '../../../src/engine/strategy/runner.js';
import type { BusEvent } from '../../../src/model/bus-events.js';
import type { Intent } from '../../../src/model/intents.js';
import type { OrderJournal } from '../../../src/model/journal.js';
import type { MarketEvent, MarketEventType } from '../../../src/model/market-events.js';
import type { GlobalRiskLimits, RiskLimits } from '../../../src/model/risk-limits.js';
import type { SimExchange } from '../../../src/sim/engine/sim-exchange.js';
import type { OrderView } from '../../../src/sim/engine/types.js';
import type { PriceLevel } from '../../../src/sim/market-stream/events.js';
import { SimExchangePort } from '../../../src/sim/port/exchange-port.js';
import { StateStore } from '../../../src/store/state-file/state-store.js';
import { ACCOUNT, BTC, depth, engine, mark, PARENT, standardBook, T0, trade } from '../../sim/engine/engine-support.js';
import { drain, FaultyPort } from '../execution/execution-support.js';
import { modelMarketEvent } from '../../../src/sim/port/market-events.js';

export { ACCOUNT, BTC, drain, T0 };
/** Listed by the engine, but not among the test strategies' symbols unless asked. */
export const ETH = 'ETH-SWAP-USDT';

type Of<T extends BusEvent['type']> = Extract<BusEvent, { type: T }>;

export function ofType<T extends BusEvent['type']>(events: readonly BusEvent[], type: T): Array<Of<T>> {
  return events.filter((e): e is Of<T> => e.type === type);
}

/**
 * The exchange side and the persistent state that one kernel process after another shares: a virtual
 * clock, the simulated exchange's engine (user 100, standard book around 100000), its in-process port
 * and an in-memory state store (journal and key-value stores).
 */
export class World {
  readonly clock = new VirtualClock(T0);
  readonly ex: SimExchange;
  readonly port: SimExchangePort;
  readonly store = StateStore.inMemory();
  private readonly latest = new Map<string, MarketEvent>();
  private readonly live = new Subject<MarketEvent>();

  constructor() {
    this.ex = engine().ex;
    this.port = new SimExchangePort({ engine: this.ex, userId: PARENT, time: this.clock });
    this.ex.onMarketEvent((event) => {
      const mapped = modelMarketEvent(event);
      if (mapped === undefined) return;
      this.latest.set(`${mapped.type}/${mapped.symbol}`, mapped);
      this.live.next(mapped);
    });
    standardBook(this.ex, this.clock.now());
  }

  /** Market data as a poller delivers it to a process that just started: the latest of each kind, then live. */
  market$(): Observable<MarketEvent> {
    return concat(
      defer(() => from([...this.latest.values()])),
      this.live,
    );
  }

  // ---- driving the market at the current virtual time

  book(bids: readonly PriceLevel[], asks: readonly PriceLevel[]): void {
    depth(this.ex, this.clock.now(), bids, asks);
  }

  /** A public trade; `takerSide` SELL prints through resting bids, BUY through resting asks. */
  trade(price: string, qty: string, takerSide: 'BUY' | 'SELL'): void {
    trade(this.ex, this.clock.now(), price, qty, takerSide === 'SELL');
  }

  mark(price: string): void {
    mark(this.ex, this.clock.now(), price);
  }

  // ---- what the exchange holds

  openOrders(): readonly OrderView[] {
    return this.ex.openOrders(ACCOUNT, { limit: 1000 });
  }

  openIds(): string[] {
    return this.openOrders()
      .map((o) => o.clientOrderId)
      .sort();
  }

  /** Every order the account ever placed (open and finished). */
  allOrders(): readonly OrderView[] {
    return [...this.openOrders(), ...this.ex.historyOrders(ACCOUNT, { limit: 1000, startTime: T0 - 1 })];
  }
}

/** A handler-style test strategy: its calls are scripted by the test; it records every event it receives. */
export interface Script {
  onStart?(ctx: HandlerContext<unknown>): void | Promise<void>;
  onEvent?(ctx: HandlerContext<unknown>, event: BusEvent): void | Promise<void>;
  onStop?(ctx: HandlerContext<unknown>): void | Promise<void>;
}

export interface TestStrategy {
  readonly id: string;
  readonly instance: StrategyInstance;
  /** Every event delivered to the instance, in delivery order. */
  readonly seen: BusEvent[];
  /** Hooks that ran, in order: 'start', 'stop'. */
  readonly hooks: string[];
  /** The context the runtime gave the instance (after the kernel created it). */
  ctx(): HandlerContext<unknown>;
  /** Emits as the strategy would from one of its own timers. */
  emit(intent: Intent): void;
  /** The events of one type it received. */
  of<T extends BusEvent['type']>(type: T): Array<Of<T>>;
}

export interface StrategyOptions {
  readonly symbols?: readonly string[];
  readonly limits?: RiskLimits;
  /** The definition's `marketEvents` (absent: every kind of market data). */
  readonly marketEvents?: readonly MarketEventType[];
}

/** A configured instance of a definition: the test strategies take no params. */
function instanceOf(id: string, definition: StrategyDefinition, options: StrategyOptions): StrategyInstance {
  return { id, symbols: options.symbols ?? [BTC], definition, params: {}, limits: options.limits ?? {} };
}

export function scripted(id: string, script: Script = {}, options: StrategyOptions = {}): TestStrategy {
  const seen: BusEvent[] = [];
  const hooks: string[] = [];
  let context: HandlerContext<unknown> | undefined;
  const definition = defineStrategy({
    name: `test-${id}`,
    description: 'scripted test strategy',
    params: z.unknown(),
    ...(options.marketEvents === undefined ? {} : { marketEvents: options.marketEvents }),
    create: (ctx) => {
      context = ctx;
      return {
        onStart: () => {
          hooks.push('start');
          return script.onStart?.(ctx);
        },
        onEvent: (event) => {
          seen.push(event);
          return script.onEvent?.(ctx, event);
        },
        onStop: () => {
          hooks.push('stop');
          return script.onStop?.(ctx);
        },
      };
    },
  });
  const ctx = (): HandlerContext<unknown> => {
    if (context === undefined) throw new Error(`strategy ${id} has not been created by a kernel yet`);
    return context;
  };
  return {
    id,
    instance: instanceOf(id, definition, options),
    seen,
    hooks,
    ctx,
    emit: (intent) => ctx().emit(intent),
    of: (type) => ofType(seen, type),
  };
}

export interface KernelRigOptions {
  readonly strategies: ReadonlyArray<StrategyInstance | TestStrategy>;
  readonly globalLimits?: GlobalRiskLimits;
  readonly orphans?: KernelOptions['orphans'];
  readonly runnerLimits?: RunnerLimits;
  /** Connect the port's user stream to the kernel (false: the stream is down). Default true. */
  readonly stream?: boolean;
  readonly settleAfterMs?: number;
  /** Timer ticks; off by default so that only the test's events reach the strategies. */
  readonly tickMs?: number;
  /** The journal instead of the World's store's (a fault-injected wrapper of it). */
  readonly journal?: OrderJournal;
}

/**
 * One daemon process over a World: the Kernel wired to the port (through a FaultyPort, for call counts
 * and fault injection), the journal and key-value stores of the shared StateStore, the user stream
 * (`port.accountEvents$` → ingest) and the market (`world.market$()` → ingest). Records `events$`.
 */
export class KernelRig {
  readonly kernel: Kernel;
  readonly faulty: FaultyPort;
  readonly events: BusEvent[] = [];
  completed = false;
  private readonly subscriptions: Subscription[] = [];
  private stream: Subscription | undefined;

  constructor(
    readonly world: World,
    options: KernelRigOptions,
  ) {
    this.faulty = new FaultyPort(world.port);
    const { store, clock } = world;
    this.kernel = new Kernel({
      port: this.faulty,
      journal: options.journal ?? store.journal(),
      keyValue: (id) => store.keyValue(id),
      time: clock,
      logger: silentLogger,
      globalLimits: options.globalLimits ?? {},
      strategies: options.strategies.map((s) => ('instance' in s ? s.instance : s)),
      symbols: [BTC, ETH],
      orphans: options.orphans ?? 'adopt',
      tickMs: options.tickMs ?? 0,
      ...(options.runnerLimits === undefined ? {} : { runnerLimits: options.runnerLimits }),
      ...(options.settleAfterMs === undefined ? {} : { settleAfterMs: options.settleAfterMs }),
    });
    this.subscriptions.push(
      this.kernel.events$.subscribe({
        next: (event) => this.events.push(event),
        complete: () => {
          this.completed = true;
        },
      }),
    );
    if (options.stream !== false) this.connectStream();
    this.subscriptions.push(world.market$().subscribe((event) => this.kernel.ingest(event)));
  }

  /** The user stream comes (back): its events reach the kernel again (the test announces `stream.connected`). */
  connectStream(): void {
    this.stream ??= this.world.port.accountEvents$.subscribe((event) => this.kernel.ingest(event));
  }

  /** The user stream drops: account events of the engine are lost to this process until it reconnects. */
  disconnectStream(): void {
    this.stream?.unsubscribe();
    this.stream = undefined;
  }

  get clock(): VirtualClock {
    return this.world.clock;
  }

  /** Starts the kernel (instruments, reconciliation, strategies) and lets everything queued run. */
  async start(): Promise<void> {
    const started = await this.kernel.start();
    if (!started.ok) throw new Error(`kernel start failed: ${started.error.code} ${started.error.message}`);
    await this.settle();
  }

  /** Lets promise continuations run and waits until every strategy has handled what is queued. */
  async settle(): Promise<void> {
    await drain();
    await this.kernel.strategies.idle();
    await this.kernel.executor.flush();
    await drain();
  }

  /** Moves virtual time in steps, settling in between. */
  async advance(ms: number, step = 100): Promise<void> {
    await drain();
    for (let done = 0; done < ms; done += step) {
      this.clock.advanceBy(Math.min(step, ms - done));
      await drain();
    }
    await this.settle();
  }

  /**
   * Moves virtual time in steps until every strategy has handled its queue (for strategies that await
   * virtual sleeps, where `settle` alone would wait forever).
   */
  async runUntilIdle(stepMs: number, maxSteps = 1000): Promise<void> {
    let idle = false;
    void this.kernel.strategies.idle().then(() => {
      idle = true;
    });
    await drain();
    for (let i = 0; i < maxSteps && !idle; i++) {
      this.clock.advanceBy(stepMs);
      await drain();
    }
    if (!idle) throw new Error(`strategies still busy after ${maxSteps} steps of ${stepMs} ms`);
    await this.settle();
  }

  /** Stops the kernel and detaches it from the stream and the market (the process is gone). */
  async stop(cancelOpenOrders: boolean): Promise<void> {
    await this.kernel.stop({ cancelOpenOrders });
    this.detach();
  }

  detach(): void {
    this.disconnectStream();
    for (const s of this.subscriptions.splice(0)) s.unsubscribe();
  }

  of<T extends BusEvent['type']>(type: T): Array<Of<T>> {
    return ofType(this.events, type);
  }

  /** A counter's value for exactly these labels (0 when never incremented). */
  async metric(name: string, labels: Readonly<Record<string, string>>): Promise<number> {
    const metric = this.kernel.metrics.registry.getSingleMetric(name);
    if (metric === undefined) throw new Error(`no metric ${name}`);
    const { values } = await metric.get();
    const want = Object.entries(labels);
    const row = values.find((v) => want.every(([k, value]) => v.labels[k] === value) && Object.keys(v.labels).length === want.length);
    return row?.value ?? 0;
  }
}

/** Common intents, quantities in contracts. */
export function limitBuy(price: string, quantity = '1', key?: string, symbol = BTC): Intent {
  return { type: 'place', symbol, side: 'BUY', orderType: 'LIMIT', price: dec(price), quantity: dec(quantity), ...(key === undefined ? {} : { key }) };
}

export function limitSell(price: string, quantity = '1', key?: string, symbol = BTC): Intent {
  return { type: 'place', symbol, side: 'SELL', orderType: 'LIMIT', price: dec(price), quantity: dec(quantity), ...(key === undefined ? {} : { key }) };
}

export function marketBuy(quantity = '1', key?: string, symbol = BTC): Intent {
  return { type: 'place', symbol, side: 'BUY', orderType: 'MARKET', quantity: dec(quantity), ...(key === undefined ? {} : { key }) };
}

/** Closes the whole LONG position at market. */
export function closeLong(symbol = BTC): Intent {
  return { type: 'place', symbol, side: 'SELL', positionSide: 'LONG', orderType: 'MARKET', closePosition: true };
}
