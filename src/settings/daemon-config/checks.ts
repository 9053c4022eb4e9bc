import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import type { ConfigError } from '../config-error.js';
import type { DaemonFile } from './schema.js';
import { locatedError } from './locate.js';
import type { YamlSource } from '../yaml-source.js';

/** Rules across sections that a per-field schema cannot see. */
export function checkDaemonFile(source: YamlSource, file: DaemonFile, catalogAvailable: boolean): Result<void, ConfigError> {
  const marketSymbols = new Map<string, number>();
  for (const [i, entry] of file.market.entries()) {
    const first = marketSymbols.get(entry.symbol);
    if (first !== undefined) return err(locatedError(source, `${entry.symbol} is listed twice in market (also at market[${first}])`, ['market', i, 'symbol']));
    marketSymbols.set(entry.symbol, i);
  }
  const ids = new Map<string, number>();
  for (const [i, strategy] of file.strategies.entries()) {
    const first = ids.get(strategy.id);
    if (first !== undefined) return err(locatedError(source, `duplicate strategy id "${strategy.id}" (also at strategies[${first}])`, ['strategies', i, 'id']));
    ids.set(strategy.id, i);
    for (const [k, symbol] of strategy.symbols.entries()) {
      if (!marketSymbols.has(symbol)) {
        return err(locatedError(source, `${symbol} is not in market: add it there so that its data is polled`, ['strategies', i, 'symbols', k]));
      }
    }
  }
  if (file.jobs.catalogSync !== undefined && !catalogAvailable) {
    return err(locatedError(source, 'catalogSync needs a catalog section (baseUrl and token) in live mode', ['jobs', 'catalogSync']));
  }
  return ok(undefined);
}
