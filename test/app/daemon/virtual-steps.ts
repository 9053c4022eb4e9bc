import type { VirtualClock } from '../../../src/core/virtual-time.js';

/** Stepping virtual time while the daemon's sockets do real loopback I/O. */

const DEFAULT_MAX_MS = 120_000;

/** Lets loopback I/O happen (virtual time stands still meanwhile). */
export function ioPause(ms = 2): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Advances virtual time in small steps, letting loopback I/O happen between them, until `done` holds;
 * fails after `maxMs` of virtual time.
 */
export async function runUntil(clock: VirtualClock, done: () => boolean, what: string, options: { readonly stepMs?: number; readonly maxMs?: number } = {}): Promise<void> {
  const stepMs = options.stepMs ?? 250;
  const maxMs = options.maxMs ?? DEFAULT_MAX_MS;
  const giveUpAt = clock.now() + maxMs;
  while (!done()) {
    if (clock.now() >= giveUpAt) throw new Error(`no ${what} after ${maxMs} ms of virtual time`);
    clock.advanceBy(stepMs);
    await ioPause();
  }
}

/** Lets `ms` of virtual time pass in small steps with I/O between them. */
export async function runFor(clock: VirtualClock, ms: number, stepMs = 250): Promise<void> {
  const end = clock.now() + ms;
  while (clock.now() < end) {
    clock.advanceTo(Math.min(end, clock.now() + stepMs));
    await ioPause();
  }
}
