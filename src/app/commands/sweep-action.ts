import { resolve } from 'node:path';
import type { Clock, Stopwatch } from '../../core/clock.js';
import { systemStopwatch, systemTime } from '../../core/system-time.js';
import type { SweepBase } from '../../sweep/grid.js';
import { parseSweepGrid } from '../../sweep/grid.js';
import { heatmapAxesOf } from '../../sweep/report.js';
import { parseShardSpec, writeSweepOutputs } from '../../sweep/shard/index.js';
import { runSweep } from '../../sweep/runner.js';
import { threadCost } from '../../sweep/thread-cost.js';
import { costLines, sharedLine, throughputLines, workerThroughput } from '../../sweep/throughput.js';
import type { CombinationTiming, SweepJob, SweepProgress, WorkerSpan } from '../../sweep/types.js';
import { limitsToWire } from '../../sweep/types.js';
import { ConfigError } from '../../settings/config-error.js';
import { readYamlFile } from '../../settings/yaml-source.js';
import { prepareRecordings } from '../../recording/prepared/recording.js';
import { klineSeriesOf, latencyFlag, openingAccount, preparedCacheOf } from './backtest-flags.js';
import { prepareRun } from './prepare-run.js';
import { planSweepShard, writeSweepShard } from './sweep-shard/run.js';
import { checkDataQuality } from '../data/data-quality-gate.js';
import { moduleFileOf, paramsOf, rankFlag, workersFlag } from './sweep-flags.js';
import type { CommandIo } from './command-io.js';

/** Standard output: the ranked table. Standard error: progress lines and failures. */
export interface SweepCommandDeps extends CommandIo {
  /** Default: the wall clock (ETA only). */
  readonly wallClock?: Clock;
  /** Default: the process's monotonic timer (per-combination times of --workers 0). */
  readonly stopwatch?: Stopwatch;
  /** The simulator YAML whose trader account a live config backtests with (the packaged config/sim.yml). */
  readonly defaultSimConfig?: string;
}

export interface SweepFlags {
  readonly config?: string;
  readonly data?: string[];
  readonly grid?: string;
  readonly workers?: string;
  readonly out: string;
  readonly rank: string;
  readonly heatmap?: string;
  readonly latencyMs?: string;
  readonly cache: boolean;
  readonly shard?: string;
  readonly shardMode: string;
  readonly allowGaps?: boolean;
}

/** `stratd sweep`'s work, loaded when the command runs (sweep.ts registers it). */
export async function sweepAction(flags: SweepFlags, deps: SweepCommandDeps): Promise<void> {
  const { data, grid } = flags;
  if (data === undefined) throw new ConfigError("required option '--data <file...>' not specified", { path: '--data' });
  if (grid === undefined) throw new ConfigError("required option '--grid <file>' not specified", { path: '--grid' });
  const shard = flags.shard === undefined ? undefined : parseShardSpec(flags.shard, flags.shardMode);
  if (shard?.ok === false) throw shard.error;
  const rank = rankFlag(flags.rank);
  const workers = workersFlag(flags.workers);
  const latency = flags.latencyMs === undefined ? undefined : latencyFlag(flags.latencyMs);
  const prepared = await prepareRun(flags.config === undefined ? {} : { config: flags.config }, deps.env);
  if (!prepared.ok) throw prepared.error;
  const { config, strategies } = prepared.value;
  const account = openingAccount(config, deps.defaultSimConfig);
  if (!account.ok) throw account.error;
  const cache = preparedCacheOf(flags.cache, deps.env, 'sweep', deps.err);
  await checkDataQuality(data, { from: undefined, to: undefined, cache, allowGaps: flags.allowGaps === true, command: 'sweep', err: deps.err });
  const bases: SweepBase[] = strategies.map((s) => ({ id: s.id, definition: s.definition, params: paramsOf(config, s.id) }));
  const source = readYamlFile(grid);
  if (!source.ok) throw source.error;
  const plan = parseSweepGrid(source.value, bases);
  if (!plan.ok) throw plan.error;
  const heat = heatmapAxesOf(plan.value.axes, flags.heatmap);
  if (!heat.ok) throw heat.error;
  const job: SweepJob = {
    strategies: strategies.map((s) => ({
      id: s.id,
      symbols: s.symbols,
      moduleFile: moduleFileOf(config, s.id),
      params: paramsOf(config, s.id),
      limits: limitsToWire(s.limits),
    })),
    risk: limitsToWire(config.risk),
    recordings: data.map((file) => resolve(file)),
    account: account.value,
    orphans: config.orphans,
    klines: klineSeriesOf(config),
    axes: plan.value.axes,
    ...(latency === undefined ? {} : { latency: { orderLatencyMs: latency, ackLatencyMs: latency } }),
    ...(cache === undefined ? {} : { prepared: cache.fallbackDir === undefined ? {} : { fallbackDir: cache.fallbackDir } }),
  };
  const clock = deps.wallClock ?? systemTime.clock;
  const started = clock.now();
  const timings: CombinationTiming[] = [];
  const spans: WorkerSpan[] = [];
  let shared = '';
  const slice = shard === undefined ? undefined : await planSweepShard(job, plan.value.combinations, shard.value, { axes: job.axes, rank, heatmap: flags.heatmap ?? null, recordings: data });
  const combinations = slice === undefined ? plan.value.combinations : slice.items.map((item) => item.combination);
  const rows = await runSweep(job, combinations, {
    workers,
    // Built here once, warnings told here, while the workers start: they then only read them.
    ...(cache === undefined ? {} : { before: () => prepareRecordings(job.recordings, cache) }),
    stopwatch: deps.stopwatch ?? systemStopwatch,
    onCombination: (timing) => timings.push(timing),
    onWorker: (span) => spans.push(span),
    onShared: (reading) => {
      shared = sharedLine(reading);
    },
    onProgress: (progress) => deps.err(progressLine(progress, clock.now() - started)),
  });
  if (!rows.ok) {
    deps.err(`stratd sweep: ${rows.error}\n`);
    deps.setExitCode(1);
    return;
  }
  const throughput = workerThroughput(timings);
  const main = threadCost();
  const cpu = process.cpuUsage();
  deps.err(shared + throughputLines(throughput) + costLines(throughput, spans, { cpuMs: (cpu.user + cpu.system) / 1000, ...(main === undefined ? {} : { mainCpuMs: main.cpuMs }) }));
  if (slice !== undefined) {
    deps.out(writeSweepShard(flags.out, slice, rows.value));
    return;
  }
  deps.out(writeSweepOutputs(flags.out, { axes: job.axes, rows: rows.value, rank, heat: heat.value, recordings: data }));
}

function progressLine(progress: SweepProgress, elapsedMs: number): string {
  const left = progress.total - progress.done;
  const eta = progress.done === 0 ? '?' : `${Math.ceil((elapsedMs / progress.done) * left / 1000)}s`;
  return `sweep: ${progress.done}/${progress.total} combinations, ETA ${left === 0 ? '0s' : eta}\n`;
}
