import { Histogram, Registry } from 'prom-client';
import type { BusEvent } from '../model/bus-events.js';
import type { ExchangeCommand } from '../model/commands.js';

/** The market event an order request answers: its type, and when the data carrying it arrived (stopwatch ms). */
export interface Trigger {
  readonly event: BusEvent['type'];
  readonly arrivedAt: number;
}

/** Exact figures over the samples kept (the latest `capacity`), in milliseconds; `count` is every sample ever. */
export interface TickToOrderSummary {
  readonly count: number;
  readonly kept: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

/** 10 µs to 100 ms, fine around the 300 µs target. */
const BUCKETS = [0.00001, 0.000025, 0.00005, 0.000075, 0.0001, 0.00015, 0.0002, 0.00025, 0.0003, 0.0004, 0.0005, 0.00075, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1];

/**
 * Tick-to-order latency: from the arrival of the market data that caused an order request (the poll
 * reply, on the stopwatch) to the moment the signed request was handed to the socket. Requests not
 * caused by market data (reconciliation, timers, fills, the kill switch) are never observed. A
 * Prometheus histogram by command and trigger, plus the latest samples kept exactly for p50/p99/max.
 */
export class TickToOrder {
  readonly histogram: Histogram<'command' | 'trigger'>;
  private readonly samples: Float64Array;
  private next = 0;
  private kept = 0;
  private count = 0;

  constructor(registry: Registry = new Registry(), capacity = 65_536) {
    if (!(Number.isInteger(capacity) && capacity > 0)) throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
    this.samples = new Float64Array(capacity);
    this.histogram = new Histogram({
      name: 'stratd_tick_to_order_seconds',
      help: 'Market data arrival (poll reply) to the signed order request written to the socket, by command and triggering event',
      labelNames: ['command', 'trigger'],
      buckets: BUCKETS,
      registers: [registry],
    });
  }

  observe(command: ExchangeCommand['type'], trigger: BusEvent['type'], ms: number): void {
    const value = Math.max(0, ms);
    this.histogram.observe({ command, trigger }, value / 1000);
    this.samples[this.next] = value;
    this.next = (this.next + 1) % this.samples.length;
    this.kept = Math.min(this.kept + 1, this.samples.length);
    this.count++;
  }

  summary(): TickToOrderSummary {
    const sorted = this.samples.slice(0, this.kept).sort();
    const rank = (p: number): number => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? 0;
    return { count: this.count, kept: this.kept, p50Ms: rank(0.5), p99Ms: rank(0.99), maxMs: sorted[sorted.length - 1] ?? 0 };
  }

  /** Forgets every sample and the histogram's counts (a benchmark's warm-up). */
  reset(): void {
    this.histogram.reset();
    this.next = 0;
    this.kept = 0;
    this.count = 0;
  }
}
