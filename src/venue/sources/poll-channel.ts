import type { KlineInterval } from '../../model/market-events.js';
import { DEPTH_LIMITS, klineInterval } from '../../protocol/market-params.js';

export type ChannelName = 'depth' | 'trades' | 'klines' | 'bookTicker' | 'ticker24h' | 'markPrice' | 'index' | 'fundingRate' | 'openInterest';

/** One polled feed: a symbol's channel on its own interval. */
export interface PollChannel {
  readonly symbol: string;
  readonly channel: ChannelName;
  /** Interval between the starts of two polls; a slow reply delays the next poll instead of stacking. */
  readonly everyMs: number;
  /** depth only: 5, 10, 20, 50, 100 (server default), 500, 1000 or 0; the weight grows with it. */
  readonly depthLimit?: number;
  /** klines only (required there). */
  readonly klineInterval?: KlineInterval;
}

/** A stable name of a channel: two channels with the same key would poll the same thing twice. */
export function channelKey(channel: PollChannel): string {
  switch (channel.channel) {
    case 'depth':
      return `${channel.symbol}/depth${channel.depthLimit === undefined ? '' : `@${channel.depthLimit}`}`;
    case 'klines':
      return `${channel.symbol}/klines@${channel.klineInterval ?? '?'}`;
    default:
      return `${channel.symbol}/${channel.channel}`;
  }
}

/** A configuration mistake in the channel list, found before anything is sent (thrown: the caller's bug). */
export function channelProblem(channel: PollChannel): string | undefined {
  const key = channelKey(channel);
  if (channel.symbol.trim() === '') return `${key}: symbol is empty`;
  if (!(Number.isFinite(channel.everyMs) && channel.everyMs > 0)) return `${key}: everyMs must be a positive number, got ${channel.everyMs}`;
  if (channel.channel === 'klines' && (channel.klineInterval === undefined || !klineInterval.safeParse(channel.klineInterval).success)) {
    return `${key}: klines need a klineInterval (${klineInterval.options.join(', ')})`;
  }
  if (channel.channel === 'depth' && channel.depthLimit !== undefined && !DEPTH_LIMITS.includes(channel.depthLimit)) {
    return `${key}: depthLimit must be one of ${DEPTH_LIMITS.join(', ')}, got ${channel.depthLimit}`;
  }
  return undefined;
}
