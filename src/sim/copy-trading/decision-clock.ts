import { Prng } from '../market-stream/prng.js';

/**
 * When a synthetic leader decides: a Poisson process with the configured mean interval, on its own
 * PRNG stream so the schedule depends on the seed alone (not on the market or on followers).
 */
export class DecisionClock {
  private readonly prng: Prng;
  private nextTime: number;

  constructor(
    seed: number,
    leaderUserId: string,
    private readonly meanIntervalMs: number,
    startTime: number,
  ) {
    this.prng = new Prng(seed, `copy-trading/leader-schedule/${leaderUserId}`);
    this.nextTime = startTime + this.interval();
  }

  /** Time of the next decision (epoch ms). */
  get next(): number {
    return this.nextTime;
  }

  /** Moves on to the decision after `next`. */
  advance(): number {
    this.nextTime += this.interval();
    return this.nextTime;
  }

  private interval(): number {
    return Math.max(1, Math.round(this.prng.exponential(this.meanIntervalMs)));
  }
}
