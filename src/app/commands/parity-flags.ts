import { ConfigError } from '../../settings/config-error.js';

/** How far apart in time a paper fill and its backtest twin may be and still match, by default. */
export const DEFAULT_PARITY_TOLERANCE_MS = 1000;

export function wholeMs(flag: string, text: string, max: number): number {
  if (!/^\d+$/.test(text.trim()) || Number(text) > max) throw new ConfigError(`${flag} ${text}: whole milliseconds from 0 to ${max}`, { path: flag });
  return Number(text);
}
