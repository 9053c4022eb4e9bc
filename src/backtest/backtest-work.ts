import type { Executor } from '../engine/execution/executor.js';
import type { DriverWork } from './virtual-driver.js';
import type { HandlerTracker } from './handler-tracker.js';

/** A backtest's pending work, as its VirtualDriver asks it (see DriverWork). */
export class BacktestWork implements DriverWork {
  /** Scheduled actions run so far that are known to be quiet (see DriverWork.quietActions). */
  quiet = 0;

  constructor(
    private readonly handlers: HandlerTracker,
    private readonly executor: Executor,
    /** The port answers without latency: a command on its way may have a reply pending at once. */
    private readonly unlatent: boolean,
  ) {}

  mustYield(): boolean {
    return this.handlers.pending > 0 || (this.unlatent && this.executor.pendingCount() > 0);
  }

  quietActions(): number {
    return this.quiet;
  }
}
