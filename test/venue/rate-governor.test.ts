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

  it('lifts a ban with an end time once that time has passed', async () => {
    const clock = new VirtualClock(0);
    const governor = new RateGovernor(FULL, clock, clock);
    governor.onBanned(120_000);
    expect((await governor.acquire({ weight: 1, orders: 0 })).ok).toBe(false);
    clock.advanceTo(120_000);
    expect((await governor.acquire({ weight: 1, orders: 0 })).ok).toBe(true);
  });
});
