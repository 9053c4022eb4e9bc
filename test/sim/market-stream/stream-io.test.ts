import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { MarketEvent } from '../../../src/sim/market-stream/events.js';
import type { MarketStreamHeader } from '../../../src/sim/market-stream/format.js';
import { MarketGenerator } from '../../../src/sim/market-stream/generator.js';
import { BTC_SWAP_USDT, ETH_SWAP_USDT } from '../../../src/sim/market-stream/instruments.js';
import type { MarketStreamReaderOptions } from '../../../src/sim/market-stream/reader.js';
import { MarketStreamReader, readMarketStream } from '../../../src/sim/market-stream/reader.js';
import type { MarketStreamWarning } from '../../../src/sim/market-stream/stream-error.js';
import { MarketStreamError } from '../../../src/sim/market-stream/stream-error.js';
import { MarketStreamWriter } from '../../../src/sim/market-stream/writer.js';

const START = Date.UTC(2026, 0, 5, 10);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-stream-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function sample(minutes = 2): { header: MarketStreamHeader; events: MarketEvent[] } {
  const generator = new MarketGenerator({ seed: 99, startTime: START, instruments: [BTC_SWAP_USDT, ETH_SWAP_USDT] });
  return { header: generator.header(), events: [...generator.eventsUntil(START + minutes * 60_000)] };
}

async function write(file: string, header: MarketStreamHeader, events: readonly MarketEvent[], flush: 'line' | 'buffered' = 'line'): Promise<string> {
  const path = join(dir, file);
  const writer = MarketStreamWriter.open(path, header, { flush });
  for (const event of events) if (!writer.write(event)) await writer.drain();
  await writer.close();
  return path;
}

async function readAll(path: string, options: MarketStreamReaderOptions = {}): Promise<MarketEvent[]> {
  const events: MarketEvent[] = [];
  for await (const event of readMarketStream(path, options)) events.push(event);
  return events;
}

async function readError(path: string): Promise<MarketStreamError> {
  try {
    await readAll(path);
  } catch (error) {
    if (error instanceof MarketStreamError) return error;
    throw error;
  }
  throw new Error('expected the read to fail');
}

function lines(path: string): string[] {
  return readFileSync(path, 'utf8').split('\n');
}

describe('market stream files: round trip', () => {
  const { header, events } = sample();

  it.each([
    ['plain, flushed per line', 'rt.jsonl', 'line'],
    ['plain, buffered', 'rt-buffered.jsonl', 'buffered'],
    ['gzip, flushed per line', 'rt.jsonl.gz', 'line'],
    ['gzip, buffered', 'rt-buffered.jsonl.gz', 'buffered'],
  ] as const)('%s: reads back the header and every event unchanged', async (_name, file, flush) => {
    const path = await write(file, header, events, flush);
    const reader = await MarketStreamReader.open(path);
    expect(reader.header).toEqual(header);
    const read: MarketEvent[] = [];
    for await (const event of reader) read.push(event);
    expect(read).toEqual(events);
  });

  it('gzips files named .gz and writes a header line then one compact event per line', async () => {
    const gz = await write('shape.jsonl.gz', header, events.slice(0, 50), 'buffered');
    const text = gunzipSync(readFileSync(gz)).toString('utf8');
    const [first, second] = text.split('\n');
    expect(JSON.parse(first!)).toMatchObject({ format: 'stratd-market-stream', version: 1, symbols: ['BTC-SWAP-USDT', 'ETH-SWAP-USDT'], source: 'generator', seed: 99, startTime: START });
    expect(first!.startsWith('{"format":"stratd-market-stream","version":1,"symbols":')).toBe(true);
    expect(second).toMatch(/^\{"e":"depth","t":\d+,"s":"BTC-SWAP-USDT","b":\[\["[\d.]+","[\d.]+"\],/);
    expect(text.endsWith('\n')).toBe(true);
    expect(text.split('\n')).toHaveLength(52);
  });

  it('yields events in batches for replay loops', async () => {
    const path = await write('batches.jsonl', header, events);
    const reader = await MarketStreamReader.open(path);
    let count = 0;
    for await (const batch of reader.eventBatches()) count += batch.length;
    expect(count).toBe(events.length);
  });

  it('a recording stays readable while it is being written (per-line flush, plain and gzip)', async () => {
    for (const file of ['live.jsonl', 'live.jsonl.gz']) {
      const path = join(dir, file);
      const writer = MarketStreamWriter.open(path, header);
      for (const event of events.slice(0, 300)) writer.write(event);
      await writer.sync();
      // Not closed: as if the process were killed now.
      expect(await readAll(path)).toEqual(events.slice(0, 300));
      await writer.close();
    }
  });
});

describe('market stream files: damage', () => {
  const { header, events } = sample(1);

  it('skips a torn last line with a warning', async () => {
    const path = await write('torn.jsonl', header, events);
    truncateSync(path, statSync(path).size - 7);
    const warnings: MarketStreamWarning[] = [];
    const read = await readAll(path, { onWarning: (w) => warnings.push(w) });
    expect(read).toEqual(events.slice(0, -1));
    expect(warnings).toEqual([expect.objectContaining({ code: 'TORN_LAST_LINE', file: path, line: events.length + 1 })]);
  });

  it('reads a gzip recording cut short up to where it stops', async () => {
    const path = await write('torn.jsonl.gz', header, events);
    truncateSync(path, Math.floor(statSync(path).size * 0.6));
    const warnings: MarketStreamWarning[] = [];
    const read = await readAll(path, { onWarning: (w) => warnings.push(w) });
    expect(read.length).toBeGreaterThan(events.length * 0.4);
    expect(read.length).toBeLessThan(events.length);
    expect(read).toEqual(events.slice(0, read.length));
    expect(warnings.length).toBeLessThanOrEqual(1);
  });

  it('a bad line in the middle is an error naming the file and line', async () => {
    const path = await write('middle.jsonl', header, events);
    const text = lines(path);
    text[4] = text[4]!.slice(0, 20);
    writeFileSync(path, text.join('\n'));
    const error = await readError(path);
    expect(error.code).toBe('BAD_LINE');
    expect(error.message).toBe(`${path}:5: not valid JSON`);
  });

  it('a valid JSON line that is not an event says which key is wrong', async () => {
    const path = await write('not-event.jsonl', header, events);
    const text = lines(path);
    text[2] = text[2]!.replace(/"t":\d+/, '"t":"soon"');
    writeFileSync(path, text.join('\n'));
    const error = await readError(path);
    expect(error.message).toMatch(new RegExp(`^${path.replace(/[.\\/]/g, '\\$&')}:3: not a valid event: "t": `));
  });

  it('a header of another version gets a clear message', async () => {
    const path = join(dir, 'v2.jsonl');
    writeFileSync(path, `${JSON.stringify({ ...header, version: 2 })}\n`);
    const error = await readError(path);
    expect(error.code).toBe('UNSUPPORTED_VERSION');
    expect(error.message).toBe(`${path}:1: recording format version 2 is not supported; this stratd reads version 1`);
  });

  it('a file of another kind is not taken for a market stream', async () => {
    const other = join(dir, 'other.jsonl');
    writeFileSync(other, '{"t":1,"b":[]}\n');
    expect((await readError(other)).code).toBe('NOT_A_MARKET_STREAM');
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '');
    expect((await readError(empty)).message).toContain('the file is empty');
    expect((await readError(join(dir, 'missing.jsonl'))).message).toContain('no such file');
  });

  it('a header missing its instruments is refused with the field named', async () => {
    const path = join(dir, 'no-instruments.jsonl');
    writeFileSync(path, `${JSON.stringify({ ...header, instruments: [] })}\n`);
    const error = await readError(path);
    expect(error.code).toBe('BAD_HEADER');
    expect(error.message).toContain('header field instruments: needs exactly one instrument for BTC-SWAP-USDT');
  });

  it('time going backwards, undeclared symbols and channels are errors with the line', async () => {
    const path = await write('order.jsonl', header, events.slice(0, 10));
    appendFileSync(path, `{"e":"mark","t":${START - 1},"s":"BTC-SWAP-USDT","p":"1"}\n`);
    const error = await readError(path);
    expect([error.code, error.line]).toEqual(['OUT_OF_ORDER', 12]);

    const symbolPath = await write('symbol.jsonl', header, events.slice(0, 10));
    appendFileSync(symbolPath, `{"e":"mark","t":${START + 5000},"s":"DOGE-SWAP-USDT","p":"1"}\n{"e":"mark","t":${START + 5000},"s":"BTC-SWAP-USDT","p":"1"}\n`);
    expect((await readError(symbolPath)).code).toBe('UNKNOWN_SYMBOL');

    const tradesOnly = { ...header, channels: ['trade' as const] };
    const channelPath = await write('channel.jsonl', tradesOnly, events.filter((e) => e.type === 'trade').slice(0, 3));
    appendFileSync(channelPath, `{"e":"mark","t":${START + 60_000},"s":"BTC-SWAP-USDT","p":"1"}\n{"e":"mark","t":${START + 60_000},"s":"BTC-SWAP-USDT","p":"1"}\n`);
    expect((await readError(channelPath)).code).toBe('UNDECLARED_CHANNEL');
  });

  it('the writer refuses what the reader would refuse', async () => {
    const writer = MarketStreamWriter.open(join(dir, 'refuse.jsonl'), header);
    expect(() => writer.write({ type: 'mark', ts: START, symbol: 'BTC-SWAP-USDT', price: '1e5' })).toThrow('not a valid event: "p": expected unsigned decimal text');
    expect(() => writer.write({ type: 'mark', ts: START - 1, symbol: 'BTC-SWAP-USDT', price: '1' })).toThrow(/OUT_OF_ORDER|is before/);
    expect(() => writer.write({ type: 'mark', ts: START, symbol: 'XRP-SWAP-USDT', price: '1' })).toThrow('symbol XRP-SWAP-USDT is not in the header');
    writer.write({ type: 'mark', ts: START + 1, symbol: 'BTC-SWAP-USDT', price: '1' });
    expect(() => writer.write({ type: 'mark', ts: START, symbol: 'BTC-SWAP-USDT', price: '1' })).toThrow('is before');
    await writer.close();
    expect(() => MarketStreamWriter.open(join(dir, 'bad-header.jsonl'), { ...header, symbols: [] })).toThrow(MarketStreamError);
  });
});
