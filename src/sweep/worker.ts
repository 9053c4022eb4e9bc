import { parentPort, workerData } from 'node:worker_threads';
import { systemStopwatch } from '../core/system-time.js';
import { SweepCombinationRunner } from './combination.js';
import { openSharedRecording } from './recording.js';
import type { WorkerReply, WorkerRequest } from './runner.js';
import type { SweepCombination, SweepJob } from './types.js';

/**
 * A sweep worker thread: opens the recording the main thread shared, then takes combinations one by
 * one and answers with each one's row, the events it replayed and the time it took on this thread.
 */
const port = parentPort;
if (port !== null) {
  const runner = new SweepCombinationRunner(workerData as SweepJob);
  const reply = (message: WorkerReply): void => port.postMessage(message);
  const run = (combination: SweepCombination): void => {
    const started = systemStopwatch.now();
    runner.run(combination).then(
      (result) =>
        reply(result.ok ? { type: 'row', row: result.value.row, events: result.value.events, ms: systemStopwatch.now() - started } : { type: 'failed', index: combination.index, message: result.error }),
      (error: unknown) => reply({ type: 'failed', index: combination.index, message: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
    );
  };
  port.on('message', (request: WorkerRequest) => {
    if (request.type === 'recording') runner.useRecording(openSharedRecording(request.recording));
    else run(request.combination);
  });
}
