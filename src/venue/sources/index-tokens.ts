import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import type { MarketApi } from '../api/market.js';
import { ENDPOINTS, endpointLabel } from '../../protocol/endpoints.js';
import type { VenueError } from '../venue-error.js';
import { missingRow } from './channel-source.js';

/**
 * The index token of a contract (exchangeInfo `indexToken`, e.g. BTCUSDT: the key of GET /quote/v1/index).
 * Given by the caller, or learned from one exchangeInfo fetch shared by every index channel; a failed
 * fetch is tried again at the next poll.
 */
export class IndexTokens {
  private known: ReadonlyMap<string, string> | undefined;
  private loading: Promise<Result<ReadonlyMap<string, string>, VenueError>> | undefined;

  constructor(
    private readonly market: MarketApi,
    private readonly given?: (symbol: string) => string | undefined,
  ) {}

  async tokenOf(symbol: string): Promise<Result<string, VenueError>> {
    const given = this.given?.(symbol);
    if (given !== undefined) return ok(given);
    const tokens = await this.load();
    if (!tokens.ok) return tokens;
    const token = tokens.value.get(symbol);
    return token === undefined ? err(missingRow(endpointLabel(ENDPOINTS.exchangeInfo), symbol)) : ok(token);
  }

  private async load(): Promise<Result<ReadonlyMap<string, string>, VenueError>> {
    if (this.known !== undefined) return ok(this.known);
    this.loading ??= this.market.exchangeInfo().then((reply) => {
      this.loading = undefined;
      if (!reply.ok) return reply;
      this.known = new Map(reply.value.contracts.map((c) => [c.symbol, c.indexToken]));
      return ok(this.known);
    });
    return this.loading;
  }
}
