import type { Clock } from '../../core/clock.js';
import { assertNever, invariant } from '../../core/errors.js';
import type { MarketApi } from '../api/market.js';
import { bookTickerSource, depthSource, ticker24hSource } from './book-channels.js';
import type { ChannelSource } from './channel-source.js';
import type { IndexTokens } from './index-tokens.js';
import { klineSource } from './kline-channel.js';
import type { PollChannel } from './poll-channel.js';
import type { SharedChannelState } from './shared-trackers.js';
import { fundingRateSource, indexSource, markPriceSource, openInterestSource } from './price-channels.js';
import { tradeSource } from './trade-channel.js';

export interface SourceDeps {
  readonly market: MarketApi;
  readonly clock: Clock;
  readonly indexTokens: IndexTokens;
  readonly klineCloseGraceMs: number;
  /** Trade dedupers and kline trackers shared with the market socket (default: the channel's own). */
  readonly shared?: SharedChannelState;
}

/** The poll of a channel (a validated one: see channelProblem). */
export function sourceFor(channel: PollChannel, deps: SourceDeps): ChannelSource {
  const { market, clock, indexTokens } = deps;
  const { symbol } = channel;
  switch (channel.channel) {
    case 'depth':
      return depthSource(market, symbol, channel.depthLimit);
    case 'trades':
      return tradeSource(market, symbol, deps.shared?.deduper(symbol));
    case 'klines':
      invariant(channel.klineInterval !== undefined, 'POLL_KLINE_INTERVAL', `${symbol} klines without an interval`);
      return klineSource(market, clock, symbol, channel.klineInterval, deps.klineCloseGraceMs, deps.shared?.klineTracker(symbol, channel.klineInterval));
    case 'bookTicker':
      return bookTickerSource(market, symbol);
    case 'ticker24h':
      return ticker24hSource(market, symbol);
    case 'markPrice':
      return markPriceSource(market, symbol);
    case 'index':
      return indexSource(market, clock, indexTokens, symbol);
    case 'fundingRate':
      return fundingRateSource(market, clock, symbol);
    case 'openInterest':
      return openInterestSource(market, clock, symbol);
    default:
      return assertNever(channel.channel, 'poll channel');
  }
}
