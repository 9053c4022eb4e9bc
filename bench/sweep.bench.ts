import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PreparedRecording } from '../src/recording/prepared/index.js';
import { CONFIG, SAMPLE } from './backtest-replay.bench.js';
import type { BenchResult } from './bench-result.js';
import { parallelFloor } from './parallel-floor.js';
import { median, positiveIntegerSetting } from './bench-settings.js';
import { writeRepeatedRecording } from './repeated-recording.js';

/** 4 combinations of the example quoter's params. */
const GRID = 'strategies:\n  quoter-btc:\n    params:\n      halfSpreadBps: [2, 5]\n      requoteBps: [2, 4]\n';
const WORKER_LINE = /^sweep: worker (\d+): (\d+) combinations, ([\d,]+) events in ([\d.]+) s, ([\d,]+) events\/s$/;
/** `stratd sweep`'s cost lines (src/sweep/throughput.ts costLines). */
const COST_LINE = /^sweep: worker (\d+) cost: CPU ([\d.]+) s, waited for a core ([\d.]+) s, GC ([\d.]+) s, loading ([\d.]+) s; started in ([\d.]+) s, first event at ([\d.]+) s, idle at the end ([\d.]+) s$/;
const PROCESS_LINE = /^sweep: process CPU ([\d.]+) s: main thread ([\d.]+) s, workers ([\d.]+) s, other threads ([\d.]+) s$/m;

/** One worker thread of a run, as `stratd sweep` reported it. */
interface WorkerFigures {
  readonly eventsPerSecond: number;
  readonly cpuSeconds: number;
  readonly waitSeconds: number;
  readonly gcSeconds: number;
  readonly firstEventSeconds: number;
  readonly idleTailSeconds: number;
}

interface SweepRun {
  readonly seconds: number;
  /** 1-minute load average when it started. */
  readonly load: number;
  /** CPU seconds of the whole process, and of its main thread, its worker threads and the rest (V8's GC helpers and compiler, libuv's pool). */
  readonly cpuSeconds: number;
  readonly mainCpuSeconds: number;
  readonly workersCpuSeconds: number;
  readonly otherCpuSeconds: number;
  readonly workers: readonly WorkerFigures[];
}

/** `stratd sweep` (the built CLI) over the 4-combination grid with `workers` worker threads. */
function sweep(workers: number, grid: string, out: string, data = SAMPLE): SweepRun {
  const load = loadavg()[0] ?? 0;
  const started = performance.now();
  const run = spawnSync(process.execPath, ['bin/stratd.js', 'sweep', '--config', CONFIG, '--data', data, '--grid', grid, '--workers', String(workers), '--out', out], { encoding: 'utf8' });
  const seconds = (performance.now() - started) / 1000;
  if (run.status !== 0) throw new Error(`stratd sweep --workers ${workers} failed: ${run.stderr}`);
  const lines = run.stderr.split('\n');
  const perWorker = new Map<number, number>();
  const costs = new Map<number, RegExpExecArray>();
  for (const line of lines) {
    const rate = WORKER_LINE.exec(line);
    if (rate !== null) perWorker.set(Number(rate[1]), Number(rate[5]!.replaceAll(',', '')));
    const cost = COST_LINE.exec(line);
    if (cost !== null) costs.set(Number(cost[1]), cost);
  }
  const total = PROCESS_LINE.exec(run.stderr);
  if (total === null || costs.size !== perWorker.size) throw new Error(`stratd sweep --workers ${workers} printed no cost lines (not Linux?): ${run.stderr}`);
  return {
    seconds,
    load,
    cpuSeconds: Number(total[1]),
    mainCpuSeconds: Number(total[2]),
    workersCpuSeconds: Number(total[3]),
    otherCpuSeconds: Number(total[4]),
    workers: [...perWorker].sort(([a], [b]) => a - b).map(([id, eventsPerSecond]) => {
      const c = costs.get(id)!;
      return { eventsPerSecond, cpuSeconds: Number(c[2]), waitSeconds: Number(c[3]), gcSeconds: Number(c[4]), firstEventSeconds: Number(c[7]), idleTailSeconds: Number(c[8]) };
    }),
  };
}

const round = (value: number, digits: number): number => Number(value.toFixed(digits));

/** `BENCH_SWEEP_ROUNDS`: pairs of sweeps (1 worker, then 2), interleaved (default 2). */
function rounds(): number {
  return positiveIntegerSetting('BENCH_SWEEP_ROUNDS', 2);
}

/** `BENCH_SWEEP_COPIES`: how many times the sample is repeated for the long sweep (default 4; 1 skips it). */
function longCopies(): number {
  return positiveIntegerSetting('BENCH_SWEEP_COPIES', 4);
}

/**
 * The same grid over the sample repeated `copies` times (writeRepeatedRecording), its prepared form built
 * beforehand: one pair of sweeps (1 worker, then 2). Each worker's set-up and warm-up are paid once per
 * sweep whatever the recording's length, so beside the sample's figure this one shows how far the
 * steady replay itself scales.
 */
async function longSweep(dir: string, grid: string, copies: number): Promise<Record<string, number>> {
  const data = join(dir, 'repeated-market.jsonl.gz');
  const events = await writeRepeatedRecording(SAMPLE, data, copies);
  await PreparedRecording.load([data], undefined, {});
  const one = sweep(1, grid, join(dir, 'long-one'), data);
  const two = sweep(2, grid, join(dir, 'long-two'), data);
  return {
    'long.copies': copies,
    'long.events': events,
    'long.speedUp': round(one.seconds / two.seconds, 2),
    'long.oneWorkerSeconds': round(one.seconds, 2),
    'long.twoWorkersSeconds': round(two.seconds, 2),
    'long.oneWorkerCpuSeconds': one.cpuSeconds,
    'long.twoWorkersCpuSeconds': two.cpuSeconds,
    'long.oneWorker.load': round(one.load, 2),
    'long.twoWorkers.load': round(two.load, 2),
    'long.oneWorkerEventsPerSecond': one.workers[0]?.eventsPerSecond ?? 0,
    'long.twoWorkers.worker1EventsPerSecond': two.workers[0]?.eventsPerSecond ?? 0,
    'long.twoWorkers.worker2EventsPerSecond': two.workers[1]?.eventsPerSecond ?? 0,
  };
}

/**
 * Sweep scaling (issue 18, target ≥ 1.8×): the wall time of the whole `stratd sweep` of 4 combinations
 * with 2 worker threads against 1 worker, process start, config, parse of the sample and every backtest
 * included, in interleaved rounds (1, 2, 1, 2…: a shared machine's load drifts; each round's ratio
 * compares neighbours, the median of the rounds is the figure), each run's load beside it. Beside
 * the wall times, what a quiet machine cannot hide: the CPU each sweep cost (main thread, workers, other
 * threads), each worker's own events/s, GC and time waiting for a core, and `cpuSpeedUpBound`: the
 * speed-up 2 otherwise idle cores could give at best for this CPU work (2 × the 1-worker sweep's
 * worker and main thread CPU, its critical path while its other threads use the spare core, over all
 * the CPU of the 2-worker sweep). And beside all of it the machine's own parallel floor
 * (parallel-floor.ts): plain JavaScript work split the same way, what two threads can give here at best.
 */
export async function benchSweep(): Promise<BenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'stratd-bench-sweep-'));
  try {
    const grid = join(dir, 'grid.yml');
    writeFileSync(grid, GRID);
    const ones: SweepRun[] = [];
    const twos: SweepRun[] = [];
    for (let r = 0; r < rounds(); r++) {
      ones.push(sweep(1, grid, join(dir, `one-${r}`)));
      twos.push(sweep(2, grid, join(dir, `two-${r}`)));
    }
    const speedUps = ones.map((one, r) => one.seconds / twos[r]!.seconds);
    const figures: Record<string, number> = {
      combinations: 4,
      rounds: ones.length,
      speedUp: round(median(speedUps), 2),
      oneWorkerSeconds: round(median(ones.map((r) => r.seconds)), 2),
      twoWorkersSeconds: round(median(twos.map((r) => r.seconds)), 2),
      oneWorkerCpuSeconds: round(median(ones.map((r) => r.cpuSeconds)), 2),
      twoWorkersCpuSeconds: round(median(twos.map((r) => r.cpuSeconds)), 2),
      // Work the second worker adds (1.00: none).
      cpuWorkRatio: round(median(ones.map((one, r) => twos[r]!.cpuSeconds / one.cpuSeconds)), 3),
      cpuSpeedUpBound: round(median(ones.map((one, r) => (2 * (one.workersCpuSeconds + one.mainCpuSeconds)) / twos[r]!.cpuSeconds)), 2),
      oneWorkerEventsPerSecond: median(ones.map((r) => r.workers[0]?.eventsPerSecond ?? 0)),
      ...(await parallelFloor(ones.length)),
    };
    const each = (prefix: string, runs: readonly SweepRun[]): void => {
      runs.forEach((run, r) => {
        const at = `${prefix}.round${r + 1}`;
        figures[`${at}.load`] = round(run.load, 2);
        figures[`${at}.seconds`] = round(run.seconds, 2);
        figures[`${at}.cpuSeconds`] = run.cpuSeconds;
        figures[`${at}.mainCpuSeconds`] = run.mainCpuSeconds;
        figures[`${at}.workersCpuSeconds`] = run.workersCpuSeconds;
        figures[`${at}.otherCpuSeconds`] = run.otherCpuSeconds;
        run.workers.forEach((w, i) => {
          const worker = `${at}.worker${i + 1}`;
          figures[`${worker}.eventsPerSecond`] = w.eventsPerSecond;
          figures[`${worker}.cpuSeconds`] = w.cpuSeconds;
          figures[`${worker}.waitSeconds`] = w.waitSeconds;
          figures[`${worker}.gcSeconds`] = w.gcSeconds;
          figures[`${worker}.firstEventSeconds`] = w.firstEventSeconds;
          figures[`${worker}.idleTailSeconds`] = w.idleTailSeconds;
        });
      });
    };
    each('oneWorker', ones);
    each('twoWorkers', twos);
    // The figures the table of issue 18 had: the 2-worker sweep's per-worker events/s (median over rounds).
    [0, 1].forEach((i) => {
      figures[`twoWorkers.worker${i + 1}EventsPerSecond`] = median(twos.map((r) => r.workers[i]?.eventsPerSecond ?? 0));
    });
    const copies = longCopies();
    if (copies > 1) Object.assign(figures, await longSweep(dir, grid, copies));
    return { name: 'sweep: 4 combinations, 2 workers vs 1', figures, target: 'speed-up ≥ 1.8' };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
