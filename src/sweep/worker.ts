import type { PerformanceEntry } from 'node:perf_hooks';
import { PerformanceObserver } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { systemStopwatch } from '../core/system-time.js';
import { SweepCombinationRunner } from './combination.js';
import { openSharedReplay } from './recording.js';
import type { WorkerReply, WorkerRequest } from './runner.js';
import { costBetween, threadCost } from './thread-cost.js';
import type { SweepCombination, SweepJob } from './types.js';

/**
 * TurboFan's cumulative inlining budget for the sweep's threads: 460 bytes of bytecode per optimized
 * function, V8's default is 920. Each worker thread warms up on its own (~690 optimizing compiles of
 * ~2 MB of code for the sample's 4 combinations, spread over ~500 functions, none above 4%); a smaller
 * budget makes that code ~20% smaller. A V8 flag is process-wide: it is set by the sweep's workers,
 * so only a sweep's process has it.
 */
const SWEEP_INLINING_BUDGET = '--max-inlined-bytecode-size-cumulative=460';

/**
 * A sweep worker thread: opens the recording the main thread shared, then takes combinations one by
 * one and answers with each one's row, the events it replayed, the time it took on this thread and what
 * it cost the thread (CPU, waits for a core, GC pauses, reading the recordings).
 */
const port = parentPort;
if (port !== null) {
  setFlagsFromString(SWEEP_INLINING_BUDGET);
  const runner = new SweepCombinationRunner(workerData as SweepJob);
  // GC pauses of this thread's heap, summed as V8 reports them: each pause's entry reaches the
  // observer's buffer on the next turn of the event loop after it (then `takeRecords` has it).
  let gcMs = 0;
  const sum = (entries: readonly PerformanceEntry[]): void => {
    for (const entry of entries) gcMs += entry.duration;
  };
  const gc = new PerformanceObserver((list) => sum(list.getEntries()));
  gc.observe({ entryTypes: ['gc'] });
  const gcSoFar = async (): Promise<number> => {
    await new Promise((resolve) => setImmediate(resolve));
    sum(gc.takeRecords());
    return gcMs;
  };
  // Opening a shared recording counts as the first combination's load.
  let openMs = 0;
  const run = async (combination: SweepCombination): Promise<WorkerReply> => {
    const gcBefore = await gcSoFar();
    const before = threadCost();
    const started = systemStopwatch.now();
    const loaded = await runner.load();
    if (!loaded.ok) return { type: 'failed', index: combination.index, message: loaded.error };
    const loadMs = systemStopwatch.now() - started + openMs;
    openMs = 0;
    const result = await runner.run(combination);
    if (!result.ok) return { type: 'failed', index: combination.index, message: result.error };
    const ms = systemStopwatch.now() - started;
    const cost = costBetween(before, threadCost());
    return { type: 'row', row: result.value.row, events: result.value.events, ms, cost: { ...cost, gcMs: (await gcSoFar()) - gcBefore, loadMs } };
  };
  const reply = (message: WorkerReply): void => port.postMessage(message);
  // Combinations wait for the shared recording to be opened (a failure to open it fails the first of them).
  let opened: Promise<void> = Promise.resolve();
  port.on('message', (request: WorkerRequest) => {
    if (request.type === 'recording') {
      const started = systemStopwatch.now();
      opened = openSharedReplay(request.recording).then((recording) => {
        runner.useRecording(recording);
        openMs += systemStopwatch.now() - started;
      });
    } else {
      opened.then(() => run(request.combination)).then(reply, (error: unknown) =>
        reply({ type: 'failed', index: request.combination.index, message: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
      );
    }
  });
  // Its modules are loaded (this module runs after its imports): what starting the thread cost.
  port.postMessage({ type: 'ready', cost: threadCost() } satisfies WorkerReply);
}
