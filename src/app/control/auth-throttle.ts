import type { Clock } from '../../core/clock.js';

export interface AuthThrottleOptions {
  readonly clock: Clock;
  /** Failures an address may have before it waits; default 5. */
  readonly freeFailures?: number;
  /** The first wait, doubled per further failure; default 1 s. */
  readonly initialDelayMs?: number;
  /** Default 60 s. */
  readonly maxDelayMs?: number;
  /** Addresses remembered (the oldest is forgotten beyond it); default 1024. */
  readonly maxAddresses?: number;
}

interface Failures {
  count: number;
  /** Until when (clock ms) this address is refused without a look at its token. */
  blockedUntil: number;
}

/**
 * Failed authentications per remote address: after a few, the address waits (1 s, 2 s, 4 s … up to a
 * minute) before its next try is even checked. A success forgets its failures. Guessing a 256-bit
 * token is hopeless anyway; this keeps a guesser from filling the log and the CPU.
 */
export class AuthThrottle {
  private readonly failures = new Map<string, Failures>();
  private readonly freeFailures: number;
  private readonly initialDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly maxAddresses: number;

  constructor(private readonly options: AuthThrottleOptions) {
    this.freeFailures = options.freeFailures ?? 5;
    this.initialDelayMs = options.initialDelayMs ?? 1000;
    this.maxDelayMs = options.maxDelayMs ?? 60_000;
    this.maxAddresses = options.maxAddresses ?? 1024;
  }

  /** Milliseconds the address must still wait (0: its token may be checked now). */
  waitMs(address: string): number {
    const entry = this.failures.get(address);
    return entry === undefined ? 0 : Math.max(0, entry.blockedUntil - this.options.clock.now());
  }

  /** Records a failed authentication; answers the failures so far. */
  failed(address: string): number {
    const entry = this.failures.get(address) ?? { count: 0, blockedUntil: 0 };
    this.failures.delete(address);
    entry.count += 1;
    const over = entry.count - this.freeFailures;
    if (over >= 0) entry.blockedUntil = this.options.clock.now() + Math.min(this.maxDelayMs, this.initialDelayMs * 2 ** Math.min(over, 30));
    this.failures.set(address, entry);
    if (this.failures.size > this.maxAddresses) {
      const oldest = this.failures.keys().next();
      if (oldest.done !== true) this.failures.delete(oldest.value);
    }
    return entry.count;
  }

  succeeded(address: string): void {
    this.failures.delete(address);
  }
}
