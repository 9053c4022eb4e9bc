import type { Command } from 'commander';
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
import { priceSeriesOf, priceSeriesOfReplay } from '../../report/prices.js';
import { ProgressDisplay } from '../../backtest/progress-display.js';
import { lastEventTimeOf } from '../../recording/span.js';
import type { DaemonConfig } from '../../settings/daemon-config/daemon-config.js';
import { ConfigError } from '../../settings/config-error.js';
import type { Environment } from '../../settings/secrets.js';
import { createLogger } from '../logging/logger.js';
import { prepareRun } from './run.js';
import { klineSeriesOf, latencyFlag, openingAccount, preparedCacheOf, slippageFlag } from './backtest-flags.js';

export interface BacktestCommandDeps {
  readonly env: Environment;
  /** Standard output: where the results are announced. */
  readonly out: (text: string) => void;
  /** Standard error: warnings, failures and (off a terminal) progress lines. */
  readonly err: (text: string) => void;
  readonly setExitCode: (code: number) => void;
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

interface BacktestFlags {
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
}

/**
 * `stratd backtest --config FILE --data FILE... [--from T] [--to T] [--out DIR] [--latency-ms N] [--no-cache]`:
 * the config's strategies and risk limits replayed over recordings in virtual time against the
 * simulated exchange's engine; writes summary.json, fills.csv, orders.csv and equity.csv. A mistake in
 * the arguments, the config or a recording exits 2; a kernel that cannot start exits 1.
 */
export function registerBacktestCommand(program: Command, deps: BacktestCommandDeps): Command {
  return program
    .command('backtest')
    .description('replay recorded market streams through the strategies of a config, in virtual time, against the simulated exchange')
    .requiredOption('--data <file...>', 'market-stream recordings (.jsonl or .jsonl.gz), merged in time order')
    .option('--config <file>', 'daemon config whose strategies and risk limits run (default config/default.yml)')
    .option('--from <time>', 'start: ISO time or epoch ms (earlier events only warm up the order book)')
    .option('--to <time>', 'end, inclusive: ISO time or epoch ms')
    .option('--out <dir>', 'output directory', 'backtest-out')
    .option('--latency-ms <n>', 'latency of orders to the exchange and of its replies and events back, each way (default 50)')
    .option('--slippage-bps <n>', 'on recordings of bars (stratd download): market orders fill this far beyond the bar model\'s price, in basis points (default 2)')
    .option('--balance <asset=amount>', 'opening futures balance, e.g. USDT=100000 (repeatable; default: the config\'s simulator account)', (value: string, all: string[] = []) => [...all, value])
    .option('--log-level <level>', 'kernel and strategy logs on standard error', 'warn')
    .option('--no-cache', 'read the recordings as JSONL only: neither read nor write their prepared (Arrow) form')
    .action(async (flags: BacktestFlags) => {
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
      });
      display.stop();
      if (!result.ok) {
        if (result.error.code !== 'START_FAILED') throw new ConfigError(result.error.message, { path: '--data' });
        deps.err(`stratd backtest: ${result.error.message}\n`);
        deps.setExitCode(1);
        return;
      }
      // The report's price charts: each symbol's candles, built from the recorded trades (or bars).
      const range = { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
      const prices = recording === undefined ? await priceSeriesOf(recordings, range) : priceSeriesOfReplay(recording, range);
      const written = writeBacktestOutputs(flags.out, result.value, { prices });
      deps.out(report(result.value, written));
    });
}

/** A few lines for a person; summary.json holds everything. */
function report(result: BacktestResult, written: readonly string[]): string {
  const { summary } = result;
  const t = summary.total;
  const lines = [
    `backtest ${summary.range.fromIso} → ${summary.range.toIso}: ${summary.events} events, ${t.orders} orders, ${t.fills} fills`,
    `net PnL ${t.netPnl} (return ${t.return}, max drawdown ${t.maxDrawdown}, Sharpe ${t.sharpe ?? '-'}), fees ${t.fees}, funding ${t.funding}`,
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

/** ISO 8601 time or epoch milliseconds. */
function timeFlag(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  const time = /^\d+$/.test(trimmed) ? Number(trimmed) : /^\d{4}-\d{2}-\d{2}/.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  if (!Number.isSafeInteger(time) || time < 0) throw new ConfigError(`--${name} ${text}: an ISO time (2026-01-01T00:00:00Z) or epoch milliseconds`, { path: `--${name}` });
  return time;
}

