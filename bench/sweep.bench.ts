import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFIG, SAMPLE } from './backtest-replay.bench.js';
import type { BenchResult } from './bench-result.js';

/** 4 combinations of the example quoter's params. */
const GRID = 'strategies:\n  quoter-btc:\n    params:\n      halfSpreadBps: [2, 5]\n      requoteBps: [2, 4]\n';
const WORKER_LINE = /^sweep: worker (\d+): (\d+) combinations, ([\d,]+) events in ([\d.]+) s, ([\d,]+) events\/s$/;

/**
 * Loaded into the sweep's process (--import): at exit it prints the CPU time the whole process used,
 * every worker thread included (getrusage of the process): the work a sweep costs with 1 and 2 workers.
 * Less affected by other work than wall times, not immune: contention inflates CPU time too.
 */
const CPU_AT_EXIT = `data:text/javascript,process.on('exit',()=>{const u=process.cpuUsage();process.stderr.write('bench-cpu-us '+(u.user+u.system)+'\\n')})`;
const CPU_LINE = /^bench-cpu-us (\d+)$/m;

interface SweepRun {
  readonly seconds: number;
  /** CPU seconds of the whole process (main thread and workers). */
  readonly cpuSeconds: number;
  /** events/s of each worker's own backtests, in worker order (stratd sweep's per-worker lines). */
  readonly perWorker: readonly number[];
}

/** `stratd sweep` (the built CLI) over the 4-combination grid with `workers` worker threads: wall time and per-worker events/s. */
function sweep(workers: number, grid: string, out: string): SweepRun {
  const started = performance.now();
  const run = spawnSync(process.execPath, ['--import', CPU_AT_EXIT, 'bin/stratd.js', 'sweep', '--config', CONFIG, '--data', SAMPLE, '--grid', grid, '--workers', String(workers), '--out', out], { encoding: 'utf8' });
  const seconds = (performance.now() - started) / 1000;
  if (run.status !== 0) throw new Error(`stratd sweep --workers ${workers} failed: ${run.stderr}`);
  const perWorker = run.stderr
    .split('\n')
    .map((line) => WORKER_LINE.exec(line))
    .flatMap((m) => (m === null ? [] : [Number(m[5]!.replaceAll(',', ''))]));
  const cpu = CPU_LINE.exec(run.stderr);
  return { seconds, cpuSeconds: cpu === null ? Number.NaN : Number(cpu[1]) / 1e6, perWorker };
}

/**
 * Sweep scaling (issue 18, target ≥ 1.8×): the wall time of the whole `stratd sweep` of 4 combinations
 * with 2 worker threads against 1 worker, process start, config, parse of the sample and every
 * backtest included; each worker's own events/s beside it (how fast each replays when both run at once,
 * against the single worker's), and the CPU time each sweep cost (what a second worker adds in work,
 * which a busy machine's wall times hide).
 */
export function benchSweep(): BenchResult {
  const dir = mkdtempSync(join(tmpdir(), 'stratd-bench-sweep-'));
  try {
    const grid = join(dir, 'grid.yml');
    writeFileSync(grid, GRID);
    const one = sweep(1, grid, join(dir, 'one'));
    const two = sweep(2, grid, join(dir, 'two'));
    const figures: Record<string, number> = {
      combinations: 4,
      oneWorkerSeconds: Number(one.seconds.toFixed(2)),
      twoWorkersSeconds: Number(two.seconds.toFixed(2)),
      speedUp: Number((one.seconds / two.seconds).toFixed(2)),
      oneWorkerEventsPerSecond: one.perWorker[0] ?? 0,
      oneWorkerCpuSeconds: Number(one.cpuSeconds.toFixed(2)),
      twoWorkersCpuSeconds: Number(two.cpuSeconds.toFixed(2)),
      // Work the second worker adds (1.00: none). On 2 otherwise idle cores the speed-up is at most 2 / this.
      cpuWorkRatio: Number((two.cpuSeconds / one.cpuSeconds).toFixed(3)),
    };
    two.perWorker.forEach((eps, i) => {
      figures[`twoWorkers.worker${i + 1}EventsPerSecond`] = eps;
    });
    return { name: 'sweep: 4 combinations, 2 workers vs 1', figures, target: 'speed-up ≥ 1.8' };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
