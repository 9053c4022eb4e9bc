import { appendFileSync } from 'node:fs';
import { parseJsonlRecordings, runBacktest } from '../../src/backtest/runner.js';
import type { ParsedRecording } from '../../src/recording/parsed-recording.js';
import type { RecordingReplay } from '../../src/recording/feed.js';
import { PreparedRecording } from '../../src/recording/prepared/index.js';
import { openSharedRecording, openSharedReplay, shareRecording, shareReplay } from '../../src/sweep/recording.js';
import { costLines, throughputLines, workerThroughput } from '../../src/sweep/throughput.js';
import { costBetween, threadCost } from '../../src/sweep/thread-cost.js';
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

function drain(recording: RecordingReplay): MarketEvent[] {
  const feed = recording.replay();
  const events: MarketEvent[] = [];
  while (!feed.exhausted()) events.push(feed.next());
  return events;
}

/** A backtest of the example quoter over `file`. */
function quoterBacktest(file: string) {
  return {
    strategies: [{ id: 'q', symbols: [BTC], definition: quoter, params: quoter.params.parse({ quantity: 1, halfSpreadBps: 1, requoteBps: 1, maxPosition: 5 }), limits: { maxPosition: dec(10), maxOpenOrders: 4 } }],
    risk: { maxOpenOrders: 40 },
    recordings: [file],
    account: ACCOUNT,
  };
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
    const options = quoterBacktest(file);
    const fromFiles = await runBacktest(options);
    const fromShared = await runBacktest({ ...options, recording: openSharedRecording(shareRecording(await parsed([file]))) });
    if (!fromFiles.ok || !fromShared.ok) throw new Error('a backtest failed');
    expect(fromFiles.value.fills.length).toBeGreaterThan(0);
    expect(fromShared.value.summary.fillsSha256).toBe(fromFiles.value.summary.fillsSha256);
    expect(fromShared.value.summary).toEqual(fromFiles.value.summary);
  }, 120_000);
});

describe('a prepared recording shared with sweep workers', () => {
  it('opens over the shared columns as the same events, sources, headers and warnings, and cuts the same', async () => {
    const generated = await writeGenerated(tmp.path('prepared-market.jsonl'), 11, 2);
    const torn = await writeRecording(tmp.path('prepared-torn.jsonl'), [mark(T0 + 5, '1'), mark(T0 + 15, '2')]);
    appendFileSync(torn, '{"type":"mark","ts":');
    const original = await PreparedRecording.load([generated, torn], undefined, { fallbackDir: tmp.path('prepared-cache') });
    const shared = shareReplay(original);
    if (shared.form !== 'prepared-columns') throw new Error(`shared as ${shared.form}`);
    expect(shared.prepared.sources[0]?.columns.ts.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(shared.prepared.sources[0]?.columns.bidPrice.indices.buffer).toBeInstanceOf(SharedArrayBuffer);
    const opened = await openSharedReplay(shared);
    expect(opened).toBeInstanceOf(PreparedRecording);
    expect(opened.headers).toEqual(original.headers);
    expect(opened.instruments).toEqual(original.instruments);
    expect(opened.warnings).toEqual(original.warnings);
    expect(opened.warnings).toHaveLength(1);
    const events = drain(original);
    expect(events.length).toBeGreaterThan(0);
    expect(JSON.stringify(drain(opened))).toBe(JSON.stringify(events));
    const cut = T0 + 10_000;
    expect(JSON.stringify(drain(opened.until(cut)))).toBe(JSON.stringify(drain(original.until(cut))));
  });

  it('gives a backtest the same fills as the prepared form it was shared from', async () => {
    const file = await writeGenerated(tmp.path('prepared-quoter.jsonl'), 5, 3);
    const options = quoterBacktest(file);
    const fromFiles = await runBacktest(options);
    const prepared = await PreparedRecording.load([file], undefined, { fallbackDir: tmp.path('prepared-cache') });
    const fromShared = await runBacktest({ ...options, recording: await openSharedReplay(shareReplay(prepared)) });
    if (!fromFiles.ok || !fromShared.ok) throw new Error('a backtest failed');
    expect(fromFiles.value.fills.length).toBeGreaterThan(0);
    expect(fromShared.value.summary).toEqual(fromFiles.value.summary);
  }, 120_000);
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

  it('sums what each worker thread measured and splits the process CPU into main thread, workers and the rest', () => {
    const cost = (cpuMs: number, gcMs: number, loadMs: number) => ({ cpuMs, waitMs: cpuMs / 10, gcMs, loadMs });
    const workers = workerThroughput([
      { index: 0, worker: 1, events: 1000, ms: 1000, cost: cost(900, 100, 200) },
      { index: 1, worker: 2, events: 1000, ms: 2000, cost: cost(1800, 300, 400) },
      { index: 2, worker: 1, events: 1000, ms: 1000, cost: cost(1000, 100, 0) },
    ]);
    expect(workers[0]).toEqual({ worker: 1, combinations: 2, events: 2000, busyMs: 2000, eventsPerSecond: 1000, cpuMs: 1900, waitMs: 190, gcMs: 200, loadMs: 200 });
    const spans = [
      { worker: 1, startMs: 500, startCpuMs: 400, firstEventMs: 800, idleTailMs: 0 },
      { worker: 2, startMs: 600, startCpuMs: 400, firstEventMs: 1100, idleTailMs: 2500 },
    ];
    expect(costLines(workers, spans, { cpuMs: 6000, mainCpuMs: 1000 })).toBe(
      'sweep: worker 1 cost: CPU 1.9 s, waited for a core 0.2 s, GC 0.2 s, loading 0.2 s; started in 0.5 s, first event at 0.8 s, idle at the end 0.0 s\n' +
        'sweep: worker 2 cost: CPU 1.8 s, waited for a core 0.2 s, GC 0.3 s, loading 0.4 s; started in 0.6 s, first event at 1.1 s, idle at the end 2.5 s\n' +
        'sweep: process CPU 6.0 s: main thread 1.0 s, workers 4.5 s, other threads 0.5 s\n',
    );
  });

  it('reads this thread’s CPU from the kernel where it tells (Linux), and it grows with work', () => {
    const before = threadCost();
    if (process.platform !== 'linux') {
      expect(before).toBeUndefined();
      return;
    }
    let x = 0;
    for (let i = 0; i < 5_000_000; i++) x = (x + i * 7) % 1_000_003;
    const spent = costBetween(before, threadCost());
    expect(x).toBeGreaterThanOrEqual(0);
    expect(spent?.cpuMs).toBeGreaterThan(0);
    expect(spent?.waitMs).toBeGreaterThanOrEqual(0);
  });
});
