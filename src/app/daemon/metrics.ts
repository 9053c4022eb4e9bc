import { constants as perfConstants, performance, PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { Counter, Gauge, Histogram, Summary } from 'prom-client';
import type { Registry } from 'prom-client';
import { PendingObservations } from '../../engine/pending-observations.js';
import type { StrategyHandlers } from '../../engine/strategy/api.js';
import type { RateGovernor } from '../../venue/rate-governor.js';
import type { RestExchange } from '../../venue/rest-transport.js';
import type { SkippedRows } from '../../venue/wire/tolerant-list.js';
import type { MarketPoller } from '../../venue/sources/market-poller.js';
import type { MarketFeed } from '../../venue/market-ws/market-feed.js';
import type { UserStreamSession } from '../../venue/stream/user-stream-session.js';
import type { TimeSync } from '../../venue/time-sync.js';
import type { CronJobs } from './cron-scheduler.js';
import type { TableSize } from '../../core/table-size.js';

/** The daemon's parts whose state the gauges read at scrape time. */
export interface MetricSources {
  readonly governor: RateGovernor;
  readonly timeSync: TimeSync;
  readonly streams: ReadonlyArray<{ readonly category: string; readonly session: UserStreamSession }>;
  readonly poller: MarketPoller;
  /** Which channels ride the market socket now. */
  readonly feed?: MarketFeed;
  readonly jobs: CronJobs;
  readonly ready: () => boolean;
  /** Sizes of the long-lived tables that grow with activity (kernel, executor, journal, simulator), read at scrape time. */
  readonly collections?: () => Iterable<TableSize>;
  /** Data-quality findings of the recorder (`record:`), by kind, while it runs. */
  readonly recordingQuality?: () => Readonly<Record<string, number>> | undefined;
}

/** How often the event loop is sampled; a sample's lag is its delay beyond this interval. */
const LOOP_RESOLUTION_MS = 10;
/** Buckets (seconds) of `stratd_event_loop_lag_seconds`. */
const LOOP_LAG_BOUNDS = [0.001, 0.002, 0.005, 0.01, 0.015, 0.02, 0.03, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const LOOP_QUANTILES = [0.5, 0.9, 0.99, 1];

const HANDLER_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];
const REST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** The `status` label of an HTTP status, by its hundreds. */
const STATUS_CLASSES: readonly string[] = ['0xx', '1xx', '2xx', '3xx', '4xx', '5xx'];

/**
 * The daemon's own Prometheus metrics beside the kernel's, in the same registry: REST latency by
 * endpoint, strategy handler time, and (read from the parts at scrape time) the rate budget, user
 * streams, jobs, market polls, clock sync and readiness.
 */
export class DaemonMetrics {
  readonly handlerSeconds: Histogram<'strategy'>;
  readonly restSeconds: Histogram<'endpoint' | 'status'>;
  private readonly restPending: PendingObservations<'endpoint' | 'status'>;
  /** `restPending`'s keys by endpoint label and status class. */
  private readonly restKeys = new Map<string, Map<string, string>>();
  readonly wireRowsSkipped: Counter<'endpoint'>;
  /** Reloads (SIGHUP, POST /control/reload) by outcome: `ok`, or `failed` (the running config stays). */
  readonly reloads: Counter<'outcome'>;
  /** Market channels switched between the socket and their poll fallback, by where they went. */
  readonly marketSourceSwitches: Counter<'symbol' | 'channel' | 'to'>;
  private sources: MetricSources | undefined;
  private readonly loopSampler: { stop(): void };
  private readonly gcObserver: PerformanceObserver;
  private heapAfterGc: number | undefined;

  constructor(registry: Registry) {
    const registers = [registry];
    const read = <T>(pick: (s: MetricSources) => T, use: (value: T) => void): void => {
      if (this.sources !== undefined) use(pick(this.sources));
    };
    this.handlerSeconds = new Histogram({ name: 'stratd_strategy_handler_seconds', help: 'Time a strategy takes to handle one event', labelNames: ['strategy'], buckets: HANDLER_BUCKETS, registers });
    this.reloads = new Counter({ name: 'stratd_config_reloads_total', help: 'Configuration reloads by outcome (ok, failed: the running configuration stays)', labelNames: ['outcome'], registers });
    this.restSeconds = new Histogram({
      name: 'stratd_rest_request_seconds',
      help: 'REST round trips by endpoint and HTTP status class (2xx, 4xx, 5xx, timeout, network-error)',
      labelNames: ['endpoint', 'status'],
      buckets: REST_BUCKETS,
      registers,
      collect: () => this.restPending.flush(),
    });
    this.restPending = new PendingObservations(this.restSeconds);
    this.wireRowsSkipped = new Counter({
      name: 'stratd_wire_rows_skipped_total',
      help: 'Rows of list replies (and stream frames) skipped because they lack fields stratd needs, by endpoint',
      labelNames: ['endpoint'],
      registers,
    });
    new Gauge({
      name: 'stratd_rate_budget_used',
      help: 'Rate budget used in the current window (weight: request weight per minute; orders: per 2 s)',
      labelNames: ['budget'],
      registers,
      collect() {
        read((s) => s.governor.snapshot(), (g) => {
          this.set({ budget: 'weight' }, g.weightUsed);
          this.set({ budget: 'orders' }, g.ordersUsed);
        });
      },
    });
    new Gauge({
      name: 'stratd_rate_budget_limit',
      help: 'This process\'s share of each rate budget',
      labelNames: ['budget'],
      registers,
      collect() {
        read((s) => s.governor.snapshot(), (g) => {
          this.set({ budget: 'weight' }, g.weightLimit);
          this.set({ budget: 'orders' }, g.ordersLimit);
        });
      },
    });
    new Gauge({
      name: 'stratd_rate_queued_requests',
      help: 'Requests waiting for rate budget',
      registers,
      collect() {
        read((s) => s.governor.snapshot(), (g) => this.set(g.queued));
      },
    });
    new Gauge({
      name: 'stratd_rate_banned',
      help: '1 while sending is halted after an HTTP 418',
      registers,
      collect() {
        read((s) => s.governor.snapshot(), (g) => this.set(g.banned ? 1 : 0));
      },
    });
    new Gauge({
      name: 'stratd_user_stream_connected',
      help: '1 while the user data stream of a category is open',
      labelNames: ['category'],
      registers,
      collect() {
        read((s) => s.streams, (streams) => streams.forEach(({ category, session }) => this.set({ category }, session.state === 'open' ? 1 : 0)));
      },
    });
    new Counter({
      name: 'stratd_user_stream_reconnects_total',
      help: 'Reconnect attempts of the user data stream',
      labelNames: ['category'],
      registers,
      collect() {
        read((s) => s.streams, (streams) => streams.forEach(({ category, session }) => setCounter(this, { category }, session.reconnects)));
      },
    });
    const jobCounter = (name: string, help: string, pick: (stats: { runs: number; failures: number; skipped: number }) => number): void => {
      new Counter({
        name,
        help,
        labelNames: ['job'],
        registers,
        collect() {
          read((s) => s.jobs.stats(), (stats) => Object.entries(stats).forEach(([job, st]) => setCounter(this, { job }, pick(st))));
        },
      });
    };
    jobCounter('stratd_job_runs_total', 'Scheduled job runs (failed ones included)', (st) => st.runs);
    jobCounter('stratd_job_failures_total', 'Scheduled job runs that failed', (st) => st.failures);
    jobCounter('stratd_job_skipped_total', 'Job slots skipped while the previous run was still going', (st) => st.skipped);
    const pollCounter = (name: string, help: string, pick: (c: { polls: number; failures: number }) => number): void => {
      new Counter({
        name,
        help,
        labelNames: ['symbol', 'channel'],
        registers,
        collect() {
          read((s) => s.poller.stats().channels, (channels) => channels.forEach((c) => setCounter(this, { symbol: c.symbol, channel: c.channel }, pick(c))));
        },
      });
    };
    pollCounter('stratd_market_polls_total', 'Market data polls (failed ones included)', (c) => c.polls);
    pollCounter('stratd_market_poll_failures_total', 'Market data polls that failed', (c) => c.failures);
    this.marketSourceSwitches = new Counter({
      name: 'stratd_market_source_switches_total',
      help: 'Market channels switched between the public market socket and polling (to=poll: fallback; to=ws: back on the socket)',
      labelNames: ['symbol', 'channel', 'to'],
      registers,
    });
    new Gauge({
      name: 'stratd_market_channel_on_socket',
      help: 'Whether a market channel is carried by the public market socket now (1) or polled (0)',
      labelNames: ['symbol', 'channel'],
      registers,
      collect() {
        read(
          (s) => s.feed?.stats().channels ?? [],
          (channels) => channels.forEach((c) => this.set({ symbol: c.symbol, channel: c.channel }, c.source === 'ws' ? 1 : 0)),
        );
      },
    });
    new Gauge({
      name: 'stratd_clock_offset_seconds',
      help: 'Exchange clock minus local clock',
      registers,
      collect() {
        read((s) => s.timeSync.offset, (offset) => this.set(offset / 1000));
      },
    });
    new Gauge({
      name: 'stratd_clock_synced',
      help: '1 once the exchange clock offset is known',
      registers,
      collect() {
        read((s) => s.timeSync.isSynced, (synced) => this.set(synced ? 1 : 0));
      },
    });
    // Event-loop lag: a timer every LOOP_RESOLUTION_MS, its lateness one observation, as a histogram
    // (cumulative buckets) and a summary (quantiles over the last minute).
    const lagHistogram = new Histogram({
      name: 'stratd_event_loop_lag_seconds',
      help: `Event-loop lag: how late a timer due every ${LOOP_RESOLUTION_MS} ms ran`,
      buckets: LOOP_LAG_BOUNDS,
      registers,
    });
    const lagSummary = new Summary({
      name: 'stratd_event_loop_lag_recent_seconds',
      help: `Event-loop lag (how late a timer due every ${LOOP_RESOLUTION_MS} ms ran) at quantiles over the last minute`,
      percentiles: LOOP_QUANTILES,
      maxAgeSeconds: 60,
      ageBuckets: 6,
      registers,
    });
    this.loopSampler = sampleLoopLag((seconds) => {
      lagHistogram.observe(seconds);
      lagSummary.observe(seconds);
    });
    // Heap used right after the last major GC: the live heap, without the sawtooth of garbage between GCs.
    this.gcObserver = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const detail: unknown = 'detail' in entry ? entry.detail : undefined;
        if (typeof detail === 'object' && detail !== null && 'kind' in detail && detail.kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR) this.heapAfterGc = getHeapStatistics().used_heap_size;
      }
    });
    this.gcObserver.observe({ entryTypes: ['gc'] });
    const heapAfterGc = (): number | undefined => this.heapAfterGc;
    new Gauge({
      name: 'stratd_heap_used_after_gc_bytes',
      help: 'V8 heap used just after the last major (mark-compact) garbage collection',
      registers,
      collect() {
        const bytes = heapAfterGc();
        if (bytes !== undefined) this.set(bytes);
      },
    });
    new Gauge({
      name: 'stratd_collection_size',
      help: 'Entries in a long-lived table that grows with activity (orders, fills, journal entries, simulator records)',
      labelNames: ['collection'],
      registers,
      collect() {
        read((s) => s.collections?.() ?? [], (all) => {
          for (const c of all) this.set({ collection: c.name }, c.size);
        });
      },
    });
    new Gauge({
      name: 'stratd_collection_limit',
      help: 'The count bound of a table\'s purge policy (tables purged by age alone have none)',
      labelNames: ['collection'],
      registers,
      collect() {
        read((s) => s.collections?.() ?? [], (all) => {
          for (const c of all) if (c.limit !== undefined) this.set({ collection: c.name }, c.limit);
        });
      },
    });
    new Counter({
      name: 'stratd_recording_quality_findings_total',
      help: 'Data-quality findings in the market data the recorder wrote, by kind (gap, duplicate, out-of-order, frozen-book)',
      labelNames: ['kind'],
      registers,
      collect() {
        read((s) => s.recordingQuality?.(), (counts) => {
          for (const [kind, n] of Object.entries(counts ?? {})) setCounter(this, { kind }, n);
        });
      },
    });
    new Gauge({
      name: 'stratd_ready',
      help: '1 while /readyz answers 200',
      registers,
      collect() {
        read((s) => s.ready(), (ready) => this.set(ready ? 1 : 0));
      },
    });
  }

  /** From now on the gauges read these parts. */
  attach(sources: MetricSources): void {
    this.sources = sources;
  }

  /** Stops the event-loop sampling and the GC observer. */
  stop(): void {
    this.loopSampler.stop();
    this.gcObserver.disconnect();
  }

  /** One REST round trip as RestTransport reports it on `exchanges`. */
  observeRest(exchange: RestExchange): void {
    const { endpoint } = exchange;
    const status = typeof exchange.status === 'number' ? (STATUS_CLASSES[Math.floor(exchange.status / 100)] ?? `${Math.floor(exchange.status / 100)}xx`) : exchange.status;
    // The key of an endpoint and status class is built once (a string built per reply is hashed afresh per reply).
    let byStatus = this.restKeys.get(endpoint);
    if (byStatus === undefined) {
      byStatus = new Map();
      this.restKeys.set(endpoint, byStatus);
    }
    let key = byStatus.get(status);
    if (key === undefined) {
      key = `${endpoint} ${status}`;
      byStatus.set(status, key);
    }
    // Held until a scrape: a poll's reply is reported before its market event goes on (tick-to-order).
    this.restPending.add(key, () => ({ endpoint, status }), Math.max(0, exchange.latencyMs) / 1000);
  }

  /** Rows the parsing rule left out of one reply. */
  observeSkippedRows(skipped: SkippedRows): void {
    this.wireRowsSkipped.inc({ endpoint: skipped.endpoint }, skipped.rows.length);
  }

  /** The same handlers, each onEvent timed (an async one until it settles); a synchronous one stays synchronous. */
  timeHandlers(strategy: string, handlers: StrategyHandlers): StrategyHandlers {
    const onEvent = handlers.onEvent?.bind(handlers);
    if (onEvent === undefined) return handlers;
    const histogram = this.handlerSeconds;
    return {
      ...(handlers.onStart === undefined ? {} : { onStart: handlers.onStart.bind(handlers) }),
      ...(handlers.onStop === undefined ? {} : { onStop: handlers.onStop.bind(handlers) }),
      onEvent: (event) => {
        const started = performance.now();
        const done = (): void => histogram.observe({ strategy }, (performance.now() - started) / 1000);
        let returned: void | Promise<void>;
        try {
          returned = onEvent(event);
        } catch (error: unknown) {
          done();
          throw error;
        }
        if (returned === undefined || typeof (returned as Promise<void>).then !== 'function') {
          done();
          return returned;
        }
        return (returned as Promise<void>).finally(done);
      },
    };
  }
}

/** Calls `observe` with the lateness (seconds) of a timer due every LOOP_RESOLUTION_MS; never keeps the process alive. */
function sampleLoopLag(observe: (seconds: number) => void): { stop(): void } {
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    observe(Math.max(0, now - last - LOOP_RESOLUTION_MS) / 1000);
    last = now;
  }, LOOP_RESOLUTION_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/** A counter mirroring a total kept elsewhere. */
function setCounter<T extends string>(counter: Counter<T>, labels: Partial<Record<T, string>>, total: number): void {
  counter.remove(labels);
  counter.inc(labels, total);
}
