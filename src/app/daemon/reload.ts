import { Decimal } from '../../core/decimal.js';
import type { StrategyInstance } from '../../engine/strategy/instance.js';
import type { GlobalRiskLimits, RiskLimits } from '../../model/risk-limits.js';
import type { DaemonConfig, LogLevel, StrategySettings } from '../../settings/daemon-config/daemon-config.js';

/** A strategy whose params or risk limits change: the new values, validated. */
export interface StrategyReload {
  readonly id: string;
  /** New params (validated by the module's schema); absent when unchanged. */
  readonly params?: unknown;
  readonly limits?: RiskLimits;
}

/** A change the running daemon cannot take: it needs a restart. */
export interface ReloadRejection {
  /** Where in the config, e.g. `market`, `strategies[mm-btc].symbols`. */
  readonly path: string;
  readonly reason: string;
}

/** What a re-read config changes in a running daemon. */
export interface ReloadPlan {
  readonly globalLimits?: GlobalRiskLimits;
  readonly strategies: readonly StrategyReload[];
  readonly logLevel?: LogLevel;
  /** Config paths that change now. */
  readonly applied: readonly string[];
  readonly rejected: readonly ReloadRejection[];
  /** The configuration in effect once the plan is applied: the new values where they apply, the old ones elsewhere. */
  readonly effective: DaemonConfig;
}

/** The outcome of one reload (SIGHUP or POST /control/reload), as logged and shown in /status. */
export interface ReloadReport {
  readonly at: number;
  readonly ok: boolean;
  /** Why the new config was not read (it is then ignored entirely). */
  readonly error?: string;
  readonly applied: readonly string[];
  readonly rejected: readonly ReloadRejection[];
}

const RESTART = 'needs a restart';

/** Sections fixed for the life of the process, by config path. */
const FIXED: ReadonlyArray<readonly [string, (c: DaemonConfig) => unknown]> = [
  ['stateDir', (c) => c.stateDir],
  ['market', (c) => c.market],
  ['userStream', (c) => c.userStream],
  ['jobs', (c) => c.jobs],
  ['catalog', (c) => c.catalog],
  ['orphans', (c) => c.orphans],
  ['shutdown', (c) => c.shutdown],
  ['health', (c) => c.health],
  ['follower', (c) => c.follower],
  ['notify', (c) => c.notify],
];

/**
 * Compares the running config with a re-read one. Strategy params and risk limits (global and per
 * strategy) and the log level change in place; everything else is reported as needing a restart and
 * keeps its running value. `nextInstances` are the enabled strategies of `next`, params validated.
 */
export function planReload(current: DaemonConfig, next: DaemonConfig, nextInstances: readonly StrategyInstance[]): ReloadPlan {
  const applied: string[] = [];
  const rejected: ReloadRejection[] = [];
  if (current.venue.mode !== next.venue.mode) {
    rejected.push({ path: 'mode', reason: `${current.venue.mode} to ${next.venue.mode} ${RESTART}` });
  } else if (!sameValue(current.venue, next.venue)) {
    rejected.push({ path: current.venue.mode === 'live' ? 'exchange' : 'sim', reason: `the venue connection ${RESTART}` });
  }
  for (const [path, pick] of FIXED) {
    if (!sameValue(pick(current), pick(next))) rejected.push({ path, reason: RESTART });
  }

  const globalChanged = !sameValue(current.risk, next.risk);
  if (globalChanged) applied.push('risk');
  const logChanged = current.log.level !== next.log.level;
  if (logChanged) applied.push('log.level');
  if (current.log.summaryEveryMs !== next.log.summaryEveryMs) rejected.push({ path: 'log.summaryEvery', reason: RESTART });

  const strategies: StrategyReload[] = [];
  const effectiveStrategies: StrategySettings[] = [];
  const nextById = new Map(next.strategies.map((s) => [s.id, s]));
  for (const running of current.strategies) {
    const at = `strategies[${running.id}]`;
    const wanted = nextById.get(running.id);
    nextById.delete(running.id);
    if (wanted === undefined) {
      rejected.push({ path: at, reason: `removing a strategy ${RESTART} (stratd strategies stop ${running.id} stops it now)` });
      effectiveStrategies.push(running);
      continue;
    }
    const fixed = (['module', 'symbols', 'enabled'] as const).filter((key) => !sameValue(running[key], wanted[key]));
    for (const key of fixed) {
      const hint = key === 'enabled' ? ` (stratd strategies ${wanted.enabled ? 'start' : 'stop'} ${running.id} does it now)` : '';
      rejected.push({ path: `${at}.${key}`, reason: `${RESTART}${hint}` });
    }
    if (fixed.includes('module') || fixed.includes('symbols')) {
      effectiveStrategies.push(running);
      continue;
    }
    const paramsChanged = !sameValue(running.params, wanted.params);
    const riskChanged = !sameValue(running.risk, wanted.risk);
    const instance = nextInstances.find((i) => i.id === running.id);
    if (paramsChanged && running.enabled && instance === undefined) {
      rejected.push({ path: `${at}.params`, reason: 'the new params were not validated' });
      effectiveStrategies.push(running);
      continue;
    }
    if (paramsChanged) applied.push(`${at}.params`);
    if (riskChanged) applied.push(`${at}.risk`);
    if (running.enabled && (paramsChanged || riskChanged)) {
      strategies.push({ id: running.id, ...(paramsChanged ? { params: instance?.params } : {}), ...(riskChanged ? { limits: wanted.risk } : {}) });
    }
    effectiveStrategies.push({ ...running, params: wanted.params, risk: wanted.risk });
  }
  for (const added of nextById.values()) rejected.push({ path: `strategies[${added.id}]`, reason: `a new strategy ${RESTART}` });

  return {
    ...(globalChanged ? { globalLimits: next.risk } : {}),
    strategies,
    ...(logChanged ? { logLevel: next.log.level } : {}),
    applied,
    rejected,
    effective: { ...current, risk: next.risk, log: { ...next.log, summaryEveryMs: current.log.summaryEveryMs }, strategies: effectiveStrategies },
  };
}

/** Structural equality of config values: decimals by value, absent and undefined keys alike, functions ignored. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Decimal.isDecimal(a) || Decimal.isDecimal(b)) return Decimal.isDecimal(a) && Decimal.isDecimal(b) && a.eq(b);
  if (typeof a === 'function' && typeof b === 'function') return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  }
  if (isRecord(a) && isRecord(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) if (!sameValue(a[key], b[key])) return false;
    return true;
  }
  return false;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
