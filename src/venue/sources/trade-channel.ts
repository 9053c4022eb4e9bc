import { ok } from '../../core/result.js';
import type { MarketApi } from '../api/market.js';
import type { ChannelSource } from './channel-source.js';
import { TradeDeduper } from './trade-deduper.js';

/** The most trades one recent-trades request answers (document 001). */
const TRADES_PER_POLL = 60;

/** Recent public trades, each delivered once however often the polls overlap. */
export function tradeSource(market: MarketApi, symbol: string, deduper = new TradeDeduper()): ChannelSource {
  return {
    async poll() {
      const reply = await market.trades({ symbol, limit: TRADES_PER_POLL });
      if (!reply.ok) return reply;
      return ok(deduper.accept(symbol, reply.value));
    },
  };
}
