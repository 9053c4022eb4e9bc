import { err, ok } from '../../core/result.js';
import type { BookSnapshot, BookTickerUpdated, Ticker24hUpdated } from '../../model/market-events.js';
import type { MarketApi } from '../api/market.js';
import { ENDPOINTS, endpointLabel } from '../../protocol/endpoints.js';
import type { ChannelSource } from './channel-source.js';
import { missingRow } from './channel-source.js';

/** Order book, book ticker and 24h ticker channels: one event per poll, stamped with the exchange's time. */

export function depthSource(market: MarketApi, symbol: string, limit: number | undefined): ChannelSource {
  return {
    async poll() {
      const reply = await market.depth({ symbol, ...(limit === undefined ? {} : { limit }) });
      if (!reply.ok) return reply;
      const event: BookSnapshot = { type: 'market.book', symbol, time: reply.value.time, bids: reply.value.bids, asks: reply.value.asks };
      return ok([event]);
    },
  };
}

export function bookTickerSource(market: MarketApi, symbol: string): ChannelSource {
  return {
    async poll() {
      const reply = await market.contractBookTicker(symbol);
      if (!reply.ok) return reply;
      const row = reply.value.find((r) => r.symbol === symbol);
      if (row === undefined) return err(missingRow(endpointLabel(ENDPOINTS.contractBookTicker), symbol));
      const event: BookTickerUpdated = {
        type: 'market.bookTicker',
        symbol,
        time: row.time,
        bidPrice: row.bidPrice,
        bidQty: row.bidQty,
        askPrice: row.askPrice,
        askQty: row.askQty,
      };
      return ok([event]);
    },
  };
}

export function ticker24hSource(market: MarketApi, symbol: string): ChannelSource {
  return {
    async poll() {
      const reply = await market.contractTicker24h({ symbol });
      if (!reply.ok) return reply;
      const row = reply.value.find((r) => r.symbol === symbol);
      if (row === undefined) return err(missingRow(endpointLabel(ENDPOINTS.contractTicker24h), symbol));
      const event: Ticker24hUpdated = {
        type: 'market.ticker24h',
        symbol,
        time: row.time,
        open: row.open,
        high: row.high,
        low: row.low,
        last: row.lastPrice,
        volume: row.volume,
        quoteVolume: row.quoteVolume,
      };
      return ok([event]);
    },
  };
}
