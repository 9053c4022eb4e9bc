import type { CombinationTiming } from './types.js';

/** One worker's share of a sweep: combinations, events replayed, time in backtests, events/s. */
export interface WorkerThroughput {
  /** 1-based worker thread; 0 is the calling thread (--workers 0). */
  readonly worker: number;
  readonly combinations: number;
  readonly events: number;
  readonly busyMs: number;
  /** Events per second of the worker's backtests (0 when no time was measured). */
  readonly eventsPerSecond: number;
}

/** Per worker, in worker order: what its combinations replayed and how fast. */
export function workerThroughput(timings: readonly CombinationTiming[]): WorkerThroughput[] {
  const byWorker = new Map<number, { combinations: number; events: number; busyMs: number }>();
  for (const t of timings) {
    const sum = byWorker.get(t.worker) ?? { combinations: 0, events: 0, busyMs: 0 };
    sum.combinations++;
    sum.events += t.events;
    sum.busyMs += t.ms;
    byWorker.set(t.worker, sum);
  }
  return [...byWorker]
    .sort(([a], [b]) => a - b)
    .map(([worker, s]) => ({ worker, ...s, eventsPerSecond: s.busyMs > 0 ? Math.round((s.events * 1000) / s.busyMs) : 0 }));
}

/** `worker 1: 2 combinations, 255,988 events in 6.4 s, 40,012 events/s`, one line per worker and the total. */
export function throughputLines(workers: readonly WorkerThroughput[]): string {
  const n = (value: number): string => value.toLocaleString('en-US');
  const lines = workers.map((w) => `${w.worker === 0 ? 'this thread' : `worker ${w.worker}`}: ${w.combinations} combinations, ${n(w.events)} events in ${(w.busyMs / 1000).toFixed(1)} s, ${n(w.eventsPerSecond)} events/s`);
  if (workers.length > 1) lines.push(`all workers: ${n(workers.reduce((s, w) => s + w.eventsPerSecond, 0))} events/s together`);
  return lines.map((line) => `sweep: ${line}\n`).join('');
}
