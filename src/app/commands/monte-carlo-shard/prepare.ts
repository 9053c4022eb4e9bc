import { resolve } from 'node:path';
import pino from 'pino';
import { z } from 'zod';
import type { Logger } from '../../../core/logger.js';
import { levelGated } from '../../../core/level-gated-logger.js';
import type { Result } from '../../../core/result.js';
import { err, ok } from '../../../core/result.js';
import { parseJsonlRecordings, runBacktest } from '../../../backtest/runner.js';
import type { BacktestResult } from '../../../backtest/types.js';
import type { MonteCarloShardSettings } from '../../../analysis/monte-carlo/shard.js';
import type { ParsedRecording } from '../../../recording/parsed-recording.js';
import type { SweepJob } from '../../../sweep/types.js';
import { limitsToWire } from '../../../sweep/types.js';
import { ConfigError } from '../../../settings/config-error.js';
import type { Environment } from '../../../settings/secrets.js';
import { timeFlag } from '../backtest-flags.js';
import { klineSeriesOf, latencyFlag, openingAccount } from '../backtest-flags.js';
import { createLogger } from '../../logging/logger.js';
import { prepareRun } from '../prepare-run.js';
import { moduleFileOf, paramsOf } from '../sweep-flags.js';
import { blockDurationFlag, methodsFlag, ruinFlag, samplingFlag, scenariosFlag, seedFlag } from '../monte-carlo/flags.js';

/**
 * Everything a Monte Carlo run's results depend on, as given on the command line (files by absolute
 * path): a shard's manifest carries it, so `stratd montecarlo merge` prepares the same run again.
 */
export const monteCarloSettingsSchema = z
  .object({
    /** The recordings as named on the command line. */
    data: z.array(z.string()),
    /** The same, absolute: what is read. */
    recordings: z.array(z.string()),
    config: z.string().nullable(),
    from: z.string().nullable(),
    to: z.string().nullable(),
    scenarios: z.string(),
    seed: z.string(),
    method: z.string(),
    trades: z.string(),
    block: z.string(),
    stride: z.string(),
    ruinDrawdown: z.string(),
    latencyMs: z.string().nullable(),
  })
  .strict();
export type MonteCarloSettings = z.infer<typeof monteCarloSettingsSchema>;

export interface MonteCarloPrepareDeps {
  readonly env: Environment;
  /** The simulator YAML whose trader account a live config backtests with (the packaged config/sim.yml). */
  readonly defaultSimConfig?: string;
}

/** The backtest the scenarios vary, ready: its job, recording, result, range and the scenario settings. */
export interface PreparedMonteCarlo {
  readonly options: MonteCarloShardSettings;
  readonly job: SweepJob;
  readonly recording: ParsedRecording;
  readonly backtest: BacktestResult;
  readonly range: { readonly from?: number; readonly to?: number };
  readonly logger: Logger;
}

/**
 * Reads the flags, config and recordings of `settings` and runs the backtest the scenarios vary.
 * Mistakes throw ConfigError (exit 2); a backtest that cannot start is the error (exit 1).
 */
export async function prepareMonteCarlo(settings: MonteCarloSettings, deps: MonteCarloPrepareDeps, logLevel: string): Promise<Result<PreparedMonteCarlo, string>> {
  const options: MonteCarloShardSettings = {
    seed: seedFlag(settings.seed),
    scenarios: scenariosFlag(settings.scenarios),
    methods: methodsFlag(settings.method),
    sampling: samplingFlag(settings.trades),
    blocks: { blockMs: blockDurationFlag('--block', settings.block), strideMs: blockDurationFlag('--stride', settings.stride) },
    ruinDrawdown: ruinFlag(settings.ruinDrawdown),
  };
  const latency = settings.latencyMs === null ? undefined : latencyFlag(settings.latencyMs);
  const from = timeFlag('from', settings.from ?? undefined);
  const to = timeFlag('to', settings.to ?? undefined);
  const range = { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
  const prepared = await prepareRun(settings.config === null ? {} : { config: settings.config }, deps.env);
  if (!prepared.ok) throw prepared.error;
  const { config, strategies } = prepared.value;
  const account = openingAccount(config, deps.defaultSimConfig);
  if (!account.ok) throw account.error;
  const recordings = settings.recordings.map((file) => resolve(file));
  const recording = await parseJsonlRecordings(recordings, to);
  if (!recording.ok) throw new ConfigError(recording.error.message, { path: '--data' });
  const job: SweepJob = {
    strategies: strategies.map((s) => ({ id: s.id, symbols: s.symbols, moduleFile: moduleFileOf(config, s.id), params: paramsOf(config, s.id), limits: limitsToWire(s.limits) })),
    risk: limitsToWire(config.risk),
    recordings,
    account: account.value,
    orphans: config.orphans,
    klines: klineSeriesOf(config),
    axes: [],
    ...range,
    ...(latency === undefined ? {} : { latency: { orderLatencyMs: latency, ackLatencyMs: latency } }),
  };
  const logger = levelGated(createLogger({ level: logLevel, pretty: false, destination: pino.destination(2) }), logLevel);
  const backtest = await runBacktest({
    strategies,
    risk: config.risk,
    recordings,
    recording: recording.value,
    account: account.value,
    orphans: config.orphans,
    klines: klineSeriesOf(config),
    logger,
    ...range,
    ...(job.latency === undefined ? {} : { latency: job.latency }),
  });
  if (!backtest.ok) {
    if (backtest.error.code !== 'START_FAILED') throw new ConfigError(backtest.error.message, { path: '--data' });
    return err(backtest.error.message);
  }
  return ok({ options, job, recording: recording.value, backtest: backtest.value, range, logger });
}
