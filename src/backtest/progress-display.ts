import { Presets, SingleBar } from 'cli-progress';
import type { Clock } from '../core/clock.js';
import type { BacktestProgress } from './types.js';

export interface ProgressDisplayOptions {
  /** A terminal: a live bar on `stream`. Otherwise plain lines through `line`, every `lineEveryMs`. */
  readonly tty: boolean;
  readonly stream: NodeJS.WritableStream;
  readonly line: (text: string) => void;
  /** Wall time, for events/s and the ETA (the replay itself runs in virtual time). */
  readonly wallClock: Clock;
  /** Virtual time the replay ends at, when known: without it there is no percentage and no ETA. */
  readonly endTime?: number;
  readonly lineEveryMs?: number;
}

/**
 * Progress of a backtest for a person: cli-progress's bar with events/s and ETA on a terminal, a plain
 * line every few seconds otherwise (logs, CI). Progress is measured in virtual time replayed.
 */
export class ProgressDisplay {
  private bar: SingleBar | undefined;
  private readonly startedAt: number;
  private lastLineAt: number;

  constructor(private readonly options: ProgressDisplayOptions) {
    this.startedAt = options.wallClock.now();
    this.lastLineAt = this.startedAt;
  }

  update(progress: BacktestProgress): void {
    const now = this.options.wallClock.now();
    const elapsedMs = Math.max(1, now - this.startedAt);
    const rate = Math.round((progress.events * 1000) / elapsedMs);
    const total = this.options.endTime === undefined ? undefined : Math.max(1, this.options.endTime - progress.startTime);
    const value = Math.max(0, progress.time - progress.startTime);
    const share = total === undefined ? undefined : Math.min(1, value / total);
    const at = new Date(progress.time).toISOString();
    if (this.options.tty) {
      const payload = { events: progress.events.toLocaleString('en-US'), rate: rate.toLocaleString('en-US'), at };
      if (this.bar === undefined) {
        this.bar = new SingleBar(
          {
            stream: this.options.stream,
            format: total === undefined ? 'backtest | {events} events | {rate} events/s | {at}' : 'backtest {bar} {percentage}% | {events} events | {rate} events/s | ETA {eta_formatted} | {at}',
            hideCursor: true,
            etaBuffer: 50,
          },
          Presets.shades_classic,
        );
        this.bar.start(total ?? 1, total === undefined ? 0 : Math.min(value, total), payload);
      } else this.bar.update(total === undefined ? 0 : Math.min(value, total), payload);
      if (progress.done) this.stop();
      return;
    }
    if (!progress.done && now - this.lastLineAt < (this.options.lineEveryMs ?? 10_000)) return;
    this.lastLineAt = now;
    const eta = share === undefined || share <= 0 ? undefined : ((elapsedMs / share) * (1 - share)) / 1000;
    const parts = [
      ...(share === undefined ? [] : [`${(share * 100).toFixed(1)}%`]),
      `${progress.events} events`,
      `${rate} events/s`,
      ...(progress.done ? [`done in ${(elapsedMs / 1000).toFixed(1)} s`] : eta === undefined ? [] : [`ETA ${Math.ceil(eta)} s`]),
      `at ${at}`,
    ];
    this.options.line(`backtest: ${parts.join(' | ')}\n`);
  }

  stop(): void {
    this.bar?.stop();
    this.bar = undefined;
  }
}
