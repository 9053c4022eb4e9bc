import { dec } from '../../core/decimal.js';
import type { Decimal } from '../../core/decimal.js';

/** One strategy's figures since the day started (the daily reset job): what the summary line and `stratd status` show. */
export interface StrategyDayFigures {
  readonly fills: number;
  readonly realizedPnl: Decimal;
  /** Fees paid (positive) or rebated (negative), per fee asset. */
  readonly fees: ReadonlyMap<string, Decimal>;
}

interface MutableFigures {
  fills: number;
  realizedPnl: Decimal;
  readonly fees: Map<string, Decimal>;
}

const EMPTY: StrategyDayFigures = { fills: 0, realizedPnl: dec(0), fees: new Map() };

/** Fills and realized PnL per strategy since the daily reset (orders of no strategy count under `external`). */
export class TradeDay {
  private readonly byStrategy = new Map<string, MutableFigures>();

  constructor(private since: number) {}

  get startedAt(): number {
    return this.since;
  }

  addFill(strategy: string, realizedPnl: Decimal, fee: Decimal, feeAsset: string): void {
    let figures = this.byStrategy.get(strategy);
    if (figures === undefined) {
      figures = { fills: 0, realizedPnl: dec(0), fees: new Map() };
      this.byStrategy.set(strategy, figures);
    }
    figures.fills += 1;
    figures.realizedPnl = figures.realizedPnl.add(realizedPnl);
    if (!fee.isZero()) figures.fees.set(feeAsset, (figures.fees.get(feeAsset) ?? dec(0)).add(fee));
  }

  of(strategy: string): StrategyDayFigures {
    return this.byStrategy.get(strategy) ?? EMPTY;
  }

  /** A new day (the daily reset job ran at `time`). */
  reset(time: number): void {
    this.byStrategy.clear();
    this.since = time;
  }
}

/** `0.0257 USDT, 0.001 BNB`; empty without fees. */
export function feesText(fees: ReadonlyMap<string, Decimal>): string {
  return [...fees].map(([asset, fee]) => `${fee.toFixed()} ${asset}`).join(', ');
}
