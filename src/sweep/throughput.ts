import type { CombinationTiming, WorkerSpan } from './types.js';

/** One worker's share of a sweep: combinations, events replayed, time in backtests, events/s, and what it cost the thread. */
export interface WorkerThroughput {
  /** 1-based worker thread; 0 is the calling thread (--workers 0). */
  readonly worker: number;
  readonly combinations: number;
  readonly events: number;
  readonly busyMs: number;
  /** Events per second of the worker's backtests (0 when no time was measured). */
  readonly eventsPerSecond: number;
  /** Summed over its combinations, when the worker measured them (worker threads): CPU, waits for a core, GC pauses, loading. */
  readonly cpuMs?: number;
  readonly waitMs?: number;
  readonly gcMs?: number;
  readonly loadMs?: number;
}

/** Per worker, in worker order: what its combinations replayed and how fast (and, from worker threads, what they cost). */
export function workerThroughput(timings: readonly CombinationTiming[]): WorkerThroughput[] {
  const byWorker = new Map<number, { combinations: number; events: number; busyMs: number; cpuMs?: number; waitMs?: number; gcMs?: number; loadMs?: number }>();
  const add = (sum: number | undefined, value: number | undefined): number | undefined => (value === undefined ? sum : (sum ?? 0) + value);
  for (const t of timings) {
    const sum = byWorker.get(t.worker) ?? { combinations: 0, events: 0, busyMs: 0 };
    sum.combinations++;
    sum.events += t.events;
    sum.busyMs += t.ms;
    const costs = { cpuMs: add(sum.cpuMs, t.cost?.cpuMs), waitMs: add(sum.waitMs, t.cost?.waitMs), gcMs: add(sum.gcMs, t.cost?.gcMs), loadMs: add(sum.loadMs, t.cost?.loadMs) };
    for (const [key, value] of Object.entries(costs) as Array<[keyof typeof costs, number | undefined]>) if (value !== undefined) sum[key] = value;
    byWorker.set(t.worker, sum);
  }
  return [...byWorker]
    .sort(([a], [b]) => a - b)
    .map(([worker, s]) => ({ worker, ...s, eventsPerSecond: s.busyMs > 0 ? Math.round((s.events * 1000) / s.busyMs) : 0 }));
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** `worker 1: 2 combinations, 255,988 events in 6.4 s, 40,012 events/s`, one line per worker and the total. */
export function throughputLines(workers: readonly WorkerThroughput[]): string {
  const n = (value: number): string => value.toLocaleString('en-US');
  const lines = workers.map((w) => `${w.worker === 0 ? 'this thread' : `worker ${w.worker}`}: ${w.combinations} combinations, ${n(w.events)} events in ${seconds(w.busyMs)}, ${n(w.eventsPerSecond)} events/s`);
  if (workers.length > 1) lines.push(`all workers: ${n(workers.reduce((s, w) => s + w.eventsPerSecond, 0))} events/s together`);
  return lines.map((line) => `sweep: ${line}\n`).join('');
}

/** What the whole sweep process cost: CPU seconds in all, the main thread's share (absent where the system does not tell). */
export interface ProcessCost {
  readonly cpuMs: number;
  readonly mainCpuMs?: number;
}

/**
 * Where a sweep's time went, per worker thread and for the process: `sweep: worker 1 cost: CPU 12.3 s,
 * waited for a core 0.4 s, GC 1.1 s, loading 0.5 s; started in 0.6 s, first event at 1.2 s, idle at
 * the end 3.0 s`, then `sweep: process CPU 27.0 s: main thread 1.9 s, workers 24.1 s, other threads 1.0 s`
 * (V8's GC helpers and compiler, libuv's pool). Workers without figures (not Linux) get none.
 */
export function costLines(workers: readonly WorkerThroughput[], spans: readonly WorkerSpan[], process?: ProcessCost): string {
  const lines: string[] = [];
  let workersCpuMs = 0;
  for (const w of workers) {
    const span = spans.find((s) => s.worker === w.worker);
    const parts: string[] = [];
    if (w.cpuMs !== undefined) parts.push(`CPU ${seconds(w.cpuMs)}`);
    if (w.waitMs !== undefined) parts.push(`waited for a core ${seconds(w.waitMs)}`);
    if (w.gcMs !== undefined) parts.push(`GC ${seconds(w.gcMs)}`);
    if (w.loadMs !== undefined) parts.push(`loading ${seconds(w.loadMs)}`);
    const times = span === undefined ? [] : [`started in ${seconds(span.startMs)}`, `first event at ${seconds(span.firstEventMs)}`, `idle at the end ${seconds(span.idleTailMs)}`];
    workersCpuMs += (w.cpuMs ?? 0) + (span?.startCpuMs ?? 0);
    if (parts.length + times.length > 0) lines.push(`worker ${w.worker} cost: ${[parts.join(', '), times.join(', ')].filter((p) => p !== '').join('; ')}`);
  }
  if (process !== undefined) {
    const split = process.mainCpuMs === undefined ? '' : `: main thread ${seconds(process.mainCpuMs)}, workers ${seconds(workersCpuMs)}, other threads ${seconds(Math.max(0, process.cpuMs - process.mainCpuMs - workersCpuMs))}`;
    lines.push(`process CPU ${seconds(process.cpuMs)}${split}`);
  }
  return lines.map((line) => `sweep: ${line}\n`).join('');
}

/** The main thread's one reading of the recordings, shared with the worker threads. */
export function sharedLine(shared: { readonly events: number; readonly ms: number }): string {
  return `sweep: recordings read once on the main thread: ${shared.events.toLocaleString('en-US')} events in ${seconds(shared.ms)}, shared with the workers\n`;
}
