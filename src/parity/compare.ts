import type { Side } from '../model/instrument.js';
import type { FillRecord, OrderRow } from '../backtest/types.js';

/** One fill or one order placement as the parity check compares it. */
export interface ParityRow {
  readonly time: number;
  readonly strategy: string;
  readonly symbol: string;
  readonly side: Side;
  /** Fill price, or the order's limit price (0 for a market order). */
  readonly price: string;
  /** Contracts. */
  readonly qty: string;
}

export type ParityField = 'strategy' | 'symbol' | 'side' | 'price' | 'qty' | 'time';

export interface ParityDivergence {
  /** Position in the time-ordered sequences. */
  readonly index: number;
  /** A row on one side only ('live' or 'backtest'), or a pair that differs in `fields`. */
  readonly kind: 'mismatch' | 'live-only' | 'backtest-only';
  readonly fields: readonly ParityField[];
  readonly live?: ParityRow;
  readonly backtest?: ParityRow;
}

/** One sequence (fills, or order placements) of both sides, compared position by position. */
export interface SequenceComparison {
  readonly identical: boolean;
  readonly live: number;
  readonly backtest: number;
  /** Leading rows that agree (the sequences are identical up to here). */
  readonly matched: number;
  /** Total number of differing positions. */
  readonly divergent: number;
  /** The first `limit` divergences. */
  readonly divergences: readonly ParityDivergence[];
}

export interface ParityReport {
  /** Both the fills and the order placements agree. */
  readonly identical: boolean;
  readonly fills: SequenceComparison;
  readonly orders: SequenceComparison;
  readonly toleranceMs: number;
}

export interface CompareOptions {
  /** How far apart in time two rows may be and still agree. */
  readonly toleranceMs: number;
  /** How many divergences each sequence lists (default 10). */
  readonly limit?: number;
}

export function fillRow(fill: FillRecord): ParityRow {
  return { time: fill.time, strategy: fill.strategy, symbol: fill.symbol, side: fill.side, price: fill.price.toString(), qty: fill.qty.toString() };
}

export function orderRow(row: OrderRow): ParityRow {
  const { order } = row;
  return { time: row.createTime, strategy: row.strategy, symbol: order.symbol, side: order.side, price: order.price.toString(), qty: order.quantity.toString() };
}

/** Time order; ties by strategy, symbol, side, price and quantity, so that both sides order simultaneous rows alike. */
function ordered(rows: readonly ParityRow[]): ParityRow[] {
  const key = (r: ParityRow): string => `${r.strategy}\u0000${r.symbol}\u0000${r.side}\u0000${r.price}\u0000${r.qty}`;
  return [...rows].sort((a, b) => a.time - b.time || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

function differences(live: ParityRow, backtest: ParityRow, toleranceMs: number): ParityField[] {
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

/** Compares two sequences position by position in time order. */
export function compareSequences(liveRows: readonly ParityRow[], backtestRows: readonly ParityRow[], options: CompareOptions): SequenceComparison {
  const a = ordered(liveRows);
  const b = ordered(backtestRows);
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
  return { identical: divergent === 0, live: a.length, backtest: b.length, matched: matched ?? a.length, divergent, divergences };
}

export interface ParitySides {
  readonly fills: readonly FillRecord[];
  readonly orders: readonly OrderRow[];
}

/** Compares the paper run's fills and order placements with the backtest's. */
export function compareRuns(live: ParitySides, backtest: ParitySides, options: CompareOptions): ParityReport {
  const fills = compareSequences(live.fills.map(fillRow), backtest.fills.map(fillRow), options);
  const orders = compareSequences(live.orders.map(orderRow), backtest.orders.map(orderRow), options);
  return { identical: fills.identical && orders.identical, fills, orders, toleranceMs: options.toleranceMs };
}

function describe(row: ParityRow | undefined): string {
  if (row === undefined) return '-';
  return `${new Date(row.time).toISOString()} ${row.strategy || '(none)'} ${row.symbol} ${row.side} ${row.qty} @ ${row.price}`;
}

function sequenceLines(what: string, s: SequenceComparison): string[] {
  if (s.identical) return [`  ${what}: identical, ${s.live} on both sides`];
  const lines = [`  ${what}: paper ${s.live}, backtest ${s.backtest}; first ${s.matched} agree, ${s.divergent} positions differ`];
  for (const d of s.divergences) {
    const kind = d.kind === 'mismatch' ? `differs in ${d.fields.join(', ')}` : d.kind === 'live-only' ? 'paper only' : 'backtest only';
    lines.push(`    #${d.index} ${kind}`, `      paper:    ${describe(d.live)}`, `      backtest: ${describe(d.backtest)}`);
  }
  return lines;
}

/** The report as text for a person: the verdict, then each sequence with its first divergences. */
export function formatParityReport(report: ParityReport): string {
  const head = report.identical
    ? `parity: identical: ${report.fills.live} fills and ${report.orders.live} orders on both sides (time tolerance ${report.toleranceMs} ms)`
    : `parity: DIVERGENT (time tolerance ${report.toleranceMs} ms)`;
  const lines = [head, ...sequenceLines('fills', report.fills), ...sequenceLines('orders placed', report.orders)];
  if (!report.identical) lines.push(...KNOWN_CAUSES);
  return `${lines.join('\n')}\n`;
}

/** Why the two runs can still differ, printed with every divergence (see the README's parity section). */
const KNOWN_CAUSES: readonly string[] = [
  'why they can differ:',
  '  - wall-clock runs: a request takes real loopback time (about a millisecond) on top of the simulated',
  '    latency, so an order can reach the simulator after a market event that the backtest applies after it;',
  "  - a latency jitter (the simulator's latencyJitterMs) the backtest's fixed model does not reproduce;",
  '  - a strategy that reads the wall clock or randomness instead of its context (clock, scheduler).',
];
