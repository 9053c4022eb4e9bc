import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Stopwatch } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { Result } from '../core/result.js';
import { err, ok } from '../core/result.js';
import { parseRecordings } from '../backtest/runner.js';
import { SweepCombinationRunner } from './combination.js';
import type { SharedReplay } from './recording.js';
import { shareReplay } from './recording.js';
import { systemStopwatch } from '../core/system-time.js';
import type { ThreadCost } from './thread-cost.js';
import type { CombinationCost, CombinationTiming, SweepCombination, SweepJob, SweepProgress, SweepRow, WorkerSpan } from './types.js';

/** What the main thread sends a worker thread: the shared recording (once, first), then combinations one by one. */
export type WorkerRequest = { readonly type: 'recording'; readonly recording: SharedReplay } | { readonly type: 'combination'; readonly combination: SweepCombination };

/**
 * What a worker thread says: `ready` once its modules are loaded (with what starting cost the thread),
 * then for each combination its row (`ms`: its backtest's time on the worker, `cost`: what it cost the thread).
 */
export type WorkerReply =
  | { readonly type: 'ready'; readonly cost: ThreadCost | undefined }
  | { readonly type: 'row'; readonly row: SweepRow; readonly events: number; readonly ms: number; readonly cost: CombinationCost }
  | { readonly type: 'failed'; readonly index: number; readonly message: string };

export interface SweepRunOptions {
  /** Worker threads; 0 runs every combination on this thread (from sources, e.g. under jest). */
  readonly workers: number;
  /** Called after each combination. */
  readonly onProgress?: (progress: SweepProgress) => void;
  /** Called after each combination with its worker, events and time (per-worker events/s: `workerThroughput`). */
  readonly onCombination?: (timing: CombinationTiming) => void;
  /** Times combinations run on this thread (--workers 0) and the worker threads' start and idle end; worker threads time their own combinations. Default: the process's timer. */
  readonly stopwatch?: Stopwatch;
  /** Called once per worker thread when the sweep is done: its start, first event and idle end. */
  readonly onWorker?: (span: WorkerSpan) => void;
  /** With worker threads: called once the main thread has read the recordings (after `before`) and shared them, with their events and that reading's time. */
  readonly onShared?: (shared: { readonly events: number; readonly ms: number }) => void;
  /** Kernel logs of in-process runs (worker threads log nothing). */
  readonly logger?: Logger;
  /**
   * Work on this thread that must finish before the first combination (e.g. building the recordings'
   * prepared form): it runs while the worker threads start and load their modules, not before.
   */
  readonly before?: () => Promise<void>;
}

const WORKER_URL = new URL('./worker.js', import.meta.url);

/**
 * Each worker's young generation: 192 MB, semi-spaces of 64 MB (V8's default here is 16 MB). A replay
 * allocates a few hundred bytes per event that die young; a larger nursery scavenges less often for
 * the same survivors. In interleaved sweeps of the sample (4 combinations of config/default.yml, 2
 * workers, loaded 2-core VM) each worker's GC time fell from 2.8–4.7 s to 1.7–2.0 s (32 MB semi-spaces:
 * 3.3 s in one run).
 */
const WORKER_RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 192 } as const;

/**
 * Runs every combination's backtest and returns the rows in combination order, whatever order they
 * finished in. With worker threads, the main thread reads the recordings once (their prepared form, or
 * the JSONL parsed), while the workers start, and shares them (`SharedReplay`); each worker takes the
 * next combination as soon as it is free and answers with the row only. The first failure stops the sweep.
 */
export async function runSweep(job: SweepJob, combinations: readonly SweepCombination[], options: SweepRunOptions): Promise<Result<SweepRow[], string>> {
  let rows: Result<SweepRow[], string>;
  if (options.workers > 0) rows = await inWorkers(job, combinations, options);
  else {
    await options.before?.();
    rows = await inProcess(job, combinations, options);
  }
  if (!rows.ok) return rows;
  return ok([...rows.value].sort((a, b) => a.index - b.index));
}

async function inProcess(job: SweepJob, combinations: readonly SweepCombination[], options: SweepRunOptions): Promise<Result<SweepRow[], string>> {
  const runner = new SweepCombinationRunner(job, options.logger);
  const rows: SweepRow[] = [];
  for (const combination of combinations) {
    const started = options.stopwatch?.now() ?? 0;
    const outcome = await runner.run(combination);
    if (!outcome.ok) return err(`combination ${combination.index + 1}: ${outcome.error}`);
    rows.push(outcome.value.row);
    const ms = options.stopwatch === undefined ? 0 : options.stopwatch.now() - started;
    options.onCombination?.({ index: combination.index, worker: 0, events: outcome.value.events, ms });
    options.onProgress?.({ done: rows.length, total: combinations.length });
  }
  return ok(rows);
}

function inWorkers(job: SweepJob, combinations: readonly SweepCombination[], options: SweepRunOptions): Promise<Result<SweepRow[], string>> {
  const file = fileURLToPath(WORKER_URL);
  if (!existsSync(file)) return Promise.resolve(err(`worker threads need the compiled sweep worker ${file}: run \`npm run build\`, or use --workers 0`));
  const count = Math.min(options.workers, combinations.length);
  if (count === 0) return Promise.resolve(ok([]));
  const stopwatch = options.stopwatch ?? systemStopwatch;
  return new Promise((resolve) => {
    const rows: SweepRow[] = [];
    const workers: Worker[] = [];
    const spans: WorkerTimes[] = [];
    let next = 0;
    let settled = false;
    const finish = (result: Result<SweepRow[], string>): void => {
      if (settled) return;
      settled = true;
      for (const worker of workers) void worker.terminate();
      if (result.ok) reportSpans(spans, stopwatch.now(), options.onWorker);
      resolve(result);
    };
    const send = (worker: Worker, request: WorkerRequest): void => worker.postMessage(request);
    const feed = (worker: Worker): void => {
      const combination = combinations[next++];
      if (combination !== undefined) send(worker, { type: 'combination', combination });
    };
    // The workers load their modules while this thread reads the recordings.
    for (let w = 0; w < count; w++) {
      const times: WorkerTimes = { worker: w + 1, spawnedAt: stopwatch.now() };
      const worker = new Worker(WORKER_URL, { workerData: job, resourceLimits: WORKER_RESOURCE_LIMITS });
      const id = w + 1;
      workers.push(worker);
      spans.push(times);
      worker.on('message', (reply: WorkerReply) => {
        if (reply.type === 'ready') {
          times.readyAt = stopwatch.now();
          if (reply.cost !== undefined) times.startCpuMs = reply.cost.cpuMs;
          return;
        }
        if (reply.type === 'failed') {
          finish(err(`combination ${reply.index + 1}: ${reply.message}`));
          return;
        }
        const at = stopwatch.now();
        // Its first replay began when it had loaded the recordings: that long before its answer, less the backtest.
        times.firstEventAt ??= at - (reply.ms - reply.cost.loadMs);
        times.lastAnswerAt = at;
        rows.push(reply.row);
        options.onCombination?.({ index: reply.row.index, worker: id, events: reply.events, ms: reply.ms, cost: reply.cost });
        options.onProgress?.({ done: rows.length, total: combinations.length });
        if (rows.length === combinations.length) finish(ok(rows));
        else feed(worker);
      });
      worker.on('error', (error) => finish(err(`a sweep worker failed: ${error.message}`)));
      worker.on('exit', (code) => finish(err(`a sweep worker exited (code ${code}) before the sweep was done`)));
    }
    const failed = (error: unknown): void => finish(err(`preparing the recordings failed: ${error instanceof Error ? error.message : String(error)}`));
    const before = options.before?.() ?? Promise.resolve();
    // Read once here (the prepared form `before` built, or the JSONL) and shared: no worker reads or decodes it again.
    let readingFrom = 0;
    before.then(() => {
      readingFrom = stopwatch.now();
      return parseRecordings(job.recordings, job.to, job.prepared);
    }, (error: unknown) => {
      failed(error);
      return undefined;
    }).then(
      (parsed) => {
        if (parsed === undefined || settled) return;
        if (!parsed.ok) {
          finish(err(`combination 1: ${parsed.error.message}`));
          return;
        }
        const recording = shareReplay(parsed.value);
        options.onShared?.({ events: recording.events, ms: stopwatch.now() - readingFrom });
        for (const worker of workers) {
          send(worker, { type: 'recording', recording });
          feed(worker);
        }
      },
      (error: unknown) => finish(err(`reading the recordings failed: ${error instanceof Error ? error.message : String(error)}`)),
    );
  });
}

/** A worker thread's moments on the main thread's stopwatch, as they happen. */
interface WorkerTimes {
  readonly worker: number;
  readonly spawnedAt: number;
  readyAt?: number;
  startCpuMs?: number;
  firstEventAt?: number;
  lastAnswerAt?: number;
}

/** Each worker's span, once the last answer is in (`end`); workers that answered nothing report none. */
function reportSpans(spans: readonly WorkerTimes[], end: number, onWorker: ((span: WorkerSpan) => void) | undefined): void {
  if (onWorker === undefined) return;
  for (const t of spans) {
    if (t.lastAnswerAt === undefined || t.firstEventAt === undefined) continue;
    onWorker({
      worker: t.worker,
      startMs: (t.readyAt ?? t.firstEventAt) - t.spawnedAt,
      ...(t.startCpuMs === undefined ? {} : { startCpuMs: t.startCpuMs }),
      firstEventMs: t.firstEventAt - t.spawnedAt,
      idleTailMs: end - t.lastAnswerAt,
    });
  }
}
