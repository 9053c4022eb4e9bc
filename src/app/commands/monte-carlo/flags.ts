import type { MonteCarloMethod } from '../../../analysis/monte-carlo/scenario-items.js';
import { MONTE_CARLO_METHODS } from '../../../analysis/monte-carlo/scenario-items.js';
import type { TradeSampling } from '../../../analysis/monte-carlo/trade-shuffle.js';
import { TRADE_SAMPLINGS } from '../../../analysis/monte-carlo/trade-shuffle.js';
import { ConfigError } from '../../../settings/config-error.js';
import { parseDuration } from '../../../settings/duration.js';

/** The most scenarios per method one run takes. */
export const MAX_SCENARIOS = 100_000;

function mistake(flag: string, text: string, expected: string): ConfigError {
  return new ConfigError(`${flag} ${text}: ${expected}`, { path: flag });
}

export function scenariosFlag(text: string): number {
  if (!/^\d+$/.test(text.trim()) || Number(text) < 1 || Number(text) > MAX_SCENARIOS) throw mistake('--scenarios', text, `a whole number from 1 to ${MAX_SCENARIOS}`);
  return Number(text);
}

export function seedFlag(text: string): number {
  const seed = Number(text.trim());
  if (!/^-?\d+$/.test(text.trim()) || !Number.isSafeInteger(seed)) throw mistake('--seed', text, 'a whole number (the same seed gives the same scenarios)');
  return seed;
}

/** `shuffle`, `bootstrap` or both, comma-separated. */
export function methodsFlag(text: string): MonteCarloMethod[] {
  const names = text.split(',').map((m) => m.trim());
  const methods = MONTE_CARLO_METHODS.filter((m) => names.includes(m));
  const unknown = names.filter((n) => !(MONTE_CARLO_METHODS as readonly string[]).includes(n));
  if (unknown.length > 0 || methods.length === 0) throw mistake('--method', text, `one or both of ${MONTE_CARLO_METHODS.join(', ')}, comma-separated`);
  return methods;
}

export function samplingFlag(text: string): TradeSampling {
  const sampling = TRADE_SAMPLINGS.find((s) => s === text.trim());
  if (sampling === undefined) throw mistake('--trades', text, `one of ${TRADE_SAMPLINGS.join(', ')}`);
  return sampling;
}

/** A duration of at least one second, e.g. 15m. */
export function blockDurationFlag(flag: string, text: string): number {
  const ms = parseDuration(text);
  if (ms === undefined || ms < 1000) throw mistake(flag, text, 'a duration of at least 1s, e.g. 30s, 15m or 1h');
  return ms;
}

/** A fraction in (0, 1], written as 0.3 or 30%. */
export function ruinFlag(text: string): number {
  const trimmed = text.trim();
  const percent = trimmed.endsWith('%');
  const value = Number(percent ? trimmed.slice(0, -1) : trimmed) / (percent ? 100 : 1);
  if (!/^\d+(\.\d+)?%?$/.test(trimmed) || !(value > 0 && value <= 1)) throw mistake('--ruin-drawdown', text, 'a drawdown above 0 and at most 1 (or 100%), e.g. 0.3 or 30%');
  return value;
}
