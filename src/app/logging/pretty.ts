import { build } from 'pino-pretty';
import type { PrettyOptions } from 'pino-pretty';
import { prettyMessage } from './pretty-options.js';

export { prettyMessage, prettyOptions } from './pretty-options.js';

/**
 * The terminal's log format: pino-pretty, one line per entry. A trade-log line prints as its compact
 * text (`FILL   quoter BTC-SWAP-USDT BUY 0.010 @ 64,210.5 fee 0.0257 USDT pnl +1.32`, coloured by side
 * and outcome) without its fields; every other line as its message and its fields on the same line.
 * pino runs transports in a worker thread: `stratd` names this module as the transport's target, and
 * its default export builds the pino-pretty stream there.
 */

/** The transport's entry point in pino's worker thread: pino-pretty with stratd's message format. */
export default function prettyTransport(options: PrettyOptions): ReturnType<typeof build> {
  return build({ ...options, messageFormat: prettyMessage });
}
