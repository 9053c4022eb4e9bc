import { build } from 'pino-pretty';
import type { PrettyOptions } from 'pino-pretty';
import type { Paint } from '../trade-log/line.js';
import { isTradeEvent, TRADE_COMPONENT, tradeLineText } from '../trade-log/line.js';

/**
 * The terminal's log format: pino-pretty, one line per entry. A trade-log line prints as its compact
 * text (`FILL   quoter BTC-SWAP-USDT BUY 0.010 @ 64,210.5 fee 0.0257 USDT pnl +1.32`, coloured by side
 * and outcome) without its fields; every other line as its message and its fields on the same line.
 * pino runs transports in a worker thread: `stratd` names this module as the transport's target, and
 * its default export builds the pino-pretty stream there.
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

/** The transport's entry point in pino's worker thread: pino-pretty with stratd's message format. */
export default function prettyTransport(options: PrettyOptions): ReturnType<typeof build> {
  return build({ ...options, messageFormat: prettyMessage });
}
