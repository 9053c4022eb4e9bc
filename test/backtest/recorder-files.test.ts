import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Recorder } from '../../src/recording/recorder/recorder.js';
import type { Recorder as RecorderType, RecordingSummary } from '../../src/recording/recorder/recorder.js';
import { readAccountStream } from '../../src/recording/recorder/account-reader.js';
import { silentLogger } from '../../src/core/logger.js';
import type { MarketEvent as ModelMarketEvent } from '../../src/model/market-events.js';
import { BTC, ETH, T0, VirtualClock, mark, marketView, openRecorder, readBack, steadyMarket, tempDir } from './recorder-fixtures.js';

/** Rotation into numbered parts (each a complete stream with its header), gzip, and never overwriting by accident. */
let tmp: ReturnType<typeof tempDir>;
let clock: VirtualClock;
beforeEach(() => {
  tmp = tempDir();
  clock = new VirtualClock(T0);
});
afterEach(() => tmp.remove());

/**
 * Feeds events as they would arrive: virtual time moves to each event's time first, and the recorder's
 * work is awaited once per virtual second (its own periodic flush would not wait for gzip's I/O).
 */
async function feed(recorder: RecorderType, events: readonly ModelMarketEvent[]): Promise<void> {
  for (const event of events) {
    if (event.time > clock.now()) {
      const second = Math.floor(clock.now() / 1000);
      clock.advanceTo(event.time);
      if (Math.floor(clock.now() / 1000) !== second) await recorder.flush();
    }
    recorder.record(event);
  }
}

function key(e: { readonly type: string; readonly ts?: number; readonly time?: number; readonly symbol: string }): string {
  return `${e.symbol}/${e.ts ?? e.time ?? -1}`;
}

async function expectPartsHold(summary: RecordingSummary, input: readonly ModelMarketEvent[]): Promise<void> {
  const all: string[] = [];
  let previousEnd = -Infinity;
  for (const part of summary.parts) {
    const { header, events, warnings } = await readBack(part.market);
    expect(warnings).toEqual([]);
    expect(header.symbols).toEqual([BTC, ETH]);
    expect(header.startTime).toBe(part.startTime);
    expect(header.startTime).toBeGreaterThanOrEqual(previousEnd === -Infinity ? 0 : previousEnd);
    expect(events.length).toBe(part.events);
    if (events[0] !== undefined) expect(events[0].ts).toBeGreaterThanOrEqual(header.startTime);
    previousEnd = events[events.length - 1]?.ts ?? previousEnd;
    all.push(...events.map(key));
    if (part.account === undefined) throw new Error('an account section is written by default');
    const account = await readAccountStream(part.account);
    expect(account.header).toMatchObject({ format: 'stratd-account-stream', version: 1, startTime: header.startTime, market: part.market.split('/').pop() });
  }
  expect(all).toEqual(input.map(key));
}

describe('rotation', () => {
  it('by size: numbered parts, each a complete stream with its header, together the whole recording', async () => {
    const out = join(tmp.dir, 'rec.jsonl');
    const recorder = openRecorder(clock, { out, reorderMs: 0, rotate: { sizeBytes: 4096 } });
    const input = steadyMarket(T0 + 100, 600, 100);
    await feed(recorder, input);
    const summary = await recorder.stop();
    expect(summary.parts.length).toBeGreaterThan(3);
    expect(summary.parts.map((p) => p.market)).toEqual(summary.parts.map((_, i) => join(tmp.dir, `rec.${String(i + 1).padStart(4, '0')}.jsonl`)));
    for (const part of summary.parts.slice(0, -1)) expect(statSync(part.market).size).toBeGreaterThanOrEqual(4096);
    await expectPartsHold(summary, input);
    expect(existsSync(out)).toBe(false);
  });

  it('by time: a part per interval of exchange time, starting on the boundaries', async () => {
    const out = join(tmp.dir, 'hourly.jsonl');
    const recorder = openRecorder(clock, { out, reorderMs: 0, rotate: { everyMs: 60_000 } });
    const input = steadyMarket(T0 + 100, 420, 500); // 3.5 minutes
    await feed(recorder, input);
    const summary = await recorder.stop();
    expect(summary.parts.map((p) => p.startTime)).toEqual([T0, T0 + 60_000, T0 + 120_000, T0 + 180_000]);
    for (const part of summary.parts) {
      const { events } = await readBack(part.market);
      for (const e of events) expect(e.ts - part.startTime).toBeLessThan(60_000);
    }
    await expectPartsHold(summary, input);
  });
});

describe('gzip', () => {
  it('round-trips by flag (".gz" added to every name) and by name, rotated or not', async () => {
    const byFlag = openRecorder(clock, { out: join(tmp.dir, 'rec.jsonl'), gzip: true, reorderMs: 0, rotate: { sizeBytes: 2048 } });
    const input = steadyMarket(T0 + 100, 3000, 20);
    await feed(byFlag, input);
    const flagged = await byFlag.stop();
    expect(flagged.parts.length).toBeGreaterThan(1);
    expect(flagged.parts[0]).toMatchObject({ market: join(tmp.dir, 'rec.0001.jsonl.gz'), account: join(tmp.dir, 'rec.0001.account.jsonl.gz') });
    for (const part of flagged.parts) expect([...readFileSync(part.market).subarray(0, 2)]).toEqual([0x1f, 0x8b]);
    await expectPartsHold(flagged, input);

    const byName = openRecorder(clock, { out: join(tmp.dir, 'named.jsonl.gz'), reorderMs: 0 });
    const more = steadyMarket(clock.now() + 10, 50, 10);
    await feed(byName, more);
    const named = await byName.stop();
    expect(named.parts.map((p) => [p.market, p.account])).toEqual([[join(tmp.dir, 'named.jsonl.gz'), join(tmp.dir, 'named.account.jsonl.gz')]]);
    const { events } = await readBack(join(tmp.dir, 'named.jsonl.gz'));
    expect(events.map(key)).toEqual(more.map(key));
  });
});

describe('existing files', () => {
  const options = (out: string) => ({ out, symbols: [BTC, ETH], market: marketView(), time: clock, logger: silentLogger, reorderMs: 0 });

  it('are refused by default and left untouched; the account sibling alone counts too', () => {
    const out = join(tmp.dir, 'rec.jsonl');
    writeFileSync(out, 'precious\n');
    const refused = Recorder.open(options(out));
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error).toMatchObject({ code: 'EXISTS', message: expect.stringContaining(out) });
    expect(readFileSync(out, 'utf8')).toBe('precious\n');

    writeFileSync(join(tmp.dir, 'other.account.jsonl'), 'precious\n');
    expect(Recorder.open(options(join(tmp.dir, 'other.jsonl'))).ok).toBe(false);
  });

  it('"next" writes the next numbered part beside them; "overwrite" replaces them', async () => {
    const out = join(tmp.dir, 'rec.jsonl');
    writeFileSync(out, 'precious\n');
    for (const expected of ['rec.0001.jsonl', 'rec.0002.jsonl']) {
      const opened = Recorder.open({ ...options(out), existing: 'next' });
      if (!opened.ok) throw opened.error;
      opened.value.record(mark(BTC, clock.now() + 1, '100'));
      const summary = await opened.value.stop();
      expect(summary.parts.map((p) => p.market)).toEqual([join(tmp.dir, expected)]);
    }
    expect(readFileSync(out, 'utf8')).toBe('precious\n');
    expect(readdirSync(tmp.dir).sort()).toEqual(['rec.0001.account.jsonl', 'rec.0001.jsonl', 'rec.0002.account.jsonl', 'rec.0002.jsonl', 'rec.jsonl']);

    const overwriting = Recorder.open({ ...options(out), existing: 'overwrite' });
    if (!overwriting.ok) throw overwriting.error;
    overwriting.value.record(mark(BTC, clock.now() + 1, '100'));
    await overwriting.value.stop();
    expect((await readBack(out)).events).toHaveLength(1);
  });

  it('with rotation: any existing part is a clash; "next" continues after the last one', async () => {
    const out = join(tmp.dir, 'rot.jsonl');
    writeFileSync(join(tmp.dir, 'rot.0003.jsonl'), 'precious\n');
    expect(Recorder.open({ ...options(out), rotate: { everyMs: 60_000 } }).ok).toBe(false);
    const opened = Recorder.open({ ...options(out), rotate: { everyMs: 60_000 }, existing: 'next' });
    if (!opened.ok) throw opened.error;
    opened.value.record(mark(BTC, clock.now() + 1, '100'));
    expect((await opened.value.stop()).parts.map((p) => p.market)).toEqual([join(tmp.dir, 'rot.0004.jsonl')]);
  });

  it('a file that appears after the check is still not overwritten: recording fails instead', async () => {
    const out = join(tmp.dir, 'late.jsonl');
    const recorder = openRecorder(clock, { out, reorderMs: 0 });
    writeFileSync(out, 'precious\n');
    recorder.record(mark(BTC, clock.now() + 1, '100'));
    const summary = await recorder.stop();
    expect(summary.failure).toMatch(/EEXIST/);
    expect(readFileSync(out, 'utf8')).toBe('precious\n');
  });
});
