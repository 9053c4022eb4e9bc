import type { VirtualClock } from '../../../src/core/virtual-time.js';

/** Lets loopback I/O in flight (requests, replies) run; virtual time stands still meanwhile. */
export async function settle(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 3));
}

/** Moves virtual time forward in steps, letting I/O run between steps. */
export async function drive(clock: VirtualClock, ms: number, stepMs = 100): Promise<void> {
  const end = clock.now() + ms;
  while (clock.now() < end) {
    clock.advanceBy(Math.min(stepMs, end - clock.now()));
    await settle();
  }
}

/** Drives virtual time until the condition holds; fails after `maxMs` of virtual time. */
export async function driveUntil(clock: VirtualClock, condition: () => boolean, what: string, stepMs = 100, maxMs = 30 * 60_000): Promise<void> {
  const end = clock.now() + maxMs;
  await settle();
  while (!condition()) {
    if (clock.now() >= end) throw new Error(`virtual time ran out waiting for ${what}`);
    clock.advanceBy(stepMs);
    await settle();
  }
}
