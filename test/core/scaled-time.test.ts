import { performance } from 'node:perf_hooks';
import type { SchedulerAction } from 'rxjs';
import { interval, take, toArray, firstValueFrom } from 'rxjs';
import { sleep } from '../../src/core/clock.js';
import { ScaledTime } from '../../src/core/scaled-time.js';
import { waitFor } from '../support/wait-for.js';

describe('ScaledTime: the wall clock, accelerated', () => {
  test('epoch ms start at the wall clock and run `factor` times faster, in whole, never decreasing milliseconds', async () => {
    const before = Date.now();
    const time = new ScaledTime(100);
    expect(time.startMs).toBeGreaterThanOrEqual(before);
    expect(time.startMs).toBeLessThanOrEqual(Date.now());
    const realStart = performance.now();
    const first = time.clock.now();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = time.clock.now();
    const elapsedReal = performance.now() - realStart;
    expect(Number.isInteger(second)).toBe(true);
    expect(second - first).toBeGreaterThanOrEqual(Math.floor(50 * 100) - 100);
    expect(second - first).toBeLessThanOrEqual(Math.ceil(elapsedReal * 100) + 100);
    expect(time.scheduler.now()).toBeGreaterThanOrEqual(second);
  });

  test('a delay on its scheduler lasts delay ÷ factor of real time', async () => {
    const time = new ScaledTime(200);
    const realStart = performance.now();
    const scaledStart = time.clock.now();
    await sleep(time.scheduler, 10_000);
    const real = performance.now() - realStart;
    expect(real).toBeGreaterThanOrEqual(45);
    // Accelerated at all: well under the 10 s it says (a starved machine may stall a second or two).
    expect(real).toBeLessThan(5000);
    expect(time.clock.now() - scaledStart).toBeGreaterThanOrEqual(10_000 - 200);
  });

  test('works under RxJS operators that reschedule their own action (interval)', async () => {
    const time = new ScaledTime(1000);
    const realStart = performance.now();
    const ticks = await firstValueFrom(interval(5000, time.scheduler).pipe(take(4), toArray()));
    expect(ticks).toEqual([0, 1, 2, 3]);
    // 4 × 5 s of accelerated time: 20 ms of real time; far less than the 20 s it says, even on a starved machine.
    expect(performance.now() - realStart).toBeLessThan(10_000);
  });

  test('an action rescheduling itself through `this.schedule` runs again; unsubscribing cancels it', async () => {
    const time = new ScaledTime(100);
    const states: number[] = [];
    const sub = time.scheduler.schedule(
      function (this: SchedulerAction<number>, state?: number) {
        const n = state ?? 0;
        states.push(n);
        if (n < 2) this.schedule(n + 1, 100);
      },
      100,
      0,
    );
    // Waits for the condition, not a fixed time: on a starved machine a fixed 100 ms timer can fire
    // between the first run and its reschedule.
    await waitFor(() => states.length >= 3, 'three runs of the rescheduling action');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(states).toEqual([0, 1, 2]);
    let ran = false;
    const cancelled = time.scheduler.schedule(() => {
      ran = true;
    }, 1000);
    cancelled.unsubscribe();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ran).toBe(false);
    sub.unsubscribe();
  });

  test('its stopwatch measures real milliseconds', async () => {
    const time = new ScaledTime(1000);
    const start = time.stopwatch.now();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const elapsed = time.stopwatch.now() - start;
    expect(elapsed).toBeGreaterThanOrEqual(15);
    // Real, not scaled: 20 ms, never the 20 s that ×1000 would say.
    expect(elapsed).toBeLessThan(10_000);
  });

  test.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY, 1001])('refuses the factor %p', (factor) => {
    expect(() => new ScaledTime(factor)).toThrow(RangeError);
  });
});
