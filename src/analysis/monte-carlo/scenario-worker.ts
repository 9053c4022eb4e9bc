import { parentPort, workerData } from 'node:worker_threads';
import { openSharedRecording } from '../../sweep/recording.js';
import type { BootstrapJob } from './bootstrap-scenario.js';
import { BootstrapScenarioRunner } from './bootstrap-scenario.js';
import type { ScenarioReply, ScenarioRequest } from './scenario-pool.js';

/**
 * A Monte Carlo worker thread: opens the recording the main thread shared (as a sweep worker does),
 * then runs bootstrap scenarios one by one and answers with each one's outcome.
 */
const port = parentPort;
if (port !== null) {
  const runner = new BootstrapScenarioRunner(workerData as BootstrapJob);
  const reply = (message: ScenarioReply): void => port.postMessage(message);
  port.on('message', (request: ScenarioRequest) => {
    if (request.type === 'recording') {
      const used = runner.useRecording(openSharedRecording(request.recording));
      if (!used.ok) reply({ type: 'failed', item: -1, message: used.error });
      return;
    }
    const { item } = request;
    runner.run(item).then(
      (result) => reply(result.ok ? { type: 'outcome', outcome: result.value } : { type: 'failed', item: item.item, message: result.error }),
      (error: unknown) => reply({ type: 'failed', item: item.item, message: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
    );
  });
}
