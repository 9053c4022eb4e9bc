import type { Registry } from 'prom-client';
import type { Observable, Subscription } from 'rxjs';
import type { TimeSource } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { BusEvent } from '../../model/bus-events.js';
import type { NotifySettings } from '../../settings/daemon-config/notify.js';
import type { HttpPort } from '../../venue/http-port.js';
import { DeliveryQueue } from './delivery-queue.js';
import { EventSelection } from './event-selection.js';
import { daemonStartMessage, daemonStopMessage } from './message-text.js';
import type { Notification } from './notification.js';
import { NotifyMetrics } from './notify-metrics.js';

export interface NotifierOptions {
  readonly settings: NotifySettings;
  readonly http: HttpPort;
  readonly time: TimeSource;
  readonly logger: Logger;
  readonly registry: Registry;
  /** The kill switch when the notifier starts (only changes are announced). */
  readonly killSwitchEngaged: boolean;
}

/**
 * Notifications away from the terminal: watches the kernel's events, turns the chosen ones into
 * messages and hands each to the queues of the sinks that want it. Nothing here waits on a sink:
 * trading never does.
 */
export class Notifier {
  private readonly queues: readonly DeliveryQueue[];
  private readonly selection: EventSelection;

  constructor(private readonly options: NotifierOptions) {
    const metrics = new NotifyMetrics(options.registry);
    this.queues = options.settings.sinks.map((sink) => {
      const queue: DeliveryQueue = new DeliveryQueue(sink, {
        http: options.http,
        scheduler: options.time.scheduler,
        logger: options.logger,
        counters: metrics.forSink(sink.name, () => queue.length),
      });
      return queue;
    });
    this.selection = new EventSelection(options.settings.reconnectStorm, options.time.clock.now(), options.killSwitchEngaged);
  }

  /** Follows the kernel's event stream until the subscription ends. */
  watch(events$: Observable<BusEvent>): Subscription {
    return events$.subscribe((event) => {
      try {
        this.publish(this.selection.select(event));
      } catch (error: unknown) {
        // A notification must never break the kernel's stream.
        this.options.logger.error({ err: error instanceof Error ? error.message : String(error), event: event.type }, 'notification not built');
      }
    });
  }

  started(mode: string, strategies: readonly string[]): void {
    this.publish([daemonStartMessage(this.options.time.clock.now(), mode, strategies)]);
  }

  stopping(mode: string, cancelOpenOrders: boolean): void {
    this.selection.daemonStopping();
    this.publish([daemonStopMessage(this.options.time.clock.now(), mode, cancelOpenOrders)]);
  }

  /** Messages not yet delivered, per sink (also the gauge stratd_notify_queued). */
  backlog(): Readonly<Record<string, number>> {
    return Object.fromEntries(this.queues.map((q) => [q.name, q.length]));
  }

  /** For shutdown: one last attempt for everything queued (see DeliveryQueue.drain). */
  async drain(): Promise<void> {
    await Promise.all(this.queues.map((q) => q.drain()));
  }

  private publish(notifications: readonly Notification[]): void {
    for (const n of notifications) for (const q of this.queues) if (q.wants(n)) q.push(n);
  }
}
