import { asyncScheduler } from 'rxjs';
import type { Stopwatch, TimeSource } from './clock.js';

/** The process's monotonic high-resolution timer (process.hrtime), in fractional milliseconds. */
export const systemStopwatch: Stopwatch = {
  now: () => Number(process.hrtime.bigint()) / 1e6,
};

/** The one adapter onto the wall clock and real timers; only composition roots use it. */
export const systemTime: TimeSource = {
  clock: { now: () => asyncScheduler.now() },
  scheduler: asyncScheduler,
  stopwatch: systemStopwatch,
  steady: systemStopwatch,
};
