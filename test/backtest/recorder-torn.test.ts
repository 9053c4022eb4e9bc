import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MarketStreamReader } from '../../src/sim/market-stream/reader.js';
import { BTC, T0, VirtualClock, mark, openRecorder, readBack, steadyMarket, tempDir } from './recorder-fixtures.js';

/**
 * What a process killed mid-write leaves, and what the simulator's MarketStreamReader makes of it.
 * The recorder appends whole lines (one write per batch, ending in "\n"; gzip sync-flushed after each
 * batch), so a kill leaves a prefix of the intended bytes: these tests cut recordings at every offset.
 */
let tmp: ReturnType<typeof tempDir>;
let clock: VirtualClock;
beforeEach(() => {
  tmp = tempDir();
  clock = new VirtualClock(T0);
});
afterEach(() => tmp.remove());

async function recording(name: string, count: number): Promise<{ readonly path: string; readonly bytes: Buffer }> {
  const path = join(tmp.dir, name);
  const recorder = openRecorder(clock, { out: path, reorderMs: 0, account: false });
  for (const event of steadyMarket(T0 + 1, count, 10)) recorder.record(event);
  await recorder.stop();
  return { path, bytes: readFileSync(path) };
}

async function outcome(path: string): Promise<{ events: number; warnings: number } | { error: string }> {
  try {
    const read = await readBack(path);
    return { events: read.events.length, warnings: read.warnings.length };
  } catch (error: unknown) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

describe('a recording cut short, read by MarketStreamReader', () => {
  it('a torn last line is skipped with one TORN_LAST_LINE warning, at every cut inside it', async () => {
    const { path, bytes } = await recording('plain.jsonl', 20);
    const text = bytes.toString('utf8');
    const lastLineStart = text.lastIndexOf('\n', text.length - 2) + 1;
    const cut = join(tmp.dir, 'cut.jsonl');
    for (let end = lastLineStart + 1; end < bytes.length - 1; end++) {
      writeFileSync(cut, bytes.subarray(0, end));
      expect([end, await outcome(cut)]).toEqual([end, { events: 19, warnings: 1 }]);
    }
    const warnings: unknown[] = [];
    writeFileSync(cut, bytes.subarray(0, lastLineStart + 5));
    for await (const _ of await MarketStreamReader.open(cut, { onWarning: (w) => warnings.push(w) })) void _;
    expect(warnings).toEqual([{ code: 'TORN_LAST_LINE', file: cut, line: 21, message: expect.stringContaining('cut short') }]);
    // Cut at a line end: nothing torn. Only the final "\\n" missing: the last line is whole and read.
    writeFileSync(cut, bytes.subarray(0, lastLineStart));
    expect(await outcome(cut)).toEqual({ events: 19, warnings: 0 });
    writeFileSync(cut, bytes.subarray(0, bytes.length - 1));
    expect(await outcome(cut)).toEqual({ events: 20, warnings: 0 });
    expect(await outcome(path)).toEqual({ events: 20, warnings: 0 });
  });

  it('a file cut inside its header, or before it, is an error, not a warning', async () => {
    const { bytes } = await recording('header.jsonl', 3);
    const headerEnd = bytes.indexOf('\n'.charCodeAt(0));
    const cut = join(tmp.dir, 'cut.jsonl');
    writeFileSync(cut, bytes.subarray(0, headerEnd - 3));
    expect(await outcome(cut)).toEqual({ error: `${cut}:1: the first line is not JSON; expected a market stream header` });
    writeFileSync(cut, '');
    expect(await outcome(cut)).toEqual({ error: `${cut}:1: the file is empty; expected a market stream header` });
    // The header alone, whole: an empty recording.
    writeFileSync(cut, bytes.subarray(0, headerEnd + 1));
    expect(await outcome(cut)).toEqual({ events: 0, warnings: 0 });
  });

  it('a torn line can only be the last: followed by another line it is an error naming it', async () => {
    const { bytes } = await recording('middle.jsonl', 5);
    const lines = bytes.toString('utf8').split('\n');
    const cut = join(tmp.dir, 'cut.jsonl');
    writeFileSync(cut, [...lines.slice(0, 3), (lines[3] ?? '').slice(0, 10), ...lines.slice(4)].join('\n'));
    expect(await outcome(cut)).toEqual({ error: `${cut}:4: not valid JSON` });
  });

  it('a gzip recording cut anywhere after its first flush reads up to the cut, with at most one warning', async () => {
    const { bytes } = await recording('rec.jsonl.gz', 400);
    const cut = join(tmp.dir, 'cut.jsonl.gz');
    let previous = 0;
    for (let end = Math.floor(bytes.length / 4); end <= bytes.length; end += Math.max(1, Math.floor(bytes.length / 40))) {
      writeFileSync(cut, bytes.subarray(0, end));
      const read = await outcome(cut);
      if ('error' in read) throw new Error(`cut at ${end}: ${read.error}`);
      expect(read.warnings).toBeLessThanOrEqual(1);
      expect(read.events).toBeGreaterThanOrEqual(previous);
      previous = read.events;
    }
    expect(previous).toBe(400);
  });

  it('a gzip file cut inside its first bytes reads as empty: an error', async () => {
    const { bytes } = await recording('tiny.jsonl.gz', 1);
    const cut = join(tmp.dir, 'cut.jsonl.gz');
    writeFileSync(cut, bytes.subarray(0, 6));
    expect(await outcome(cut)).toEqual({ error: `${cut}:1: the file is empty; expected a market stream header` });
  });

  it('a recorder stopped cleanly leaves no torn line', async () => {
    const path = join(tmp.dir, 'clean.jsonl');
    const recorder = openRecorder(clock, { out: path, reorderMs: 0 });
    recorder.record(mark(BTC, T0 + 1, '1'));
    await recorder.stop();
    expect(readFileSync(path, 'utf8').endsWith('\n')).toBe(true);
    expect(await outcome(path)).toEqual({ events: 1, warnings: 0 });
  });
});
