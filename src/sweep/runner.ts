import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Stopwatch } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { Result } from '../core/result.js';
import { err, ok } from '../core/result.js';
import { parseJsonlRecordings } from '../backtest/runner.js';
import { SweepCombinationRunner } from './combination.js';
import type { SharedRecording } from './recording.js';
import { shareRecording } from './recording.js';
import type { CombinationTiming, SweepCombination, SweepJob, SweepProgress, SweepRow } from './types.js';

/** What the main thread sends a worker thread: the shared recording (once, first), then combinations one by one. */
export type WorkerRequest = { readonly type: 'recording'; readonly recording: SharedRecording } | { readonly type: 'combination'; readonly combination: SweepCombination };

/** What a worker thread answers for one combination (`ms`: its backtest's time on the worker). */
export type WorkerReply =
  | { readonly type: 'row'; readonly row: SweepRow; readonly events: number; readonly ms: number }
  | { readonly type: 'failed'; readonly index: number; readonly message: string };

export interface SweepRunOptions {
  /** Worker threads; 0 runs every combination on this thread (from sources, e.g. under jest). */
  readonly workers: number;
  /** Called after each combination. */
  readonly onProgress?: (progress: SweepProgress) => void;
  /** Called after each combination with its worker, events and time (per-worker events/s: `workerThroughput`). */
  readonly onCombination?: (timing: CombinationTiming) => void;
  /** Times combinations run on this thread (--workers 0); worker threads time their own. */
  readonly stopwatch?: Stopwatch;
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
 * Runs every combination's backtest and returns the rows in combination order, whatever order they
 * finished in. With worker threads, the main thread reads and parses the recordings once, while the
 * workers start, and shares them (`SharedRecording`); each worker takes the next combination as soon as
 * it is free and answers with the row only. The first failure stops the sweep.
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
  return new Promise((resolve) => {
    const rows: SweepRow[] = [];
    const workers: Worker[] = [];
    let next = 0;
    let settled = false;
    const finish = (result: Result<SweepRow[], string>): void => {
      if (settled) return;
      settled = true;
      for (const worker of workers) void worker.terminate();
      resolve(result);
    };
    const send = (worker: Worker, request: WorkerRequest): void => worker.postMessage(request);
    const feed = (worker: Worker): void => {
      const combination = combinations[next++];
      if (combination !== undefined) send(worker, { type: 'combination', combination });
    };
    // The workers load their modules while this thread parses the recordings.
    for (let w = 0; w < count; w++) {
      const worker = new Worker(WORKER_URL, { workerData: job });
      const id = w + 1;
      workers.push(worker);
      worker.on('message', (reply: WorkerReply) => {
        if (reply.type === 'failed') {
          finish(err(`combination ${reply.index + 1}: ${reply.message}`));
          return;
        }
        rows.push(reply.row);
        options.onCombination?.({ index: reply.row.index, worker: id, events: reply.events, ms: reply.ms });
        options.onProgress?.({ done: rows.length, total: combinations.length });
        if (rows.length === combinations.length) finish(ok(rows));
        else feed(worker);
      });
      worker.on('error', (error) => finish(err(`a sweep worker failed: ${error.message}`)));
      worker.on('exit', (code) => finish(err(`a sweep worker exited (code ${code}) before the sweep was done`)));
    }
    const failed = (error: unknown): void => finish(err(`preparing the recordings failed: ${error instanceof Error ? error.message : String(error)}`));
    const before = options.before?.() ?? Promise.resolve();
    if (job.prepared !== undefined) {
      // The prepared form (built by `before`, while the workers load) is what each worker reads: loading it costs less than a parse.
      before.then(() => {
        if (!settled) for (const worker of workers) feed(worker);
      }, failed);
      return;
    }
    before.then(() => parseJsonlRecordings(job.recordings, job.to), (error: unknown) => {
      failed(error);
      return undefined;
    }).then(
      (parsed) => {
        if (parsed === undefined || settled) return;
        if (!parsed.ok) {
          finish(err(`combination 1: ${parsed.error.message}`));
          return;
        }
        const recording = shareRecording(parsed.value);
        for (const worker of workers) {
          send(worker, { type: 'recording', recording });
          feed(worker);
        }
      },
      (error: unknown) => finish(err(`reading the recordings failed: ${error instanceof Error ? error.message : String(error)}`)),
    );
  });
}
