import type { PrettyOptions } from 'pino-pretty';
import type { Paint } from '../trade-log/line.js';
import { isTradeEvent, TRADE_COMPONENT, tradeLineText } from '../trade-log/line.js';

/**
 * The terminal line's format (logging/pretty.ts), without pino-pretty itself: the logger reads these
 * options in every process, pino-pretty loads only in the transport's worker thread.
 */

/** Keys the terminal line keeps of a trade-log entry (the rest is in its text). */
const KEPT = new Set(['level', 'time']);

/** pino-pretty's messageFormat: the trade line's text, or the message as pino-pretty would print it. */
export function prettyMessage(log: Record<string, unknown>, messageKey: string, _levelLabel: string, extras: { readonly colors: Paint }): string {
  if (log['component'] !== TRADE_COMPONENT || !isTradeEvent(log['event'])) {
    const message = log[messageKey];
    return typeof message === 'string' || typeof message === 'number' || typeof message === 'boolean' ? String(message) : '';
  }
  const text = tradeLineText(log, { paint: extras.colors, group: true });
  // This object is this line's own parse: its fields are in the text, so pino-pretty prints none after it.
  for (const key of Object.keys(log)) if (!KEPT.has(key)) Reflect.deleteProperty(log, key);
  return text;
}

/** The options stratd gives pino-pretty (`colorize`: whether to colour; false under NO_COLOR). */
export function prettyOptions(colorize: boolean): PrettyOptions {
  return { colorize, singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', messageFormat: prettyMessage };
}
