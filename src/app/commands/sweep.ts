import { availableParallelism } from 'node:os';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import type { Clock, Stopwatch } from '../../core/clock.js';
import { systemStopwatch, systemTime } from '../../core/system-time.js';
import type { SweepBase } from '../../sweep/grid.js';
import { parseSweepGrid } from '../../sweep/grid.js';
import type { RankMetric } from '../../sweep/output.js';
import { RANK_METRICS } from '../../sweep/output.js';
import { heatmapAxesOf } from '../../sweep/report.js';
import { parseShardSpec, writeSweepOutputs } from '../../sweep/shard/index.js';
import { runSweep } from '../../sweep/runner.js';
import { threadCost } from '../../sweep/thread-cost.js';
import { costLines, throughputLines, workerThroughput } from '../../sweep/throughput.js';
import type { CombinationTiming, SweepJob, SweepProgress, WorkerSpan } from '../../sweep/types.js';
import { limitsToWire } from '../../sweep/types.js';
import { ConfigError } from '../../settings/config-error.js';
import type { DaemonConfig } from '../../settings/daemon-config/daemon-config.js';
import type { Environment } from '../../settings/secrets.js';
import { readYamlFile } from '../../settings/yaml-source.js';
import { prepareRecordings } from '../../recording/prepared/recording.js';
import { klineSeriesOf, latencyFlag, openingAccount, preparedCacheOf } from './backtest-flags.js';
import { prepareRun } from './run.js';
import { strategyModulePath } from '../daemon/strategy-loader.js';
import { registerSweepMergeCommand } from './sweep-shard/sweep-merge-command.js';
import { planSweepShard, writeSweepShard } from './sweep-shard/run.js';
import { checkDataQuality } from '../data/data-quality-gate.js';

export interface SweepCommandDeps {
  readonly env: Environment;
  /** Standard output: the ranked table. */
  readonly out: (text: string) => void;
  /** Standard error: progress lines and failures. */
  readonly err: (text: string) => void;
  readonly setExitCode: (code: number) => void;
  /** Default: the wall clock (ETA only). */
  readonly wallClock?: Clock;
  /** Default: the process's monotonic timer (per-combination times of --workers 0). */
  readonly stopwatch?: Stopwatch;
  /** The simulator YAML whose trader account a live config backtests with (the packaged config/sim.yml). */
  readonly defaultSimConfig?: string;
}

interface SweepFlags {
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

/**
 * `stratd sweep --config FILE --data FILE... --grid GRID.yml [--workers N] [--out DIR] [--rank METRIC] [--no-cache]`:
 * a backtest per combination of the grid's values, across worker threads; writes DIR/sweep.csv (one
 * row per combination, in grid order) and DIR/report.html (a heat map of the ranked metric over two
 * swept settings, `--heatmap A,B`, and the ranked table) and prints the rows ranked. Mistakes in the arguments, config or
 * grid exit 2; a failed backtest exits 1. With `--shard I/N` it runs only shard I of N of the
 * combinations and writes their rows and a manifest into DIR instead, for `stratd sweep merge`.
 */
export function registerSweepCommand(program: Command, deps: SweepCommandDeps): Command {
  const sweep = program
    .command('sweep')
    .description('backtest every combination of a grid of strategy params and risk limits, across worker threads')
    // `sweep merge … --out` has its own --out: options of `sweep` only before a subcommand.
    .enablePositionalOptions()
    .option('--data <file...>', 'market-stream recordings (.jsonl or .jsonl.gz), merged in time order (required)')
    .option('--grid <file>', 'GRID.yml: strategies.<id>.params/.risk.<key>: [values…] (required)')
    .option('--config <file>', 'daemon config whose strategies and risk limits run (default config/default.yml)')
    .option('--workers <n>', 'worker threads (default: available parallelism − 1, at least 1; 0: this thread)')
    .option('--out <dir>', 'output directory', 'sweep-out')
    .option('--rank <metric>', `ranking of the printed table: ${RANK_METRICS.join(', ')}`, 'netPnl')
    .option('--heatmap <a,b>', "report.html's heat map: two swept settings (strategy.section.key, or a key swept once), default the first two")
    .option('--latency-ms <n>', 'latency of orders and replies, each way (default 50)')
    .option('--no-cache', 'read the recordings as JSONL only: neither read nor write their prepared (Arrow) form')
    .option('--shard <I/N>', 'run shard I of N (I from 0, as JOB_COMPLETION_INDEX) of the combinations; --out gets its rows and manifest.json for `stratd sweep merge`')
    .option('--shard-mode <mode>', 'how combinations are dealt to shards: round-robin (combination k to shard k mod N) or contiguous (one run each)', 'round-robin')
    .option('--allow-gaps', 'run even though the recordings have gaps (missing market)')
    .action(async (flags: SweepFlags) => {
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
      const slice = shard === undefined ? undefined : await planSweepShard(job, plan.value.combinations, shard.value, { axes: job.axes, rank, heatmap: flags.heatmap ?? null, recordings: data });
      const combinations = slice === undefined ? plan.value.combinations : slice.items.map((item) => item.combination);
      const rows = await runSweep(job, combinations, {
        workers,
        // Built here once, warnings told here, while the workers start: they then only read them.
        ...(cache === undefined ? {} : { before: () => prepareRecordings(job.recordings, cache) }),
        stopwatch: deps.stopwatch ?? systemStopwatch,
        onCombination: (timing) => timings.push(timing),
        onWorker: (span) => spans.push(span),
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
      deps.err(throughputLines(throughput) + costLines(throughput, spans, { cpuMs: (cpu.user + cpu.system) / 1000, ...(main === undefined ? {} : { mainCpuMs: main.cpuMs }) }));
      if (slice !== undefined) {
        deps.out(writeSweepShard(flags.out, slice, rows.value));
        return;
      }
      deps.out(writeSweepOutputs(flags.out, { axes: job.axes, rows: rows.value, rank, heat: heat.value, recordings: data }));
    });
  registerSweepMergeCommand(sweep, deps);
  return sweep;
}

function progressLine(progress: SweepProgress, elapsedMs: number): string {
  const left = progress.total - progress.done;
  const eta = progress.done === 0 ? '?' : `${Math.ceil((elapsedMs / progress.done) * left / 1000)}s`;
  return `sweep: ${progress.done}/${progress.total} combinations, ETA ${left === 0 ? '0s' : eta}\n`;
}

export function paramsOf(config: DaemonConfig, id: string): Readonly<Record<string, unknown>> {
  return config.strategies.find((s) => s.id === id)?.params ?? {};
}

export function moduleFileOf(config: DaemonConfig, id: string): string {
  const module = config.strategies.find((s) => s.id === id)?.module ?? '';
  const file = strategyModulePath(module, dirname(config.file));
  if (file === undefined) throw new ConfigError(`unknown strategy module "${module}"`, { file: config.file });
  return file;
}

export function rankFlag(text: string): RankMetric {
  const metric = RANK_METRICS.find((m) => m === text);
  if (metric === undefined) throw new ConfigError(`--rank ${text}: one of ${RANK_METRICS.join(', ')}`, { path: '--rank' });
  return metric;
}

export function workersFlag(text: string | undefined): number {
  if (text === undefined) return Math.max(1, availableParallelism() - 1);
  if (!/^\d+$/.test(text.trim()) || Number(text) > 256) throw new ConfigError(`--workers ${text}: a whole number from 0 to 256 (0: no worker threads)`, { path: '--workers' });
  return Number(text);
}


