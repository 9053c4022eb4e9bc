import type { Decimal } from '../../core/decimal.js';
import { dec } from '../../core/decimal.js';
import type { Prng } from '../../sim/market-stream/prng.js';
import type { EquityRow } from '../../backtest/types.js';
import { drawdowns, performanceOf } from '../../backtest/metrics.js';
import { ratio } from '../../backtest/summary.js';
import type { ClosedTrade } from './closed-trades.js';

/**
 * How trade shuffling draws a scenario's trades: 'permute' re-orders the backtest's closed trades (the
 * final equity is that of the backtest's trades in every scenario; drawdown and Sharpe vary), 'resample'
 * draws as many trades with replacement (the final equity varies too).
 */
export type TradeSampling = 'permute' | 'resample';

export const TRADE_SAMPLINGS = ['permute', 'resample'] as const satisfies readonly TradeSampling[];

/** The backtest's closed trades and the grid its equity was sampled on. */
export interface ShuffleBase {
  readonly trades: readonly ClosedTrade[];
  readonly initialEquity: Decimal;
  readonly samples: readonly Pick<EquityRow, 'time' | 'partial'>[];
  readonly intervalMs: number;
}

export interface ShuffleFigures {
  readonly finalEquity: string;
  readonly maxDrawdown: number;
  readonly sharpe: number | null;
  readonly trades: number;
}

/** The trades' PnL in a scenario's order (Fisher–Yates, or draws with replacement). */
export function shuffledPnl(trades: readonly ClosedTrade[], prng: Prng, sampling: TradeSampling): Decimal[] {
  const pnl = trades.map((t) => t.pnl);
  if (sampling === 'resample') return pnl.map(() => pnl[prng.int(0, pnl.length - 1)]!);
  for (let i = pnl.length - 1; i > 0; i--) {
    const j = prng.int(0, i);
    [pnl[i], pnl[j]] = [pnl[j]!, pnl[i]!];
  }
  return pnl;
}

/**
 * The closed-trade equity of trades PnL `pnl`, the k-th closing when the backtest's k-th trade closed:
 * the drawdown over the equity after every trade, the Sharpe over that equity at the backtest's sample
 * times (annualized as the backtest's). `pnl` in the backtest's own order gives the "as traded" figures.
 */
export function shuffleFigures(base: ShuffleBase, pnl: readonly Decimal[]): ShuffleFigures {
  const afterEach: Decimal[] = [base.initialEquity];
  for (const p of pnl) afterEach.push(afterEach.at(-1)!.add(p));
  const points = [];
  let closed = 0;
  for (const sample of base.samples) {
    while (closed < base.trades.length && base.trades[closed]!.closeTime <= sample.time) closed++;
    points.push({ equity: afterEach[closed]!, partial: sample.partial });
  }
  const maxDrawdown = drawdowns(afterEach).reduce((m, d) => (d.gt(m) ? d : m), dec(0));
  const sharpe = performanceOf(points, base.intervalMs).sharpe;
  return {
    finalEquity: afterEach.at(-1)!.toDecimalPlaces(8).toFixed(),
    maxDrawdown: ratio(maxDrawdown),
    sharpe: sharpe === undefined ? null : ratio(sharpe),
    trades: pnl.length,
  };
}
