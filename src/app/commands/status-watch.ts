import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import { ConfigError } from '../../settings/config-error.js';
import { formatDuration, parseDuration } from '../../settings/duration.js';
import { formatStatus } from './status.js';

/** `stratd status --watch`: the status screen again every `--interval`, in place on a terminal. */

export const DEFAULT_WATCH_INTERVAL_MS = 2000;
const MIN_INTERVAL_MS = 200;
const MAX_INTERVAL_MS = 3_600_000;

/** Cursor home and clear screen: the next frame replaces the last. */
const CLEAR = '\u001b[H\u001b[2J';

export interface WatchScreen {
  readonly write: (text: string) => void;
  /** A terminal: frames replace each other in place. Otherwise each snapshot follows the last after a blank line. */
  readonly isTTY: boolean;
  /** The terminal's height: a frame longer than it is cut, saying how many lines were left out. */
  readonly rows?: () => number | undefined;
}

export interface WatchOptions {
  /** One GET /status: the reply's body, or why there was none (the daemon restarting, a refused token). */
  readonly fetch: () => Promise<Result<unknown, string>>;
  readonly screen: WatchScreen;
  readonly intervalMs: number;
  /** Resolves after `ms`, or early when `signal` aborts. */
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Ctrl-C: the watch ends after the frame it is drawing. */
  readonly signal: AbortSignal;
  /** Stop after this many frames (`--count`); default: until interrupted. */
  readonly count?: number;
  /** Local time of a frame, for its header (the CLI passes the wall clock). */
  readonly now: () => number;
}

/** `--interval`: a duration such as 2s or 500ms (200 ms to 1 h); a mistake names the flag (exit 2). */
export function watchInterval(text: string | undefined): Result<number, ConfigError> {
  if (text === undefined) return ok(DEFAULT_WATCH_INTERVAL_MS);
  const ms = parseDuration(text);
  if (ms === undefined) return err(new ConfigError(`--interval ${text}: not a duration: write a number and a unit, such as 2s or 500ms`, { path: '--interval' }));
  if (ms < MIN_INTERVAL_MS || ms > MAX_INTERVAL_MS) {
    return err(new ConfigError(`--interval ${text}: from ${formatDuration(MIN_INTERVAL_MS)} to ${formatDuration(MAX_INTERVAL_MS)}`, { path: '--interval' }));
  }
  return ok(ms);
}

/** `--count`: a whole number of frames, at least 1. */
export function watchCount(text: string | undefined): Result<number | undefined, ConfigError> {
  if (text === undefined) return ok(undefined);
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n) || n < 1) return err(new ConfigError(`--count ${text}: a whole number of refreshes, at least 1`, { path: '--count' }));
  return ok(n);
}

/**
 * Draws the status every interval until interrupted (or `count` frames). A daemon that does not answer
 * is shown as such and watched on: it may be restarting. Answers the exit code: 0 when interrupted or
 * done, 1 when the last frame could not be read.
 */
export async function watchStatus(o: WatchOptions): Promise<number> {
  let frames = 0;
  let lastOk = true;
  while (!o.signal.aborted) {
    const reply = await o.fetch();
    if (o.signal.aborted) break;
    lastOk = reply.ok;
    const body = reply.ok ? (formatStatus(reply.value) ?? `${JSON.stringify(reply.value)}\n`) : `cannot read the status: ${reply.error}\n`;
    const header = `stratd status · every ${formatDuration(o.intervalMs)} · ${new Date(o.now()).toISOString().slice(11, 19)} UTC${o.screen.isTTY ? ' · Ctrl-C quits' : ''}\n`;
    o.screen.write(o.screen.isTTY ? `${CLEAR}${fit(header + body, o.screen.rows?.())}` : `${frames === 0 ? '' : '\n'}${header}${body}`);
    frames += 1;
    if (o.count !== undefined && frames >= o.count) break;
    await o.sleep(o.intervalMs, o.signal);
  }
  return lastOk ? 0 : 1;
}

/** A frame within the terminal's height: the lines that fit, then how many were left out. */
function fit(frame: string, rows: number | undefined): string {
  if (rows === undefined || rows < 3) return frame;
  const lines = frame.replace(/\n$/, '').split('\n');
  if (lines.length <= rows - 1) return frame;
  const kept = lines.slice(0, rows - 2);
  return `${[...kept, `… ${lines.length - kept.length} more lines (a taller terminal shows them)`].join('\n')}\n`;
}
