import { FixedWindowCounter } from './fixed-window.js';

export interface RateLimitSettings {
  /** REQUEST_WEIGHT per window, per key for signed calls and per IP for public ones. */
  readonly weightLimit: number;
  readonly weightWindowMs: number;
  /** ORDERS units per window, per user. */
  readonly ordersLimit: number;
  readonly ordersWindowMs: number;
  /** Rejections (429) from one IP within one weight window beyond which that IP is banned (418). */
  readonly banAfterRejections: number;
  readonly banMs: number;
}

/** API-NOTES §2: 3000 weight per minute, 60 orders per 2 s, a 2-minute IP ban after more than 10 rejections. */
export const EXCHANGE_RATE_LIMITS: RateLimitSettings = {
  weightLimit: 3000,
  weightWindowMs: 60_000,
  ordersLimit: 60,
  ordersWindowMs: 2000,
  banAfterRejections: 10,
  banMs: 120_000,
};

export type LimitVerdict =
  | { readonly kind: 'ok' }
  | { readonly kind: 'limited'; readonly limit: number; readonly resetAt: number }
  | { readonly kind: 'banned'; readonly until: number };

export interface WeightStatus {
  readonly limit: number;
  readonly remaining: number;
  readonly resetAt: number;
}

/**
 * The exchange's server-side budgets in fixed windows. A refused request spends nothing; too many
 * refusals from one IP in a window ban that IP for `banMs`. Budgets scale with `share()` (the
 * `rateLimitShare` fault), read at every request.
 */
export class ServerRateLimits {
  private readonly weight: FixedWindowCounter;
  private readonly orders: FixedWindowCounter;
  private readonly rejections: FixedWindowCounter;
  private readonly bans = new Map<string, number>();

  constructor(
    readonly settings: RateLimitSettings,
    private readonly share: () => number,
  ) {
    this.weight = new FixedWindowCounter(settings.weightWindowMs);
    this.orders = new FixedWindowCounter(settings.ordersWindowMs);
    this.rejections = new FixedWindowCounter(settings.weightWindowMs);
  }

  /** End of the IP's ban, or undefined when it is not banned. */
  bannedUntil(ip: string, now: number): number | undefined {
    const until = this.bans.get(ip);
    if (until === undefined) return undefined;
    if (now < until) return until;
    this.bans.delete(ip);
    return undefined;
  }

  spendWeight(identity: string, ip: string, weight: number, now: number): LimitVerdict {
    const limit = this.weightLimit();
    if (this.weight.used(identity, now) + weight <= limit) {
      this.weight.add(identity, weight, now);
      return { kind: 'ok' };
    }
    return this.reject(ip, now, limit, this.weight.resetAt(now));
  }

  spendOrders(userId: string, ip: string, units: number, now: number): LimitVerdict {
    const limit = this.ordersLimit();
    if (this.orders.used(userId, now) + units <= limit) {
      this.orders.add(userId, units, now);
      return { kind: 'ok' };
    }
    return this.reject(ip, now, limit, this.orders.resetAt(now));
  }

  weightStatus(identity: string, now: number): WeightStatus {
    const limit = this.weightLimit();
    return { limit, remaining: Math.max(0, limit - this.weight.used(identity, now)), resetAt: this.weight.resetAt(now) };
  }

  weightLimit(): number {
    return scaled(this.settings.weightLimit, this.share());
  }

  ordersLimit(): number {
    return scaled(this.settings.ordersLimit, this.share());
  }

  private reject(ip: string, now: number, limit: number, resetAt: number): LimitVerdict {
    if (this.rejections.add(ip, 1, now) <= this.settings.banAfterRejections) return { kind: 'limited', limit, resetAt };
    const until = now + this.settings.banMs;
    this.bans.set(ip, until);
    return { kind: 'banned', until };
  }
}

function scaled(limit: number, share: number): number {
  return Math.max(1, Math.floor(limit * share));
}
