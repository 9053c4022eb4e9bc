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

/** A real timer that may let the process exit while it waits. */
export interface ReleasableTimer {
  cancel(): void;
  /** Whether the timer keeps the process up while it waits (it does when started). */
  hold(holding: boolean): void;
}

/**
 * Real timers on the process's monotonic clock whose waiting need not keep the process up (Node's
 * `unref`): for a component that keeps one timer over idle gaps and must not hold an idle process.
 */
export const releasableTimers = {
  now: (): number => performance.now(),
  start(fire: () => void, ms: number): ReleasableTimer {
    const timer = setTimeout(fire, ms);
    return {
      cancel: () => clearTimeout(timer),
      hold: (holding) => void (holding ? timer.ref() : timer.unref()),
    };
  },
};
