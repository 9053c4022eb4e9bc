import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Daemon } from '../../../src/app/daemon/daemon.js';
import { VirtualClock } from '../../../src/core/virtual-time.js';
import { MarketStreamReader } from '../../../src/sim/market-stream/reader.js';
import type { MarketEvent } from '../../../src/sim/market-stream/events.js';
import { BTC, T0 } from '../../sim/e2e/sim-harness.js';
import { paperYaml, startDaemon, writeConfig } from './daemon-harness.js';
import { runFor } from './virtual-steps.js';

/** `record:` of `stratd run`: the run's market events land in a recording the backtest can replay. */
let dir: string;
let daemon: Daemon | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-run-record-'));
});
afterEach(async () => {
  await daemon?.stop();
  daemon = undefined;
  rmSync(dir, { recursive: true, force: true });
});

describe('stratd run with record:', () => {
  it('writes what the sources saw from the first poll on, closed and readable after stop', async () => {
    const clock = new VirtualClock(T0);
    const yaml = `${paperYaml(join(dir, 'state'))}\nrecord:\n  out: ./run.jsonl\n  flushEvery: 1s\n`;
    daemon = await startDaemon(writeConfig(dir, 'paper.yml', yaml), clock);
    await runFor(clock, 20_000);
    await daemon.stop();
    daemon = undefined;

    const reader = await MarketStreamReader.open(join(dir, 'run.jsonl'));
    const events: MarketEvent[] = [];
    for await (const event of reader) events.push(event);
    expect(reader.header.symbols).toContain(BTC);
    const types = new Set(events.filter((e) => e.symbol === BTC).map((e) => e.type));
    // The harness polls book tickers (recorded as one-level depth) and mark prices.
    expect(types.has('depth')).toBe(true);
    expect(types.has('mark')).toBe(true);
    // From the first poll: the first depth snapshot is no later than a poll interval after the start.
    const firstDepth = events.find((e) => e.type === 'depth' && e.symbol === BTC);
    expect(firstDepth !== undefined && firstDepth.ts <= T0 + 2_000).toBe(true);
    expect(events.every((e, i) => i === 0 || e.ts >= (events[i - 1]?.ts ?? 0))).toBe(true);
  });

  it('refuses a record section with a bad size, naming the path', async () => {
    const yaml = `${paperYaml(join(dir, 'state'))}\nrecord:\n  out: ./run.jsonl\n  rotate: { size: lots }\n`;
    await expect(startDaemon(writeConfig(dir, 'bad.yml', yaml), new VirtualClock(T0))).rejects.toThrow(/bad\.yml:\d+:\d+: record\.rotate\.size: a size such as 100MB/);
  });
});
