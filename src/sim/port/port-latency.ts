import type { SchedulerLike } from 'rxjs';

/**
 * How long the in-process exchange takes: a command reaches the engine `orderLatencyMs` after the call,
 * its reply arrives `ackLatencyMs` after that, and account events reach the kernel `ackLatencyMs` after
 * the engine raised them. Zero (the default) runs and answers at once, without the scheduler.
 */
export interface LatencyModel {
  readonly orderLatencyMs: number;
  readonly ackLatencyMs: number;
}

export const NO_LATENCY: LatencyModel = { orderLatencyMs: 0, ackLatencyMs: 0 };

/** Runs `work` after `ms` on the scheduler, or right now when `ms` is not positive. */
export function runAfter(scheduler: SchedulerLike, ms: number, work: () => void): void {
  if (ms > 0) scheduler.schedule(work, ms);
  else work();
}
