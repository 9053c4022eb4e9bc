import type { SchedulerLike, Subscription } from 'rxjs';
import type { Decimal } from '../core/decimal.js';
import type { EquityRow } from './types.js';

export interface EquitySample {
  readonly equity: Decimal;
  readonly strategyPnl: readonly Decimal[];
}

/**
 * Equity sampled on a fixed grid of virtual time (startTime, startTime + interval, …) and once more at
 * the end. Each sample is a fresh top-level schedule (nesting would grow the virtual clock's stack).
 */
export class EquityCurve {
  readonly rows: EquityRow[] = [];
  private timer: Subscription | undefined;

  constructor(
    private readonly intervalMs: number,
    private readonly sample: () => EquitySample,
  ) {}

  /** Samples now (the start) and then every interval until `stop`. */
  start(scheduler: SchedulerLike): void {
    const take = (): void => {
      this.push(scheduler.now(), false);
      this.timer = scheduler.schedule(take, this.intervalMs);
    };
    take();
  }

  stop(): void {
    this.timer?.unsubscribe();
    this.timer = undefined;
  }

  /** The closing sample at `time`, unless a grid sample was taken right then. */
  finish(time: number): void {
    this.stop();
    const last = this.rows[this.rows.length - 1];
    if (last === undefined || last.time < time) this.push(time, true);
  }

  private push(time: number, partial: boolean): void {
    const { equity, strategyPnl } = this.sample();
    this.rows.push({ time, equity, strategyPnl, partial });
  }
}
