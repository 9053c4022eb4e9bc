import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import type { TimeSource } from '../../core/clock.js';
import { sleep } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import { systemTime } from '../../core/system-time.js';
import type { BacktestAccount, BacktestResult } from '../../backtest/runner.js';
import { runBacktest } from '../../backtest/runner.js';
import type { ObservedMarketEvent } from '../../backtest/types.js';
import type { PreparedCacheOptions } from '../../recording/prepared/cache.js';
import { EngineCapture } from '../../parity/capture.js';
import type { EngineCaptureResult } from '../../parity/capture.js';
import { compareRuns, formatParityReport } from '../../parity/compare.js';
import { fillsCsv } from '../../report/csv.js';
import { PARITY_FILLS_CSV, parityReportHtml } from '../../parity/report.js';
import { priceSeriesOf } from '../../report/prices.js';
import type { ParityReport } from '../../parity/compare.js';
import { strategyOfClientOrderId } from '../../engine/execution/client-order-ids.js';
import type { StrategyInstance } from '../../engine/strategy/instance.js';
import { ConfigError } from '../../settings/config-error.js';
import type { DaemonConfig } from '../../settings/daemon-config/daemon-config.js';
import { parseDuration } from '../../settings/duration.js';
import type { Environment } from '../../settings/secrets.js';
import type { LatencyModel } from '../../sim/port/port-latency.js';
import { NO_LATENCY } from '../../sim/port/port-latency.js';
import { Daemon } from '../daemon/daemon.js';
import type { DaemonTaps } from '../daemon/daemon.js';
import { resolveStrategies } from '../daemon/strategies.js';
import { createLogger } from '../logging/logger.js';
import { openingAccount, preparedCacheOf } from './backtest-flags.js';
import { DEFAULT_PARITY_TOLERANCE_MS, wholeMs } from './parity-flags.js';
import { prepareRun } from './prepare-run.js';
import type { CommandIo } from './command-io.js';

/** Default time tolerance: a fill of the paper run and one of the backtest agree when at most this far apart. */

export interface ParityOptions {
  /** A paper config (the embedded simulator is the venue both sides share). */
  readonly config: DaemonConfig;
  /** Fresh strategy instances on each call: one set for the paper daemon, one for the backtest. */
  readonly strategies: () => Promise<Result<readonly StrategyInstance[], ConfigError>>;
  readonly time: TimeSource;
  readonly logger: Logger;
  /** Working directory: the recording (market.jsonl) and the paper daemon's state go here. */
  readonly dir: string;
  /** Lets the paper daemon trade (the CLI sleeps --duration; tests step virtual time). */
  readonly wait: (daemon: Daemon) => Promise<void>;
  /**
   * Network latency each way on both sides: the paper simulator's latency fault (round trip 2×) and the
   * backtest's model. Default: the paper config's simulator latency as it is (paperLatency).
   */
  readonly latencyMs?: number;
  readonly toleranceMs?: number;
  readonly env?: Environment;
  /** The backtest replays the recording's prepared form (written beside it); absent: JSONL only. */
  readonly prepared?: PreparedCacheOptions;
}

export interface ParityOutcome {
  readonly report: ParityReport;
  readonly recording: EngineCaptureResult;
  readonly backtest: BacktestResult;
  /** The opening account both sides traded. */
  readonly account: BacktestAccount;
  /** The market as the paper daemon's strategies saw it (the backtest's `marketView`). */
  readonly view: readonly ObservedMarketEvent[];
  /** When the paper daemon's kernel started (the backtest's `from`: its kernel starts then too). */
  readonly from: number;
  /** report.html in `dir`: both runs' fills on the recording's candles; each side's fills CSV beside it. */
  readonly reportFile: string;
}

/**
 * `stratd parity`: the config's strategies trade in paper mode against the embedded simulator over
 * loopback (real HTTP and WebSocket) while the simulator engine's market stream is recorded; the
 * recording is then backtested with the same strategies, latency model and opening account, and the
 * two fill sequences compared. A daemon or backtest that cannot start is an error value.
 */
export async function runParity(options: ParityOptions): Promise<Result<ParityOutcome, ConfigError | Error>> {
  const { time, logger } = options;
  const venue = options.config.venue;
  if (venue.mode !== 'paper') return err(new ConfigError('parity runs a paper config (mode: paper): both sides trade the simulator', { file: options.config.file, path: 'mode' }));
  mkdirSync(options.dir, { recursive: true });
  const account = accountOf(options.config);
  if (!account.ok) return account;
  // A state directory of its own: no orphans from earlier runs, nothing left for the next; health on any free port.
  const config: DaemonConfig = {
    ...options.config,
    venue: options.latencyMs === undefined ? venue : { ...venue, sim: { ...venue.sim, faults: { ...venue.sim.faults, latencyMs: 2 * options.latencyMs } } },
    stateDir: join(options.dir, 'state'),
    health: { ...options.config.health, port: 0 },
  };
  const liveStrategies = await options.strategies();
  if (!liveStrategies.ok) return liveStrategies;
  // The engine is captured from its first event (the simulator's warm-up too), the market as the
  // strategies saw it from the first poll: the backtest's engine and kernel get exactly these.
  let capture: EngineCapture | undefined;
  const view: ObservedMarketEvent[] = [];
  let kernelStartedAt = time.clock.now();
  const taps: DaemonTaps = {
    engine: (engine) => {
      capture = new EngineCapture({ engine, userId: account.value.userId, path: join(options.dir, 'market.jsonl'), clock: time.clock });
    },
    market: (event, at) => view.push({ at, event }),
    kernelStarting: (at) => {
      kernelStartedAt = at;
    },
  };
  const started = await Daemon.start({ config, strategies: liveStrategies.value, time, logger, hangup: null, taps, ...(options.env === undefined ? {} : { env: options.env }) });
  if (!started.ok) {
    await capture?.stop(() => undefined);
    return started;
  }
  const daemon = started.value;
  if (capture === undefined) {
    await daemon.stop();
    return err(new Error('the paper daemon runs no embedded simulator'));
  }
  let recording: EngineCaptureResult;
  try {
    await options.wait(daemon);
  } finally {
    // The strategies' clean-up on stop is part of the run, as at the end of the backtest. The journal
    // is closed by then: owners come from the ids (deterministic, tagged by strategy).
    await daemon.stop();
    const strategyIds = liveStrategies.value.map((s) => s.id);
    recording = await capture.stop((id) => strategyOfClientOrderId(id, strategyIds));
  }
  const backtestStrategies = await options.strategies();
  if (!backtestStrategies.ok) return backtestStrategies;
  const backtest = await runBacktest({
    strategies: backtestStrategies.value,
    risk: config.risk,
    recordings: [recording.path],
    account: account.value,
    orphans: config.orphans,
    latency: paperLatency(config),
    from: kernelStartedAt,
    to: recording.endTime,
    marketView: view,
    logger: logger.child({ component: 'parity-backtest' }),
    ...(options.prepared === undefined ? {} : { prepared: options.prepared }),
  });
  if (!backtest.ok) return err(new Error(`the backtest of the recording failed: ${backtest.error.message}`));
  const report = compareRuns(recording, backtest.value, { toleranceMs: options.toleranceMs ?? DEFAULT_PARITY_TOLERANCE_MS });
  const prices = await priceSeriesOf([recording.path], { from: kernelStartedAt, to: recording.endTime });
  writeFileSync(join(options.dir, PARITY_FILLS_CSV.paper), fillsCsv(recording.fills));
  writeFileSync(join(options.dir, PARITY_FILLS_CSV.backtest), fillsCsv(backtest.value.fills));
  const reportFile = join(options.dir, 'report.html');
  writeFileSync(reportFile, parityReportHtml({ report, paper: recording, backtest: backtest.value, prices }));
  return ok({ report, recording, backtest: backtest.value, account: account.value, view, from: kernelStartedAt, reportFile });
}

/**
 * The latency the paper side sees from the embedded simulator: its `latencyMs` fault, half on the way
 * in and half on the way out (as the simulator splits it), as the backtest's model.
 */
export function paperLatency(config: DaemonConfig): LatencyModel {
  if (config.venue.mode !== 'paper') return NO_LATENCY;
  const total = config.venue.sim.faults.latencyMs ?? 0;
  const inbound = Math.floor(total / 2);
  return { orderLatencyMs: inbound, ackLatencyMs: total - inbound };
}

/** The simulator account the paper daemon trades with, and its opening futures balances (the backtest's account). */
function accountOf(config: DaemonConfig): Result<BacktestAccount, ConfigError> {
  if (config.venue.mode !== 'paper') return err(new ConfigError('not a paper config', { path: 'mode' }));
  return openingAccount(config, undefined);
}

export interface ParityCommandDeps extends CommandIo {
  /** Default: the wall clock (the paper side runs --duration of real time). */
  readonly time?: TimeSource;
  readonly logger?: Logger;
}

export interface ParityFlags {
  readonly config?: string;
  readonly duration: string;
  readonly out: string;
  readonly latencyMs?: string;
  readonly toleranceMs?: string;
  readonly logLevel: string;
  readonly cache: boolean;
}

/** `stratd parity`'s work, loaded only when the command runs (parity-command.ts registers it). */
export async function parityAction(flags: ParityFlags, deps: ParityCommandDeps): Promise<void> {
  const durationMs = parseDuration(flags.duration);
  if (durationMs === undefined || durationMs <= 0) throw new ConfigError(`--duration ${flags.duration}: a duration such as 30s, 5m or 1h`, { path: '--duration' });
  const latency = flags.latencyMs === undefined ? undefined : wholeMs('--latency-ms', flags.latencyMs, 30_000);
  const toleranceMs = flags.toleranceMs === undefined ? undefined : wholeMs('--tolerance-ms', flags.toleranceMs, 60_000);
  const prepared = await prepareRun(flags.config === undefined ? {} : { config: flags.config }, deps.env);
  if (!prepared.ok) throw prepared.error;
  const { config } = prepared.value;
  let first: readonly StrategyInstance[] | undefined = prepared.value.strategies;
  const time = deps.time ?? systemTime;
  const cache = preparedCacheOf(flags.cache, deps.env, 'parity', deps.err);
  const outcome = await runParity({
    config,
    // The prepared instances serve the paper side; the backtest gets fresh ones.
    strategies: async () => {
      if (first !== undefined) {
        const instances = first;
        first = undefined;
        return ok(instances);
      }
      return resolveStrategies(config);
    },
    time,
    logger: deps.logger ?? createLogger({ level: flags.logLevel, pretty: false, destination: pino.destination(2) }),
    dir: flags.out,
    wait: () => sleep(time.scheduler, durationMs),
    env: deps.env,
    ...(cache === undefined ? {} : { prepared: cache }),
    ...(latency === undefined ? {} : { latencyMs: latency }),
    ...(toleranceMs === undefined ? {} : { toleranceMs }),
  });
  if (!outcome.ok) {
    if (outcome.error instanceof ConfigError) throw outcome.error;
    deps.err(`stratd parity: ${outcome.error.message}\n`);
    deps.setExitCode(1);
    return;
  }
  const { report, recording } = outcome.value;
  deps.out(`recorded the simulator's ${recording.events} market events (its warm-up included) → ${recording.path}; the strategies saw ${outcome.value.view.length}\n`);
  deps.out(formatParityReport(report));
  deps.out(`wrote ${outcome.value.reportFile}\n`);
  if (!report.identical) deps.setExitCode(1);
}
