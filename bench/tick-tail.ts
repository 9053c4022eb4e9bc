import { performance, PerformanceObserver } from 'node:perf_hooks';
import { systemStopwatch } from '../src/core/system-time.js';
import { TICK_STAGES } from '../src/engine/tick-to-order.js';
import type { TickStage, TickStamps } from '../src/engine/tick-to-order.js';

const STAGE_ENDS = ['ingestedAt', 'emittedAt', 'approvedAt', 'journaledAt', 'calledAt', 'writtenAt'] as const;

interface Sample {
  readonly from: number;
  readonly to: number;
  /** Each stage's share (ms), NaN where a reading was missing. */
  readonly stages: readonly number[];
}

/** What the slow samples had in common. */
export interface TailSummary {
  /** Samples over the threshold. */
  readonly samples: number;
  /** Of those, how many overlapped a garbage collection (V8's `gc` performance entries). */
  readonly withGc: number;
  /** Of those, how many had each stage as the one furthest over its p50 among the same command's samples (where the excess sat). */
  readonly byStage: Readonly<Record<TickStage, number>>;
  /** A tick's first request written to its second one's intent, the p50 (ms): `betweenRequestsP50`. */
  readonly betweenRequestsP50Ms: number;
  /** Garbage collections during the run, and their total time (ms). */
  readonly gcs: number;
  readonly gcMs: number;
}

/**
 * The p99 tail of tick-to-order, sample by sample (issue 18: trace the tail before changing anything):
 * every sample's stamps as the daemon records them, and the garbage collections meanwhile. For the
 * samples over a threshold it says how many overlapped a GC and in which stage each one's excess was.
 */
export class TailTrace {
  private readonly stamps: TickStamps[] = [];
  private readonly commands: string[] = [];
  private readonly gcs: Array<{ readonly start: number; readonly end: number }> = [];
  private readonly observer: PerformanceObserver;
  /** Stopwatch ms minus performance ms: GC entries are on the performance timeline. */
  private readonly offset = systemStopwatch.now() - performance.now();

  constructor() {
    this.observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) this.gcs.push({ start: entry.startTime + this.offset, end: entry.startTime + entry.duration + this.offset });
    });
    this.observer.observe({ entryTypes: ['gc'] });
  }

  /** Called at each write, on the daemon's path: holds the stamps, nothing more (they are read at the end). */
  record(command: string, stamps: TickStamps): void {
    this.commands.push(command);
    this.stamps.push(stamps);
  }

  /** Stops observing; the samples over `thresholdMs`. */
  summary(thresholdMs: number): TailSummary {
    this.observer.disconnect();
    const samples = this.stamps.map(sampleOf);
    // Each command's own stage p50s: a place's way holds its tick's cancel, so its kernel stage is always the longer.
    const p50sOf = new Map<string, number[]>();
    for (const command of new Set(this.commands)) {
      const own = samples.filter((_, i) => this.commands[i] === command);
      p50sOf.set(command, TICK_STAGES.map((_, i) => median(own.map((s) => s.stages[i] ?? Number.NaN).filter((v) => !Number.isNaN(v)))));
    }
    const byStage = Object.fromEntries(TICK_STAGES.map((stage) => [stage, 0])) as Record<TickStage, number>;
    let slow = 0;
    let withGc = 0;
    for (const [at, sample] of samples.entries()) {
      const p50s = p50sOf.get(this.commands[at] ?? '') ?? [];
      if (sample.to - sample.from <= thresholdMs) continue;
      slow++;
      if (this.gcs.some((gc) => gc.start < sample.to && gc.end > sample.from)) withGc++;
      let worst = -1;
      let excess = Number.NEGATIVE_INFINITY;
      sample.stages.forEach((share, i) => {
        const over = share - (p50s[i] ?? 0);
        if (!Number.isNaN(over) && over > excess) {
          excess = over;
          worst = i;
        }
      });
      const stage = TICK_STAGES[worst];
      if (stage !== undefined) byStage[stage]++;
    }
    return { samples: slow, withGc, byStage, betweenRequestsP50Ms: betweenRequestsP50(this.stamps), gcs: this.gcs.length, gcMs: Number(this.gcs.reduce((sum, gc) => sum + gc.end - gc.start, 0).toFixed(1)) };
  }
}

/**
 * Between two requests answering the same data (a tick's cancel, then its place): the first one's write
 * to the second one's intent, the p50 (ms). What runs there (the first call's way back from the socket,
 * the strategy's next lines) delays the second request.
 */
export function betweenRequestsP50(stamps: readonly TickStamps[]): number {
  const gaps: number[] = [];
  for (let i = 1; i < stamps.length; i++) {
    const first = stamps[i - 1];
    const second = stamps[i];
    if (first === undefined || second?.emittedAt === undefined || first.arrivedAt !== second.arrivedAt) continue;
    gaps.push(second.emittedAt - first.writtenAt);
  }
  return median(gaps);
}

function sampleOf(stamps: TickStamps): Sample {
  let from: number = stamps.arrivedAt;
  const stages = STAGE_ENDS.map((key) => {
    const end = stamps[key];
    if (end === undefined || Number.isNaN(from)) {
      from = Number.NaN;
      return Number.NaN;
    }
    const share = end - from;
    from = end;
    return share;
  });
  return { from: stamps.arrivedAt, to: stamps.writtenAt, stages };
}

function median(values: number[]): number {
  values.sort((a, b) => a - b);
  return values[Math.floor(values.length / 2)] ?? 0;
}
