import { appendFileSync, readFileSync } from 'node:fs';
import { parseRecordings, runBacktest } from '../../src/backtest/runner.js';
import type { BacktestOptions, BacktestResult } from '../../src/backtest/runner.js';
import { OUTPUT_FILES, writeBacktestOutputs } from '../../src/report/outputs.js';
import { ParsedRecording } from '../../src/recording/parsed-recording.js';
import type { RecordingFeed, RecordingReplay } from '../../src/recording/feed.js';
import { RecordingFileFeed } from '../../src/recording/feed.js';
import { dec } from '../../src/core/decimal.js';
import { InvariantError } from '../../src/core/errors.js';
import type { StrategyInstance } from '../../src/engine/strategy/instance.js';
import type { MarketEvent } from '../../src/sim/market-stream/events.js';
import { MarketStreamReader } from '../../src/sim/market-stream/reader.js';
import type { MarketStreamWarning } from '../../src/sim/market-stream/stream-error.js';
import { MarketStreamWriter } from '../../src/sim/market-stream/writer.js';
import breakout from '../../strategies/breakout/index.js';
import quoter from '../../strategies/spread-quoter/index.js';
import { ACCOUNT, mark, T0, tempDir, writeGenerated, writeRecording } from './backtest-support.js';

const tmp = tempDir();
afterAll(() => tmp.remove());

function examples(): StrategyInstance[] {
  return [
    { id: 'quoter-btc', symbols: ['BTC-SWAP-USDT'], definition: quoter, params: quoter.params.parse({ quantity: 1, halfSpreadBps: 2, requoteBps: 2, maxPosition: 5 }), limits: { maxPosition: dec(10), maxOpenOrders: 4 } },
    { id: 'breakout-eth', symbols: ['ETH-SWAP-USDT'], definition: breakout, params: breakout.params.parse({ quantity: 10, windowMs: 20_000 }), limits: { maxPosition: dec(50) } },
  ];
}

async function backtest(recordings: readonly string[], extra: Partial<BacktestOptions> = {}): Promise<BacktestResult> {
  const result = await runBacktest({ strategies: examples(), risk: { maxOrdersPerMinute: 120 }, recordings, account: ACCOUNT, ...extra });
  if (!result.ok) throw result.error;
  return result.value;
}

async function parsed(recordings: readonly string[], to?: number): Promise<RecordingReplay> {
  const recording = await parseRecordings(recordings, to);
  if (!recording.ok) throw recording.error;
  return recording.value;
}

function expectSameOutputs(name: string, expected: BacktestResult, actual: BacktestResult): void {
  writeBacktestOutputs(tmp.path(`${name}-files`), expected);
  writeBacktestOutputs(tmp.path(`${name}-parsed`), actual);
  expect(actual.summary.fillsSha256).toBe(expected.summary.fillsSha256);
  for (const file of OUTPUT_FILES) expect(readFileSync(tmp.path(`${name}-parsed/${file}`), 'utf8')).toBe(readFileSync(tmp.path(`${name}-files/${file}`), 'utf8'));
}

/** Every event of a feed, in the order it hands them out. */
async function drain(feed: RecordingFeed): Promise<MarketEvent[]> {
  const events: MarketEvent[] = [];
  await feed.load(Number.POSITIVE_INFINITY);
  while (feed.peekTime() !== undefined) events.push(feed.next());
  return events;
}

let whole: string;
let parts: string[];
beforeAll(async () => {
  whole = await writeGenerated(tmp.path('market.jsonl'), 42, 6);
  // One file per symbol: replaying both merges them again.
  const reader = await MarketStreamReader.open(whole);
  const writers = reader.header.symbols.map((symbol) =>
    MarketStreamWriter.open(tmp.path(`${symbol}.jsonl`), { ...reader.header, symbols: [symbol], instruments: reader.header.instruments.filter((i) => i.symbol === symbol) }, { flush: 'buffered' }),
  );
  for await (const event of reader) writers.find((w) => w.path.endsWith(`${event.symbol}.jsonl`))!.write(event);
  for (const writer of writers) await writer.close();
  parts = writers.map((w) => w.path);
});

describe('ParsedRecording', () => {
  it('gives byte-identical outputs to a backtest on the files, twice in a row from the same parse', async () => {
    const onFiles = await backtest([whole]);
    expect(onFiles.fills.length).toBeGreaterThan(5);
    const recording = await parsed([whole]);
    expect(recording.size).toBe(onFiles.summary.events);
    expectSameOutputs('whole-1', onFiles, await backtest([whole], { recording }));
    expectSameOutputs('whole-2', onFiles, await backtest([whole], { recording }));
  }, 120_000);

  it('merges several recordings as the file feed does, with the same per-recording counts', async () => {
    const onFiles = await backtest(parts);
    const recording = await parsed(parts);
    const first = await backtest(parts, { recording });
    const second = await backtest(parts, { recording });
    expectSameOutputs('parts-1', onFiles, first);
    expectSameOutputs('parts-2', onFiles, second);
    expect(second.summary.recordings).toEqual(onFiles.summary.recordings);
    expect(onFiles.summary.recordings.every((r) => r.events > 0)).toBe(true);
  }, 120_000);

  it('respects --from and --to exactly as the file feed', async () => {
    const range = { from: T0 + 60_000, to: T0 + 4 * 60_000 };
    const onFiles = await backtest(parts, range);
    const recording = await parsed(parts, range.to);
    expectSameOutputs('range', onFiles, await backtest(parts, { ...range, recording }));
    await expect(backtest(parts, { from: range.from, recording })).rejects.toThrow(InvariantError);
  }, 120_000);

  it('hands out equal times in the order the recordings were given, on every replay', async () => {
    const a = await writeRecording(tmp.path('a.jsonl'), [mark(T0, '1'), mark(T0 + 1, '2'), mark(T0 + 1, '3'), mark(T0 + 5, '4')]);
    const b = await writeRecording(tmp.path('b.jsonl'), [mark(T0, '10'), mark(T0 + 1, '20'), mark(T0 + 2, '30')]);
    const files = await RecordingFileFeed.open([b, a]);
    const expected = await drain(files);
    const counts = files.counts();
    await files.close();
    expect(expected.map((e) => (e.type === 'mark' ? e.price : ''))).toEqual(['10', '1', '20', '2', '3', '30', '4']);
    const recording = await ParsedRecording.parse([b, a]);
    for (let i = 0; i < 2; i++) {
      const feed = recording.replay();
      expect(await drain(feed)).toEqual(expected);
      expect(feed.counts()).toEqual(counts);
      expect(feed.exhausted()).toBe(true);
    }
  });

  it('reports a torn last line as the file feed does, and not when --to stops before it', async () => {
    const torn = await writeRecording(tmp.path('torn.jsonl'), [mark(T0, '1'), mark(T0 + 10, '2'), mark(T0 + 20, '3')]);
    const other = await writeRecording(tmp.path('other.jsonl'), [mark(T0 + 5, '7')]);
    appendFileSync(torn, '{"type":"mark","ts":');
    const warningsOf = async (open: (onWarning: (w: MarketStreamWarning) => void) => Promise<RecordingFeed>): Promise<MarketStreamWarning[]> => {
      const seen: MarketStreamWarning[] = [];
      const feed = await open((w) => seen.push(w));
      await drain(feed);
      await feed.close();
      return seen;
    };
    const full = await warningsOf((onWarning) => RecordingFileFeed.open([torn, other], { onWarning }));
    expect(full).toHaveLength(1);
    expect((await ParsedRecording.parse([torn, other])).warnings).toEqual(full);
    expect(await warningsOf((onWarning) => RecordingFileFeed.open([torn, other], { onWarning, to: T0 + 10 }))).toEqual([]);
    expect((await ParsedRecording.parse([torn, other], { to: T0 + 10 })).warnings).toEqual([]);
  });

  it('is an error value for a recording it cannot read', async () => {
    expect(await parseRecordings([tmp.path('missing.jsonl')])).toMatchObject({ ok: false });
    expect(await parseRecordings([])).toMatchObject({ ok: false, error: { code: 'NO_RECORDINGS' } });
  });
});
