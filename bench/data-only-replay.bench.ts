import { copyFileSync, createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { z } from 'zod';
import { runBacktest } from '../src/backtest/runner.js';
import type { BacktestOptions } from '../src/backtest/types.js';
import { PreparedRecording } from '../src/recording/prepared/index.js';
import { defineStrategy } from '../src/engine/strategy/api.js';
import type { StrategyInstance } from '../src/engine/strategy/instance.js';
import { countGc } from './gc-count.js';
import { writeRepeatedRecording } from './repeated-recording.js';

/** Lines read, gunzipped and JSON.parse'd per second: the floor any replay of the JSONL form pays. */
export async function bareReadParse(path: string): Promise<{ events: number; perSecond: number }> {
  const started = performance.now();
  let events = 0;
  const lines = createInterface({ input: createReadStream(path).pipe(createGunzip()), crlfDelay: Infinity });
  for await (const line of lines) {
    JSON.parse(line);
    events++;
  }
  return { events, perSecond: events / ((performance.now() - started) / 1000) };
}

/** A strategy on `symbols` that receives every event and does nothing with it. */
export function idleStrategy(symbols: readonly string[]): StrategyInstance {
  const definition = defineStrategy({ name: 'idle', description: 'does nothing (data-only replay)', params: z.unknown(), create: () => ({ onEvent: () => undefined }) });
  return { id: 'idle', symbols, definition, params: {}, limits: {} };
}

/** One data-only backtest of `path` (a do-nothing strategy on `symbols`): events replayed per second of wall time. */
export async function dataOnlyReplay(path: string, symbols: readonly string[], extra: Partial<BacktestOptions> = {}): Promise<{ events: number; perSecond: number }> {
  const started = performance.now();
  const result = await runBacktest({ strategies: [idleStrategy(symbols)], risk: {}, recordings: [path], account: { userId: '1', futures: { USDT: '100000' } }, ...extra });
  if (!result.ok) throw result.error;
  const seconds = (performance.now() - started) / 1000;
  return { events: result.value.summary.events, perSecond: result.value.summary.events / seconds };
}

/** Loading the prepared form and handing out every event, nothing else: the floor of a replay from it (`handOut`: the load left out). */
async function preparedFeedOnly(path: string): Promise<{ events: number; perSecond: number; handOutPerSecond: number }> {
  const started = performance.now();
  const recording = await PreparedRecording.load([path], undefined, {});
  const loaded = performance.now();
  const feed = recording.replay();
  let events = 0;
  while (feed.peekTime() !== undefined) {
    feed.next();
    events++;
  }
  const done = performance.now();
  return { events, perSecond: events / ((done - started) / 1000), handOutPerSecond: events / ((done - loaded) / 1000) };
}

/**
 * Data-only replay (a strategy that does nothing) of `recording` from its JSONL and from its prepared
 * form, set-up included (the load of the prepared form, the engine and kernel made), beside the bare
 * gunzip + JSON.parse of the same file. The recording is copied to a temporary directory, where its
 * prepared form is built once (timed apart) before the measured runs read it.
 */
export async function benchDataOnly(recording: string, symbols: readonly string[]): Promise<Record<string, number>> {
  const dir = mkdtempSync(join(tmpdir(), 'stratd-bench-prepared-'));
  try {
    const path = join(dir, basename(recording));
    copyFileSync(recording, path);
    const bare = await bareReadParse(path);
    const jsonl = await dataOnlyReplay(path, symbols);
    const { prepareSeconds, loadSeconds } = await prepareAndLoad(path);
    const feed = await preparedFeedOnly(path);
    const prepared = await dataOnlyReplay(path, symbols, { prepared: {} });
    return {
      bareReadParseEventsPerSecond: Math.round(bare.perSecond),
      dataOnlyJsonlEventsPerSecond: Math.round(jsonl.perSecond),
      prepareSeconds: Number(prepareSeconds.toFixed(2)),
      preparedLoadSeconds: Number(loadSeconds.toFixed(3)),
      preparedFeedEventsPerSecond: Math.round(feed.perSecond),
      preparedFeedHandOutEventsPerSecond: Math.round(feed.handOutPerSecond),
      dataOnlyPreparedEventsPerSecond: Math.round(prepared.perSecond),
      dataOnlyPreparedShareOfBareParse: Number((prepared.perSecond / bare.perSecond).toFixed(3)),
      dataOnlyPreparedOverJsonl: Number((prepared.perSecond / jsonl.perSecond).toFixed(2)),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Builds `path`'s prepared form (the first load), then loads it again as a later backtest does: both timed. */
async function prepareAndLoad(path: string): Promise<{ prepareSeconds: number; loadSeconds: number }> {
  let started = performance.now();
  await PreparedRecording.load([path], undefined, {});
  const prepareSeconds = (performance.now() - started) / 1000;
  started = performance.now();
  await PreparedRecording.load([path], undefined, {});
  return { prepareSeconds, loadSeconds: (performance.now() - started) / 1000 };
}

/**
 * The steady rate of a data-only replay, where set-up no longer dominates: `recording`'s events repeated
 * `copies` times with shifted times (writeRepeatedRecording) into a temporary directory, its prepared form
 * built and then loaded before the timed run (the load timed apart, and a run with the load included
 * beside it: what `stratd backtest` of that file pays); the bare gunzip + JSON.parse of the same file and
 * the prepared feed alone (handing out every event) beside it. `…PerCpuSecond`: the same events over the
 * process's CPU time, which other work on the machine does not inflate.
 */
export async function benchDataOnlyLarge(recording: string, symbols: readonly string[], copies: number): Promise<Record<string, number>> {
  const dir = mkdtempSync(join(tmpdir(), 'stratd-bench-large-'));
  try {
    const path = join(dir, 'repeated-market.jsonl.gz');
    const written = await writeRepeatedRecording(recording, path, copies);
    const { prepareSeconds, loadSeconds } = await prepareAndLoad(path);
    const bare = await bareReadParse(path);
    const feed = await preparedFeedOnly(path);
    const loaded = await PreparedRecording.load([path], undefined, {});
    const gc = countGc();
    const cpu = process.cpuUsage();
    const steady = await dataOnlyReplay(path, symbols, { recording: loaded });
    const used = process.cpuUsage(cpu);
    const collected = await gc.stop();
    const withLoad = await dataOnlyReplay(path, symbols, { prepared: {} });
    if (steady.events !== written) throw new Error(`the large replay handed out ${steady.events} events of ${written}`);
    return {
      largeCopies: copies,
      largeEvents: steady.events,
      largePrepareSeconds: Number(prepareSeconds.toFixed(2)),
      largePreparedLoadSeconds: Number(loadSeconds.toFixed(3)),
      largeBareReadParseEventsPerSecond: Math.round(bare.perSecond),
      largePreparedFeedHandOutEventsPerSecond: Math.round(feed.handOutPerSecond),
      largeDataOnlySteadyEventsPerSecond: Math.round(steady.perSecond),
      largeDataOnlySteadyEventsPerCpuSecond: Math.round(steady.events / ((used.user + used.system) / 1e6)),
      // Allocation shows as young-generation scavenges: fewer per event, less GC work on this thread and V8's helpers.
      largeDataOnlySteadyScavengesPerMillionEvents: Number(((collected.scavenges * 1e6) / steady.events).toFixed(1)),
      largeDataOnlySteadyOtherGcs: collected.others,
      largeDataOnlySteadyGcMs: Math.round(collected.ms),
      largeDataOnlyWithLoadEventsPerSecond: Math.round(withLoad.perSecond),
      largeDataOnlySteadyShareOfBareParse: Number((steady.perSecond / bare.perSecond).toFixed(3)),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
