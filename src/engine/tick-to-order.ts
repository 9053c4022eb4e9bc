import { Histogram, Registry } from 'prom-client';
import type { BusEvent } from '../model/bus-events.js';
import type { ExchangeCommand } from '../model/commands.js';

/**
 * The market event an order request answers: its type, when the data carrying it arrived, and the
 * stopwatch readings (ms) of the request's way so far, which the kernel and the executor add.
 */
export interface Trigger {
  readonly event: BusEvent['type'];
  /** The poll reply's status line and headers arrived. */
  readonly arrivedAt: number;
  /** The event, parsed, entered the kernel. */
  readonly ingestedAt?: number;
  /** The strategy emitted the intent. */
  readonly emittedAt?: number;
  /** The risk engine approved it. */
  readonly approvedAt?: number;
  /** The command was committed to the journal (a cancel: admitted; its row is committed after its send). */
  readonly journaledAt?: number;
}

/**
 * An approved intent's trigger: the readings so far plus its emission and approval, as an object literal
 * of one of two fixed shapes. A spread of the trigger here cost 3–7 µs p50 (one-run stamps) on this path,
 * which runs once per poll with cold caches.
 */
export function approvedTrigger(trigger: Trigger, emittedAt: number, approvedAt: number): Trigger {
  const { event, arrivedAt, ingestedAt } = trigger;
  return ingestedAt === undefined ? { event, arrivedAt, emittedAt, approvedAt } : { event, arrivedAt, ingestedAt, emittedAt, approvedAt };
}

/**
 * A journaled command's trigger: the approved one's readings plus the commit's, as a literal of one of
 * two fixed shapes (a spread here ran before the reading was taken: 3–7 µs counted in the journal stage).
 */
export function journaledTrigger(trigger: Trigger, journaledAt: number): Trigger {
  const { event, arrivedAt, ingestedAt, emittedAt, approvedAt } = trigger;
  // Not from the kernel's approval (tests): whatever readings it has.
  if (emittedAt === undefined || approvedAt === undefined) return { ...trigger, journaledAt };
  return ingestedAt === undefined
    ? { event, arrivedAt, emittedAt, approvedAt, journaledAt }
    : { event, arrivedAt, ingestedAt, emittedAt, approvedAt, journaledAt };
}

/** Every reading of one request's way, the HTTP client's two last. */
export interface TickStamps extends Trigger {
  /** The signed request was handed to the HTTP client. */
  readonly calledAt?: number;
  /**
   * The HTTP client handed the request to the socket: for the socket transport, socket.write returned
   * with every byte taken by the kernel (or, when Node had to queue them, its write callback).
   */
  readonly writtenAt: number;
}

/**
 * The stages of tick-to-order, each from the previous reading to its own:
 * `parse` arrival → kernel (reply body read, JSON parse, validation, the market event built);
 * `kernel` → intent (cache, metrics, routing, the strategy's handler until it emits);
 * `risk` → approved; `journal` → committed (a cancel: tracked, its row comes after its send); `call` → the signed request handed to the HTTP client
 * (executor, port, API, rate governor, signing); `write` → on the socket (the HTTP client).
 */
export const TICK_STAGES = ['parse', 'kernel', 'risk', 'journal', 'call', 'write'] as const;
export type TickStage = (typeof TICK_STAGES)[number];

const STAGE_ENDS: ReadonlyArray<keyof TickStamps> = ['ingestedAt', 'emittedAt', 'approvedAt', 'journaledAt', 'calledAt', 'writtenAt'];

/** Exact figures over the samples kept (the latest `capacity`), in milliseconds; `count` is every sample ever. */
export interface TickToOrderSummary {
  readonly count: number;
  readonly kept: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** Each stage's p50 and p99 over the samples that had all their readings. */
  readonly stages: Readonly<Record<TickStage, { readonly p50Ms: number; readonly p99Ms: number }>>;
}

/** Samples held for the histogram at most before they are added to it anyway (between scrapes). */
const PENDING_MAX = 1024;

/** 10 µs to 100 ms, fine around the 300 µs target. */
const BUCKETS = [0.00001, 0.000025, 0.00005, 0.000075, 0.0001, 0.00015, 0.0002, 0.00025, 0.0003, 0.0004, 0.0005, 0.00075, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1];

/**
 * Tick-to-order latency: from the arrival of the market data that caused an order request (the poll
 * reply, on the stopwatch) to the moment the signed request was handed to the socket. Requests not
 * caused by market data (reconciliation, timers, fills, the kill switch) are never observed. A
 * Prometheus histogram by command and trigger, plus the latest samples kept exactly for p50/p99/max.
 * A sample reaches the histogram when it is read (a scrape) or once PENDING_MAX are held: the label
 * lookup is not paid at the write, where it would delay the next request of the same tick.
 */
export class TickToOrder {
  readonly histogram: Histogram<'command' | 'trigger'>;
  private readonly samples: Float64Array;
  /** Per stage, its share of each kept sample (NaN where a reading was missing). */
  private readonly stageSamples: readonly Float64Array[];
  /** Each kept sample's command, for a summary of one command's samples (a tick that cancels then places gives both). */
  private readonly commands: Array<ExchangeCommand['type'] | undefined>;
  private next = 0;
  private kept = 0;
  private count = 0;
  private pending: Array<{ readonly command: ExchangeCommand['type']; readonly trigger: BusEvent['type']; readonly seconds: number }> = [];

  constructor(registry: Registry = new Registry(), capacity = 65_536) {
    if (!(Number.isInteger(capacity) && capacity > 0)) throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
    this.samples = new Float64Array(capacity);
    this.stageSamples = TICK_STAGES.map(() => new Float64Array(capacity));
    this.commands = new Array<ExchangeCommand['type'] | undefined>(capacity).fill(undefined);
    this.histogram = new Histogram({
      name: 'stratd_tick_to_order_seconds',
      help: 'Market data arrival (poll reply) to the signed order request written to the socket, by command and triggering event',
      labelNames: ['command', 'trigger'],
      buckets: BUCKETS,
      registers: [registry],
      collect: () => this.flush(),
    });
  }

  /** One request written: its latency from the arrival to the write, and each stage's share. */
  observe(command: ExchangeCommand['type'], stamps: TickStamps): void {
    const value = Math.max(0, stamps.writtenAt - stamps.arrivedAt);
    this.pending.push({ command, trigger: stamps.event, seconds: value / 1000 });
    if (this.pending.length >= PENDING_MAX) this.flush();
    this.samples[this.next] = value;
    this.commands[this.next] = command;
    let from: number = stamps.arrivedAt;
    for (let i = 0; i < STAGE_ENDS.length; i++) {
      const end = stamps[STAGE_ENDS[i] ?? 'writtenAt'];
      const stage = this.stageSamples[i];
      if (stage === undefined) continue;
      if (typeof end === 'number' && !Number.isNaN(from)) {
        stage[this.next] = Math.max(0, end - from);
        from = end;
      } else {
        stage[this.next] = Number.NaN;
        from = Number.NaN;
      }
    }
    this.next = (this.next + 1) % this.samples.length;
    this.kept = Math.min(this.kept + 1, this.samples.length);
    this.count++;
  }

  /** Adds the samples held since the last read to the histogram. */
  private flush(): void {
    const held = this.pending;
    if (held.length === 0) return;
    this.pending = [];
    for (const sample of held) this.histogram.observe({ command: sample.command, trigger: sample.trigger }, sample.seconds);
  }

  /** Over every kept sample, or over those of one command (`count` and `kept` are then that command's kept samples). */
  summary(command?: ExchangeCommand['type']): TickToOrderSummary {
    const mine = (_: number, i: number): boolean => command === undefined || this.commands[i] === command;
    const sorted = this.samples.slice(0, this.kept).filter(mine).sort();
    const stages = {} as Record<TickStage, { p50Ms: number; p99Ms: number }>;
    TICK_STAGES.forEach((stage, i) => {
      const values = (this.stageSamples[i] ?? new Float64Array(0)).slice(0, this.kept).filter((v, at) => mine(v, at) && !Number.isNaN(v)).sort();
      stages[stage] = { p50Ms: rank(values, 0.5), p99Ms: rank(values, 0.99) };
    });
    const count = command === undefined ? this.count : sorted.length;
    return { count, kept: sorted.length, p50Ms: rank(sorted, 0.5), p99Ms: rank(sorted, 0.99), maxMs: sorted[sorted.length - 1] ?? 0, stages };
  }

  /** Forgets every sample and the histogram's counts (a benchmark's warm-up). */
  reset(): void {
    this.pending = [];
    this.histogram.reset();
    this.commands.fill(undefined);
    this.next = 0;
    this.kept = 0;
    this.count = 0;
  }
}

function rank(sorted: Float64Array, p: number): number {
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? 0;
}
