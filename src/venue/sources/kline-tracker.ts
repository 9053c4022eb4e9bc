import { decText } from '../../core/decimal.js';
import type { KlineInterval, KlineUpdated } from '../../model/market-events.js';
import type { Kline } from '../parsers/market.js';

/** What the tracker reads of a kline (a REST row, or a socket push with its derived close time). */
export type KlineCandle = Pick<Kline, 'openTime' | 'closeTime' | 'open' | 'high' | 'low' | 'close' | 'volume'>;

/**
 * Turns successive kline replies into KlineUpdated events: a forming kline whenever it changed, and
 * every kline exactly once more when it has closed (closed: true), never again after that. A kline is
 * closed once a later kline exists in the same reply, or once the clock is past its close time by
 * `graceMs` (the exchange may print a late trade into it until then).
 */
export class KlineTracker {
  /** Open time of the newest kline delivered closed: it and everything before it are done. */
  private closedUpTo = -Infinity;
  /** What was last delivered of each forming kline. */
  private readonly forming = new Map<number, string>();

  constructor(
    private readonly symbol: string,
    private readonly interval: KlineInterval,
    private readonly graceMs: number,
  ) {}

  /** Where the next request starts: the oldest kline not yet delivered closed (none yet: the latest only). */
  startTime(): number | undefined {
    const open = [...this.forming.keys()];
    if (open.length > 0) return Math.min(...open);
    return Number.isFinite(this.closedUpTo) ? this.closedUpTo + 1 : undefined;
  }

  accept(rows: readonly KlineCandle[], now: number): KlineUpdated[] {
    const sorted = [...rows].sort((a, b) => a.openTime - b.openTime);
    const newest = sorted[sorted.length - 1]?.openTime ?? -Infinity;
    const out: KlineUpdated[] = [];
    for (const row of sorted) {
      if (row.openTime <= this.closedUpTo) continue;
      const closed = row.openTime < newest || now > row.closeTime + this.graceMs;
      if (closed) {
        out.push(this.event(row, now, true));
        this.closedUpTo = row.openTime;
        continue;
      }
      const signature = [row.open, row.high, row.low, row.close, row.volume].map(decText).join('|');
      if (this.forming.get(row.openTime) === signature) continue;
      this.forming.set(row.openTime, signature);
      out.push(this.event(row, now, false));
    }
    for (const openTime of this.forming.keys()) if (openTime <= this.closedUpTo) this.forming.delete(openTime);
    return out;
  }

  private event(row: KlineCandle, now: number, closed: boolean): KlineUpdated {
    return {
      type: 'market.kline',
      symbol: this.symbol,
      time: now,
      interval: this.interval,
      openTime: row.openTime,
      closeTime: row.closeTime,
      open: row.open,
      high: row.high,
      low: row.low,
      close: row.close,
      volume: row.volume,
      closed,
    };
  }
}
