import type { FundingEvent } from '../../sim/market-stream/events.js';
import { iso } from '../../core/iso-time.js';

/** summary.json `fundingSeries`: per symbol of the recordings, what funding the run knew. */
export interface FundingSeriesFigures {
  /** Funding events replayed (warm-up included). */
  readonly events: number;
  /** Intervals settled from them. */
  readonly settlements: number;
  /**
   * recorded: the series covers the run; missing: no funding at all (the symbol's funding is unknown,
   * not zero); incomplete: it stops before a settlement due inside the run.
   */
  readonly status: 'recorded' | 'missing' | 'incomplete';
  /** Said only for symbols the account held (where the funding figure is then wrong). */
  readonly warning?: string;
}

interface Series {
  events: number;
  settlements: number;
  next: number | undefined;
}

/**
 * Watches a run's funding series per symbol so that funding missing from the recordings is said out
 * loud rather than counted as zero: a symbol the account held without any funding event, or whose series
 * ends before a settlement falls due inside the run, gets a warning in the summary and on the report.
 */
export class FundingCoverage {
  private readonly series = new Map<string, Series>();

  constructor(symbols: readonly string[]) {
    for (const symbol of symbols) this.series.set(symbol, { events: 0, settlements: 0, next: undefined });
  }

  onFunding(event: FundingEvent): void {
    const s = this.series.get(event.symbol) ?? { events: 0, settlements: 0, next: undefined };
    this.series.set(event.symbol, s);
    s.events++;
    if (s.next !== undefined && event.nextFundingTime > s.next) s.settlements++;
    s.next = event.nextFundingTime;
  }

  /** Per symbol, sorted; `held` are the symbols the account had a position in, `endTime` the run's end. */
  figures(held: ReadonlySet<string>, endTime: number): Record<string, FundingSeriesFigures> {
    const out: Record<string, FundingSeriesFigures> = {};
    for (const symbol of [...this.series.keys()].sort()) {
      const s = this.series.get(symbol) ?? { events: 0, settlements: 0, next: undefined };
      const status = s.next === undefined ? 'missing' : s.next <= endTime ? 'incomplete' : 'recorded';
      const warning = !held.has(symbol)
        ? undefined
        : status === 'missing'
          ? `funding: the recordings hold no funding for ${symbol}, which the account held: its funding is unknown, not zero (record the funding channel, or stratd download it)`
          : status === 'incomplete'
            ? `funding: the funding series of ${symbol} ends before the settlement due at ${iso(s.next ?? 0)}, inside the run: funding from then on is missing from the PnL`
            : undefined;
      out[symbol] = { events: s.events, settlements: s.settlements, status, ...(warning === undefined ? {} : { warning }) };
    }
    return out;
  }
}
