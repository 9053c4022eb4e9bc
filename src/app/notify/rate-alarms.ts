import { Counter } from 'prom-client';
import type { Registry } from 'prom-client';
import type { Observable, Subscription } from 'rxjs';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { GovernorAlarm } from '../../venue/rate-governor.js';
import { WarningThrottle } from '../daemon/warning-throttle.js';
import type { Notification } from './notification.js';

/** A 429 pause is told at most this often (a ban always). */
const RATE_LIMITED_EVERY_MS = 10 * 60_000;

/** The message of a rate governor alarm: a 418 ban halts every request until its end; a 429 pauses them. */
export function rateAlarmMessage(alarm: GovernorAlarm): Notification {
  const until = alarm.until === undefined ? 'until resumed by the operator' : `until ${new Date(alarm.until).toISOString()}`;
  if (alarm.type === 'Banned') {
    const title = 'Exchange BANNED this IP (HTTP 418): every request is halted';
    return { event: 'rateLimit', time: alarm.at, title, text: [title, `halted ${until}; cancels and queries wait too`].join('\n'), data: { type: alarm.type, until: alarm.until ?? 0 } };
  }
  const title = `Exchange rate limit hit (HTTP 429, ${alarm.budget} budget): requests paused`;
  return { event: 'rateLimit', time: alarm.at, title, text: [title, `paused ${until}`].join('\n'), data: { type: alarm.type, budget: alarm.budget, until: alarm.until } };
}

/**
 * Follows the rate governor's alarms: a log line and `stratd_rate_alarms_total{type}` for each, and a
 * notification (a ban always; a 429 pause at most every ten minutes). /status shows the governor's
 * state (rateBudget: paused, banned, queued per lane).
 */
export function watchRateAlarms(alarms$: Observable<GovernorAlarm>, options: { readonly clock: Clock; readonly registry: Registry; readonly logger: Logger; readonly notify?: (n: Notification) => void }): Subscription {
  const counter = new Counter({ name: 'stratd_rate_alarms_total', help: 'Rate governor alarms: RateLimited (HTTP 429 pause) and Banned (HTTP 418, every request halted)', labelNames: ['type'], registers: [options.registry] });
  const throttle = new WarningThrottle(options.clock, RATE_LIMITED_EVERY_MS);
  return alarms$.subscribe((alarm) => {
    counter.inc({ type: alarm.type });
    options.logger.warn({ alarm }, alarm.type === 'Banned' ? 'exchange ban (418): every request halted until it ends' : 'exchange rate limit (429): requests paused');
    if (alarm.type === 'Banned' || throttle.admit('rate-limited') !== undefined) options.notify?.(rateAlarmMessage(alarm));
  });
}
