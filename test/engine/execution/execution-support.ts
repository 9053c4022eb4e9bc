import type { Subscription } from 'rxjs';
import { dec } from '../../../src/core/decimal.js';
import { silentLogger } from '../../../src/core/logger.js';
import type { Result } from '../../../src/core/result.js';
import { err } from '../../../src/core/result.js';
import { VirtualClock } from '../../../src/core/virtual-time.js';
import { Cache } from '../../../src/engine/cache.js';
import { Executor } from '../../../src/engine/execution/executor.js';
import type { OrphanPolicy } from '../../../src/engine/execution/reconciler.js';
import { Reconciler } from '../../../src/engine/execution/reconciler.js';
import type { BusEvent } from '../../../src/model/bus-events.js';
import type { PlaceOrderCommand } from '../../../src/model/commands.js';
import type { ExchangeFailure, ExchangePort, PortResult } from '../../../src/model/exchange-port.js';
import type { OrderJournal } from '../../../src/model/journal.js';
import type { SimExchange } from '../../../src/sim/engine/sim-exchange.js';
import type { LatencyModel } from '../../../src/sim/port/port-latency.js';
import { SimExchangePort } from '../../../src/sim/port/exchange-port.js';
import { StateStore } from '../../../src/store/state-file/state-store.js';
import { ACCOUNT, BTC, engine, PARENT, standardBook, T0 } from '../../sim/engine/engine-support.js';

export { ACCOUNT, BTC, T0 };

/**
 * A fault at the port boundary: the call runs and its reply is lost, or it never reaches the exchange;
 * or the port itself is broken (a bug below): it throws when called, or its promise rejects.
 */
export type Fault = 'lose-reply' | 'drop-request' | 'fail' | 'throw' | 'reject';

type Method = keyof ExchangePort;

const LOST: ExchangeFailure = { kind: 'unknown', code: 'timeout', message: 'reply lost (fault injection)', retryable: true };
const DOWN: ExchangeFailure = { kind: 'unknown', code: '503', message: 'service unavailable (fault injection)', retryable: true };

/** Wraps a real port: counts calls per method and applies queued faults. */
export class FaultyPort implements ExchangePort {
  readonly calls = new Map<Method, number>();
  private readonly faults = new Map<Method, Fault[]>();

  constructor(private readonly inner: ExchangePort) {}

  inject(method: Method, ...faults: Fault[]): void {
    this.faults.set(method, [...(this.faults.get(method) ?? []), ...faults]);
  }

  count(method: Method): number {
    return this.calls.get(method) ?? 0;
  }

  private run<T>(method: Method, call: () => PortResult<T>): PortResult<T> {
    this.calls.set(method, this.count(method) + 1);
    const fault = this.faults.get(method)?.shift();
    if (fault === 'throw') throw new Error(`${method}: port bug (fault injection)`);
    if (fault === 'reject') return Promise.reject(new Error(`${method}: port bug (fault injection)`));
    return this.answer(fault, call);
  }

  private async answer<T>(fault: Fault | undefined, call: () => PortResult<T>): PortResult<T> {
    if (fault === 'drop-request') return err(LOST);
    if (fault === 'fail') return err(DOWN);
    const result: Result<T, ExchangeFailure> = await call();
    return fault === 'lose-reply' ? err(LOST) : result;
  }

  loadInstruments: ExchangePort['loadInstruments'] = () => this.run('loadInstruments', () => this.inner.loadInstruments());
  placeOrder: ExchangePort['placeOrder'] = (c) => this.run('placeOrder', () => this.inner.placeOrder(c));
  placeOrders: ExchangePort['placeOrders'] = (c) => this.run('placeOrders', () => this.inner.placeOrders(c));
  modifyOrder: ExchangePort['modifyOrder'] = (c) => this.run('modifyOrder', () => this.inner.modifyOrder(c));
  cancelOrder: ExchangePort['cancelOrder'] = (c) => this.run('cancelOrder', () => this.inner.cancelOrder(c));
  cancelAll: ExchangePort['cancelAll'] = (c) => this.run('cancelAll', () => this.inner.cancelAll(c));
  placeAlgo: ExchangePort['placeAlgo'] = (c) => this.run('placeAlgo', () => this.inner.placeAlgo(c));
  modifyAlgo: ExchangePort['modifyAlgo'] = (c) => this.run('modifyAlgo', () => this.inner.modifyAlgo(c));
  cancelAlgo: ExchangePort['cancelAlgo'] = (c) => this.run('cancelAlgo', () => this.inner.cancelAlgo(c));
  queryOrder: ExchangePort['queryOrder'] = (s, id) => this.run('queryOrder', () => this.inner.queryOrder(s, id));
  queryAlgo: ExchangePort['queryAlgo'] = (s, id) => this.run('queryAlgo', () => this.inner.queryAlgo(s, id));
  fetchAccount: ExchangePort['fetchAccount'] = (s) => this.run('fetchAccount', () => this.inner.fetchAccount(s));
  fetchFills: ExchangePort['fetchFills'] = (s, t) => this.run('fetchFills', () => this.inner.fetchFills(s, t));
  fetchAlgoHistory: ExchangePort['fetchAlgoHistory'] = (s, f, b) => this.run('fetchAlgoHistory', () => this.inner.fetchAlgoHistory(s, f, b));
  queryOrderById: ExchangePort['queryOrderById'] = (s, id) => this.run('queryOrderById', () => this.inner.queryOrderById(s, id));
}

/** Lets promise continuations run (the port answers through microtasks). */
export async function drain(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Moves virtual time in steps, letting async work run between them. */
export async function runFor(clock: VirtualClock, ms: number, step = 50): Promise<void> {
  await drain();
  for (let done = 0; done < ms; done += step) {
    clock.advanceBy(Math.min(step, ms - done));
    await drain();
  }
}

/**
 * One daemon's execution side over the in-process engine: port (with fault injection), executor,
 * reconciler and the real cache, with every published event recorded. `stream` connects the port's
 * account events to the bus (false: the user stream is down).
 */
export class Rig {
  readonly events: BusEvent[] = [];
  readonly cache = new Cache();
  readonly executor: Executor;
  readonly reconciler: Reconciler;
  readonly faulty: FaultyPort;
  private streamSub: Subscription | undefined;

  constructor(
    readonly clock: VirtualClock,
    readonly ex: SimExchange,
    readonly port: SimExchangePort,
    readonly journal: OrderJournal,
    options: { readonly orphans?: OrphanPolicy; readonly strategies?: readonly string[]; readonly stream?: boolean } = {},
  ) {
    this.faulty = new FaultyPort(port);
    this.executor = new Executor({ port: this.faulty, journal, time: clock, logger: silentLogger, bus: { ingest: (e) => this.publish(e) } });
    this.reconciler = new Reconciler({
      port: this.faulty,
      executor: this.executor,
      journal,
      cache: this.cache,
      clock,
      logger: silentLogger,
      publish: (e) => this.publish(e),
      symbols: [BTC],
      strategies: options.strategies ?? ['alpha', 'beta'],
      orphans: options.orphans ?? 'adopt',
    });
    if (options.stream !== false) this.connectStream();
  }

  publish(event: BusEvent): void {
    this.events.push(event);
    if (this.cache.apply(event)) {
      this.executor.onEvent(event);
      this.reconciler.onEvent(event);
    }
  }

  connectStream(): void {
    this.streamSub ??= this.port.accountEvents$.subscribe((e) => this.publish(e));
  }

  disconnectStream(): void {
    this.streamSub?.unsubscribe();
    this.streamSub = undefined;
  }

  of<T extends BusEvent['type']>(type: T): Array<Extract<BusEvent, { type: T }>> {
    return this.events.filter((e): e is Extract<BusEvent, { type: T }> => e.type === type);
  }

  /** A new daemon process over the same journal and exchange (the old one is gone). */
  restart(options: { readonly orphans?: OrphanPolicy; readonly stream?: boolean } = {}): Rig {
    this.disconnectStream();
    this.executor.close();
    return new Rig(this.clock, this.ex, this.port, this.journal, options);
  }
}

/** An engine with a standard book, a port for user 100 and a fresh in-memory SQLite journal. */
export function rig(options: { readonly orphans?: OrphanPolicy; readonly stream?: boolean; readonly latency?: LatencyModel } = {}): Rig {
  const clock = new VirtualClock(T0);
  const { ex } = engine();
  standardBook(ex);
  const port = new SimExchangePort({ engine: ex, userId: PARENT, time: clock, ...(options.latency === undefined ? {} : { latency: options.latency }) });
  return new Rig(clock, ex, port, StateStore.inMemory().journal(), options);
}

export function limit(clientOrderId: string, side: 'BUY' | 'SELL', price: string, quantity = '1'): PlaceOrderCommand {
  return {
    type: 'place-order',
    clientOrderId,
    symbol: BTC,
    side,
    positionSide: side === 'BUY' ? 'LONG' : 'SHORT',
    orderType: 'LIMIT',
    price: dec(price),
    quantity: dec(quantity),
    timeInForce: 'GTC',
  };
}
