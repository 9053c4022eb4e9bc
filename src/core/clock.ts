import type { SchedulerLike } from 'rxjs';

/** Time is a port: the kernel reads epoch milliseconds from here, never from the wall clock. */
export interface Clock {
  now(): number;
}

/** Everything time-related a component needs: the clock and an RxJS scheduler that agree. */
export interface TimeSource {
  readonly clock: Clock;
  readonly scheduler: SchedulerLike;
}

/** Resolves after `ms` on the given scheduler (virtual or real). */
export function sleep(scheduler: SchedulerLike, ms: number): Promise<void> {
  return new Promise((resolve) => {
    scheduler.schedule(() => resolve(), Math.max(0, ms));
  });
}
