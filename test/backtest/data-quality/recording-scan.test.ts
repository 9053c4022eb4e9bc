import { existsSync, readdirSync } from 'node:fs';
import { recordingScan } from '../../../src/recording/quality/recording-scan.js';
import { scanWithCache } from '../../../src/recording/quality/cache.js';
import { preparedDirOf } from '../../../src/recording/prepared/cache.js';
import { BTC, T0, tempDir, writeGenerated } from '../backtest-support.js';
import { writeFlawedRecording } from './flawed-recording.js';

const tmp = tempDir();
afterAll(() => tmp.remove());

test('finds the gap, the duplicate, the out-of-order event and the frozen book of a recording, each with its line', async () => {
  const path = tmp.path('flawed.jsonl');
  const flaws = writeFlawedRecording(path, { timeBackwards: true });
  const report = await recordingScan(path);
  expect(report.counts).toEqual({ gap: 2, duplicate: 1, 'out-of-order': 2, 'frozen-book': 1 });
  const gaps = report.findings.filter((f) => f.kind === 'gap');
  expect(gaps.map((g) => g.stream).sort()).toEqual(['depth', 'mark']);
  for (const gap of gaps) expect(gap).toMatchObject({ symbol: BTC, from: flaws.gapFrom, to: flaws.gapTo });
  expect(gaps.find((g) => g.stream === 'depth')?.line).toBe(flaws.gapLine);
  expect(report.findings.find((f) => f.kind === 'duplicate')).toMatchObject({ stream: 'trade', line: flaws.duplicateLine });
  expect(report.findings.filter((f) => f.kind === 'out-of-order')).toEqual([
    expect.objectContaining({ stream: 'trade', line: flaws.outOfOrderLine }),
    expect.objectContaining({ stream: 'mark', line: flaws.backwardsLine }),
  ]);
  expect(report.findings.find((f) => f.kind === 'frozen-book')).toMatchObject({ symbol: BTC, stream: 'depth', from: flaws.frozenFrom, to: flaws.frozenTo });
});

test('a generated market has no findings', async () => {
  const path = await writeGenerated(tmp.path('clean.jsonl'), 11, 5);
  const report = await recordingScan(path);
  expect(report.counts).toEqual({ gap: 0, duplicate: 0, 'out-of-order': 0, 'frozen-book': 0 });
  expect(report.events).toBeGreaterThan(1000);
});

test('missing bars and a skipped funding settlement are gaps; two bars at one open time a duplicate', async () => {
  const { writeRecording, header } = await import('../backtest-support.js');
  const bar = (ts: number) => ({ type: 'bar' as const, ts, symbol: BTC, source: 'contract' as const, durationMs: 60_000, open: '1', high: '1', low: '1', close: '1', volume: '1' });
  const funding = (ts: number, next: number) => ({ type: 'funding' as const, ts, symbol: BTC, rate: '0.0001', nextFundingTime: next, period: '8H' as const });
  const H8 = 8 * 3_600_000;
  const path = await writeRecording(
    tmp.path('bars.jsonl'),
    [funding(T0, T0 + H8), bar(T0), bar(T0 + 60_000), bar(T0 + 60_000), bar(T0 + 240_000), funding(T0 + H8, T0 + 3 * H8)],
    { ...header(), channels: ['bar', 'funding'], levels: { bar: 'bar' }, barMs: 60_000, source: 'download' },
  );
  const report = await recordingScan(path);
  expect(report.counts).toEqual({ gap: 2, duplicate: 1, 'out-of-order': 0, 'frozen-book': 0 });
  expect(report.findings.filter((f) => f.kind === 'gap').map((f) => [f.stream, f.detail])).toEqual([
    ['bar/contract', expect.stringContaining('2 contract bars missing') as string],
    ['funding', expect.stringContaining('1 funding settlement missing') as string],
  ]);
});

test('the scan is cached beside the prepared form for the recording\'s bytes and read back the same', async () => {
  const path = tmp.path('cached.jsonl');
  writeFlawedRecording(path);
  const first = await scanWithCache(path, undefined, {});
  const dir = preparedDirOf(path);
  expect(existsSync(dir)).toBe(true);
  expect(readdirSync(dir).filter((f) => f.endsWith('.quality.json'))).toHaveLength(1);
  const second = await scanWithCache(path, undefined, {});
  expect(second).toEqual(first);
  // Other thresholds are another scan, not the cached one.
  const lenient = await scanWithCache(path, { gapFactor: 100, minGapMs: 60_000, frozenMs: 600_000, frozenTrades: 10 }, {});
  expect(lenient.counts.gap).toBe(0);
  // A changed recording gets a new scan; the old one goes.
  writeFlawedRecording(path, { timeBackwards: true });
  expect((await scanWithCache(path, undefined, {})).counts['out-of-order']).toBe(2);
  expect(readdirSync(dir).filter((f) => f.endsWith('.quality.json'))).toHaveLength(1);
});
