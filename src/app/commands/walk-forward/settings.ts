import { resolve } from 'node:path';
import { z } from 'zod';
import type { Clock, Stopwatch } from '../../../core/clock.js';
import { systemStopwatch, systemTime } from '../../../core/system-time.js';
import type { Result } from '../../../core/result.js';
import { err, ok } from '../../../core/result.js';
import { parseRecordings } from '../../../backtest/runner.js';
import type { PreparedCacheOptions } from '../../../recording/prepared/cache.js';
import type { SweepBase } from '../../../sweep/grid.js';
import { parseSweepGrid } from '../../../sweep/grid.js';
import type { RankMetric } from '../../../sweep/output.js';
import type { SweepCombination, SweepJob, TimeSpan } from '../../../sweep/types.js';
import { limitsToWire } from '../../../sweep/types.js';
import type { WalkForwardSetup } from '../../../sweep/walk-forward/output.js';
import type { WalkForwardRunOptions } from '../../../sweep/walk-forward/run.js';
import type { WalkForwardWindow } from '../../../sweep/walk-forward/windows.js';
import { walkForwardWindows } from '../../../sweep/walk-forward/windows.js';
import { ConfigError } from '../../../settings/config-error.js';
import type { Environment } from '../../../settings/secrets.js';
import { readYamlFile } from '../../../settings/yaml-source.js';
import { timeFlag } from '../backtest-flags.js';
import { klineSeriesOf, latencyFlag, openingAccount, preparedCacheOf } from '../backtest-flags.js';
import { prepareRun } from '../prepare-run.js';
import { moduleFileOf, paramsOf, rankFlag } from '../sweep-flags.js';
import { windowSpecOf } from './window-flags.js';

/**
 * Everything a walk-forward's results depend on, as given on the command line (files by absolute
 * path): a shard's manifest carries it, so `stratd walkforward merge` prepares the same run again
 * (and checks the recordings and configuration still hash as the shards saw them).
 */
export const walkForwardSettingsSchema = z
  .object({
    /** The recordings as named on the command line (the outputs show them). */
    data: z.array(z.string()),
    /** The same, absolute: what is read. */
    recordings: z.array(z.string()),
    config: z.string().nullable(),
    grid: z.string(),
    windows: z.string().nullable(),
    inSampleRatio: z.string().nullable(),
    inSample: z.string().nullable(),
    outOfSample: z.string().nullable(),
    anchored: z.boolean(),
    rank: z.string(),
    from: z.string().nullable(),
    to: z.string().nullable(),
    latencyMs: z.string().nullable(),
    cache: z.boolean(),
  })
  .strict();
export type WalkForwardSettings = z.infer<typeof walkForwardSettingsSchema>;

export interface WalkForwardPrepareDeps {
  readonly env: Environment;
  readonly err: (text: string) => void;
  /** The simulator YAML whose trader account a live config backtests with (the packaged config/sim.yml). */
  readonly defaultSimConfig?: string;
  /** Default: the wall clock (ETA only). */
  readonly wallClock?: Clock;
  readonly stopwatch?: Stopwatch;
}

/** A walk-forward ready to run: the sweep job, the grid's combinations, the windows, the ranked metric and what the outputs say of the setup. */
export interface PreparedWalkForward {
  readonly job: SweepJob;
  readonly combinations: readonly SweepCombination[];
  readonly windows: readonly WalkForwardWindow[];
  readonly rank: RankMetric;
  readonly setup: WalkForwardSetup;
}

/**
 * Reads the config, grid and recordings of `settings` and cuts the windows. Mistakes throw ConfigError
 * (exit 2); recordings without an event in the range are the error (exit 1).
 */
export async function prepareWalkForward(settings: WalkForwardSettings, deps: WalkForwardPrepareDeps): Promise<Result<PreparedWalkForward, string>> {
  const rank = rankFlag(settings.rank);
  const spec = windowSpecOf({
    anchored: settings.anchored,
    ...(settings.windows === null ? {} : { windows: settings.windows }),
    ...(settings.inSampleRatio === null ? {} : { inSampleRatio: settings.inSampleRatio }),
    ...(settings.inSample === null ? {} : { inSample: settings.inSample }),
    ...(settings.outOfSample === null ? {} : { outOfSample: settings.outOfSample }),
  });
  const latency = settings.latencyMs === null ? undefined : latencyFlag(settings.latencyMs);
  const from = timeFlag('from', settings.from ?? undefined);
  const to = timeFlag('to', settings.to ?? undefined);
  const prepared = await prepareRun(settings.config === null ? {} : { config: settings.config }, deps.env);
  if (!prepared.ok) throw prepared.error;
  const { config, strategies } = prepared.value;
  const account = openingAccount(config, deps.defaultSimConfig);
  if (!account.ok) throw account.error;
  const cache = preparedCacheOf(settings.cache, deps.env, 'walkforward', deps.err);
  const bases: SweepBase[] = strategies.map((s) => ({ id: s.id, definition: s.definition, params: paramsOf(config, s.id) }));
  const source = readYamlFile(settings.grid);
  if (!source.ok) throw source.error;
  const plan = parseSweepGrid(source.value, bases);
  if (!plan.ok) throw plan.error;
  const recordings = settings.recordings.map((file) => resolve(file));
  const span = await spanOf(recordings, from, to, cache);
  if (!span.ok) return span;
  const windows = walkForwardWindows(span.value, spec);
  if (!windows.ok) throw new ConfigError(`the windows: ${windows.error}`, { path: spec.kind === 'count' ? '--windows' : '--in-sample' });
  const job: SweepJob = {
    strategies: strategies.map((s) => ({ id: s.id, symbols: s.symbols, moduleFile: moduleFileOf(config, s.id), params: paramsOf(config, s.id), limits: limitsToWire(s.limits) })),
    risk: limitsToWire(config.risk),
    recordings,
    account: account.value,
    orphans: config.orphans,
    klines: klineSeriesOf(config),
    axes: plan.value.axes,
    ...(to === undefined ? {} : { to }),
    ...(latency === undefined ? {} : { latency: { orderLatencyMs: latency, ackLatencyMs: latency } }),
    ...(cache === undefined ? {} : { prepared: cache.fallbackDir === undefined ? {} : { fallbackDir: cache.fallbackDir } }),
  };
  const setup: WalkForwardSetup = { recordings: settings.data, anchored: spec.anchored, axes: plan.value.axes, combinations: plan.value.combinations.length };
  return ok({ job, combinations: plan.value.combinations, windows: windows.value, rank, setup });
}

/** Run options printing `walkforward: <phase> d/t backtests, ETA …` on standard error; each phase's ETA counts from its start. */
export function progressOptions(workers: number, deps: WalkForwardPrepareDeps): WalkForwardRunOptions {
  const clock = deps.wallClock ?? systemTime.clock;
  let started = clock.now();
  return {
    workers,
    stopwatch: deps.stopwatch ?? systemStopwatch,
    onProgress: (part, progress) => {
      const now = clock.now();
      const left = progress.total - progress.done;
      const eta = left === 0 ? '0s' : `${Math.ceil((((now - started) / progress.done) * left) / 1000)}s`;
      if (left === 0) started = now;
      deps.err(`walkforward: ${part} ${progress.done}/${progress.total} backtests, ETA ${eta}\n`);
    },
  };
}

/** First to last event of the recordings within --from/--to (prepared form built here when missing, for the workers to read). */
async function spanOf(recordings: readonly string[], from: number | undefined, to: number | undefined, cache: PreparedCacheOptions | undefined): Promise<Result<TimeSpan, string>> {
  const parsed = await parseRecordings(recordings, to, cache);
  if (!parsed.ok) return err(parsed.error.message);
  const feed = parsed.value.replay();
  const first = feed.peekTime();
  await feed.close();
  const last = parsed.value.lastTime;
  const start = Math.max(first ?? 0, from ?? 0);
  if (first === undefined || last === undefined || start > last) return err('the recordings hold no event in the range');
  return ok({ from: start, to: last });
}
