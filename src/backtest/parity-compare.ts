import type { Side } from '../model/instrument.js';
import type { FillRecord } from './backtest-types.js';

/** One fill as the parity check compares it. */
export interface ParityFill {
  readonly time: number;
  readonly strategy: string;
  readonly symbol: string;
  readonly side: Side;
  readonly price: string;
  /** Contracts. */
  readonly qty: string;
}

export type ParityField = 'strategy' | 'symbol' | 'side' | 'price' | 'qty' | 'time';

export interface ParityDivergence {
  /** Position in the time-ordered fill sequences. */
  readonly index: number;
  /** A fill on one side only ('live' or 'backtest'), or a pair that differs in `fields`. */
  readonly kind: 'mismatch' | 'live-only' | 'backtest-only';
  readonly fields: readonly ParityField[];
  readonly live?: ParityFill;
  readonly backtest?: ParityFill;
}

export interface ParityReport {
  readonly identical: boolean;
  readonly liveFills: number;
  readonly backtestFills: number;
  /** Leading fills that agree (the sequences are identical up to here). */
  readonly matched: number;
  /** Total number of differing positions. */
  readonly divergent: number;
  /** The first `limit` divergences. */
  readonly divergences: readonly ParityDivergence[];
  readonly toleranceMs: number;
}

export interface CompareOptions {
  /** How far apart in time two fills may be and still agree. */
  readonly toleranceMs: number;
  /** How many divergences the report lists (default 10). */
  readonly limit?: number;
}

export function parityFill(fill: FillRecord): ParityFill {
  return { time: fill.time, strategy: fill.strategy, symbol: fill.symbol, side: fill.side, price: fill.price.toString(), qty: fill.qty.toString() };
}

/** Time order; ties by strategy, symbol, side and price, so that both sides order simultaneous fills alike. */
function ordered(fills: readonly FillRecord[]): ParityFill[] {
  const key = (f: ParityFill): string => `${f.strategy}\u0000${f.symbol}\u0000${f.side}\u0000${f.price}`;
  return fills.map(parityFill).sort((a, b) => a.time - b.time || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

function differences(live: ParityFill, backtest: ParityFill, toleranceMs: number): ParityField[] {
  const fields: ParityField[] = [];
  if (live.strategy !== backtest.strategy) fields.push('strategy');
  if (live.symbol !== backtest.symbol) fields.push('symbol');
  if (live.side !== backtest.side) fields.push('side');
  // Decimal text from the engine is canonical on both sides (same tick grids).
  if (live.price !== backtest.price) fields.push('price');
  if (live.qty !== backtest.qty) fields.push('qty');
  if (Math.abs(live.time - backtest.time) > toleranceMs) fields.push('time');
  return fields;
}

/** Compares the paper run's fills with the backtest's, position by position in time order. */
export function compareFills(live: readonly FillRecord[], backtest: readonly FillRecord[], options: CompareOptions): ParityReport {
  const a = ordered(live);
  const b = ordered(backtest);
  const limit = options.limit ?? 10;
  const divergences: ParityDivergence[] = [];
  let matched: number | undefined;
  let divergent = 0;
  for (let index = 0; index < Math.max(a.length, b.length); index++) {
    const l = a[index];
    const r = b[index];
    let divergence: ParityDivergence | undefined;
    if (l === undefined && r !== undefined) divergence = { index, kind: 'backtest-only', fields: [], backtest: r };
    else if (r === undefined && l !== undefined) divergence = { index, kind: 'live-only', fields: [], live: l };
    else if (l !== undefined && r !== undefined) {
      const fields = differences(l, r, options.toleranceMs);
      if (fields.length > 0) divergence = { index, kind: 'mismatch', fields, live: l, backtest: r };
    }
    if (divergence === undefined) continue;
    matched ??= index;
    divergent++;
    if (divergences.length < limit) divergences.push(divergence);
  }
  return {
    identical: divergent === 0,
    liveFills: a.length,
    backtestFills: b.length,
    matched: matched ?? a.length,
    divergent,
    divergences,
    toleranceMs: options.toleranceMs,
  };
}

function describe(fill: ParityFill | undefined): string {
  if (fill === undefined) return '-';
  return `${new Date(fill.time).toISOString()} ${fill.strategy || '(none)'} ${fill.symbol} ${fill.side} ${fill.qty} @ ${fill.price}`;
}

/** The report as text for a person: counts, then the first divergences. */
export function formatParityReport(report: ParityReport): string {
  const head = report.identical
    ? `parity: identical: ${report.liveFills} fills on both sides (time tolerance ${report.toleranceMs} ms)`
    : `parity: DIVERGENT: paper ${report.liveFills} fills, backtest ${report.backtestFills}; first ${report.matched} agree, ${report.divergent} positions differ (time tolerance ${report.toleranceMs} ms)`;
  const lines = [head];
  for (const d of report.divergences) {
    const what = d.kind === 'mismatch' ? `differs in ${d.fields.join(', ')}` : d.kind === 'live-only' ? 'paper only' : 'backtest only';
    lines.push(`  #${d.index} ${what}`, `    paper:    ${describe(d.live)}`, `    backtest: ${describe(d.backtest)}`);
  }
  if (!report.identical) lines.push(...KNOWN_CAUSES);
  return `${lines.join('\n')}\n`;
}

/** Why the two runs can differ today, printed with every divergence (see the README's parity section). */
const KNOWN_CAUSES: readonly string[] = [
  'why they can differ:',
  '  - market data: the paper daemon sees the book, trades and prices only at its REST polls (market: intervals);',
  '    the backtest replays every simulator event to the strategies, so a strategy reacting to each update',
  '    (a quoter) acts at other moments and prices;',
  '  - latency: the paper side waits for real loopback round trips, the backtest applies the fixed latency model;',
  '  - start: the simulator warms its market up for a minute before the daemon starts; that minute is not recorded.',
];
