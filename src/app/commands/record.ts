import { join, resolve } from 'node:path';
import type { Subscription } from 'rxjs';
import type { TimeSource } from '../../core/clock.js';
import { InvariantError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { systemTime } from '../../core/system-time.js';
import { firstPart } from '../../recording/recorder/recorder.js';
import type { RecordingSummary } from '../../recording/recorder/recorder.js';
import { recordingPlan } from '../../recording/recorder/daemon.js';
import type { RecordSettings } from '../../recording/recorder/daemon.js';
import type { ExistingFiles, RotateSettings } from '../../recording/recorder/options.js';
import { parseByteSize } from '../../settings/byte-size.js';
import { ConfigError } from '../../settings/config-error.js';
import type { DaemonConfig } from '../../settings/daemon-config/daemon-config.js';
import { parseDuration } from '../../settings/duration.js';
import { Daemon } from '../daemon/daemon.js';
import { createLogger } from '../logging/logger.js';
import { prepareRun } from './prepare-run.js';
import { installSignalHandlers } from '../daemon/shutdown.js';
import type { SignalSource } from '../daemon/shutdown.js';
import type { CommandIo } from './command-io.js';

/** Standard output: where the recording went. Standard error: failures and notes. */
export interface RecordCommandDeps extends CommandIo {
  /** Default: the wall clock. */
  readonly time?: TimeSource;
  /** Default: a logger at the config's level on stderr. */
  readonly logger?: Logger;
  /** Default: process. */
  readonly signals?: SignalSource;
  /** After a signal's clean stop, or at once on a second signal. Default: process.exit. */
  readonly exit?: (code: number) => void;
}

export interface RecordFlags {
  readonly config?: string;
  readonly stateDir?: string;
  readonly out: string;
  readonly duration?: string;
  readonly gzip?: boolean;
  readonly force?: boolean;
  readonly next?: boolean;
  readonly rotateSize?: string;
  readonly rotateEvery?: string;
  /** commander's --no-account. */
  readonly account?: boolean;
}

/**
 * Runs the recording: loads the config as `run` does, starts the daemon without strategies (a passive
 * one: orphan orders adopted, nothing cancelled at stop, no kill switch: recording never touches the
 * account's orders), records the kernel's bus until the duration elapses or a signal arrives, then
 * stops both and prints the files. Mistakes in flags or config throw ConfigError (exit 2); a start-up
 * or write failure is reported with exit code 1. Returns the summary (undefined when nothing ran).
 */
export async function runRecord(flags: RecordFlags, deps: RecordCommandDeps): Promise<RecordingSummary | undefined> {
  const durationMs = flags.duration === undefined ? undefined : parseDuration(flags.duration);
  if (flags.duration !== undefined && (durationMs === undefined || durationMs <= 0)) throw new ConfigError(`--duration ${flags.duration}: a duration such as 30s, 15m or 2h`);
  if (flags.force === true && flags.next === true) throw new ConfigError('--force and --next exclude each other');
  const existing: ExistingFiles = flags.force === true ? 'overwrite' : flags.next === true ? 'next' : 'refuse';
  const rotate = rotateOf(flags);

  const prepared = await prepareRun({ ...(flags.config === undefined ? {} : { config: flags.config }), ...(flags.stateDir === undefined ? {} : { stateDir: flags.stateDir }) }, deps.env);
  if (!prepared.ok) throw prepared.error;
  const config = passive(prepared.value.config, flags.stateDir === undefined);
  const plan = recordingPlan(config.market);
  if (plan.symbols.length === 0 || plan.channels.length === 0) {
    throw new ConfigError('polls nothing a recording holds: list symbols with depth or bookTicker, trades, markPrice, index or fundingRate', { file: config.file, path: 'market' });
  }
  const settings: RecordSettings = { out: flags.out, gzip: flags.gzip === true, existing, ...(rotate === undefined ? {} : { rotate }), account: flags.account !== false };
  const clash = firstPart({ ...settings, symbols: plan.symbols, channels: plan.channels });
  if (!clash.ok) throw new ConfigError(`--out ${flags.out}: ${clash.error.message}`);

  const time = deps.time ?? systemTime;
  const logger = deps.logger ?? createLogger({ level: config.log.level, pretty: process.stderr.isTTY === true });
  // The daemon attaches the recorder itself, after start-up and before the first poll.
  const record = { gzip: false, account: true, flushEveryMs: 1000, reorderMs: 3000, ...settings, out: resolve(settings.out), existing };
  const started = await Daemon.start({ config: { ...config, record }, strategies: [], time, logger });
  if (!started.ok) {
    deps.err(`stratd record: could not start: ${started.error.message}\n`);
    deps.setExitCode(1);
    return undefined;
  }
  const daemon = started.value;
  const recorder = daemon.recorder;
  if (recorder === undefined) throw new InvariantError('RECORDER_MISSING', 'the daemon started without the recorder it was configured with');
  deps.err(`stratd record: recording ${plan.symbols.join(', ')} (${plan.channels.join(', ')})${durationMs === undefined ? ' until SIGINT/SIGTERM' : ` for ${flags.duration ?? ''}`}\n`);

  // A signal resolves `stopRequested`; its handler then waits for `done` before exiting (a second signal exits at once).
  let finished: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (finished = resolve));
  let failed = false;
  const exit = deps.exit ?? ((code: number) => process.exit(code));
  const stopRequested = new Promise<void>((resolve) => {
    const dispose = installSignalHandlers({
      onStop: () => {
        resolve();
        return done;
      },
      timeoutMs: config.shutdown.timeoutMs,
      exit: (code) => exit(code === 0 && failed ? 1 : code),
      logger,
      ...(deps.signals === undefined ? {} : { signals: deps.signals }),
    });
    void done.then(dispose);
  });
  let timer: Subscription | undefined;
  const elapsed = new Promise<void>((resolve) => {
    if (durationMs !== undefined) timer = time.scheduler.schedule(() => resolve(), durationMs);
  });
  await Promise.race([stopRequested, elapsed]);
  timer?.unsubscribe();

  try {
    const summary = await recorder.stop();
    await daemon.stop();
    failed = summary.failure !== undefined;
    report(summary, deps);
    return summary;
  } finally {
    finished();
  }
}

function rotateOf(flags: RecordFlags): RotateSettings | undefined {
  const sizeBytes = flags.rotateSize === undefined ? undefined : parseByteSize(flags.rotateSize);
  if (flags.rotateSize !== undefined && sizeBytes === undefined) throw new ConfigError(`--rotate-size ${flags.rotateSize}: a size such as 512KB, 100MB or 1GB`);
  const everyMs = flags.rotateEvery === undefined ? undefined : parseDuration(flags.rotateEvery);
  if (flags.rotateEvery !== undefined && (everyMs === undefined || everyMs <= 0)) throw new ConfigError(`--rotate-every ${flags.rotateEvery}: a duration such as 15m or 1h`);
  if (sizeBytes === undefined && everyMs === undefined) return undefined;
  return { ...(sizeBytes === undefined ? {} : { sizeBytes }), ...(everyMs === undefined ? {} : { everyMs }) };
}

/**
 * Recording only watches: adopt unknown orders, cancel nothing at stop, no daily-loss kill switch (it
 * cancels orders); its health server takes any free loopback port and its state a subdirectory, so it
 * runs beside `stratd run` of the same config.
 */
function passive(config: DaemonConfig, ownStateDir: boolean): DaemonConfig {
  return {
    ...config,
    // The daemon holds its state directory exclusively: a recorder beside it keeps its own (unless --state-dir).
    stateDir: ownStateDir ? join(config.stateDir, 'record') : config.stateDir,
    orphans: 'adopt',
    risk: {},
    shutdown: { ...config.shutdown, cancelOpenOrders: false },
    health: { host: '127.0.0.1', port: 0, allowedHosts: [], maxConnections: config.health.maxConnections, maxConnectionsPerAddress: config.health.maxConnectionsPerAddress },
  };
}

function report(summary: RecordingSummary, deps: RecordCommandDeps): void {
  for (const part of summary.parts) {
    const account = part.account === undefined ? '' : `; ${part.accountEvents} account events → ${part.account}`;
    deps.out(`${part.market}: ${part.events} market events${account}\n`);
  }
  const skipped = Object.entries(summary.skipped).map(([type, n]) => `${n} ${type}`);
  if (skipped.length > 0) deps.err(`stratd record: not in the stream format, skipped: ${skipped.join(', ')}\n`);
  if (summary.late > 0) deps.err(`stratd record: ${summary.late} events arrived after newer ones and were written at the newest time\n`);
  const estimated = Object.entries(summary.estimated).map(([symbol, fields]) => `${symbol} (${fields.join(', ')})`);
  if (estimated.length > 0) deps.err(`stratd record: header fields estimated, not known: ${estimated.join('; ')}\n`);
  if (summary.failure !== undefined) {
    deps.err(`stratd record: writing failed: ${summary.failure}\n`);
    deps.setExitCode(1);
  }
}
