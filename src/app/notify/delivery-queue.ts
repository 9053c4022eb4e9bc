import type { SchedulerLike, Subscription } from 'rxjs';
import type { Logger } from '../../core/logger.js';
import type { NotifySinkSettings } from '../../settings/daemon-config/notify.js';
import type { HttpPort } from '../../venue/http-port.js';
import { HttpTransportError } from '../../venue/http-port.js';
import type { Notification } from './notification.js';
import type { SinkCounters } from './notify-metrics.js';
import type { ReplyOutcome } from './sink-kinds.js';
import { readReply, requestFor } from './sink-kinds.js';

type Attempt = ReplyOutcome | { readonly kind: 'network'; readonly timedOut: boolean };

/**
 * One sink's delivery: messages go out one at a time, in order; `push` never waits. At most
 * `sink.queue` messages wait behind the one being delivered: a newer one pushes the oldest out
 * (counted as dropped). A network error, a timeout, 408, 429 or 5xx is tried again after an
 * exponential backoff on the daemon's scheduler (at least the receiver's retry_after); another 4xx,
 * or the last attempt failing, drops the message. Logs name the sink and the status, never its URL.
 */
export class DeliveryQueue {
  private readonly waiting: Notification[] = [];
  private current: Notification | undefined;
  private retry: { readonly timer: Subscription; readonly run: () => void } | undefined;
  private draining = false;
  private idle: Array<() => void> = [];

  constructor(
    private readonly sink: NotifySinkSettings,
    private readonly deps: { readonly http: HttpPort; readonly scheduler: SchedulerLike; readonly logger: Logger; readonly counters: SinkCounters },
  ) {}

  get name(): string {
    return this.sink.name;
  }

  wants(notification: Notification): boolean {
    return this.sink.events.includes(notification.event);
  }

  /** Messages not yet delivered (the one in flight included). */
  get length(): number {
    return this.waiting.length + (this.current === undefined ? 0 : 1);
  }

  push(notification: Notification): void {
    if (this.waiting.length >= this.sink.queue) {
      this.waiting.shift();
      this.deps.counters.dropped();
      this.deps.logger.warn({ sink: this.sink.name, queue: this.sink.queue }, 'notification queue full: the oldest waiting message was dropped');
    }
    this.waiting.push(notification);
    this.next();
  }

  /**
   * For shutdown: whatever waits gets one attempt now (a pending retry runs at once); the first that
   * fails for want of the receiver drops the rest. Resolves once nothing is left.
   */
  drain(): Promise<void> {
    this.draining = true;
    const pending = this.retry;
    if (pending !== undefined) {
      pending.timer.unsubscribe();
      this.retry = undefined;
      pending.run();
    }
    if (this.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private next(): void {
    if (this.current !== undefined) return;
    const message = this.waiting.shift();
    if (message === undefined) {
      for (const resolve of this.idle.splice(0)) resolve();
      return;
    }
    this.current = message;
    void this.attempt(message, 1);
  }

  private async attempt(message: Notification, attempt: number): Promise<void> {
    const outcome = await this.send(message);
    if (outcome.kind === 'sent') {
      this.deps.counters.sent();
      this.done();
      return;
    }
    this.deps.counters.failed();
    const status = outcome.kind === 'network' ? (outcome.timedOut ? 'timeout' : 'network error') : outcome.status;
    const { sink, logger } = { sink: this.sink, logger: this.deps.logger };
    if (outcome.kind === 'rejected' || attempt >= sink.retry.attempts || this.draining) {
      this.deps.counters.dropped();
      logger.warn({ sink: sink.name, status, attempt, event: message.event }, outcome.kind === 'rejected' ? 'notification refused by the sink: dropped' : 'notification not delivered: dropped');
      if (this.draining && outcome.kind !== 'rejected' && this.waiting.length > 0) {
        this.deps.counters.dropped(this.waiting.length);
        this.waiting.splice(0);
      }
      this.done();
      return;
    }
    const backoff = Math.min(sink.retry.maxMs, sink.retry.initialMs * 2 ** (attempt - 1));
    const delay = Math.max(backoff, outcome.kind === 'retry' ? (outcome.retryAfterMs ?? 0) : 0);
    logger.warn({ sink: sink.name, status, attempt, retryInMs: delay }, 'notification delivery failed: will retry');
    const run = (): void => {
      this.retry = undefined;
      void this.attempt(message, attempt + 1);
    };
    this.retry = { timer: this.deps.scheduler.schedule(run, delay), run };
  }

  private done(): void {
    this.current = undefined;
    this.next();
  }

  /** One POST; never throws (a broken invariant in the port aside, reported as a network failure). */
  private async send(message: Notification): Promise<Attempt> {
    try {
      return readReply(await this.deps.http.send(requestFor(this.sink, message)));
    } catch (error: unknown) {
      // The error's text may carry the URL (and so the secret): only its kind is kept.
      return { kind: 'network', timedOut: error instanceof HttpTransportError && error.timedOut };
    }
  }
}
