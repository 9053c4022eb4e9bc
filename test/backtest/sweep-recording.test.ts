import { appendFileSync } from 'node:fs';
import { parseJsonlRecordings, runBacktest } from '../../src/backtest/runner.js';
import type { ParsedRecording } from '../../src/recording/parsed-recording.js';
import { openSharedRecording, shareRecording } from '../../src/sweep/recording.js';
import { throughputLines, workerThroughput } from '../../src/sweep/throughput.js';
import { dec } from '../../src/core/decimal.js';
import type { MarketEvent } from '../../src/sim/market-stream/events.js';
import quoter from '../../strategies/spread-quoter/index.js';
import { ACCOUNT, BTC, mark, T0, tempDir, writeGenerated, writeRecording } from './backtest-support.js';

const tmp = tempDir();
afterAll(() => tmp.remove());

async function parsed(recordings: readonly string[]): Promise<ParsedRecording> {
  const recording = await parseJsonlRecordings(recordings);
  if (!recording.ok) throw recording.error;
  return recording.value;
}

function drain(recording: ParsedRecording): MarketEvent[] {
  const feed = recording.replay();
  const events: MarketEvent[] = [];
  while (!feed.exhausted()) events.push(feed.next());
  return events;
}

describe('a recording shared with sweep workers', () => {
  it('opens as the same events, sources, headers and warnings as the parse it came from', async () => {
    const generated = await writeGenerated(tmp.path('market.jsonl'), 11, 2);
    const torn = await writeRecording(tmp.path('torn.jsonl'), [mark(T0 + 5, '1'), mark(T0 + 15, '2')]);
    appendFileSync(torn, '{"type":"mark","ts":');
    const original = await parsed([generated, torn]);
    const shared = shareRecording(original);
    expect(shared.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(shared.events).toBe(original.size);
    const opened = openSharedRecording(shared);
    expect(opened.size).toBe(original.size);
    expect(opened.headers).toEqual(original.headers);
    expect(opened.instruments).toEqual(original.instruments);
    expect(opened.warnings).toEqual(original.warnings);
    expect(opened.warnings).toHaveLength(1);
    expect(drain(opened)).toEqual(drain(original));
    const feed = opened.replay();
    while (!feed.exhausted()) feed.next();
    const counts = original.replay();
    while (!counts.exhausted()) counts.next();
    expect(feed.counts()).toEqual(counts.counts());
  });

  it('gives a backtest the same fills as the files it was parsed from', async () => {
    const file = await writeGenerated(tmp.path('quoter.jsonl'), 5, 3);
    const options = {
      strategies: [{ id: 'q', symbols: [BTC], definition: quoter, params: quoter.params.parse({ quantity: 1, halfSpreadBps: 1, requoteBps: 1, maxPosition: 5 }), limits: { maxPosition: dec(10), maxOpenOrders: 4 } }],
      risk: { maxOpenOrders: 40 },
      recordings: [file],
      account: ACCOUNT,
    };
    const fromFiles = await runBacktest(options);
    const fromShared = await runBacktest({ ...options, recording: openSharedRecording(shareRecording(await parsed([file]))) });
    if (!fromFiles.ok || !fromShared.ok) throw new Error('a backtest failed');
    expect(fromFiles.value.fills.length).toBeGreaterThan(0);
    expect(fromShared.value.summary.fillsSha256).toBe(fromFiles.value.summary.fillsSha256);
    expect(fromShared.value.summary).toEqual(fromFiles.value.summary);
  }, 60_000);
});

describe('per-worker throughput', () => {
  it('sums each worker’s combinations and divides its events by its time', () => {
    const workers = workerThroughput([
      { index: 1, worker: 2, events: 1000, ms: 500 },
      { index: 0, worker: 1, events: 3000, ms: 1000 },
      { index: 2, worker: 2, events: 1000, ms: 500 },
    ]);
    expect(workers).toEqual([
      { worker: 1, combinations: 1, events: 3000, busyMs: 1000, eventsPerSecond: 3000 },
      { worker: 2, combinations: 2, events: 2000, busyMs: 1000, eventsPerSecond: 2000 },
    ]);
    expect(throughputLines(workers)).toBe(
      'sweep: worker 1: 1 combinations, 3,000 events in 1.0 s, 3,000 events/s\nsweep: worker 2: 2 combinations, 2,000 events in 1.0 s, 2,000 events/s\nsweep: all workers: 5,000 events/s together\n',
    );
  });
});
