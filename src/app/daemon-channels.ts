import type { MarketSubscription } from '../settings/daemon-config.js';
import type { PollChannel } from '../venue/sources/poll-channel.js';

/** The poller's channel list from the config's market section: one channel per symbol, feed and interval. */
export function pollChannels(market: readonly MarketSubscription[]): PollChannel[] {
  const channels: PollChannel[] = [];
  for (const m of market) {
    const { symbol } = m;
    if (m.depth !== undefined) channels.push({ symbol, channel: 'depth', everyMs: m.depth.everyMs, depthLimit: m.depth.limit });
    if (m.klines !== undefined) for (const klineInterval of m.klines.intervals) channels.push({ symbol, channel: 'klines', everyMs: m.klines.everyMs, klineInterval });
    for (const channel of ['trades', 'bookTicker', 'ticker24h', 'markPrice', 'index', 'fundingRate', 'openInterest'] as const) {
      const settings = m[channel];
      if (settings !== undefined) channels.push({ symbol, channel, everyMs: settings.everyMs });
    }
  }
  return channels;
}
