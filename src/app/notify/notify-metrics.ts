import { Counter, Gauge } from 'prom-client';
import type { Registry } from 'prom-client';

/** What a sink's queue reports: a message delivered, an attempt that failed, a message given up. */
export interface SinkCounters {
  sent(): void;
  failed(): void;
  dropped(count?: number): void;
}

/** stratd_notify_{sent,failures,dropped}_total{sink}: every sink's series exists from the start, at 0. */
export class NotifyMetrics {
  private readonly sentTotal: Counter<'sink'>;
  private readonly failuresTotal: Counter<'sink'>;
  private readonly droppedTotal: Counter<'sink'>;
  private readonly backlogs = new Map<string, () => number>();

  constructor(registry: Registry) {
    const registers = [registry];
    this.sentTotal = new Counter({ name: 'stratd_notify_sent_total', help: 'Notifications a sink accepted', labelNames: ['sink'], registers });
    this.failuresTotal = new Counter({
      name: 'stratd_notify_failures_total',
      help: 'Delivery attempts that failed (network error, timeout, or an HTTP status other than 2xx)',
      labelNames: ['sink'],
      registers,
    });
    this.droppedTotal = new Counter({
      name: 'stratd_notify_dropped_total',
      help: 'Notifications given up: the sink\'s queue was full, its retries ran out, or it refused the message',
      labelNames: ['sink'],
      registers,
    });
    const backlogs = this.backlogs;
    new Gauge({
      name: 'stratd_notify_queued',
      help: 'Notifications of a sink not yet delivered (the one in flight included)',
      labelNames: ['sink'],
      registers,
      collect() {
        for (const [sink, length] of backlogs) this.set({ sink }, length());
      },
    });
  }

  /** The counters of one sink; `backlog` is read at scrape time. */
  forSink(sink: string, backlog: () => number): SinkCounters {
    this.backlogs.set(sink, backlog);
    for (const counter of [this.sentTotal, this.failuresTotal, this.droppedTotal]) counter.inc({ sink }, 0);
    return {
      sent: () => this.sentTotal.inc({ sink }),
      failed: () => this.failuresTotal.inc({ sink }),
      dropped: (count = 1) => this.droppedTotal.inc({ sink }, count),
    };
  }
}
