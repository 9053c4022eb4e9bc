import { existsSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { InvariantError } from '../../core/errors.js';
import type { ChannelLevel, FundingPeriod, MarketChannel, MarketEvent } from '../../sim/market-stream/events.js';
import { decodeEventLine } from '../../sim/market-stream/event-lines.js';
import type { MarketStreamHeader } from '../../sim/market-stream/format.js';
import { MARKET_STREAM_FORMAT, MARKET_STREAM_VERSION } from '../../sim/market-stream/format.js';
import type { SimInstrument } from '../../sim/market-stream/instruments.js';
import { lineBatches } from '../../sim/market-stream/line-batches.js';
import { MarketStreamWriter } from '../../sim/market-stream/writer.js';
import type { FundingRow } from './pages.js';
import type { DownloadParts } from './parts.js';
import type { DownloadChannel, DownloadPlan } from './plan.js';

const HOUR = 3_600_000;

/** The recording's header: bars (contract, mark, index) are bar-level, recent trades sparse, funding every settlement. */
export function downloadHeader(plan: DownloadPlan, instruments: readonly SimInstrument[]): MarketStreamHeader {
  const channels: MarketChannel[] = [];
  const levels: Partial<Record<MarketChannel, ChannelLevel>> = {};
  if (plan.channels.some((c) => c === 'contract' || c === 'mark' || c === 'index')) {
    channels.push('bar');
    levels.bar = 'bar';
  }
  if (plan.channels.includes('funding')) channels.push('funding');
  if (plan.channels.includes('trades')) {
    channels.push('trade');
    levels.trade = 'sparse';
  }
  return {
    format: MARKET_STREAM_FORMAT,
    version: MARKET_STREAM_VERSION,
    symbols: plan.symbols,
    channels,
    instruments,
    startTime: plan.firstOpen,
    source: 'download',
    levels,
    barMs: plan.intervalMs,
  };
}

/**
 * Writes the recording from a complete parts directory: every symbol's channels merged in time order
 * (equal times: symbols in the order given, then contract, mark, index, funding, trades), through a
 * temporary file in the parts directory renamed onto `out` once complete. The same parts give the same bytes.
 */
export async function mergeParts(parts: DownloadParts, out: string): Promise<{ readonly events: number }> {
  const { plan } = parts;
  const instruments = await withInitialPrices(parts);
  const header = downloadHeader(plan, instruments);
  const sources: Source[] = [];
  for (const symbol of plan.symbols) {
    for (const channel of plan.channels) {
      const file = parts.file(symbol, channel);
      sources.push(channel === 'funding' ? fromList(fundingEvents(symbol, plan, readFunding(file))) : fromFile(file));
    }
  }
  // Inside the parts directory, named so that a .gz output is gzipped (the writer goes by the name).
  const temporary = join(parts.dir, out.endsWith('.gz') ? 'merged.jsonl.gz' : 'merged.jsonl');
  const writer = MarketStreamWriter.open(temporary, header, { flush: 'buffered' });
  let events = 0;
  try {
    const heads = await Promise.all(sources.map((s) => s.next()));
    for (;;) {
      let pick = -1;
      for (let i = 0; i < heads.length; i++) {
        const head = heads[i];
        if (head !== undefined && (pick < 0 || head.ts < heads[pick]!.ts)) pick = i;
      }
      if (pick < 0) break;
      const event = heads[pick]!;
      if (!writer.write(event)) await writer.drain();
      events++;
      heads[pick] = await sources[pick]!.next();
    }
  } finally {
    await writer.close();
  }
  renameSync(temporary, out);
  return { events };
}

interface Source {
  next(): Promise<MarketEvent | undefined>;
  close(): Promise<void>;
}

function fromList(events: readonly MarketEvent[]): Source {
  let i = 0;
  return { next: () => Promise.resolve(events[i++]), close: () => Promise.resolve() };
}

function fromFile(file: string): Source {
  const batches = lineBatches(file);
  let buffer: string[] = [];
  let pos = 0;
  return {
    async next(): Promise<MarketEvent | undefined> {
      while (pos >= buffer.length) {
        const read = await batches.next();
        if (read.done === true) return undefined;
        buffer = read.value.filter((l) => l !== '');
        pos = 0;
      }
      const text = buffer[pos++]!;
      const event = decodeEventLine(JSON.parse(text) as unknown);
      if (event === undefined) throw new InvariantError('DOWNLOAD_PART', `${file}: a line the download wrote is not an event: ${text}`);
      return event;
    },
    close: async () => {
      await batches.return(undefined);
    },
  };
}

function readFunding(file: string): FundingRow[] {
  if (!existsSync(file)) return [];
  const rows = new Map<string, FundingRow>();
  for (const text of readFileSync(file, 'utf8').split('\n')) {
    if (text === '') continue;
    const row = JSON.parse(text) as FundingRow;
    rows.set(row.id, row);
  }
  return [...rows.values()].sort((a, b) => a.settleTime - b.settleTime);
}

/**
 * Settled funding as the stream's funding events (FundingEvent: the rate charged at nextFundingTime;
 * an event whose nextFundingTime moves past the previous one settles the previous): each settlement's
 * rate is announced at the settlement before it (the first at the range's start, or one period before
 * it), and one more event at the last settlement makes it settle in a replay (it repeats the last rate
 * for the period after the range, which the download does not know).
 */
export function fundingEvents(symbol: string, plan: DownloadPlan, rows: readonly FundingRow[]): MarketEvent[] {
  const events: MarketEvent[] = [];
  const end = plan.lastOpen + plan.intervalMs;
  let previous: FundingRow | undefined;
  for (const row of rows) {
    const period = fundingPeriod(row.period, previous === undefined ? undefined : row.settleTime - previous.settleTime);
    const announced = previous?.settleTime ?? Math.max(plan.firstOpen, row.settleTime - periodMs(period));
    events.push({ type: 'funding', ts: Math.min(announced, row.settleTime), symbol, rate: row.rate, nextFundingTime: row.settleTime, period });
    previous = row;
  }
  if (previous !== undefined && previous.settleTime <= end) {
    const period = fundingPeriod(previous.period, undefined);
    events.push({ type: 'funding', ts: previous.settleTime, symbol, rate: previous.rate, nextFundingTime: previous.settleTime + periodMs(period), period });
  }
  return events;
}

function fundingPeriod(text: string | undefined, gapMs: number | undefined): FundingPeriod {
  if (text === '1H' || text === '4H' || text === '8H') return text;
  if (gapMs === HOUR) return '1H';
  if (gapMs === 4 * HOUR) return '4H';
  return '8H';
}

function periodMs(period: FundingPeriod): number {
  return Number(period.slice(0, -1)) * HOUR;
}

/** The plan's instruments, each starting at its first contract bar's open (a synthetic market would start there). */
async function withInitialPrices(parts: DownloadParts): Promise<SimInstrument[]> {
  const out: SimInstrument[] = [];
  for (const instrument of parts.instruments) {
    let first: MarketEvent | undefined;
    if (parts.plan.channels.includes('contract' satisfies DownloadChannel)) {
      const source = fromFile(parts.file(instrument.symbol, 'contract'));
      first = await source.next();
      await source.close();
    }
    out.push(first?.type === 'bar' ? { ...instrument, initialPrice: first.open } : instrument);
  }
  return out;
}
