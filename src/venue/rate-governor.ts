import { Subject } from 'rxjs';
import type { SchedulerLike, Subscription } from 'rxjs';
import type { Clock } from '../core/clock.js';
import type { Result } from '../core/result.js';
import { err, ok } from '../core/result.js';
import { SlidingWindow } from './sliding-window.js';

export interface RateBudget {
  /** REQUEST_WEIGHT per window (3000 per minute). */
  readonly weightLimit: number;
  readonly weightWindowMs: number;
  /** ORDERS per window (60 per 2 s). */
  readonly ordersLimit: number;
  readonly ordersWindowMs: number;
  /** Share of both budgets this process may use (0 < share <= 1), so two bots can share a key. */
  readonly share: number;
}

export const DEFAULT_RATE_BUDGET: RateBudget = {
  weightLimit: 3000,
  weightWindowMs: 60_000,
  ordersLimit: 60,
  ordersWindowMs: 2_000,
  share: 0.8,
};

export interface RateCost {
  readonly weight: number;
  readonly orders: number;
}

export type GovernorAlarm =
  | { readonly type: 'RateLimited'; readonly at: number; readonly until: number; readonly budget: 'weight' | 'orders' }
  | { readonly type: 'Banned'; readonly at: number; readonly until: number | undefined };

export interface GovernorRefusal {
  readonly reason: 'banned';
  readonly until: number | undefined;
}

export interface GovernorSnapshot {
  readonly weightUsed: number;
  readonly weightLimit: number;
  readonly ordersUsed: number;
  readonly ordersLimit: number;
  readonly queued: number;
  readonly pausedUntil: number;
  readonly bannedUntil: number | undefined;
  readonly banned: boolean;
}

interface Waiter {
  readonly cost: RateCost;
  readonly resolve: (outcome: Result<void, GovernorRefusal>) => void;
}

/**
 * Client-side rate governor. Requests queue rather than exceed either budget; the weight budget is
 * shared FIFO, while requests that spend no ORDERS budget (cancels, queries) may pass order requests
 * held back by the order budget. Headers from the server correct the local view upward; a 429
 * pauses everything until the reset time; a 418 halts sending and raises an alarm.
 */
export class RateGovernor {
  readonly alarms$ = new Subject<GovernorAlarm>();
  private weightFull: number;
  private readonly weight: SlidingWindow;
  private readonly orders: SlidingWindow;
  /** Usage the server reports beyond our own (another process on the same key), until it resets. */
  private serverExtra = 0;
  private serverExtraUntil = 0;
  private pausedUntil = 0;
  private bannedUntil: number | undefined;
  private banned = false;
  private readonly queue: Waiter[] = [];
  private wake: { at: number; subscription: Subscription } | undefined;

  constructor(
    private readonly budget: RateBudget,
    private readonly clock: Clock,
    private readonly scheduler: SchedulerLike,
    /** Converts a server timestamp (ms) to the local clock. */
    private readonly serverToLocal: (serverMs: number) => number = (ms) => ms,
  ) {
    if (!(budget.share > 0 && budget.share <= 1)) throw new RangeError(`rate budget share must be in (0, 1], got ${budget.share}`);
    this.weightFull = budget.weightLimit;
    this.weight = new SlidingWindow(budget.weightWindowMs);
    this.orders = new SlidingWindow(budget.ordersWindowMs);
  }

  /** Waits until the request may be sent within both budgets; refused only while banned. */
  acquire(cost: RateCost): Promise<Result<void, GovernorRefusal>> {
    return new Promise((resolve) => {
      this.queue.push({ cost, resolve });
      this.pump();
    });
  }

  /** Reads X-Api-Limit, X-Api-Limit-Status and X-Api-Limit-Reset-Timestamp (all optional). */
  observeHeaders(headers: Readonly<Record<string, string | undefined>>): void {
    const limit = toInt(headers['x-api-limit']);
    const remaining = toInt(headers['x-api-limit-status']);
    const reset = toInt(headers['x-api-limit-reset-timestamp']);
    if (limit !== undefined && limit > 0) this.weightFull = limit;
    if (limit === undefined || remaining === undefined) return;
    const now = this.clock.now();
    const serverUsed = Math.max(0, limit - remaining);
    const own = this.weight.used(now);
    if (serverUsed > own) {
      this.serverExtra = serverUsed - own;
      this.serverExtraUntil =
        reset !== undefined && this.serverToLocal(reset) > now ? this.serverToLocal(reset) : now + this.budget.weightWindowMs;
    }
  }

  /** A 429: nothing is sent until the reset time (or a whole window when none is given). */
  onRateLimited(budget: 'weight' | 'orders', resetServerMs: number | undefined): number {
    const now = this.clock.now();
    const windowMs = budget === 'orders' ? this.budget.ordersWindowMs : this.budget.weightWindowMs;
    const until = resetServerMs !== undefined && this.serverToLocal(resetServerMs) > now ? this.serverToLocal(resetServerMs) : now + windowMs;
    this.pausedUntil = Math.max(this.pausedUntil, until);
    this.alarms$.next({ type: 'RateLimited', at: now, until: this.pausedUntil, budget });
    this.pump();
    return this.pausedUntil;
  }

  /** A 418: stop sending. Lifts at the reset time when one is given, else only on `resume()`. */
  onBanned(resetServerMs: number | undefined): void {
    const now = this.clock.now();
    this.banned = true;
    this.bannedUntil = resetServerMs === undefined ? undefined : this.serverToLocal(resetServerMs);
    this.alarms$.next({ type: 'Banned', at: now, until: this.bannedUntil });
    this.pump();
  }

  /** Operator action after a ban without an end time. */
  resume(): void {
    this.banned = false;
    this.bannedUntil = undefined;
    this.pump();
  }

  snapshot(): GovernorSnapshot {
    const now = this.clock.now();
    return {
      weightUsed: this.weight.used(now),
      weightLimit: this.weightLimit(),
      ordersUsed: this.orders.used(now),
      ordersLimit: this.ordersLimit(),
      queued: this.queue.length,
      pausedUntil: this.pausedUntil,
      bannedUntil: this.bannedUntil,
      banned: this.isBanned(now),
    };
  }

  private weightLimit(): number {
    return Math.max(1, Math.floor(this.weightFull * this.budget.share));
  }

  private ordersLimit(): number {
    return Math.max(1, Math.floor(this.budget.ordersLimit * this.budget.share));
  }

  private isBanned(now: number): boolean {
    if (this.banned && this.bannedUntil !== undefined && now >= this.bannedUntil) {
      this.banned = false;
      this.bannedUntil = undefined;
    }
    return this.banned;
  }

  private extra(now: number): number {
    return now < this.serverExtraUntil ? this.serverExtra : 0;
  }

  private pump(): void {
    const now = this.clock.now();
    if (this.isBanned(now)) {
      const refusal: GovernorRefusal = { reason: 'banned', until: this.bannedUntil };
      for (const waiter of this.queue.splice(0)) waiter.resolve(err(refusal));
      return;
    }
    if (now < this.pausedUntil) {
      if (this.queue.length > 0) this.wakeAt(this.pausedUntil);
      return;
    }
    let nextWake = Infinity;
    let ordersBlocked = false;
    for (let i = 0; i < this.queue.length; ) {
      const waiter = this.queue[i];
      if (waiter === undefined) break;
      const { weight, orders } = waiter.cost;
      const weightReady = this.weightReadyAt(now, weight);
      if (weightReady > now) {
        nextWake = Math.min(nextWake, weightReady);
        break; // the weight budget is shared by every request: strict FIFO
      }
      if (orders > 0) {
        const ordersReady = ordersBlocked ? Infinity : this.ordersReadyAt(now, orders);
        if (ordersReady > now) {
          ordersBlocked = true; // order requests stay in order among themselves
          nextWake = Math.min(nextWake, ordersReady);
          i++;
          continue;
        }
      }
      this.weight.add(now, weight);
      this.orders.add(now, orders);
      this.queue.splice(i, 1);
      waiter.resolve(ok(undefined));
    }
    if (this.queue.length > 0 && Number.isFinite(nextWake)) this.wakeAt(nextWake);
  }

  private weightReadyAt(now: number, weight: number): number {
    const limit = this.weightLimit();
    const own = this.weight.used(now);
    const extra = this.extra(now);
    // A single request heavier than the whole budget goes out alone into an empty window.
    const need = Math.min(weight, limit);
    let at = own + need <= limit ? now : this.weight.timeWhenAtMost(now, limit - need);
    if (extra > 0 && own + extra + need > this.weightFull) at = Math.max(at, this.serverExtraUntil);
    return at;
  }

  private ordersReadyAt(now: number, orders: number): number {
    const limit = this.ordersLimit();
    const need = Math.min(orders, limit);
    return this.orders.used(now) + need <= limit ? now : this.orders.timeWhenAtMost(now, limit - need);
  }

  private wakeAt(at: number): void {
    if (this.wake !== undefined && this.wake.at <= at) return;
    this.wake?.subscription.unsubscribe();
    const now = this.clock.now();
    const subscription = this.scheduler.schedule(() => {
      this.wake = undefined;
      this.pump();
    }, Math.max(0, at - now));
    this.wake = { at, subscription };
  }
}

function toInt(text: string | undefined): number | undefined {
  if (text === undefined || !/^-?\d+$/.test(text.trim())) return undefined;
  return Number(text.trim());
}
