import { VirtualClock } from '../../src/core/virtual-time.js';
import type { GovernorAlarm, RateBudget } from '../../src/venue/rate-governor.js';
import { DEFAULT_RATE_BUDGET, RateGovernor } from '../../src/venue/rate-governor.js';

const FULL: RateBudget = { ...DEFAULT_RATE_BUDGET, share: 1 };

/** Lets promise callbacks run after the virtual clock moved. */
const settle = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

interface Grant {
  readonly at: number;
  readonly weight: number;
  readonly orders: number;
}

/** Fires `count` requests at once and records the virtual time each one is let through. */
function fire(governor: RateGovernor, clock: VirtualClock, count: number, weight: number, orders: number, grants: Grant[]): void {
  for (let i = 0; i < count; i++) {
    void governor.acquire({ weight, orders }).then((r) => {
      if (r.ok) grants.push({ at: clock.now(), weight, orders });
    });
  }
}

/** Largest amount granted inside any window of `windowMs` ending at a grant. */
function peak(grants: readonly Grant[], windowMs: number, pick: (g: Grant) => number): number {
  let max = 0;
  for (const g of grants) {
    const sum = grants.filter((o) => o.at > g.at - windowMs && o.at <= g.at).reduce((s, o) => s + pick(o), 0);
    max = Math.max(max, sum);
  }
  return max;
}

async function runFor(clock: VirtualClock, ms: number, step = 50): Promise<void> {
  for (let t = 0; t < ms; t += step) {
    clock.advanceBy(step);
    await settle();
  }
}

describe('rate governor (virtual time)', () => {
  it('never exceeds 60 orders per 2 s and lets all 300 through in order, queueing rather than refusing', async () => {
    const clock = new VirtualClock();
    const governor = new RateGovernor(FULL, clock, clock);
    const grants: Grant[] = [];
    fire(governor, clock, 300, 1, 1, grants);
    await settle();
    expect(grants).toHaveLength(60);
    await runFor(clock, 12_000);
    expect(grants).toHaveLength(300);
    expect(peak(grants, 2000, (g) => g.orders)).toBeLessThanOrEqual(60);
    // Sustains the budget: 300 orders need 5 windows, the last granted at 8 s.
    expect(grants[grants.length - 1]?.at).toBe(clock.now() - 12_000 + 8000);
  });

  it('never exceeds the 3000 weight per minute budget', async () => {
    const clock = new VirtualClock();
    const governor = new RateGovernor(FULL, clock, clock);
    const grants: Grant[] = [];
    fire(governor, clock, 200, 40, 0, grants);
    await settle();
    expect(grants).toHaveLength(75);
    await runFor(clock, 200_000, 500);
    expect(grants).toHaveLength(200);
    expect(peak(grants, 60_000, (g) => g.weight)).toBeLessThanOrEqual(3000);
  });

  it('keeps to its share of the budget (default 80%)', async () => {
    const clock = new VirtualClock();
    const governor = new RateGovernor(DEFAULT_RATE_BUDGET, clock, clock);
    const grants: Grant[] = [];
    fire(governor, clock, 100, 1, 1, grants);
    await settle();
    expect(grants).toHaveLength(48);
    expect(governor.snapshot().ordersLimit).toBe(48);
    expect(governor.snapshot().weightLimit).toBe(2400);
  });

  it('lets a cancel (no order budget) pass order requests held back by the order budget', async () => {
    const clock = new VirtualClock();
    const governor = new RateGovernor(FULL, clock, clock);
    const grants: Grant[] = [];
    fire(governor, clock, 61, 1, 1, grants);
    fire(governor, clock, 1, 1, 0, grants);
    await settle();
    expect(grants.filter((g) => g.orders === 0)).toHaveLength(1);
    expect(grants.filter((g) => g.orders === 1)).toHaveLength(60);
  });

  it('corrects itself from X-Api-Limit headers: usage reported by the server counts until its reset', async () => {
    const clock = new VirtualClock(1_000_000);
    const governor = new RateGovernor(FULL, clock, clock);
    governor.observeHeaders({ 'x-api-limit': '3000', 'x-api-limit-status': '10', 'x-api-limit-reset-timestamp': String(1_000_000 + 30_000) });
    const grants: Grant[] = [];
    fire(governor, clock, 3, 5, 0, grants);
    await settle();
    expect(grants).toHaveLength(2); // 2990 used elsewhere: room for 10
    await runFor(clock, 30_000, 1000);
    expect(grants).toHaveLength(3);
    expect(grants[2]?.at).toBe(1_030_000);
  });

  it('adopts a lower limit announced by the server', async () => {
    const clock = new VirtualClock();
    const governor = new RateGovernor(FULL, clock, clock);
    governor.observeHeaders({ 'x-api-limit': '100', 'x-api-limit-status': '100' });
    expect(governor.snapshot().weightLimit).toBe(100);
  });

  it('after a 429 sends nothing until the reset timestamp and raises an alarm', async () => {
    const clock = new VirtualClock(2_000_000);
    const governor = new RateGovernor(FULL, clock, clock);
    const alarms: GovernorAlarm[] = [];
    governor.alarms$.subscribe((a) => alarms.push(a));
    governor.onRateLimited('weight', 2_000_000 + 7000);
    const grants: Grant[] = [];
    fire(governor, clock, 1, 1, 0, grants);
    await runFor(clock, 6900, 100);
    expect(grants).toHaveLength(0);
    await runFor(clock, 200, 100);
    expect(grants).toHaveLength(1);
    expect(grants[0]?.at).toBe(2_007_000);
    expect(alarms[0]).toMatchObject({ type: 'RateLimited', until: 2_007_000 });
  });

  it('after a 418 refuses every request and raises a Banned alarm until resumed', async () => {
    const clock = new VirtualClock();
    const governor = new RateGovernor(FULL, clock, clock);
    const alarms: GovernorAlarm[] = [];
    governor.alarms$.subscribe((a) => alarms.push(a));
    governor.onBanned(undefined);
    const refused = await governor.acquire({ weight: 1, orders: 0 });
    expect(refused.ok).toBe(false);
    expect(alarms.map((a) => a.type)).toEqual(['Banned']);
    governor.resume();
    expect((await governor.acquire({ weight: 1, orders: 0 })).ok).toBe(true);
  });

  it('tryAcquire grants at once what acquire would grant at once, spending the same budget, and never passes a waiting request', async () => {
    const clock = new VirtualClock();
    const governor = new RateGovernor(FULL, clock, clock);
    for (let i = 0; i < 59; i++) expect(governor.tryAcquire({ weight: 1, orders: 1 })?.ok).toBe(true);
    expect(governor.snapshot()).toMatchObject({ ordersUsed: 59, weightUsed: 59, queued: 0 });
    const grants: Grant[] = [];
    fire(governor, clock, 2, 1, 1, grants);
    await settle();
    // acquire granted the 60th order and holds the 61st: the budget tryAcquire spent counts the same.
    expect(grants).toHaveLength(1);
    expect(governor.snapshot().queued).toBe(1);
    // A request waits, so even a cancel (no order budget) is not let past it here: acquire decides.
    expect(governor.tryAcquire({ weight: 1, orders: 0 })).toBeUndefined();
    await runFor(clock, 2_100);
    expect(grants).toHaveLength(2);
    expect(governor.tryAcquire({ weight: 1, orders: 0 })?.ok).toBe(true);
    governor.onBanned(undefined);
    expect(governor.tryAcquire({ weight: 1, orders: 0 })).toMatchObject({ ok: false, error: { reason: 'banned' } });
  });

  it('lifts a ban with an end time once that time has passed', async () => {
    const clock = new VirtualClock(0);
    const governor = new RateGovernor(FULL, clock, clock);
    governor.onBanned(120_000);
    expect((await governor.acquire({ weight: 1, orders: 0 })).ok).toBe(false);
    clock.advanceTo(120_000);
    expect((await governor.acquire({ weight: 1, orders: 0 })).ok).toBe(true);
  });
});

/** Order units granted per server window (server time = local + offset). */
function perServerWindow(grants: readonly Grant[], offsetMs: number, windowMs = 2000): Map<number, number> {
  const counts = new Map<number, number>();
  for (const g of grants) {
    const start = Math.floor((g.at + offsetMs) / windowMs) * windowMs;
    counts.set(start, (counts.get(start) ?? 0) + g.orders);
  }
  return counts;
}

/** A small deterministic generator (mulberry32) for the randomised flood. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('rate governor: ORDERS in the server fixed windows (virtual time)', () => {
  const T0 = 1_000_000; // a server window starts here (2000 divides it)

  it('fills each server window from its start, on the server clock, 5 ms (clock error) after the start', async () => {
    const clock = new VirtualClock(T0);
    // The server clock runs 700 ms ahead of ours: local T0 is server T0 + 700.
    const governor = new RateGovernor(FULL, clock, clock, (serverMs) => serverMs - 700);
    const grants: Grant[] = [];
    fire(governor, clock, 150, 1, 1, grants);
    await settle();
    expect(grants).toHaveLength(60);
    await runFor(clock, 5000, 1);
    expect(grants).toHaveLength(150);
    // Server windows start at local T0 + 1300, T0 + 3300: the bursts follow 5 ms later.
    expect([...new Set(grants.map((g) => g.at))]).toEqual([T0, T0 + 1305, T0 + 3305]);
    expect([...perServerWindow(grants, 700).values()]).toEqual([60, 60, 30]);
  });

  it('a sliding-window governor would have held the same flood a whole 2 s after its first burst', async () => {
    const clock = new VirtualClock(T0 + 1500);
    const governor = new RateGovernor({ ...FULL, ordersWindows: 'sliding' }, clock, clock);
    const grants: Grant[] = [];
    fire(governor, clock, 120, 1, 1, grants);
    await settle();
    await runFor(clock, 2500, 1);
    expect([...new Set(grants.map((g) => g.at))]).toEqual([T0 + 1500, T0 + 3500]);
    const fixedClock = new VirtualClock(T0 + 1500);
    const fixed = new RateGovernor(FULL, fixedClock, fixedClock);
    const fixedGrants: Grant[] = [];
    fire(fixed, fixedClock, 120, 1, 1, fixedGrants);
    await settle();
    await runFor(fixedClock, 2500, 1);
    expect([...new Set(fixedGrants.map((g) => g.at))]).toEqual([T0 + 1500, T0 + 2000]);
  });

  it('counts an order granted within the transit time of a window end against the next window too, and lets such tail orders take at most a tenth of it', async () => {
    const clock = new VirtualClock(T0 + 1900);
    const governor = new RateGovernor(FULL, clock, clock);
    const grants: Grant[] = [];
    fire(governor, clock, 130, 1, 1, grants);
    await settle();
    // 100 ms before the end, within the 250 ms transit: 6 go at once, the rest wait for the next window.
    expect(grants).toHaveLength(6);
    await runFor(clock, 4200, 1);
    expect(grants).toHaveLength(130);
    // The next window already counts the 6 that might land in it: 54 more, then a full window.
    expect([...perServerWindow(grants, 0).entries()]).toEqual([
      [T0, 6],
      [T0 + 2000, 54],
      [T0 + 4000, 60],
      [T0 + 6000, 10],
    ]);
  });

  it("reads the server clock once for an order's grant: its readiness check and its accounting share the reading", async () => {
    const clock = new VirtualClock(T0);
    let reads = 0;
    const governor = new RateGovernor(FULL, clock, clock, (serverMs) => {
      reads += 1;
      return serverMs - 700;
    });
    expect(governor.tryAcquire({ weight: 1, orders: 1 })?.ok).toBe(true);
    expect(reads).toBe(1);
    reads = 0;
    expect(governor.tryAcquire({ weight: 1, orders: 0 })?.ok).toBe(true);
    expect(reads).toBe(0);
    const grants: Grant[] = [];
    fire(governor, clock, 3, 1, 1, grants);
    await settle();
    expect(grants).toHaveLength(3);
    expect(reads).toBe(3);
    expect(governor.snapshot().ordersUsed).toBe(4);
  });

  it('lets a lone order through at once even at the very end of a window', async () => {
    const clock = new VirtualClock(T0 + 1999);
    const governor = new RateGovernor(FULL, clock, clock, (ms) => ms);
    const grants: Grant[] = [];
    fire(governor, clock, 1, 1, 10, grants);
    await settle();
    expect(grants).toEqual([{ at: T0 + 1999, weight: 1, orders: 10 }]);
  });

  it('keeps a batch in line: it waits for the next window when the current one lacks room for all its legs', async () => {
    const clock = new VirtualClock(T0);
    const governor = new RateGovernor(FULL, clock, clock);
    const grants: Grant[] = [];
    fire(governor, clock, 58, 1, 1, grants);
    fire(governor, clock, 1, 2, 5, grants);
    fire(governor, clock, 1, 1, 1, grants);
    await settle();
    expect(grants).toHaveLength(58);
    await runFor(clock, 2000, 1);
    expect(grants.slice(58)).toEqual([
      { at: T0 + 2000, weight: 2, orders: 5 },
      { at: T0 + 2000, weight: 1, orders: 1 },
    ]);
  });

  it('never lets a server window count more than 60 orders, whatever the arrival delay within the transit time, and sustains ≥ 95% of the budget under a flood', async () => {
    // The server is 1234 ms behind us; the flood starts 100 ms before a server window ends.
    const clock = new VirtualClock(T0 + 1900 + 1234);
    const offset = -1234;
    const governor = new RateGovernor(FULL, clock, clock, (serverMs) => serverMs + 1234);
    const next = random(42);
    const arrivals = new Map<number, number>();
    let granted = 0;
    const deadline = clock.now() + 30_000;
    // 10 callers, each sending one order request at a time (1 to 5 legs), as long as the flood lasts.
    const caller = async (): Promise<void> => {
      while (clock.now() < deadline) {
        const legs = 1 + Math.floor(next() * 5);
        const permit = await governor.acquire({ weight: 1, orders: legs });
        expect(permit.ok).toBe(true);
        const arrival = clock.now() + offset + next() * 250; // server time it is counted at
        const start = Math.floor(arrival / 2000) * 2000;
        arrivals.set(start, (arrivals.get(start) ?? 0) + legs);
        granted += legs;
      }
    };
    const callers = Array.from({ length: 10 }, () => caller());
    await runFor(clock, 32_000, 1);
    await Promise.all(callers);
    expect(Math.max(...arrivals.values())).toBeLessThanOrEqual(60);
    // 30 s is 15 windows: ≥ 95% of 900.
    expect(granted).toBeGreaterThanOrEqual(0.95 * 900);
  });

  it('refuses transit and clock-error guards that fill the whole window', () => {
    const clock = new VirtualClock();
    expect(() => new RateGovernor({ ...FULL, ordersTransitMs: 1500, serverClockErrorMs: 500 }, clock, clock)).toThrow(RangeError);
    expect(() => new RateGovernor({ ...FULL, ordersTransitMs: -1 }, clock, clock)).toThrow(RangeError);
  });
});
