import type { SchedulerLike } from 'rxjs';

/** Time is a port: the kernel reads epoch milliseconds from here, never from the wall clock. */
export interface Clock {
  now(): number;
}

/**
 * Monotonic high-resolution time for measuring short intervals (tick-to-order latency): fractional
 * milliseconds since an arbitrary origin, never the wall clock. Only differences between two readings
 * of the same stopwatch mean anything.
 */
export interface Stopwatch {
  now(): number;
}

/** Everything time-related a component needs: the clock and an RxJS scheduler that agree. */
export interface TimeSource {
  readonly clock: Clock;
  readonly scheduler: SchedulerLike;
  /** Monotonic high-resolution time for latency figures; without one, the clock serves (virtual time). */
  readonly stopwatch?: Stopwatch;
  /**
   * Milliseconds at the clock's rate that a step of the wall clock (NTP, a resumed VM) does not move: what
   * an estimate of another party's clock runs on. Without one, the clock serves (virtual and scaled time
   * never step).
   */
  readonly steady?: Clock;
}

/** The steady clock of a time source: its own when it has one (the system's), else its clock. */
export function steadyClockOf(time: TimeSource): Clock {
  return time.steady ?? time.clock;
}

/** The stopwatch of a time source: its own when it has one (the system's), else its clock (virtual time). */
export function stopwatchOf(time: TimeSource): Stopwatch {
  return time.stopwatch ?? time.clock;
}

/** Resolves after `ms` on the given scheduler (virtual or real). */
export function sleep(scheduler: SchedulerLike, ms: number): Promise<void> {
  return new Promise((resolve) => {
    scheduler.schedule(() => resolve(), Math.max(0, ms));
  });
}
