import type { MarketSubscription, PollSettings } from '../../settings/daemon-config/daemon-config.js';
import type { FeedChannel } from '../../venue/market-ws/market-feed.js';

/** The market channels from the config's market section: one per symbol, feed and interval; by socket unless `via: poll`. */
export function pollChannels(market: readonly MarketSubscription[]): FeedChannel[] {
  const channels: FeedChannel[] = [];
  const carried = (settings: PollSettings): Pick<FeedChannel, 'via'> & { silentMs?: number } => ({
    via: settings.via ?? 'ws',
    ...(settings.silentMs === undefined ? {} : { silentMs: settings.silentMs }),
  });
  for (const m of market) {
    const { symbol } = m;
    if (m.depth !== undefined) channels.push({ symbol, channel: 'depth', everyMs: m.depth.everyMs, depthLimit: m.depth.limit, ...carried(m.depth) });
    if (m.klines !== undefined) for (const klineInterval of m.klines.intervals) channels.push({ symbol, channel: 'klines', everyMs: m.klines.everyMs, klineInterval, ...carried(m.klines) });
    for (const channel of ['trades', 'bookTicker', 'ticker24h', 'markPrice', 'index'] as const) {
      const settings = m[channel];
      if (settings !== undefined) channels.push({ symbol, channel, everyMs: settings.everyMs, ...carried(settings) });
    }
    // No socket topic: always polled.
    for (const channel of ['fundingRate', 'openInterest'] as const) {
      const settings = m[channel];
      if (settings !== undefined) channels.push({ symbol, channel, everyMs: settings.everyMs, via: 'poll' });
    }
  }
  return channels;
}
