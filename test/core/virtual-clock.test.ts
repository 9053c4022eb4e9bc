import { VirtualTimeScheduler } from 'rxjs';
import type { SchedulerLike, Subscription } from 'rxjs';
import { VirtualClock } from '../../src/core/virtual-time.js';

/** A small deterministic generator (mulberry32): the same script for both schedulers. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * Schedules `count` actions (delays on a coarse grid, so many share an instant), some of which schedule
 * more from inside their work (fresh actions and self-rescheduling ones), and cancels some before they
 * run; returns the order in which actions ran, with the time each saw.
 */
function script(scheduler: SchedulerLike, advance: (to: number) => void, seed: number, count: number): string[] {
  const next = random(seed);
  const ran: string[] = [];
  const held: Subscription[] = [];
  const delay = (): number => Math.floor(next() * 8) * 5;
  for (let i = 0; i < count; i++) {
    const name = `a${i}`;
    const kind = next();
    if (kind < 0.2) {
      let left = 1 + Math.floor(next() * 3);
      const step = delay();
      held.push(
        scheduler.schedule(function (this: { schedule(state?: undefined, delay?: number): unknown }) {
          ran.push(`${name}@${scheduler.now()}`);
          if (--left > 0) this.schedule(undefined, step);
        }, delay()),
      );
    } else if (kind < 0.35) {
      const inner = delay();
      held.push(
        scheduler.schedule(() => {
          ran.push(`${name}@${scheduler.now()}`);
          scheduler.schedule(() => ran.push(`${name}.inner@${scheduler.now()}`), inner);
        }, delay()),
      );
    } else {
      held.push(scheduler.schedule(() => ran.push(`${name}@${scheduler.now()}`), delay()));
    }
    if (next() < 0.1) held[Math.floor(next() * held.length)]!.unsubscribe();
    if (next() < 0.05) advance(scheduler.now() + delay());
  }
  advance(scheduler.now() + 1000);
  return ran;
}

describe('VirtualClock', () => {
  it('runs scheduled actions in the order rxjs VirtualTimeScheduler runs them (due time, then creation), with cancels and nested schedules', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const clock = new VirtualClock(0);
      const ours = script(clock, (to) => clock.advanceTo(to), seed, 400);
      const reference = new VirtualTimeScheduler();
      const theirs = script(
        reference,
        (to) => {
          reference.maxFrames = to;
          reference.flush();
          reference.maxFrames = Infinity;
          reference.frame = Math.max(reference.frame, to);
        },
        seed,
        400,
      );
      expect(ours.length).toBeGreaterThan(300);
      expect(ours).toEqual(theirs);
      expect(clock.pending()).toBe(0);
    }
  });

  it('keeps equal due times in scheduling order and counts each run', () => {
    const clock = new VirtualClock(1_000);
    const ran: number[] = [];
    for (let i = 0; i < 20; i++) clock.schedule(() => ran.push(i), (i * 7) % 3);
    clock.advanceTo(1_002);
    expect(ran).toEqual([0, 3, 6, 9, 12, 15, 18, 1, 4, 7, 10, 13, 16, 19, 2, 5, 8, 11, 14, 17]);
    expect(clock.executed).toBe(20);
    expect(clock.now()).toBe(1_002);
  });
});
