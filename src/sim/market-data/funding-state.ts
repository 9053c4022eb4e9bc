import { dec } from '../../core/decimal.js';
import type { FundingEvent, FundingPeriod } from '../market-stream/events.js';
import { FUNDING_INTEREST_RATE, FUNDING_RATE_CAP, nextFundingBoundary } from '../market-stream/funding.js';
import type { FundingHistoryRow, FundingRateRow } from './wire-rows.js';

const INTEREST = dec(FUNDING_INTEREST_RATE).toFixed();
const CAP = dec(FUNDING_RATE_CAP).toFixed();
const FLOOR = dec(FUNDING_RATE_CAP).neg().toFixed();

interface Settlement {
  readonly id: number;
  readonly time: number;
  readonly rate: string;
  readonly period: FundingPeriod;
}

/**
 * A symbol's funding: the current rate and the settlements seen so far. A settlement happened when an
 * event's `nextFundingTime` moves past the previous event's; it settled at the previous event's rate
 * (the FundingEvent rule in market-stream/events.ts).
 */
export class FundingState {
  private current: FundingEvent | undefined;
  /** Settlements in id order (ascending time). */
  private readonly settlements: Settlement[] = [];

  constructor(readonly symbol: string) {}

  /** Records the event and the settlement it reveals, if any, numbered with `nextId()`. */
  onEvent(event: FundingEvent, nextId: () => number): void {
    const previous = this.current;
    if (previous !== undefined && event.nextFundingTime > previous.nextFundingTime) {
      this.settlements.push({ id: nextId(), time: previous.nextFundingTime, rate: previous.rate, period: previous.period });
    }
    this.current = event;
  }

  get settlementCount(): number {
    return this.settlements.length;
  }

  /**
   * The current row. For `lagMs` after a settlement the row still shows the settled instant and rate
   * (live, API-NOTES §5.6: ~75 s). Before any event: the base interest rate and the next 8 h boundary.
   */
  row(now: number, lagMs: number): FundingRateRow {
    const last = this.settlements[this.settlements.length - 1];
    if (last !== undefined && now >= last.time && now < last.time + lagMs) return this.render(last.rate, last.period, last.time);
    const current = this.current;
    if (current === undefined) return this.render(INTEREST, '8H', nextFundingBoundary(now));
    return this.render(current.rate, current.period, current.nextFundingTime);
  }

  /** Settlements with fromId ≤ id ≤ endId (both optional, inclusive), newest first, at most `limit`. */
  history(fromId: bigint | undefined, endId: bigint | undefined, limit: number): FundingHistoryRow[] {
    const out: FundingHistoryRow[] = [];
    for (let i = this.settlements.length - 1; i >= 0 && out.length < limit; i--) {
      const s = this.settlements[i];
      if (s === undefined) continue;
      const id = BigInt(s.id);
      if (endId !== undefined && id > endId) continue;
      if (fromId !== undefined && id < fromId) break;
      out.push({ id: String(s.id), symbol: this.symbol, settleTime: String(s.time), settleRate: s.rate, period: s.period });
    }
    return out;
  }

  private render(rate: string, period: FundingPeriod, nextFundingTime: number): FundingRateRow {
    return { symbol: this.symbol, rate, period, nextFundingTime: String(nextFundingTime), interest: INTEREST, fundingRateCap: CAP, fundingRateFloor: FLOOR };
  }
}
