import type { Clock } from '../../core/clock.js';
import { ok } from '../../core/result.js';
import type { KlineInterval } from '../../model/market-events.js';
import type { MarketApi } from '../api/market.js';
import type { ChannelSource } from './channel-source.js';
import { KlineTracker } from './kline-tracker.js';

/** Klines asked for per poll from the oldest one still forming; more wait for the next poll. */
const KLINES_PER_POLL = 100;

export function klineSource(market: MarketApi, clock: Clock, symbol: string, interval: KlineInterval, graceMs: number, tracker = new KlineTracker(symbol, interval, graceMs)): ChannelSource {
  return {
    async poll() {
      const startTime = tracker.startTime();
      const reply = await market.klines({ symbol, interval, ...(startTime === undefined ? {} : { startTime, limit: KLINES_PER_POLL }) });
      if (!reply.ok) return reply;
      return ok(tracker.accept(reply.value, clock.now()));
    },
  };
}
