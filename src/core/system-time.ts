import { asyncScheduler } from 'rxjs';
import type { TimeSource } from './clock.js';

/** The one adapter onto the wall clock and real timers; only composition roots use it. */
export const systemTime: TimeSource = {
  clock: { now: () => asyncScheduler.now() },
  scheduler: asyncScheduler,
};
