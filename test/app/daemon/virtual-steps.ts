import type { VirtualClock } from '../../../src/core/virtual-time.js';

/** Stepping virtual time while the daemon's sockets do real loopback I/O. */

const DEFAULT_MAX_MS = 120_000;

/** Lets loopback I/O happen (virtual time stands still meanwhile). */
export function ioPause(ms = 2): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** One turn of the event loop: its I/O phase included, no timer wait. */
function loopTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
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

/** What `runSettled` watches: requests still unanswered, and a count that moves whenever anything happens. */
export interface ActivityProbe {
  inFlight(): number;
  activity(): number;
  /**
   * Every peer runs in this process (simulator and daemon on one event loop): a turn of the loop
   * (setImmediate) lets loopback I/O through, no timer pause needed. Default false: a peer in another
   * process needs real time to answer.
   */
  readonly inProcess?: boolean;
}

/** Turns the event loop until no request is unanswered and nothing happened for a few turns, running work due now meanwhile. */
async function settle(clock: VirtualClock, probe: ActivityProbe): Promise<void> {
  let quietTurns = 0;
  let last = probe.activity();
  const maxTurns = probe.inProcess === true ? 500_000 : 5000;
  for (let turns = 0; quietTurns < 3; turns++) {
    if (turns > maxTurns) throw new Error(`loopback I/O did not settle at ${clock.now()} (${probe.inFlight()} requests unanswered)`);
    await (probe.inProcess === true ? loopTurn() : ioPause(1));
    clock.advanceTo(clock.now());
    const now = probe.activity();
    quietTurns = probe.inFlight() === 0 && now === last ? quietTurns + 1 : 0;
    last = now;
  }
}

/**
 * Lets `ms` of virtual time pass instant by instant: time moves to the next scheduled action (at most
 * `stepMs` on) only once the loopback I/O of the current instant has settled, so a reply or stream
 * event always arrives at the virtual instant its request or cause happened (zero network latency).
 * An instant that sent nothing and changed nothing costs one turn of the event loop.
 */
export async function runSettled(clock: VirtualClock, ms: number, probe: ActivityProbe, stepMs = 250): Promise<void> {
  const end = clock.now() + ms;
  await settle(clock, probe);
  while (clock.now() < end) {
    const before = probe.activity();
    const next = clock.actions[0]?.delay ?? Number.POSITIVE_INFINITY;
    clock.advanceTo(Math.min(end, clock.now() + stepMs, Math.max(next, clock.now() + 1)));
    await loopTurn();
    if (probe.inFlight() === 0 && probe.activity() === before) continue;
    await settle(clock, probe);
  }
}
