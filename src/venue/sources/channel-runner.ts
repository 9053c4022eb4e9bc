import type { Subscription } from 'rxjs';
import type { Stopwatch, TimeSource } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { MarketEvent } from '../../model/market-events.js';
import type { RequestTrace } from '../rest-transport.js';
import type { ChannelSource } from './channel-source.js';
import type { ChannelName, PollChannel } from './poll-channel.js';
import { channelKey } from './poll-channel.js';

export interface ChannelStats {
  readonly key: string;
  readonly symbol: string;
  readonly channel: ChannelName;
  readonly everyMs: number;
  /** Polls finished, failed ones included. */
  readonly polls: number;
  readonly failures: number;
  readonly events: number;
  readonly inFlight: boolean;
  readonly lastPollAt?: number;
  readonly lastError?: string;
}

/**
 * When the reply of a channel's poll arrived, on the stopwatch: its requests carry `trace`, which stamps
 * the reply's arrival (polls of one channel never overlap, so one slot per channel is enough).
 */
export class ReplyArrival {
  private at: number | undefined;
  readonly trace: RequestTrace = {
    answered: () => {
      this.at = this.stopwatch.now();
    },
  };

  constructor(private readonly stopwatch: Stopwatch) {}

  /** Before a poll. */
  reset(): void {
    this.at = undefined;
  }

  /** After it: when its (last) reply arrived; now, for a transport that does not report arrivals. */
  read(): number {
    this.at ??= this.stopwatch.now();
    return this.at;
  }
}

/**
 * Polls one channel on the scheduler. A poll starts only after the previous one answered: the next is
 * scheduled from the reply, at max(0, everyMs − time the poll took), so a slow reply delays it and
 * polls never stack. A failure is logged and counted; the next slot tries again.
 */
export class ChannelRunner {
  readonly key: string;
  private running = false;
  private inFlight = false;
  private timer: Subscription | undefined;
  private polls = 0;
  private failures = 0;
  private events = 0;
  private lastPollAt: number | undefined;
  private lastError: string | undefined;

  constructor(
    readonly channel: PollChannel,
    private readonly source: ChannelSource,
    private readonly time: TimeSource,
    private readonly logger: Logger,
    private readonly emit: (event: MarketEvent, arrivedAt: number) => void,
    private readonly arrival: ReplyArrival,
  ) {
    this.key = channelKey(channel);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    // A poll still out from before a stop schedules the next one itself when it answers.
    if (!this.inFlight) this.scheduleIn(0);
  }

  stop(): void {
    this.running = false;
    this.timer?.unsubscribe();
    this.timer = undefined;
  }

  stats(): ChannelStats {
    return {
      key: this.key,
      symbol: this.channel.symbol,
      channel: this.channel.channel,
      everyMs: this.channel.everyMs,
      polls: this.polls,
      failures: this.failures,
      events: this.events,
      inFlight: this.inFlight,
      ...(this.lastPollAt === undefined ? {} : { lastPollAt: this.lastPollAt }),
      ...(this.lastError === undefined ? {} : { lastError: this.lastError }),
    };
  }

  private scheduleIn(delayMs: number): void {
    // A new top-level action each time (not a rescheduled one): virtual schedulers would nest them.
    this.timer = this.time.scheduler.schedule(() => {
      this.timer = undefined;
      this.poll();
    }, delayMs);
  }

  /**
   * One poll now, outside the schedule (the market feed's start-up snapshot); its events are emitted as a
   * scheduled poll's are. Nothing is sent while a poll of the channel is out.
   */
  async pollOnce(): Promise<void> {
    if (this.inFlight) return;
    await this.fetch((events) => this.emitAll(events));
  }

  private poll(): void {
    if (!this.running || this.inFlight) return;
    const started = this.time.clock.now();
    void this.fetch((events) => {
      if (!this.running) return;
      this.emitAll(events);
      const elapsed = this.time.clock.now() - started;
      this.scheduleIn(Math.max(0, this.channel.everyMs - elapsed));
    });
  }

  /** One poll; `then` gets its events in the same continuation as the reply (no promise hop of its own on the way to the kernel). */
  private async fetch(then: (events: readonly MarketEvent[]) => void): Promise<void> {
    this.inFlight = true;
    this.lastPollAt = this.time.clock.now();
    let events: readonly MarketEvent[] = [];
    this.arrival.reset();
    try {
      const reply = await this.source.poll();
      if (reply.ok) {
        events = reply.value;
        this.lastError = undefined;
      } else this.fail(reply.error.message, reply.error.toJSON());
    } catch (error: unknown) {
      this.fail(error instanceof Error ? error.message : String(error), { error: String(error) });
    } finally {
      this.inFlight = false;
      this.polls++;
    }
    then(events);
  }

  private emitAll(events: readonly MarketEvent[]): void {
    const arrivedAt = events.length === 0 ? 0 : this.arrival.read();
    for (const event of events) {
      this.events++;
      this.emit(event, arrivedAt);
    }
  }

  private fail(message: string, detail: Record<string, unknown>): void {
    this.failures++;
    this.lastError = message;
    this.logger.warn({ channel: this.key, ...detail }, 'market poll failed; retrying at the next slot');
  }
}
