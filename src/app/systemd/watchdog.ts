import type { SchedulerLike, Subscription } from 'rxjs';
import type { SdNotifier } from './sd-notify.js';

export interface WatchdogPings {
  stop(): void;
}

/**
 * Sends WATCHDOG=1 every `notifier.watchdogIntervalMs()` from the event loop (the scheduler's timers),
 * skipping a ping while `alive()` is false so that systemd restarts a daemon that is stuck rather than
 * merely slow. Does nothing when systemd asked for no watchdog.
 */
export function startWatchdogPings(notifier: Pick<SdNotifier, 'watchdog' | 'watchdogIntervalMs'>, scheduler: SchedulerLike, alive: () => boolean = () => true): WatchdogPings {
  const interval = notifier.watchdogIntervalMs();
  if (interval === undefined) return { stop: () => undefined };
  let stopped = false;
  let next: Subscription | undefined;
  const tick = (): void => {
    if (stopped) return;
    if (alive()) void notifier.watchdog();
    // A new top-level schedule each time (a nested one would grow the stack under a virtual clock).
    next = scheduler.schedule(tick, interval);
  };
  next = scheduler.schedule(tick, interval);
  return {
    stop: () => {
      stopped = true;
      next?.unsubscribe();
    },
  };
}
