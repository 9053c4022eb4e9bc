import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../../core/logger.js';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import type { ParsedRecording } from '../../recording/parsed-recording.js';
import type { SharedRecording } from '../../sweep/recording.js';
import { shareRecording } from '../../sweep/recording.js';
import type { BootstrapJob } from './bootstrap-scenario.js';
import { BootstrapScenarioRunner } from './bootstrap-scenario.js';
import type { ScenarioItem } from './scenario-items.js';
import type { ScenarioOutcome } from './scenario-outcome.js';

/** What the main thread sends a Monte Carlo worker: the shared recording (once, first), then scenarios one by one. */
export type ScenarioRequest = { readonly type: 'recording'; readonly recording: SharedRecording } | { readonly type: 'scenario'; readonly item: ScenarioItem };

/** A worker's answer for one scenario (`item` −1: the recording itself could not be used). */
export type ScenarioReply = { readonly type: 'outcome'; readonly outcome: ScenarioOutcome } | { readonly type: 'failed'; readonly item: number; readonly message: string };

export interface ScenarioPoolOptions {
  /** Worker threads; 0 runs every scenario on this thread (from sources, e.g. under jest). */
  readonly workers: number;
  /** Called after each scenario with how many are done. */
  readonly onProgress?: (done: number, total: number) => void;
  /** Kernel logs of in-process runs (worker threads log nothing). */
  readonly logger?: Logger;
}

const WORKER_URL = new URL('./scenario-worker.js', import.meta.url);

/**
 * Runs bootstrap scenarios and answers their outcomes in item order, whatever order they finished in.
 * As the sweep does: the recording, parsed once here, goes to the worker threads in shared memory, and
 * each worker takes the next scenario as soon as it is free. The first failure stops the run.
 */
export async function runBootstrapScenarios(job: BootstrapJob, items: readonly ScenarioItem[], recording: ParsedRecording, options: ScenarioPoolOptions): Promise<Result<ScenarioOutcome[], string>> {
  const outcomes = options.workers > 0 ? await inWorkers(job, items, recording, options) : await inProcess(job, items, recording, options);
  if (!outcomes.ok) return outcomes;
  return ok([...outcomes.value].sort((a, b) => a.item - b.item));
}

async function inProcess(job: BootstrapJob, items: readonly ScenarioItem[], recording: ParsedRecording, options: ScenarioPoolOptions): Promise<Result<ScenarioOutcome[], string>> {
  const runner = new BootstrapScenarioRunner(job, options.logger);
  const used = runner.useRecording(recording);
  if (!used.ok) return used;
  const outcomes: ScenarioOutcome[] = [];
  for (const item of items) {
    const outcome = await runner.run(item);
    if (!outcome.ok) return err(`bootstrap scenario ${item.index + 1}: ${outcome.error}`);
    outcomes.push(outcome.value);
    options.onProgress?.(outcomes.length, items.length);
  }
  return ok(outcomes);
}

function inWorkers(job: BootstrapJob, items: readonly ScenarioItem[], recording: ParsedRecording, options: ScenarioPoolOptions): Promise<Result<ScenarioOutcome[], string>> {
  const file = fileURLToPath(WORKER_URL);
  if (!existsSync(file)) return Promise.resolve(err(`worker threads need the compiled Monte Carlo worker ${file}: run \`npm run build\`, or use --workers 0`));
  const count = Math.min(options.workers, items.length);
  if (count === 0) return Promise.resolve(ok([]));
  const shared = shareRecording(recording);
  return new Promise((resolve) => {
    const outcomes: ScenarioOutcome[] = [];
    const workers: Worker[] = [];
    let next = 0;
    let settled = false;
    const finish = (result: Result<ScenarioOutcome[], string>): void => {
      if (settled) return;
      settled = true;
      for (const worker of workers) void worker.terminate();
      resolve(result);
    };
    const send = (worker: Worker, request: ScenarioRequest): void => worker.postMessage(request);
    const feed = (worker: Worker): void => {
      const item = items[next++];
      if (item !== undefined) send(worker, { type: 'scenario', item });
    };
    for (let w = 0; w < count; w++) {
      const worker = new Worker(WORKER_URL, { workerData: job });
      workers.push(worker);
      worker.on('message', (reply: ScenarioReply) => {
        if (reply.type === 'failed') {
          const which = items.find((i) => i.item === reply.item);
          finish(err(which === undefined ? reply.message : `bootstrap scenario ${which.index + 1}: ${reply.message}`));
          return;
        }
        outcomes.push(reply.outcome);
        options.onProgress?.(outcomes.length, items.length);
        if (outcomes.length === items.length) finish(ok(outcomes));
        else feed(worker);
      });
      worker.on('error', (error) => finish(err(`a Monte Carlo worker failed: ${error.message}`)));
      worker.on('exit', (code) => finish(err(`a Monte Carlo worker exited (code ${code}) before the run was done`)));
      send(worker, { type: 'recording', recording: shared });
      feed(worker);
    }
  });
}
