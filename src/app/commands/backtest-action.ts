import pino from 'pino';
import type { Clock } from '../../core/clock.js';
import { levelGated } from '../../core/level-gated-logger.js';
import type { Logger } from '../../core/logger.js';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import { systemTime } from '../../core/system-time.js';
import type { BacktestAccount, BacktestResult } from '../../backtest/runner.js';
import { parseRecordings, runBacktest } from '../../backtest/runner.js';
import { writeBacktestOutputs } from '../../report/outputs.js';
import { PriceSeriesCollector, priceSeriesOf, priceSeriesOfReplay } from '../../report/prices.js';
import { ProgressDisplay } from '../../backtest/progress-display.js';
import { lastEventTimeOf } from '../../recording/span.js';
import type { DaemonConfig } from '../../settings/daemon-config/daemon-config.js';
import { ConfigError } from '../../settings/config-error.js';
import { createLogger } from '../logging/logger.js';
import { prepareRun } from './prepare-run.js';
import { checkDataQuality } from '../data/data-quality-gate.js';
import { klineSeriesOf, latencyFlag, openingAccount, preparedCacheOf, slippageFlag, timeFlag } from './backtest-flags.js';
import type { CommandIo } from './command-io.js';

/** Standard output: where the results are announced. Standard error: warnings, failures and (off a terminal) progress lines. */
export interface BacktestCommandDeps extends CommandIo {
  /** Where the live progress bar draws, and whether it is a terminal (default: standard output). */
  readonly progressStream?: NodeJS.WritableStream;
  readonly tty?: boolean;
  /** Default: the wall clock (events/s and ETA only; the replay runs in virtual time). */
  readonly wallClock?: Clock;
  /** Default: pino JSON lines on standard error at --log-level. */
  readonly logger?: Logger;
  /** The simulator YAML whose trader account a live config backtests with (the packaged config/sim.yml). */
  readonly defaultSimConfig?: string;
}

export interface BacktestFlags {
  readonly config?: string;
  readonly data: string[];
  readonly from?: string;
  readonly to?: string;
  readonly out: string;
  readonly latencyMs?: string;
  readonly slippageBps?: string;
  readonly balance?: string[];
  readonly logLevel: string;
  readonly cache: boolean;
  readonly allowGaps?: boolean;
}

/** A few lines for a person; summary.json holds everything. */
function report(result: BacktestResult, written: readonly string[]): string {
  const { summary } = result;
  const t = summary.total;
  const lines = [
    `backtest ${summary.range.fromIso} → ${summary.range.toIso}: ${summary.events} events, ${t.orders} orders, ${t.fills} fills`,
    `net PnL ${t.netPnl} (return ${t.return}, max drawdown ${t.maxDrawdown}, Sharpe ${t.sharpe ?? '-'}) = trading ${t.tradingPnl} − fees ${t.fees} + funding ${t.funding}`,
    ...Object.entries(summary.strategies).map(([id, s]) => `  ${id}: ${s.fills} fills, net PnL ${s.netPnl}, win rate ${s.winRate ?? '-'}, exposure ${s.exposure}`),
    `fill sequence sha256 ${summary.fillsSha256}`,
    ...(summary.fillModel === undefined ? [] : [summary.fillModel]),
    ...written.map((path) => `wrote ${path}`),
  ];
  return `${lines.join('\n')}\n`;
}

function balanceFlags(assignments: readonly string[], config: DaemonConfig, defaultSimConfig: string | undefined): Result<BacktestAccount, ConfigError> {
  const base = openingAccount(config, defaultSimConfig);
  const futures: Partial<Record<'USDT' | 'USDC', string>> = {};
  for (const assignment of assignments) {
    const match = /^(USDT|USDC)=(\d+(\.\d+)?)$/.exec(assignment.trim());
    if (match === null) return err(new ConfigError(`--balance ${assignment}: expected USDT=amount or USDC=amount, e.g. USDT=100000`, { path: '--balance' }));
    futures[match[1] as 'USDT' | 'USDC'] = match[2]!;
  }
  return ok({ userId: base.ok ? base.value.userId : '1', futures });
}

/** The work of the command registered in backtest.ts, loaded only when it runs. */
export async function backtestAction(flags: BacktestFlags, deps: BacktestCommandDeps): Promise<void> {
  const prepared = await prepareRun(flags.config === undefined ? {} : { config: flags.config }, deps.env);
  if (!prepared.ok) throw prepared.error;
  const { config, strategies } = prepared.value;
  const account = flags.balance === undefined ? openingAccount(config, deps.defaultSimConfig) : balanceFlags(flags.balance, config, deps.defaultSimConfig);
  if (!account.ok) throw account.error;
  const from = timeFlag('from', flags.from);
  const to = timeFlag('to', flags.to);
  const latency = flags.latencyMs === undefined ? undefined : latencyFlag(flags.latencyMs);
  const slippageBps = flags.slippageBps === undefined ? undefined : slippageFlag(flags.slippageBps);
  const recordings = flags.data;
  const wallClock = deps.wallClock ?? systemTime.clock;
  const cache = preparedCacheOf(flags.cache, deps.env, 'backtest', deps.err);
  const dataQuality = await checkDataQuality(recordings, { from, to, cache, allowGaps: flags.allowGaps === true, command: 'backtest', err: deps.err });
  // The prepared form, loaded once, serves the progress bar's end, the replay and the price charts.
  const loaded = cache === undefined ? undefined : await parseRecordings(recordings, to, cache);
  const recording = loaded?.ok === true ? loaded.value : undefined;
  const endTime = to ?? (recording === undefined ? await lastEventTimeOf(recordings).catch(() => undefined) : recording.lastTime);
  const display = new ProgressDisplay({
    tty: deps.tty ?? process.stdout.isTTY === true,
    stream: deps.progressStream ?? process.stdout,
    line: deps.err,
    wallClock,
    ...(endTime === undefined ? {} : { endTime }),
  });
  // The report's price charts: each symbol's candles, built from the recorded trades (or bars). They gather
  // as the replay applies the recorded events (no second pass over the recording), from the prepared form
  // or from one JSONL recording (several are read below one after another, not merged as the replay merges them).
  const range = { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
  const candles = recording !== undefined || recordings.length === 1 ? new PriceSeriesCollector(range) : undefined;
  const result = await runBacktest({
    strategies,
    risk: config.risk,
    recordings,
    account: account.value,
    orphans: config.orphans,
    klines: klineSeriesOf(config),
    // At a fixed level: no per-order child logger is made (nor its bindings redacted) for lines never written.
    logger: deps.logger ?? levelGated(createLogger({ level: flags.logLevel, pretty: false, destination: pino.destination(2) }), flags.logLevel),
    onProgress: (progress) => display.update(progress),
    onWarning: (warning) => deps.err(`stratd backtest: warning: ${warning.file}:${warning.line}: ${warning.message}\n`),
    ...(from === undefined ? {} : { from }),
    ...(to === undefined ? {} : { to }),
    ...(latency === undefined ? {} : { latency: { orderLatencyMs: latency, ackLatencyMs: latency } }),
    ...(recording === undefined ? {} : { recording }),
    ...(slippageBps === undefined ? {} : { barModel: { slippageBps } }),
    ...(dataQuality === undefined ? {} : { dataQuality }),
    ...(candles === undefined ? {} : { onRecordedEvent: (event) => void candles.add(event) }),
  });
  display.stop();
  if (!result.ok) {
    if (result.error.code !== 'START_FAILED') throw new ConfigError(result.error.message, { path: '--data' });
    deps.err(`stratd backtest: ${result.error.message}\n`);
    deps.setExitCode(1);
    return;
  }
  // A recording of bars (its summary names the fill model) replays the bar model's path, not its events: its candles come from the recording.
  const gathered = candles === undefined || result.value.summary.fillModel !== undefined ? undefined : candles.series();
  const prices = gathered ?? (recording === undefined ? await priceSeriesOf(recordings, range) : priceSeriesOfReplay(recording, range));
  const written = writeBacktestOutputs(flags.out, result.value, { prices });
  for (const series of Object.values(result.value.summary.fundingSeries)) if (series.warning !== undefined) deps.err(`stratd backtest: WARNING: ${series.warning}\n`);
  deps.out(report(result.value, written));
}
