import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { BusEvent } from '../../model/bus-events.js';
import { isMarketEvent } from '../../model/bus-events.js';
import type { MarketEvent } from '../../model/market-events.js';
import type { StrategyHandlers } from './api.js';
import type { Trigger } from '../tick-to-order.js';

export type RunnerState = 'created' | 'running' | 'stopping' | 'stopped' | 'failed';

export interface RunnerLimits {
  /** Above this many queued events, market data of a kind already queued is conflated (newest wins). */
  readonly conflateAbove: number;
  /** At this many queued events, new market data is dropped. Account and kernel events never are. */
  readonly dropAt: number;
}

export const DEFAULT_RUNNER_LIMITS: RunnerLimits = { conflateAbove: 1000, dropAt: 10_000 };

const SETTLED: Promise<void> = Promise.resolve();

export interface RunnerHooks {
  /** The instance threw or its stream failed: it is stopped; the others go on. */
  onFailure(error: unknown): void;
  /** Market events conflated or dropped since the last report (reported at most once per second). */
  onDropped(count: number): void;
}

/** Conflation key: one slot per kind of snapshot-like market data (trades are never conflated). */
function conflationKey(event: MarketEvent): string | undefined {
  switch (event.type) {
    case 'market.trade':
      return undefined;
    case 'market.kline':
      return `${event.type}/${event.symbol}/${event.interval}/${event.openTime}`;
    default:
      return `${event.type}/${event.symbol}`;
  }
}

interface Slot {
  event: BusEvent;
  /** When the event's data arrived (stopwatch ms), for market data from a source that says so. */
  arrivedAt: number | undefined;
  /** When it entered the kernel (stopwatch ms). */
  ingestedAt: number | undefined;
  readonly key: string | undefined;
}

/**
 * Runs one strategy instance: a bounded queue in front of its handlers, delivered one at a time (an
 * async handler is awaited before the next event). A slow instance never blocks the sources or the
 * other instances; when it falls behind, its market data is conflated, then dropped, and reported.
 */
export class StrategyRunner {
  private queue: Slot[] = [];
  private head = 0;
  private readonly queuedByKey = new Map<string, Slot>();
  private draining = false;
  private dropped = 0;
  private lastDropReport = Number.NEGATIVE_INFINITY;
  private idleWaiters: Array<() => void> = [];
  private current: Promise<void> = Promise.resolve();
  /** The slot whose event onEvent is handling (until an async handler settles). */
  private handling: Slot | undefined;
  private immediateSlot: Slot | undefined;
  state: RunnerState = 'created';
  lastError: unknown;
  handlerMs = 0;
  delivered = 0;

  constructor(
    readonly id: string,
    private readonly handlers: StrategyHandlers,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly hooks: RunnerHooks,
    private readonly limits: RunnerLimits = DEFAULT_RUNNER_LIMITS,
  ) {}

  get queued(): number {
    return this.queue.length - this.head;
  }

  /** The market event being handled, when its arrival is known: what an intent emitted now answers. */
  get trigger(): Trigger | undefined {
    const slot = this.handling;
    if (slot?.arrivedAt === undefined) return undefined;
    return slot.ingestedAt === undefined ? { event: slot.event.type, arrivedAt: slot.arrivedAt } : { event: slot.event.type, arrivedAt: slot.arrivedAt, ingestedAt: slot.ingestedAt };
  }

  /** Runs onStart; events that arrive meanwhile wait, then are delivered in order once it returns. */
  async start(): Promise<void> {
    if (this.state !== 'created') return;
    this.state = 'running';
    this.draining = true;
    try {
      const started = this.invoke(() => this.handlers.onStart?.());
      if (started !== undefined) await started;
    } finally {
      this.draining = false;
    }
    if (this.queued > 0 && this.state === 'running') this.current = this.drain();
    else this.wakeIdle();
  }

  /** Queues an event; `arrivedAt`/`ingestedAt`: when its data arrived and entered the kernel (stopwatch ms), for tick-to-order figures. */
  deliver(event: BusEvent, arrivedAt?: number, ingestedAt?: number): void {
    if (isMarketEvent(event)) {
      this.deliverMarket(event, arrivedAt, ingestedAt);
      return;
    }
    if (this.state !== 'running') return;
    if (!this.draining) {
      this.current = this.drain(this.immediate(event, arrivedAt, ingestedAt));
      return;
    }
    this.queue.push({ event, arrivedAt, ingestedAt, key: undefined });
  }

  /** `deliver` of an event known to be market data (the host's `dispatchMarket`: no type test again); conflated and dropped past the limits. */
  deliverMarket(event: MarketEvent, arrivedAt?: number, ingestedAt?: number): void {
    if (this.state !== 'running') return;
    const key = this.queued >= this.limits.conflateAbove ? conflationKey(event) : undefined;
    if (key !== undefined) {
      const slot = this.queuedByKey.get(key);
      if (slot !== undefined) {
        slot.event = event;
        slot.arrivedAt = arrivedAt;
        slot.ingestedAt = ingestedAt;
        this.countDrop();
        return;
      }
    }
    if (this.queued >= this.limits.dropAt) {
      this.countDrop();
      return;
    }
    // Nothing queued nor being handled: the event is handled now, so it needs no queue slot nor conflation key.
    if (!this.draining) {
      this.current = this.drain(this.immediate(event, arrivedAt, ingestedAt));
      return;
    }
    const slot: Slot = { event, arrivedAt, ingestedAt, key: conflationKey(event) };
    if (slot.key !== undefined) this.queuedByKey.set(slot.key, slot);
    this.queue.push(slot);
  }

  /**
   * The slot of an event handled at once (nothing draining): one per runner, reused, since it is free again
   * by the next such delivery (a handler's promise keeps `draining` set until it settles, and what arrives
   * meanwhile is queued in slots of its own). A replay hands every event over this way.
   */
  private immediate(event: BusEvent, arrivedAt: number | undefined, ingestedAt: number | undefined): Slot {
    const slot = this.immediateSlot;
    if (slot === undefined) return (this.immediateSlot = { event, arrivedAt, ingestedAt, key: undefined });
    slot.event = event;
    slot.arrivedAt = arrivedAt;
    slot.ingestedAt = ingestedAt;
    return slot;
  }

  /** Resolves once every queued event has been handled. */
  idle(): Promise<void> {
    if (this.queued === 0 && !this.draining) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops delivery (queued market data is discarded), then runs onStop. */
  async stop(): Promise<void> {
    if (this.state !== 'running') return;
    this.state = 'stopping';
    await this.current;
    this.queue = [];
    this.head = 0;
    this.queuedByKey.clear();
    await this.invoke(() => this.handlers.onStop?.());
    if (this.state === 'stopping') this.state = 'stopped';
    this.wakeIdle();
  }

  /**
   * Handles `first` (an event delivered while nothing was queued), then the queue, synchronously while
   * handlers are: a promise (and its async tail) only once a handler answers one. The same order and
   * the same awaits as one async loop, without a promise per event of a replay.
   */
  private drain(first?: Slot): Promise<void> {
    this.draining = true;
    let waiting: Promise<void> | undefined;
    try {
      waiting = first === undefined ? undefined : this.handle(first);
      if (waiting === undefined) waiting = this.handleQueued();
    } finally {
      if (waiting === undefined) this.drained();
    }
    return waiting === undefined ? SETTLED : this.drainAfter(waiting);
  }

  private async drainAfter(waiting: Promise<void>): Promise<void> {
    try {
      for (let next: Promise<void> | undefined = waiting; next !== undefined; next = this.handleQueued()) {
        await next;
        this.handled();
      }
    } finally {
      this.drained();
    }
  }

  /** Queued events, in order, until a handler answers a promise (answered, its slot still `handling`). */
  private handleQueued(): Promise<void> | undefined {
    while (this.head < this.queue.length && this.state === 'running') {
      const slot = this.queue[this.head++]!;
      if (slot.key !== undefined && this.queuedByKey.get(slot.key) === slot) this.queuedByKey.delete(slot.key);
      const handled = this.handle(slot);
      if (handled !== undefined) return handled;
    }
    return undefined;
  }

  /** One event to onEvent; a promise when the handler is async (the slot stays `handling` until it settles). */
  private handle(slot: Slot): Promise<void> | undefined {
    this.delivered++;
    this.handling = slot;
    const handled = this.invokeOnEvent(slot.event);
    if (handled !== undefined) return handled;
    this.handled();
    return undefined;
  }

  private handled(): void {
    this.handling = undefined;
    if (this.head > 4096 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
  }

  private drained(): void {
    this.draining = false;
    this.handling = undefined;
    if (this.head >= this.queue.length && this.queue.length > 0) {
      this.queue = [];
      this.head = 0;
    }
    // Caught up: whatever was dropped since the last report is reported now, so every drop is counted.
    if (this.dropped > 0) this.reportDrops();
    this.wakeIdle();
  }

  /** `invoke` of onEvent, without a closure per event (every event of a replay comes this way). */
  private invokeOnEvent(event: BusEvent): Promise<void> | undefined {
    const handlers = this.handlers;
    if (handlers.onEvent === undefined) return undefined;
    const started = this.clock.now();
    let returned: void | Promise<void>;
    try {
      returned = handlers.onEvent(event);
    } catch (error: unknown) {
      this.fail(error);
      return undefined;
    }
    return this.settled(returned, started);
  }

  /** Calls a handler; answers a promise only when the handler was async (keeps replay loops synchronous). */
  private invoke(call: () => void | Promise<void>): Promise<void> | undefined {
    const started = this.clock.now();
    let returned: void | Promise<void>;
    try {
      returned = call();
    } catch (error: unknown) {
      this.fail(error);
      return undefined;
    }
    return this.settled(returned, started);
  }

  /** What a handler answered: its time counted now, or once its promise settles. */
  private settled(returned: void | Promise<void>, started: number): Promise<void> | undefined {
    if (returned === undefined || typeof (returned as Promise<void>).then !== 'function') {
      this.handlerMs += this.clock.now() - started;
      return undefined;
    }
    return (returned as Promise<void>).then(
      () => {
        this.handlerMs += this.clock.now() - started;
      },
      (error: unknown) => this.fail(error),
    );
  }

  private fail(error: unknown): void {
    if (this.state === 'failed' || this.state === 'stopped') return;
    this.state = 'failed';
    this.lastError = error;
    this.queue = [];
    this.head = 0;
    this.queuedByKey.clear();
    this.logger.error({ err: error }, 'strategy failed; stopped');
    this.hooks.onFailure(error);
  }

  /** Reported at most once a second while behind, and once more when the queue has drained. */
  private countDrop(): void {
    this.dropped++;
    if (this.clock.now() - this.lastDropReport >= 1000) this.reportDrops();
  }

  private reportDrops(): void {
    this.lastDropReport = this.clock.now();
    const count = this.dropped;
    this.dropped = 0;
    this.logger.warn({ dropped: count, queued: this.queued }, 'strategy is behind: market data conflated or dropped');
    this.hooks.onDropped(count);
  }

  private wakeIdle(): void {
    // Nobody waits (every event of a replay): no new list.
    if (this.idleWaiters.length === 0 || this.queued > 0 || this.draining) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }
}
