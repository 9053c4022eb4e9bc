import type { Clock } from '../../core/clock.js';
import { err, ok } from '../../core/result.js';
import type { FundingRateUpdated, IndexPriceUpdated, MarkPriceUpdated, OpenInterestUpdated } from '../../model/market-events.js';
import type { MarketApi } from '../api/market.js';
import { ENDPOINTS, endpointLabel } from '../../protocol/endpoints.js';
import type { ChannelSource } from './channel-source.js';
import { missingRow } from './channel-source.js';
import type { IndexTokens } from './index-tokens.js';

/** Mark price, index price, funding rate and open interest: one event per poll. Replies without a time take the local clock's. */

export function markPriceSource(market: MarketApi, symbol: string): ChannelSource {
  return {
    async poll() {
      const reply = await market.markPrice(symbol);
      if (!reply.ok) return reply;
      if (reply.value === undefined) return err(missingRow(endpointLabel(ENDPOINTS.markPrice), symbol));
      const event: MarkPriceUpdated = { type: 'market.markPrice', symbol, time: reply.value.time, price: reply.value.price };
      return ok([event]);
    },
  };
}

export function indexSource(market: MarketApi, clock: Clock, tokens: IndexTokens, symbol: string): ChannelSource {
  return {
    async poll() {
      const token = await tokens.tokenOf(symbol);
      if (!token.ok) return token;
      const reply = await market.index(symbol);
      if (!reply.ok) return reply;
      const price = reply.value.index[token.value];
      if (price === undefined) return err(missingRow(endpointLabel(ENDPOINTS.index), token.value));
      const event: IndexPriceUpdated = { type: 'market.indexPrice', symbol, time: clock.now(), price };
      return ok([event]);
    },
  };
}

export function fundingRateSource(market: MarketApi, clock: Clock, symbol: string): ChannelSource {
  return {
    async poll() {
      const reply = await market.fundingRate(symbol);
      if (!reply.ok) return reply;
      const row = reply.value.find((r) => r.symbol === symbol);
      if (row === undefined) return err(missingRow(endpointLabel(ENDPOINTS.fundingRate), symbol));
      const event: FundingRateUpdated = { type: 'market.fundingRate', symbol, time: clock.now(), rate: row.rate, nextFundingTime: row.nextFundingTime };
      return ok([event]);
    },
  };
}

export function openInterestSource(market: MarketApi, clock: Clock, symbol: string): ChannelSource {
  return {
    async poll() {
      const reply = await market.openInterest(symbol);
      if (!reply.ok) return reply;
      const row = reply.value.find((r) => r.symbol === symbol);
      if (row === undefined) return err(missingRow(endpointLabel(ENDPOINTS.openInterest), symbol));
      const event: OpenInterestUpdated = { type: 'market.openInterest', symbol, time: clock.now(), openInterest: row.size };
      return ok([event]);
    },
  };
}
