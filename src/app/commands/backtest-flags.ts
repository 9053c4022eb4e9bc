import { join } from 'node:path';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import type { BacktestAccount, KlineSeries } from '../../backtest/types.js';
import type { PreparedCacheOptions } from '../../recording/prepared/cache.js';
import { ConfigError } from '../../settings/config-error.js';
import type { DaemonConfig } from '../../settings/daemon-config/daemon-config.js';
import type { Environment } from '../../settings/secrets.js';
import type { SimConfig } from '../../sim/config/sim-config.js';
import { loadSimConfig } from './sim-config-file.js';

/** Backtest flags shared by backtest, sweep and parity. */

/** The opening futures balances of the simulator account a paper config trades with (a live config: the packaged sim's trader). */
export function openingAccount(config: DaemonConfig, defaultSimConfig: string | undefined): Result<BacktestAccount, ConfigError> {
  const venue = config.venue;
  let sim: SimConfig;
  let key: string;
  if (venue.mode === 'paper') {
    sim = venue.sim;
    key = venue.key;
  } else {
    const loaded = loadSimConfig(defaultSimConfig === undefined ? {} : { config: defaultSimConfig });
    if (!loaded.ok) return loaded;
    sim = loaded.value;
    key = 'trader';
  }
  const userId = sim.keys.find((k) => k.name === key)?.userId;
  const user = sim.users.find((u) => u.userId === userId);
  if (userId === undefined || user === undefined) return err(new ConfigError(`the simulator config has no account for key "${key}"; give --balance USDT=…`, { path: '--balance' }));
  return ok({ userId, futures: user.balances.FUTURES });
}

/** `--latency-ms`: whole milliseconds, each way. */
export function latencyFlag(text: string): number {
  if (!/^\d+$/.test(text.trim()) || Number(text) > 60_000) throw new ConfigError(`--latency-ms ${text}: whole milliseconds from 0 to 60000`, { path: '--latency-ms' });
  return Number(text);
}

/** `--slippage-bps`: basis points from 0 to 1000, decimals allowed. */
export function slippageFlag(text: string): number {
  const value = Number(text.trim());
  if (!/^\d+(\.\d+)?$/.test(text.trim()) || value > 1000) throw new ConfigError(`--slippage-bps ${text}: basis points from 0 to 1000, e.g. 2 or 0.5`, { path: '--slippage-bps' });
  return value;
}

/** The kline series a config's market section polls: a backtest builds them from recorded trades. */
export function klineSeriesOf(config: Pick<DaemonConfig, 'market'>): KlineSeries[] {
  return config.market.flatMap((m) => (m.klines === undefined ? [] : m.klines.intervals.map((interval) => ({ symbol: m.symbol, interval }))));
}

/**
 * The prepared-form cache of backtest, sweep and parity (`--no-cache`: none). Prepared files go beside
 * each recording, or under $XDG_CACHE_HOME/stratd/prepared (~/.cache/…) when its directory is read-only;
 * what could not be trusted or written is told on standard error.
 */
export function preparedCacheOf(cache: boolean, env: Environment, command: string, warn: (text: string) => void): PreparedCacheOptions | undefined {
  if (!cache) return undefined;
  const base = env['XDG_CACHE_HOME'] ?? (env['HOME'] === undefined ? undefined : join(env['HOME'], '.cache'));
  return {
    ...(base === undefined ? {} : { fallbackDir: join(base, 'stratd', 'prepared') }),
    onEvent: (event) => {
      if (event.type === 'ignored') warn(`stratd ${command}: warning: ${event.file}: prepared form of ${event.recording} ignored (${event.reason}); rebuilding it\n`);
      else if (event.type === 'unwritable') warn(`stratd ${command}: warning: the prepared form of ${event.recording} could not be written (${event.reason}); replaying without it\n`);
    },
  };
}

/** ISO 8601 time or epoch milliseconds. */
export function timeFlag(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  const time = /^\d+$/.test(trimmed) ? Number(trimmed) : /^\d{4}-\d{2}-\d{2}/.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  if (!Number.isSafeInteger(time) || time < 0) throw new ConfigError(`--${name} ${text}: an ISO time (2026-01-01T00:00:00Z) or epoch milliseconds`, { path: `--${name}` });
  return time;
}
