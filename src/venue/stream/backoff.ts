export interface BackoffOptions {
  /** First delay (default 500 ms). */
  readonly initialMs?: number;
  /** Cap before jitter (default 30 s). */
  readonly maxMs?: number;
  /** Growth per consecutive failure (default 2). */
  readonly factor?: number;
  /** Relative spread: each delay lies in base × [1 − jitter, 1 + jitter] (default 0.2). */
  readonly jitter?: number;
}

/** Exponential backoff with jitter; `random` is injectable so that tests are deterministic. */
export class Backoff {
  private readonly initialMs: number;
  private readonly maxMs: number;
  private readonly factor: number;
  private readonly jitter: number;
  private failures = 0;

  constructor(
    options: BackoffOptions = {},
    private readonly random: () => number = Math.random,
  ) {
    this.initialMs = options.initialMs ?? 500;
    this.maxMs = options.maxMs ?? 30_000;
    this.factor = options.factor ?? 2;
    this.jitter = options.jitter ?? 0.2;
    if (!(this.initialMs >= 0 && this.maxMs >= this.initialMs && this.factor >= 1 && this.jitter >= 0 && this.jitter <= 1)) {
      throw new RangeError('backoff: need 0 <= initialMs <= maxMs, factor >= 1 and jitter in [0, 1]');
    }
  }

  /** The delay before the next attempt; each call counts one more consecutive failure. */
  next(): number {
    const base = Math.min(this.maxMs, this.initialMs * this.factor ** this.failures);
    this.failures += 1;
    const spread = this.jitter * (2 * this.random() - 1);
    return Math.max(0, Math.round(base * (1 + spread)));
  }

  /** After a success: the next delay starts from `initialMs` again. */
  reset(): void {
    this.failures = 0;
  }

  get consecutiveFailures(): number {
    return this.failures;
  }
}
