import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { levelGated } from '../../core/level-gated-logger.js';
import type { Logger } from '../../core/logger.js';
import { parseJsonlRecordings } from '../../backtest/runner.js';
import type { CheckBase, LookaheadResult, WarmupResult } from '../../analysis/strategy-check/index.js';
import { checkLookahead, checkReport, checkReportJson, checkReportText, checkWarmup } from '../../analysis/strategy-check/index.js';
import { ConfigError } from '../../settings/config-error.js';
import { parseDuration } from '../../settings/duration.js';
import { klineSeriesOf, latencyFlag, openingAccount } from './backtest-flags.js';
import { createLogger } from '../logging/logger.js';
import { prepareRun } from './prepare-run.js';
import type { CommandIo } from './command-io.js';

/** Standard output: the report. Standard error: progress and failures. */
export interface CheckStrategyDeps extends CommandIo {
  readonly logger?: Logger;
  /** The simulator YAML whose trader account a live config is checked with (the packaged config/sim.yml). */
  readonly defaultSimConfig?: string;
}

export interface CheckFlags {
  readonly config?: string;
  readonly data: string[];
  readonly strategy?: string;
  readonly cuts: string;
  readonly warmup: string;
  readonly tolerance: string;
  readonly lookahead: boolean;
  readonly warmupCheck: boolean;
  readonly out: string;
  readonly latencyMs?: string;
  readonly logLevel: string;
}

/** Exit code when lookahead was found (a mistake in the arguments exits 2). */
export const EXIT_LOOKAHEAD = 1;

function countFlag(text: string): number {
  const n = Number(text.trim());
  if (!/^\d+$/.test(text.trim()) || n < 1 || n > 1000) throw new ConfigError(`--cuts ${text}: a whole number from 1 to 1000`, { path: '--cuts' });
  return n;
}

function durationsFlag(text: string): number[] {
  const lengths = text.split(',').map((part) => {
    const trimmed = part.trim();
    const ms = trimmed === '0' ? 0 : parseDuration(trimmed);
    if (ms === undefined) throw new ConfigError(`--warmup ${text}: "${trimmed}" is not a duration (0, 90s, 15m, 1h…)`, { path: '--warmup' });
    return ms;
  });
  if (new Set(lengths).size < 2) throw new ConfigError(`--warmup ${text}: at least two different lengths (the longest is the reference)`, { path: '--warmup' });
  return lengths;
}

function percentFlag(text: string): number {
  const value = Number(text.trim());
  if (!/^\d+(\.\d+)?$/.test(text.trim()) || value > 100) throw new ConfigError(`--tolerance ${text}: a percentage from 0 to 100, e.g. 0.1`, { path: '--tolerance' });
  return value / 100;
}

/** The work of the command registered in check-strategy.ts, loaded only when it runs. */
export async function checkStrategyAction(flags: CheckFlags, deps: CheckStrategyDeps): Promise<void> {
  const cuts = countFlag(flags.cuts);
  const warmupsMs = durationsFlag(flags.warmup);
  const tolerance = percentFlag(flags.tolerance);
  const prepared = await prepareRun(flags.config === undefined ? {} : { config: flags.config }, deps.env);
  if (!prepared.ok) throw prepared.error;
  const { config } = prepared.value;
  const strategies = flags.strategy === undefined ? prepared.value.strategies : prepared.value.strategies.filter((s) => s.id === flags.strategy);
  if (strategies.length === 0) {
    const known = prepared.value.strategies.map((s) => s.id).join(', ') || 'none';
    throw new ConfigError(`no strategy "${flags.strategy ?? ''}" in the config (it has ${known})`, { path: '--strategy' });
  }
  const account = openingAccount(config, deps.defaultSimConfig);
  if (!account.ok) throw account.error;
  const latency = flags.latencyMs === undefined ? undefined : latencyFlag(flags.latencyMs);
  const recording = await parseJsonlRecordings(flags.data);
  if (!recording.ok) throw new ConfigError(recording.error.message, { path: '--data' });
  const base: CheckBase = {
    strategies,
    risk: config.risk,
    account: account.value,
    orphans: config.orphans,
    klines: klineSeriesOf(config),
    logger: deps.logger ?? levelGated(createLogger({ level: flags.logLevel, pretty: false, destination: pino.destination(2) }), flags.logLevel),
    ...(latency === undefined ? {} : { latency: { orderLatencyMs: latency, ackLatencyMs: latency } }),
  };
  let lookahead: LookaheadResult | undefined;
  let warmup: WarmupResult | undefined;
  if (flags.lookahead) {
    const result = await checkLookahead({ base, recording: recording.value, cuts, onRun: (done, total) => deps.err(`stratd check-strategy: lookahead run ${done}/${total}\n`) });
    if (!result.ok) throw new ConfigError(result.error.message, { path: '--data' });
    lookahead = result.value;
  }
  if (flags.warmupCheck) {
    const result = await checkWarmup({ base, recording: recording.value, warmupsMs, tolerance, onRun: (done, total) => deps.err(`stratd check-strategy: warm-up run ${done}/${total}\n`) });
    if (!result.ok) throw new ConfigError(result.error.message, { path: '--warmup' });
    warmup = result.value;
  }
  const report = checkReport(lookahead, warmup);
  const text = checkReportText(report);
  mkdirSync(flags.out, { recursive: true });
  writeFileSync(join(flags.out, 'strategy-check.txt'), text);
  writeFileSync(join(flags.out, 'strategy-check.json'), checkReportJson(report));
  deps.out(`${text}wrote ${join(flags.out, 'strategy-check.txt')}\nwrote ${join(flags.out, 'strategy-check.json')}\n`);
  if (lookahead?.found === true) deps.setExitCode(EXIT_LOOKAHEAD);
}
