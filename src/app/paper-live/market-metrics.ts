import { Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import type { LiveMarket } from './market.js';

/**
 * Paper on the live market, on /metrics: how far behind the feed is per symbol and channel (seconds
 * since its last successful reply), whether each book is in force, and the books withdrawn for age.
 */
export function registerLiveMarketMetrics(registry: Registry, market: Pick<LiveMarket, 'status'>): void {
  const registers = [registry];
  new Gauge({
    name: 'stratd_paper_feed_lag_seconds',
    help: "Paper on the live market: seconds since the feed's last successful reply, by symbol and channel (absent before the first)",
    labelNames: ['symbol', 'channel'],
    registers,
    collect() {
      this.reset();
      for (const c of market.status().channels) if (c.lagMs !== undefined) this.set({ symbol: c.symbol, channel: c.channel }, c.lagMs / 1000);
    },
  });
  new Gauge({
    name: 'stratd_paper_feed_book_live',
    help: 'Paper on the live market: 1 while the symbol has a book not older than sim.live.maxBookAge (orders fill against it), 0 while it is withdrawn',
    labelNames: ['symbol'],
    registers,
    collect() {
      this.reset();
      for (const [symbol, state] of Object.entries(market.status().books)) this.set({ symbol }, state === 'live' ? 1 : 0);
    },
  });
  new Gauge({
    name: 'stratd_paper_feed_books_withdrawn',
    help: 'Paper on the live market: books withdrawn since start because no fresh one arrived within sim.live.maxBookAge',
    registers,
    collect() {
      this.set(market.status().booksWithdrawn);
    },
  });
}
