import type { Observable, Subscription } from 'rxjs';
import { assertNever } from '../../core/errors.js';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import type { BusEvent } from '../../model/bus-events.js';
import { isAccountEvent, isMarketEvent } from '../../model/bus-events.js';
import type { MarketChannel, MarketEvent } from '../../sim/market-stream/events.js';
import { MARKET_CHANNELS } from '../../sim/market-stream/events.js';
import { encodeAccountLine } from './account-format.js';
import type { SkippedKind } from './event-mapping.js';
import { StreamEventMapper } from './event-mapping.js';
import type { RecordingNames } from './files.js';
import { existingParts, partPaths, recordingNames } from './files.js';
import type { EstimatedField } from './instruments.js';
import { HeaderSource } from './header.js';
import type { RecorderOptions } from './options.js';
import { DEFAULT_FLUSH_EVERY_MS, DEFAULT_REORDER_MS, checkRecorderOptions } from './options.js';
import type { RecordedPart } from './part.js';
import { RecordingPart } from './part.js';
import { ReorderBuffer } from './reorder.js';

export type { RecordedPart } from './part.js';

/** Why a recording cannot start: its files exist (and may not be overwritten), or the options are wrong. */
export class RecorderError extends Error {
  override readonly name = 'RecorderError';
  constructor(
    readonly code: 'EXISTS' | 'INVALID',
    message: string,
  ) {
    super(message);
  }
}

export interface RecorderStats {
  /** Market events written, over all parts. */
  readonly events: number;
  readonly accountEvents: number;
  /** Model events the stream format has no line for (klines, tickers, open interest), by type. */
  readonly skipped: Readonly<Partial<Record<SkippedKind, number>>>;
  /** Events of symbols or channels not recorded. */
  readonly ignored: number;
  /** Events that arrived after newer ones were written: written with the newest time written so far. */
  readonly late: number;
  /** Market events waiting in the reorder buffer. */
  readonly buffered: number;
  /** Header fields estimated rather than known, by symbol. */
  readonly estimated: Readonly<Record<string, readonly EstimatedField[]>>;
  /** Set once writing failed: the recorder stopped recording (the daemon goes on). */
  readonly failure?: string;
}

export interface RecordingSummary extends RecorderStats {
  readonly parts: readonly RecordedPart[];
}

/**
 * Records what the daemon's sources see as the simulator's market stream (JSON Lines, optionally
 * gzipped, rotated by size or time into numbered parts that each start with their header), with the
 * exchange's account events in a sibling section (recorder/account-format.ts).
 *
 * Feed it the kernel's bus (`attach(kernel.events$)`) or events one by one (`record`). Market events are
 * mapped (recorder/event-mapping.ts), held `reorderMs` to be put back in exchange-time order, and
 * written every `flushEveryMs` in whole lines (one write per batch, a gzip sync-flush after it), so a
 * killed process leaves at most a torn last line. The first part is opened at the first write (its
 * header needs the instruments and a first price); `stop()` writes what is left and closes the files.
 * Writing never throws into the caller: a failure is logged, recording stops, `stats().failure` says why.
 */
export class Recorder {
  private readonly names: RecordingNames;
  private readonly channels: readonly MarketChannel[];
  private readonly mapper: StreamEventMapper;
  private readonly buffer: ReorderBuffer;
  private readonly startedAt: number;
  private readonly accountLines: string[] = [];
  private readonly headers: HeaderSource;
  private readonly subscriptions: Subscription[] = [];
  private readonly done: RecordedPart[] = [];
  private readonly skipped: Partial<Record<SkippedKind, number>> = {};
  private part: RecordingPart | undefined;
  private nextIndex: number;
  private lastTs = -Infinity;
  private events = 0;
  private accountEvents = 0;
  private ignored = 0;
  private late = 0;
  private arrivals = 0;
  private arrivalsAtFlush = 0;
  private failure: string | undefined;
  private work: Promise<void> = Promise.resolve();
  private timer: Subscription | undefined;
  private stopping: Promise<RecordingSummary> | undefined;

  private constructor(
    private readonly options: RecorderOptions,
    firstIndex: number,
  ) {
    this.names = recordingNames(options.out, options.gzip);
    this.channels = options.channels ?? MARKET_CHANNELS;
    this.mapper = new StreamEventMapper({
      depthFromBookTicker: new Set(options.depthFromBookTicker ?? []),
      ...(options.fundingPeriod === undefined ? {} : { fundingPeriod: options.fundingPeriod }),
    });
    this.buffer = new ReorderBuffer(options.reorderMs ?? DEFAULT_REORDER_MS);
    this.headers = new HeaderSource({ symbols: options.symbols, channels: this.channels, market: options.market, ...(options.hints === undefined ? {} : { hints: options.hints }), logger: options.logger });
    this.startedAt = options.time.clock.now();
    this.nextIndex = firstIndex;
    this.scheduleFlush();
  }

  /** Checks the options and the files already on disk, then starts the periodic flush. */
  static open(options: RecorderOptions): Result<Recorder, RecorderError> {
    const first = firstPart(options);
    return first.ok ? ok(new Recorder(options, first.value)) : first;
  }

  /** Records every event of `events$` until `stop()`. */
  attach(events$: Observable<BusEvent>): Subscription {
    const subscription = events$.subscribe((event) => this.record(event));
    this.subscriptions.push(subscription);
    return subscription;
  }

  /** Takes one bus event: market events of recorded symbols, and account events; the rest is ignored. */
  record(event: BusEvent): void {
    if (this.failure !== undefined || this.stopping !== undefined) return;
    try {
      if (isMarketEvent(event)) {
        if (!this.options.symbols.includes(event.symbol)) {
          this.ignored++;
          return;
        }
        const mapped = this.mapper.map(event);
        if (typeof mapped === 'string') {
          this.skipped[mapped] = (this.skipped[mapped] ?? 0) + 1;
          return;
        }
        if (!this.channels.includes(mapped.type)) {
          this.ignored++;
          return;
        }
        this.headers.notePrice(mapped);
        this.arrivals++;
        this.buffer.push(mapped);
      } else if (isAccountEvent(event) && this.options.account !== false) {
        this.accountLines.push(encodeAccountLine(event));
      }
    } catch (error: unknown) {
      this.fail(error);
    }
  }

  /** Writes what is due now and syncs the files (the periodic flush does this on its own). */
  flush(): Promise<void> {
    return this.enqueue(() => this.writeDue(false));
  }

  stats(): RecorderStats {
    return {
      events: this.events,
      accountEvents: this.accountEvents,
      skipped: { ...this.skipped },
      ignored: this.ignored,
      late: this.late,
      buffered: this.buffer.size,
      estimated: this.headers.estimated(),
      ...(this.failure === undefined ? {} : { failure: this.failure }),
    };
  }

  /** The parts written so far, the current one included. */
  parts(): RecordedPart[] {
    return [...this.done, ...(this.part === undefined ? [] : [this.part.summary()])];
  }

  /**
   * Stops recording: detaches, writes everything buffered and closes the files. A recording that saw no
   * event still gets its header, so the output is always a readable (empty) stream. Idempotent.
   */
  stop(): Promise<RecordingSummary> {
    this.stopping ??= this.finish();
    return this.stopping;
  }

  private async finish(): Promise<RecordingSummary> {
    for (const s of this.subscriptions) s.unsubscribe();
    this.timer?.unsubscribe();
    this.timer = undefined;
    await this.enqueue(async () => {
      await this.writeDue(true);
      if (this.part === undefined && this.done.length === 0) await this.openPart(this.startedAt);
      await this.closePart();
    });
    // After a failure the queue is skipped: release the files all the same.
    await this.closePart().catch(() => undefined);
    return { ...this.stats(), parts: this.parts() };
  }

  private scheduleFlush(): void {
    const every = this.options.flushEveryMs ?? DEFAULT_FLUSH_EVERY_MS;
    // A new top-level action each time: a virtual scheduler would nest rescheduled ones.
    this.timer = this.options.time.scheduler.schedule(() => {
      if (this.failure !== undefined || this.stopping !== undefined) return;
      void this.flush();
      this.scheduleFlush();
    }, every);
  }

  private enqueue(job: () => Promise<void>): Promise<void> {
    this.work = this.work.then(async () => {
      if (this.failure !== undefined) return;
      try {
        await job();
      } catch (error: unknown) {
        this.fail(error);
        await this.closePart().catch(() => undefined);
      }
    });
    return this.work;
  }

  /**
   * Market events the reorder window has released (all of them when stopping, or when nothing arrived
   * since the last flush), then the account lines, then a sync; a part past its size is closed.
   */
  private async writeDue(all: boolean): Promise<void> {
    const quiet = this.arrivals === this.arrivalsAtFlush;
    this.arrivalsAtFlush = this.arrivals;
    for (const event of this.buffer.drain(all || quiet)) await this.writeMarket(event);
    // Account lines wait for the first market part (its start time comes from the market), unless stopping.
    if (this.accountLines.length > 0 && (this.part !== undefined || all)) {
      const part = this.part ?? (await this.openPart(this.done.length === 0 ? this.startedAt : this.lastTs));
      for (const line of this.accountLines.splice(0)) {
        part.appendAccount(line);
        this.accountEvents++;
      }
    }
    const part = this.part;
    if (part === undefined) return;
    await part.sync();
    const maxBytes = this.options.rotate?.sizeBytes;
    if (maxBytes !== undefined && part.size() >= maxBytes) await this.closePart();
  }

  private async writeMarket(input: MarketEvent): Promise<void> {
    let event = input;
    if (event.ts < this.lastTs) {
      this.late++;
      event = { ...event, ts: this.lastTs };
    }
    const ts = event.ts;
    if (this.part !== undefined && ts >= this.part.endTime) await this.closePart();
    const part = this.part ?? (await this.openPart(this.startFor(ts)));
    if (!part.symbols.has(event.symbol)) {
      this.ignored++;
      return;
    }
    part.writeMarket(event);
    this.events++;
    this.lastTs = ts;
  }

  /** A new part starts at the recorder's start (the first), at the time boundary it crossed, or where the last one stopped. */
  private startFor(ts: number): number {
    if (this.done.length === 0) return Math.max(0, Math.min(this.startedAt, ts));
    const every = this.options.rotate?.everyMs;
    const boundary = every === undefined ? -Infinity : Math.floor(ts / every) * every;
    return Math.max(this.lastTs, boundary, 0);
  }

  private async openPart(startTime: number): Promise<RecordingPart> {
    const every = this.options.rotate?.everyMs;
    const part = await RecordingPart.open({
      index: this.nextIndex,
      paths: partPaths(this.names, this.nextIndex),
      header: this.headers.header(startTime),
      account: this.options.account !== false,
      exclusive: this.options.existing !== 'overwrite',
      endTime: every === undefined ? Infinity : (Math.floor(startTime / every) + 1) * every,
    });
    this.nextIndex++;
    this.part = part;
    this.options.logger.info({ file: part.summary().market, startTime }, 'recording to a new file');
    return part;
  }

  private async closePart(): Promise<void> {
    const part = this.part;
    if (part === undefined) return;
    this.part = undefined;
    this.done.push(part.summary());
    await part.close();
  }

  private fail(error: unknown): void {
    if (this.failure !== undefined) return;
    this.failure = error instanceof Error ? error.message : String(error);
    this.timer?.unsubscribe();
    this.options.logger.error({ err: this.failure }, 'recording failed: no more events are recorded');
  }
}

/**
 * The index of the recording's first part after checking the options and the files on disk: 0 (the
 * `out` file itself) without rotation, 1 with it, after the last existing part with `existing: next`.
 * A clash with `existing: refuse` (the default) is an EXISTS error. Commands call it before starting
 * anything, to fail early.
 */
export function firstPart(options: Pick<RecorderOptions, 'out' | 'gzip' | 'rotate' | 'existing' | 'symbols' | 'channels' | 'flushEveryMs' | 'reorderMs'>): Result<number, RecorderError> {
  const checked = checkRecorderOptions(options);
  if (!checked.ok) return err(new RecorderError('INVALID', checked.error));
  const names = recordingNames(options.out, options.gzip);
  const rotating = options.rotate?.sizeBytes !== undefined || options.rotate?.everyMs !== undefined;
  const existing = existingParts(names);
  const clashes = existing.filter((i) => (rotating ? i >= 1 : i === 0));
  const first = rotating ? 1 : 0;
  if (clashes.length === 0) return ok(first);
  const mode = options.existing ?? 'refuse';
  switch (mode) {
    case 'refuse':
      return err(
        new RecorderError('EXISTS', `${partPaths(names, clashes[0] ?? first).market} (or its account section) exists: choose another name, or allow overwriting or numbering the next part`),
      );
    case 'next':
      return ok(Math.max(1, ...existing.map((i) => i + 1)));
    case 'overwrite':
      return ok(first);
    default:
      return assertNever(mode, 'existing-files mode');
  }
}
