import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../core/logger.js';
import type { Result } from '../core/result.js';
import { err, ok } from '../core/result.js';
import { SweepCombinationRunner } from './sweep-combination.js';
import type { SweepCombination, SweepJob, SweepProgress, SweepRow } from './sweep-types.js';

/** What a worker thread answers for one combination. */
export type WorkerReply = { readonly type: 'row'; readonly row: SweepRow } | { readonly type: 'failed'; readonly index: number; readonly message: string };

export interface SweepRunOptions {
  /** Worker threads; 0 runs every combination on this thread (from sources, e.g. under jest). */
  readonly workers: number;
  /** Called after each combination. */
  readonly onProgress?: (progress: SweepProgress) => void;
  /** Kernel logs of in-process runs (worker threads log nothing). */
  readonly logger?: Logger;
}

const WORKER_URL = new URL('./sweep-worker.js', import.meta.url);

/**
 * Runs every combination's backtest and returns the rows in combination order, whatever order they
 * finished in. Worker threads take the next combination as soon as they are free; the first failure
 * stops the sweep.
 */
export async function runSweep(job: SweepJob, combinations: readonly SweepCombination[], options: SweepRunOptions): Promise<Result<SweepRow[], string>> {
  const rows = options.workers <= 0 ? await inProcess(job, combinations, options) : await inWorkers(job, combinations, options);
  if (!rows.ok) return rows;
  return ok([...rows.value].sort((a, b) => a.index - b.index));
}

async function inProcess(job: SweepJob, combinations: readonly SweepCombination[], options: SweepRunOptions): Promise<Result<SweepRow[], string>> {
  const runner = new SweepCombinationRunner(job, options.logger);
  const rows: SweepRow[] = [];
  for (const combination of combinations) {
    const row = await runner.run(combination);
    if (!row.ok) return err(`combination ${combination.index + 1}: ${row.error}`);
    rows.push(row.value);
    options.onProgress?.({ done: rows.length, total: combinations.length });
  }
  return ok(rows);
}

function inWorkers(job: SweepJob, combinations: readonly SweepCombination[], options: SweepRunOptions): Promise<Result<SweepRow[], string>> {
  const file = fileURLToPath(WORKER_URL);
  if (!existsSync(file)) return Promise.resolve(err(`worker threads need the compiled sweep worker ${file}: run \`npm run build\`, or use --workers 0`));
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
    const feed = (worker: Worker): void => {
      const combination = combinations[next++];
      if (combination !== undefined) worker.postMessage(combination);
    };
    const count = Math.min(options.workers, combinations.length);
    if (count === 0) {
      finish(ok([]));
      return;
    }
    for (let w = 0; w < count; w++) {
      const worker = new Worker(WORKER_URL, { workerData: job });
      workers.push(worker);
      worker.on('message', (reply: WorkerReply) => {
        if (reply.type === 'failed') {
          finish(err(`combination ${reply.index + 1}: ${reply.message}`));
          return;
        }
        rows.push(reply.row);
        options.onProgress?.({ done: rows.length, total: combinations.length });
        if (rows.length === combinations.length) finish(ok(rows));
        else feed(worker);
      });
      worker.on('error', (error) => finish(err(`a sweep worker failed: ${error.message}`)));
      worker.on('exit', (code) => finish(err(`a sweep worker exited (code ${code}) before the sweep was done`)));
      feed(worker);
    }
  });
}
