import { parentPort, workerData } from 'node:worker_threads';
import { SweepCombinationRunner } from './sweep-combination.js';
import type { SweepCombination, SweepJob } from './sweep-types.js';
import type { WorkerReply } from './sweep-runner.js';

/** A sweep worker thread: takes combinations one by one from the main thread and answers with their rows. */
const port = parentPort;
if (port !== null) {
  const runner = new SweepCombinationRunner(workerData as SweepJob);
  port.on('message', (combination: SweepCombination) => {
    runner.run(combination).then(
      (result) => port.postMessage((result.ok ? { type: 'row', row: result.value } : { type: 'failed', index: combination.index, message: result.error }) satisfies WorkerReply),
      (error: unknown) => port.postMessage({ type: 'failed', index: combination.index, message: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies WorkerReply),
    );
  });
}
