import type { ChannelLevel, FundingPeriod, MarketChannel, MarketEvent } from '../../sim/market-stream/events.js';
import { iso } from '../../core/iso-time.js';
import { Cadence } from './cadence.js';
import type { QualityFinding, QualityKind, QualityThresholds } from './types.js';
import { DEFAULT_QUALITY_THRESHOLDS } from './types.js';

/** Intervals a stream must have shown before a silence is judged against its median. */
const MIN_SAMPLES = 20;
/** Recent trade ids kept per symbol to catch a trade written twice. */
const TRADE_ID_WINDOW = 10_000;
const PERIOD_MS: Readonly<Record<FundingPeriod, number>> = { '1H': 3_600_000, '4H': 4 * 3_600_000, '8H': 8 * 3_600_000 };
/** Channels with a regular publishing cadence: their silences are gaps. Trades pause in a quiet market. */
const CADENCED: ReadonlySet<MarketChannel> = new Set(['depth', 'mark', 'index']);

export interface QualityScannerOptions {
  readonly channels: readonly MarketChannel[];
  readonly levels?: Readonly<Partial<Record<MarketChannel, ChannelLevel>>>;
  readonly thresholds?: QualityThresholds;
  /** Called once per finding, as soon as it is certain. */
  readonly onFinding: (finding: QualityFinding) => void;
}

interface StreamState {
  lastTs: number;
  lastLine: number | undefined;
  signature: string;
  readonly cadence: Cadence;
  /** Silences seen before the cadence was known: judged once it is. */
  readonly pending: Array<{ from: number; to: number; line: number | undefined }>;
}

interface BookState {
  signature: string;
  since: number;
  sinceLine: number | undefined;
  lastSeen: number;
  trades: number;
}

interface TradeState {
  readonly ids: Set<string>;
  readonly order: string[];
  last: bigint | undefined;
}

/**
 * Finds gaps, duplicates, out-of-order events and frozen books in a market stream as it goes, one event
 * at a time: the recorder feeds it what it writes, a recording scan what it reads. The same events give
 * the same findings in the same order.
 *
 * - gap: a depth, mark or index stream (trades too, when a recording has none of those) silent for more
 *   than `gapFactor` times its median interval and more than `minGapMs`; a bar missing from a series of
 *   bars; a funding settlement skipped (nextFundingTime jumping by more than one period).
 * - duplicate: a trade id seen again; an event equal to the previous one of its stream at the same time;
 *   two bars with one open time.
 * - out-of-order: time going backwards in the stream; a trade id lower than the previous trade's.
 * - frozen-book: depth snapshots unchanged for `frozenMs` while `frozenTrades` trades printed.
 */
export class QualityScanner {
  private readonly thresholds: QualityThresholds;
  private readonly streams = new Map<string, StreamState>();
  private readonly books = new Map<string, BookState>();
  private readonly trades = new Map<string, TradeState>();
  private readonly gapChannels: ReadonlySet<MarketChannel>;
  private lastTs = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: QualityScannerOptions) {
    this.thresholds = options.thresholds ?? DEFAULT_QUALITY_THRESHOLDS;
    const tick = options.channels.filter((c) => (options.levels?.[c] ?? 'tick') === 'tick');
    const cadenced = tick.filter((c) => CADENCED.has(c));
    this.gapChannels = new Set(cadenced.length > 0 ? cadenced : tick.filter((c) => c === 'trade'));
  }

  /** One event, in stream order; `line` where it was read, if known. */
  observe(event: MarketEvent, line?: number): void {
    if (event.ts < this.lastTs) {
      this.report('out-of-order', event.symbol, streamOf(event), line, event.ts, this.lastTs, `event time ${iso(event.ts)} is before the previous event's ${iso(this.lastTs)}`);
      return;
    }
    this.lastTs = event.ts;
    switch (event.type) {
      case 'bar':
        this.bar(event, line);
        return;
      case 'trade':
        this.trade(event, line);
        this.cadenced(event, line, '');
        return;
      case 'depth': {
        const signature = JSON.stringify([event.bids, event.asks]);
        if (this.cadenced(event, line, signature)) this.depth(event.symbol, event.ts, signature, line);
        return;
      }
      case 'mark':
      case 'index':
        this.cadenced(event, line, event.price);
        return;
      case 'funding':
        this.funding(event, line);
        return;
    }
  }

  /** The end of the stream: open frozen spans and silences not judged yet are settled. */
  finish(): void {
    for (const [symbol, book] of this.books) this.closeBook(symbol, book);
    this.books.clear();
    for (const [key, state] of this.streams) this.judgePending(key, state);
  }

  /** Tracks a stream's cadence and duplicates; false when the event repeats the previous one. */
  private cadenced(event: MarketEvent, line: number | undefined, signature: string): boolean {
    const key = `${event.symbol} ${event.type}`;
    const state = this.streams.get(key);
    if (state === undefined) {
      this.streams.set(key, { lastTs: event.ts, lastLine: line, signature, cadence: new Cadence(), pending: [] });
      return true;
    }
    if (event.ts === state.lastTs && signature !== '' && signature === state.signature) {
      this.report('duplicate', event.symbol, event.type, line, event.ts, event.ts, `the same ${event.type} event twice at ${iso(event.ts)}`);
      return false;
    }
    const interval = event.ts - state.lastTs;
    if (event.ts > state.lastTs && this.gapChannels.has(event.type)) {
      state.cadence.add(interval);
      if (interval > this.thresholds.minGapMs) state.pending.push({ from: state.lastTs, to: event.ts, line });
      if (state.pending.length > 0 && state.cadence.samples >= MIN_SAMPLES) this.judgePending(key, state);
    }
    state.lastTs = event.ts;
    state.lastLine = line;
    state.signature = signature;
    return true;
  }

  private judgePending(key: string, state: StreamState): void {
    const median = state.cadence.median();
    if (median === undefined) return;
    const limit = Math.max(this.thresholds.minGapMs, this.thresholds.gapFactor * median);
    const [symbol = '', stream = ''] = key.split(' ');
    for (const silence of state.pending.splice(0)) {
      const span = silence.to - silence.from;
      if (span > limit) this.report('gap', symbol, stream, silence.line, silence.from, silence.to, `no ${stream} for ${seconds(span)} (normally every ${seconds(median)}) from ${iso(silence.from)} to ${iso(silence.to)}`);
    }
  }

  private trade(event: Extract<MarketEvent, { type: 'trade' }>, line: number | undefined): void {
    let state = this.trades.get(event.symbol);
    if (state === undefined) {
      state = { ids: new Set(), order: [], last: undefined };
      this.trades.set(event.symbol, state);
    }
    const book = this.books.get(event.symbol);
    if (book !== undefined) book.trades++;
    if (state.ids.has(event.id)) {
      this.report('duplicate', event.symbol, 'trade', line, event.ts, event.ts, `trade ${event.id} recorded twice (again at ${iso(event.ts)})`);
      return;
    }
    state.ids.add(event.id);
    state.order.push(event.id);
    if (state.order.length > TRADE_ID_WINDOW) state.ids.delete(state.order.shift() ?? '');
    if (!/^\d{1,30}$/.test(event.id)) return;
    const id = BigInt(event.id);
    if (state.last !== undefined && id < state.last) {
      this.report('out-of-order', event.symbol, 'trade', line, event.ts, event.ts, `trade ${event.id} at ${iso(event.ts)} comes after trade ${state.last.toString()}`);
      return;
    }
    state.last = id;
  }

  private depth(symbol: string, ts: number, signature: string, line: number | undefined): void {
    const book = this.books.get(symbol);
    if (book !== undefined && book.signature === signature) {
      book.lastSeen = ts;
      return;
    }
    if (book !== undefined) this.closeBook(symbol, book);
    this.books.set(symbol, { signature, since: ts, sinceLine: line, lastSeen: ts, trades: 0 });
  }

  private closeBook(symbol: string, book: BookState): void {
    const span = book.lastSeen - book.since;
    if (span >= this.thresholds.frozenMs && book.trades >= this.thresholds.frozenTrades) {
      this.report('frozen-book', symbol, 'depth', book.sinceLine, book.since, book.lastSeen, `the book stayed the same for ${seconds(span)} from ${iso(book.since)} while ${book.trades} trades printed`);
    }
  }

  private bar(event: Extract<MarketEvent, { type: 'bar' }>, line: number | undefined): void {
    const key = `${event.symbol} bar/${event.source}`;
    const state = this.streams.get(key);
    this.streams.set(key, { lastTs: event.ts, lastLine: line, signature: '', cadence: state?.cadence ?? new Cadence(), pending: [] });
    if (state === undefined) return;
    const stream = `bar/${event.source}`;
    if (event.ts === state.lastTs) {
      this.report('duplicate', event.symbol, stream, line, event.ts, event.ts, `two ${event.source} bars open at ${iso(event.ts)}`);
      return;
    }
    const expected = state.lastTs + event.durationMs;
    if (event.ts > expected) {
      const missing = Math.round((event.ts - expected) / event.durationMs);
      this.report('gap', event.symbol, stream, line, state.lastTs, event.ts, `${missing} ${event.source} bar${missing === 1 ? '' : 's'} missing between ${iso(state.lastTs)} and ${iso(event.ts)}`);
    }
  }

  private funding(event: Extract<MarketEvent, { type: 'funding' }>, line: number | undefined): void {
    const key = `${event.symbol} funding`;
    const state = this.streams.get(key);
    const signature = `${event.rate} ${event.nextFundingTime}`;
    this.streams.set(key, { lastTs: event.nextFundingTime, lastLine: line, signature, cadence: state?.cadence ?? new Cadence(), pending: [] });
    if (state === undefined) return;
    if (event.nextFundingTime < state.lastTs) {
      this.report('out-of-order', event.symbol, 'funding', line, event.ts, event.ts, `next funding time ${iso(event.nextFundingTime)} goes back from ${iso(state.lastTs)}`);
      return;
    }
    const skipped = Math.round((event.nextFundingTime - state.lastTs) / PERIOD_MS[event.period]) - 1;
    if (skipped > 0) {
      this.report('gap', event.symbol, 'funding', line, state.lastTs, event.nextFundingTime, `${skipped} funding settlement${skipped === 1 ? '' : 's'} missing between ${iso(state.lastTs)} and ${iso(event.nextFundingTime)}`);
    }
  }

  private report(kind: QualityKind, symbol: string, stream: string, line: number | undefined, from: number, to: number, detail: string): void {
    this.options.onFinding({ kind, symbol, stream, ...(line === undefined ? {} : { line }), from, to, detail });
  }
}

function streamOf(event: MarketEvent): string {
  return event.type === 'bar' ? `bar/${event.source}` : event.type;
}

function seconds(ms: number): string {
  return ms >= 120_000 ? `${(ms / 60_000).toFixed(1)} min` : `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1)} s`;
}
