import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import type { Clock, Stopwatch } from '../../../core/clock.js';
import { systemStopwatch, systemTime } from '../../../core/system-time.js';
import type { Result } from '../../../core/result.js';
import { err, ok } from '../../../core/result.js';
import { parseRecordings } from '../../../backtest/runner.js';
import type { PreparedCacheOptions } from '../../../recording/prepared/cache.js';
import type { SweepBase } from '../../../sweep/grid.js';
import { parseSweepGrid } from '../../../sweep/grid.js';
import { RANK_METRICS } from '../../../sweep/output.js';
import type { SweepJob, TimeSpan } from '../../../sweep/types.js';
import { limitsToWire } from '../../../sweep/types.js';
import { inSampleCsv, walkForwardCsv, walkForwardEquityCsv, walkForwardJson } from '../../../sweep/walk-forward/output.js';
import type { WalkForwardSetup } from '../../../sweep/walk-forward/output.js';
import { walkForwardReportHtml } from '../../../sweep/walk-forward/page.js';
import { runWalkForward } from '../../../sweep/walk-forward/run.js';
import { walkForwardWindows } from '../../../sweep/walk-forward/windows.js';
import { ConfigError } from '../../../settings/config-error.js';
import type { Environment } from '../../../settings/secrets.js';
import { readYamlFile } from '../../../settings/yaml-source.js';
import { timeFlag } from '../backtest.js';
import { klineSeriesOf, latencyFlag, openingAccount, preparedCacheOf } from '../backtest-flags.js';
import { prepareRun } from '../run.js';
import { moduleFileOf, paramsOf, rankFlag, workersFlag } from '../sweep.js';
import { summaryLines } from './summary.js';
import type { WindowFlags } from './window-flags.js';
import { DEFAULT_IN_SAMPLE_RATIO, DEFAULT_WINDOWS, windowSpecOf } from './window-flags.js';

export interface WalkForwardCommandDeps {
  readonly env: Environment;
  /** Standard output: the windows and the efficiency. */
  readonly out: (text: string) => void;
  /** Standard error: progress lines and failures. */
  readonly err: (text: string) => void;
  readonly setExitCode: (code: number) => void;
  /** Default: the wall clock (ETA only). */
  readonly wallClock?: Clock;
  readonly stopwatch?: Stopwatch;
  /** The simulator YAML whose trader account a live config backtests with (the packaged config/sim.yml). */
  readonly defaultSimConfig?: string;
}

interface WalkForwardFlags extends WindowFlags {
  readonly config?: string;
  readonly data: string[];
  readonly grid: string;
  readonly workers?: string;
  readonly out: string;
  readonly rank: string;
  readonly from?: string;
  readonly to?: string;
  readonly latencyMs?: string;
  readonly cache: boolean;
}

/**
 * `stratd walkforward --data FILE... --grid GRID.yml [--windows N --in-sample-ratio R | --in-sample DUR --out-of-sample DUR] [--anchored]`:
 * per window, the grid's best combination by `--rank` on the in-sample part, backtested on the
 * out-of-sample part after it (the sweep's runner and worker threads); writes walkforward.json,
 * walkforward.csv, walkforward-equity.csv (the stitched out-of-sample curve), walkforward-in-sample.csv
 * and report.html to --out. Mistakes in the arguments, config, grid or windows exit 2; a failed backtest exits 1.
 */
export function registerWalkForwardCommand(program: Command, deps: WalkForwardCommandDeps): Command {
  return program
    .command('walkforward')
    .description('walk-forward: choose the grid’s best combination on each in-sample window, backtest it on the out-of-sample part after it')
    .requiredOption('--data <file...>', 'market-stream recordings (.jsonl or .jsonl.gz), merged in time order')
    .requiredOption('--grid <file>', 'GRID.yml, as for `stratd sweep`: strategies.<id>.params/.risk.<key>: [values…]')
    .option('--config <file>', 'daemon config whose strategies and risk limits run (default config/default.yml)')
    .option('--windows <n>', `number of windows (default ${DEFAULT_WINDOWS}); the out-of-sample parts cover the end of the recording back to back`)
    .option('--in-sample-ratio <r>', `in-sample length over out-of-sample length, with --windows (default ${DEFAULT_IN_SAMPLE_RATIO})`)
    .option('--in-sample <duration>', 'in-sample length (e.g. 2h; with --out-of-sample, instead of --windows)')
    .option('--out-of-sample <duration>', 'out-of-sample length and step between windows (e.g. 30m)')
    .option('--anchored', 'every in-sample part starts at the start of the recording (default: rolling, of fixed length)', false)
    .option('--rank <metric>', `metric the best combination is chosen by: ${RANK_METRICS.join(', ')}`, 'netPnl')
    .option('--from <time>', 'start of the walk-forward: ISO time or epoch ms (default the first event)')
    .option('--to <time>', 'end, inclusive: ISO time or epoch ms (default the last event)')
    .option('--workers <n>', 'worker threads (default: available parallelism − 1, at least 1; 0: this thread)')
    .option('--out <dir>', 'output directory', 'walkforward-out')
    .option('--latency-ms <n>', 'latency of orders and replies, each way (default 50)')
    .option('--no-cache', 'read the recordings as JSONL only: neither read nor write their prepared (Arrow) form')
    .action(async (flags: WalkForwardFlags) => {
      const rank = rankFlag(flags.rank);
      const workers = workersFlag(flags.workers);
      const spec = windowSpecOf(flags);
      const latency = flags.latencyMs === undefined ? undefined : latencyFlag(flags.latencyMs);
      const from = timeFlag('from', flags.from);
      const to = timeFlag('to', flags.to);
      const prepared = await prepareRun(flags.config === undefined ? {} : { config: flags.config }, deps.env);
      if (!prepared.ok) throw prepared.error;
      const { config, strategies } = prepared.value;
      const account = openingAccount(config, deps.defaultSimConfig);
      if (!account.ok) throw account.error;
      const cache = preparedCacheOf(flags.cache, deps.env, 'walkforward', deps.err);
      const bases: SweepBase[] = strategies.map((s) => ({ id: s.id, definition: s.definition, params: paramsOf(config, s.id) }));
      const source = readYamlFile(flags.grid);
      if (!source.ok) throw source.error;
      const plan = parseSweepGrid(source.value, bases);
      if (!plan.ok) throw plan.error;
      const recordings = flags.data.map((file) => resolve(file));
      const span = await spanOf(recordings, from, to, cache);
      if (!span.ok) {
        deps.err(`stratd walkforward: ${span.error}\n`);
        deps.setExitCode(1);
        return;
      }
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
      const clock = deps.wallClock ?? systemTime.clock;
      // Each phase's ETA counts from its start: the run's, then the end of the in-sample backtests.
      let started = clock.now();
      const result = await runWalkForward(job, plan.value.combinations, windows.value, rank, {
        workers,
        stopwatch: deps.stopwatch ?? systemStopwatch,
        onProgress: (part, progress) => {
          const now = clock.now();
          const left = progress.total - progress.done;
          const eta = left === 0 ? '0s' : `${Math.ceil((((now - started) / progress.done) * left) / 1000)}s`;
          if (left === 0) started = now;
          deps.err(`walkforward: ${part} ${progress.done}/${progress.total} backtests, ETA ${eta}\n`);
        },
      });
      if (!result.ok) {
        deps.err(`stratd walkforward: ${result.error}\n`);
        deps.setExitCode(1);
        return;
      }
      const setup: WalkForwardSetup = { recordings: flags.data, anchored: spec.anchored, axes: plan.value.axes, combinations: plan.value.combinations.length };
      mkdirSync(flags.out, { recursive: true });
      const files: Array<[string, string]> = [
        ['walkforward.json', walkForwardJson(result.value, setup)],
        ['walkforward.csv', walkForwardCsv(result.value, setup.axes)],
        ['walkforward-equity.csv', walkForwardEquityCsv(result.value)],
        ['walkforward-in-sample.csv', inSampleCsv(result.value, setup.axes, setup.combinations)],
        ['report.html', walkForwardReportHtml(result.value, setup)],
      ];
      for (const [name, text] of files) writeFileSync(join(flags.out, name), text);
      deps.out(`${summaryLines(result.value, setup.axes)}${files.map(([name]) => `wrote ${join(flags.out, name)}\n`).join('')}`);
    });
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
