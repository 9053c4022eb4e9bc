import type { Result } from '../../core/result.js';
import type { MarketEvent } from '../../model/market-events.js';
import { VenueError } from '../venue-error.js';

/** One poll of one channel: the events it yields (possibly none), or why it failed. */
export interface ChannelSource {
  poll(): Promise<Result<readonly MarketEvent[], VenueError>>;
}

/** A reply that does not hold the row of the polled symbol. */
export function missingRow(endpoint: string, symbol: string): VenueError {
  return new VenueError({ kind: 'malformed-response', endpoint, field: 'symbol', message: `no row for ${symbol}` });
}
