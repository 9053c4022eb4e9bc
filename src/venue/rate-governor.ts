import { Subject } from 'rxjs';
import type { SchedulerLike, Subscription } from 'rxjs';
import type { Clock } from '../core/clock.js';
import type { Result } from '../core/result.js';
import { err, ok } from '../core/result.js';
import { EpochWindows, SlidingWindow } from '../protocol/sliding-window.js';
import { LANES, insertByLane } from './rate/index.js';
import type { RateLane } from './rate/index.js';

export interface RateBudget {
  /** REQUEST_WEIGHT per window (3000 per minute). */
  readonly weightLimit: number;
  readonly weightWindowMs: number;
  /** ORDERS per window (60 per 2 s). */
  readonly ordersLimit: number;
  readonly ordersWindowMs: number;
  /** Share of both budgets this process may use (0 < share <= 1), so two bots can share a key. */
  readonly share: number;
  /**
   * How the server counts ORDERS. `fixed` (the default): in windows of `ordersWindowMs` aligned to the
   * epoch of its own clock, as the simulator does (API-NOTES §2) and Binance-style venues do — the
   * governor keeps every such window, on the server clock (`serverToLocal`), within the limit, so a
   * burst that straddles a server window's end cannot overfill the next one, and a flood fills each
   * window from its start. `sliding`: at most the limit within any `ordersWindowMs` of grants.
   */
  readonly ordersWindows?: 'fixed' | 'sliding';
  /**
   * Longest time from a grant until the server counts the order (waiting for a socket, transit): an
   * order granted this close to a server window's end is counted against the next window too. Such
   * tail orders may take at most a tenth of the next window's budget (or one request, however large);
   * more wait for that window to start, so that a flood beginning late in a window costs the next one
   * little. Default 250 ms.
   */
  readonly ordersTransitMs?: number;
  /**
   * How far the server-clock estimate (the `serverToLocal` conversion, from TimeSync) may be off: an
   * order granted this soon after a server window's start may still land in the window before.
   * Default 5 ms with a conversion given; 0 without one (the local clock is the server's).
   */
  readonly serverClockErrorMs?: number;
}

/** Rate windows reset within a minute; a reset timestamp more than an hour ahead is not believed. */
const MAX_RESET_AHEAD_MS = 60 * 60_000;

const OK: Result<void, GovernorRefusal> = ok(undefined);

const DEFAULT_ORDERS_TRANSIT_MS = 250;
const DEFAULT_SERVER_CLOCK_ERROR_MS = 5;
/** Share of a server window's ORDERS budget that tail orders of the window before may take. */
const SPILL_SHARE = 0.1;

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
  /** Which lane the request waits in when it must wait (default `trade`): see rate/lanes.ts. */
  readonly lane?: RateLane;
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
  /** Waiting requests per lane. */
  readonly queuedByLane: Readonly<Record<RateLane, number>>;
  readonly pausedUntil: number;
  readonly bannedUntil: number | undefined;
  readonly banned: boolean;
}

interface Waiter {
  readonly cost: RateCost;
  readonly lane: RateLane;
  readonly resolve: (outcome: Result<void, GovernorRefusal>) => void;
}

/**
 * Client-side rate governor. Requests queue rather than exceed either budget, in lanes (rate/lanes.ts):
 * cancels and reduce-only orders before new orders, new orders before market data and downloads, each
 * lane first come first served. The weight budget is granted in that order, while requests that spend no ORDERS budget (cancels, queries) may pass order requests
 * held back by the order budget. ORDERS are kept within the server's fixed windows on the server
 * clock (the default) or within a sliding window (see `RateBudget.ordersWindows`). Headers from the
 * server correct the local view upward; a 429 pauses everything until the reset time; a 418 halts
 * sending and raises an alarm.
 */
export class RateGovernor {
  readonly alarms$ = new Subject<GovernorAlarm>();
  private weightFull: number;
  private readonly weight: SlidingWindow;
  /** ORDERS granted in the last window (the snapshot's figure; the budget itself in `sliding` mode). */
  private readonly orders: SlidingWindow;
  /** ORDERS per server window (server clock), in `fixed` mode. */
  private readonly serverOrders: EpochWindows | undefined;
  private readonly serverToLocal: (serverMs: number) => number;
  private readonly transitMs: number;
  private readonly clockErrorMs: number;
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
    /** Converts a server timestamp (ms) to the local clock; omitted, the local clock is the server's. */
    serverToLocal?: (serverMs: number) => number,
  ) {
    if (!(budget.share > 0 && budget.share <= 1)) throw new RangeError(`rate budget share must be in (0, 1], got ${budget.share}`);
    this.weightFull = budget.weightLimit;
    this.weight = new SlidingWindow(budget.weightWindowMs);
    this.orders = new SlidingWindow(budget.ordersWindowMs);
    this.serverToLocal = serverToLocal ?? ((ms) => ms);
    this.serverOrders = budget.ordersWindows === 'sliding' ? undefined : new EpochWindows(budget.ordersWindowMs);
    this.transitMs = budget.ordersTransitMs ?? DEFAULT_ORDERS_TRANSIT_MS;
    this.clockErrorMs = budget.serverClockErrorMs ?? (serverToLocal === undefined ? 0 : DEFAULT_SERVER_CLOCK_ERROR_MS);
    for (const [name, ms] of [['ordersTransitMs', this.transitMs], ['serverClockErrorMs', this.clockErrorMs]] as const) {
      if (!(Number.isFinite(ms) && ms >= 0)) throw new RangeError(`${name} must be a non-negative number of ms, got ${ms}`);
    }
    if (this.transitMs + this.clockErrorMs >= budget.ordersWindowMs) {
      throw new RangeError(`ordersTransitMs + serverClockErrorMs must be below the orders window (${budget.ordersWindowMs} ms)`);
    }
  }

  /** Waits until the request may be sent within both budgets; refused only while banned. */
  acquire(cost: RateCost): Promise<Result<void, GovernorRefusal>> {
    return new Promise((resolve) => {
      insertByLane(this.queue, { cost, lane: cost.lane ?? 'trade', resolve });
      this.pump();
    });
  }

  /**
   * The permit at once, without a promise, when `acquire` would grant it at once: nothing is waiting
   * and both budgets have room now (or a refusal while banned). `undefined` when the request must wait:
   * then `acquire` it. An order request thereby reaches its socket in the same turn of the event loop
   * as its journal commit (tick-to-order), with the same accounting as a grant by `acquire`.
   */
  tryAcquire(cost: RateCost): Result<void, GovernorRefusal> | undefined {
    if (this.queue.length > 0) return undefined;
    const now = this.clock.now();
    if (this.isBanned(now)) return err({ reason: 'banned', until: this.bannedUntil });
    if (now < this.pausedUntil || this.weightReadyAt(now, cost.weight) > now) return undefined;
    if (cost.orders === 0) {
      this.grant(now, now, cost);
      return OK;
    }
    const server = this.ordersClockAt(now);
    if (this.ordersReadyAt(now, server, cost.orders) > now) return undefined;
    this.grant(now, server, cost);
    return OK;
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
      this.serverExtraUntil = this.resetOf(reset, now) ?? now + this.budget.weightWindowMs;
    }
  }

  /**
   * A server reset time as a local time, when it is ahead of `now` and believable: one further ahead
   * than MAX_RESET_AHEAD_MS is a corrupt header (or microseconds for ms), which would stop every
   * request until then.
   */
  private resetOf(resetServerMs: number | undefined, now: number): number | undefined {
    if (resetServerMs === undefined) return undefined;
    const local = this.serverToLocal(resetServerMs);
    return local > now && local <= now + MAX_RESET_AHEAD_MS ? local : undefined;
  }

  /** A 429: nothing is sent until the reset time (or a whole window when none is given). */
  onRateLimited(budget: 'weight' | 'orders', resetServerMs: number | undefined): number {
    const now = this.clock.now();
    const windowMs = budget === 'orders' ? this.budget.ordersWindowMs : this.budget.weightWindowMs;
    const until = this.resetOf(resetServerMs, now) ?? now + windowMs;
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
      queuedByLane: Object.fromEntries(LANES.map((lane) => [lane, this.queue.filter((w) => w.lane === lane).length])) as Record<RateLane, number>,
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
    let server: number | undefined; // the orders' clock at `now`, read at the first order request
    for (let i = 0; i < this.queue.length; ) {
      const waiter = this.queue[i];
      if (waiter === undefined) break;
      const { weight, orders } = waiter.cost;
      const weightReady = this.weightReadyAt(now, weight);
      if (weightReady > now) {
        nextWake = Math.min(nextWake, weightReady);
        break; // the weight budget is shared by every request: granted in lane order, strictly
      }
      if (orders > 0) {
        server ??= this.ordersClockAt(now);
        const ordersReady = ordersBlocked ? Infinity : this.ordersReadyAt(now, server, orders);
        if (ordersReady > now) {
          ordersBlocked = true; // order requests stay in order among themselves
          nextWake = Math.min(nextWake, ordersReady);
          i++;
          continue;
        }
      }
      this.grant(now, server ?? now, waiter.cost);
      this.queue.splice(i, 1);
      waiter.resolve(OK);
    }
    if (this.queue.length > 0 && Number.isFinite(nextWake)) this.wakeAt(nextWake);
  }

  /**
   * The clock ORDERS are counted on at local time `now`: the server's in `fixed` mode, else the local one.
   * Read once per grant: its readiness check and its accounting share it.
   */
  private ordersClockAt(now: number): number {
    return this.serverOrders === undefined ? now : this.localToServer(now);
  }

  /** Spends a request's cost from both budgets at `now` (`server`: `ordersClockAt(now)` for an order request). */
  private grant(now: number, server: number, cost: RateCost): void {
    this.weight.add(now, cost.weight);
    this.orders.add(now, cost.orders);
    if (cost.orders > 0 && this.serverOrders !== undefined) {
      this.serverOrders.add(server, server - this.clockErrorMs, server + this.transitMs, cost.orders);
    }
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

  private ordersReadyAt(now: number, server: number, orders: number): number {
    const limit = this.ordersLimit();
    const need = Math.min(orders, limit);
    if (this.serverOrders !== undefined) return this.serverWindowsReadyAt(this.serverOrders, now, server, need, limit);
    return this.orders.used(now) + need <= limit ? now : this.orders.timeWhenAtMost(now, limit - need);
  }

  /**
   * Earliest local time from `now` at which an order request of `need` units fits the server's fixed
   * windows: it lands somewhere in [server − clock error, server + transit], and every window that
   * interval touches must have room; landing in the next window too, it must also keep within the
   * tail orders' allowance there.
   */
  private serverWindowsReadyAt(windows: EpochWindows, now: number, start: number, need: number, limit: number): number {
    const allowance = Math.max(1, Math.ceil(limit * SPILL_SHARE));
    let server = start;
    for (;;) {
      const home = windows.indexOf(server);
      const last = windows.indexOf(server + this.transitMs);
      let wait: number | undefined; // index of the window whose start to wait for
      for (let i = windows.indexOf(server - this.clockErrorMs); i <= last; i++) if (windows.used(i) + need > limit) wait = i + 1;
      const spill = windows.spilled(last);
      if (wait === undefined && last > home && spill > 0 && spill + need > allowance) wait = last;
      if (wait === undefined) return server === start ? now : this.serverToLocal(server);
      server = windows.startOf(wait) + this.clockErrorMs;
    }
  }

  /** The server clock's reading at local time `local` (the conversion is a constant offset). */
  private localToServer(local: number): number {
    return local + (local - this.serverToLocal(local));
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
