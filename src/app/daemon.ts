import { collectDefaultMetrics } from 'prom-client';
import type { Subscription } from 'rxjs';
import type { TimeSource } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { Result } from '../core/result.js';
import { err, ok } from '../core/result.js';
import { CatalogSync } from '../catalog/catalog-sync.js';
import { Kernel } from '../engine/kernel.js';
import type { StrategyInstance } from '../engine/strategy-instance.js';
import type { DaemonConfig } from '../settings/daemon-config.js';
import { StateStore } from '../store/state-store.js';
import { categoriesOf } from '../venue/port/category.js';
import { VenueExchangePort } from '../venue/port/venue-exchange-port.js';
import { MarketPoller } from '../venue/sources/market-poller.js';
import { UserStreamSession } from '../venue/stream/user-stream-session.js';
import type { CronJobs } from './cron-scheduler.js';
import { pollChannels } from './daemon-channels.js';
import { daemonJobs } from './daemon-jobs.js';
import { connectVenue } from './daemon-venue.js';
import type { VenueConnection } from './daemon-venue.js';
import { HealthServer } from './health-server.js';

/** Why the daemon could not start: the reason is for one log line and a non-zero exit. */
export class DaemonStartError extends Error {
  override readonly name = 'DaemonStartError';
}

export interface DaemonOptions {
  readonly config: DaemonConfig;
  readonly strategies: readonly StrategyInstance[];
  readonly time: TimeSource;
  readonly logger: Logger;
}

/**
 * The composition root of `stratd run`: the venue (live exchange or embedded simulator), the state
 * store, the kernel, its sources (market poller, user streams), the scheduled jobs and the health
 * server. Start-up order: stream first (so nothing is missed), then the kernel (instruments,
 * reconciliation, strategies), then market polling and jobs.
 */
export class Daemon {
  private subscriptions: Subscription[] = [];
  private stopping: Promise<void> | undefined;

  private constructor(
    readonly kernel: Kernel,
    readonly venue: VenueConnection,
    readonly health: { readonly url: string },
    private readonly store: StateStore,
    private readonly sessions: readonly UserStreamSession[],
    private readonly poller: MarketPoller,
    private readonly jobs: CronJobs,
    private readonly healthServer: HealthServer,
    private readonly options: DaemonOptions,
  ) {}

  static async start(options: DaemonOptions): Promise<Result<Daemon, DaemonStartError>> {
    const { config, time, logger } = options;
    const opened = StateStore.open(config.stateDir);
    if (!opened.ok) return err(new DaemonStartError(`state directory ${config.stateDir}: ${opened.error.message}`));
    const store = opened.value;
    const cleanup: Array<() => Promise<void> | void> = [() => store.close()];
    const fail = async (message: string): Promise<Result<Daemon, DaemonStartError>> => {
      for (const undo of cleanup.reverse()) await undo();
      return err(new DaemonStartError(message));
    };
    let venue: VenueConnection;
    try {
      venue = await connectVenue(config, time, logger.child({ component: 'venue' }));
    } catch (error: unknown) {
      return fail(`cannot start the venue: ${error instanceof Error ? error.message : String(error)}`);
    }
    cleanup.push(() => venue.stop());
    const synced = await venue.client.start((error) => logger.warn({ err: error.message }, 'server time sync failed'));
    if (!synced.ok) return fail(`cannot reach the exchange at start: ${synced.error.message}`);

    const symbols = [...new Set([...config.market.map((m) => m.symbol), ...options.strategies.flatMap((s) => s.symbols)])];
    const kernel = new Kernel({
      time,
      port: new VenueExchangePort({ client: venue.client, clock: time.clock, logger: logger.child({ component: 'port' }) }),
      journal: store.journal(),
      keyValue: (id) => store.keyValue(id),
      logger,
      globalLimits: config.risk,
      strategies: options.strategies,
      symbols,
      orphans: config.orphans,
    });
    collectDefaultMetrics({ register: kernel.metrics.registry, prefix: 'stratd_' });

    const sessions = categoriesOf(symbols).map(
      (category) =>
        new UserStreamSession({
          userStream: venue.client.userStream,
          streamUrl: venue.streamUrl,
          time,
          logger: logger.child({ component: 'user-stream', category }),
          category,
          pingIntervalMs: config.userStream.pingEveryMs,
          pongTimeoutMs: config.userStream.pongTimeoutMs,
          backoff: config.userStream.backoff,
          contractMultiplier: (symbol) => kernel.cache.instrument(symbol)?.contractMultiplier,
        }),
    );
    const poller = new MarketPoller({ market: venue.client.market, time, logger: logger.child({ component: 'market' }), channels: pollChannels(config.market) });
    const subscriptions = [...sessions.map((s) => s.events$.subscribe((event) => kernel.ingest(event))), poller.events$.subscribe((event) => kernel.ingest(event))];
    cleanup.push(() => subscriptions.forEach((s) => s.unsubscribe()));

    for (const session of sessions) {
      const started = await session.start();
      if (!started.ok) return fail(`cannot open the user data stream: ${started.error.message}`);
      cleanup.push(() => session.stop());
    }
    const kernelStarted = await kernel.start();
    if (!kernelStarted.ok) return fail(`start-up reconciliation failed: ${kernelStarted.error.message}`);
    cleanup.push(() => kernel.stop({ cancelOpenOrders: false }));
    poller.start();
    cleanup.push(() => poller.stop());

    const catalogSync =
      venue.catalog === undefined ? undefined : new CatalogSync({ client: venue.catalog, mirror: store.catalogMirror(), clock: time.clock, logger: logger.child({ component: 'catalog-sync' }) });
    const jobs = daemonJobs({ schedules: config.jobs, kernel, sessions, ...(catalogSync === undefined ? {} : { catalogSync }), clock: time.clock, logger });
    jobs.start();
    cleanup.push(() => jobs.stop());

    const healthServer = new HealthServer({
      host: config.health.host,
      port: config.health.port,
      registry: kernel.metrics.registry,
      logger: logger.child({ component: 'health' }),
      // Liveness only: a reconnecting stream is the daemon working, not a reason to restart it.
      check: () => (kernel.state === 'running' ? { healthy: true } : { healthy: false, reasons: [`kernel ${kernel.state}`] }),
    });
    const listening = await healthServer.start();
    if (!listening.ok) return fail(listening.error.message);
    logger.info({ health: listening.value.url, strategies: options.strategies.map((s) => s.id), mode: config.venue.mode }, 'stratd running');
    const daemon = new Daemon(kernel, venue, { url: listening.value.url }, store, sessions, poller, jobs, healthServer, options);
    daemon.subscriptions = subscriptions;
    return ok(daemon);
  }

  /** Runs a scheduled job now (operator command, tests); its outcome also goes on the bus. */
  runJob(name: string): ReturnType<CronJobs['runNow']> {
    return this.jobs.runNow(name);
  }

  /** Stops strategies, optionally cancels open orders, flushes the journal, closes the stream; idempotent. */
  stop(): Promise<void> {
    this.stopping ??= this.shutdown();
    return this.stopping;
  }

  private async shutdown(): Promise<void> {
    const { logger, config } = this.options;
    logger.info({ cancelOpenOrders: config.shutdown.cancelOpenOrders }, 'stopping');
    await this.jobs.stop();
    this.poller.stop();
    await this.kernel.stop({ cancelOpenOrders: config.shutdown.cancelOpenOrders });
    for (const s of this.subscriptions) s.unsubscribe();
    for (const session of this.sessions) await session.stop();
    await this.healthServer.stop();
    await this.venue.stop();
    this.store.close();
    logger.info({}, 'stopped');
  }
}
