import { collectDefaultMetrics, Registry } from 'prom-client';
import { merge, Subscription } from 'rxjs';
import type { TimeSource } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import { attachRecorder } from '../../recording/recorder/daemon.js';
import type { Recorder } from '../../recording/recorder/recorder.js';
import { CatalogSync } from '../../catalog/sync.js';
import { Kernel } from '../../engine/kernel.js';
import { KernelMetrics } from '../../engine/kernel-metrics.js';
import type { StrategyInstance } from '../../engine/strategy/instance.js';
import type { OrderJournal } from '../../model/journal.js';
import { createGotHttp } from '../../venue/got-http.js';
import type { HttpPort } from '../../venue/http-port.js';
import type { CrashPoints } from './crash-points.js';
import { httpWithCrashPoint, journalWithCrashPoint } from './crash-points.js';
import type { MarketEvent } from '../../model/market-events.js';
import type { RunnerState } from '../../engine/strategy/runner.js';
import type { ConfigError } from '../../settings/config-error.js';
import { loadDaemonConfig } from '../../settings/daemon-config/daemon-config.js';
import type { DaemonConfig } from '../../settings/daemon-config/daemon-config.js';
import type { Environment } from '../../settings/secrets.js';
import { StateStore } from '../../store/state-file/state-store.js';
import type { StateStoreInfo, StateStoreOptions } from '../../store/state-file/state-store.js';
import { categoriesOf } from '../../venue/port/category.js';
import { VenueExchangePort } from '../../venue/port/venue-exchange-port.js';
import type { MarketPoller } from '../../venue/sources/market-poller.js';
import { MarketFeed } from '../../venue/market-ws/market-feed.js';
import { UserStreamSession } from '../../venue/stream/user-stream-session.js';
import { isLoopbackHost } from '../control/auth.js';
import { ControlMetrics } from '../control/metrics.js';
import { ensureControlToken } from '../control/token.js';
import { daemonSignals } from '../signals/daemon-signals.js';
import { watchRateAlarms } from '../notify/rate-alarms.js';
import type { DaemonSignals } from '../signals/daemon-signals.js';
import type { SignalRecord } from '../signals/journal.js';
import { readHealthTls } from '../control/server-settings.js';
import type { ControlToken } from '../control/token.js';
import { LiveSettings } from '../control/live-settings.js';
import { controlRoutes } from '../control/routes.js';
import type { KillSwitchView, ResumeRequest } from '../control/routes.js';
import type { ClaimRequest, ClaimView } from '../control/claim.js';
import { ComponentErrors, daemonStatus, readiness } from '../control/status.js';
import type { DaemonStatus, StatusSources } from '../control/status.js';
import type { CronJobs } from './cron-scheduler.js';
import { pollChannels } from './channels.js';
import { daemonJobs } from './jobs.js';
import { attachTradeLog } from '../trade-log/wiring.js';
import { DaemonMetrics } from './metrics.js';
import { registerTradingGauges } from './trading-gauges.js';
import { resolveStrategies } from './strategies.js';
import { bindStateToAccount } from './account.js';
import { recoverJournalTail } from './journal-tail-recovery.js';
import { WarningThrottle } from './warning-throttle.js';
import { connectVenue, venueHttp } from './venue.js';
import { registerLiveMarketMetrics } from '../paper-live/market-metrics.js';
import type { SimulatorTaps, VenueConnection } from './venue.js';
import { Dashboard } from '../control/dashboard/index.js';
import { HealthServer } from '../control/server.js';
import { Notifier } from '../notify/index.js';
import type { Caller, HealthReport } from '../control/server.js';
import { planReload } from './reload.js';
import type { ReloadReport } from './reload.js';
import { DEFAULT_SIM_CONFIG } from '../default-configs.js';

/** Why the daemon could not start: the reason is for one log line and a non-zero exit. */
export class DaemonStartError extends Error {
  override readonly name = 'DaemonStartError';
}

/** A config and its strategies, read and validated (what `prepareRun` answers). */
export type RereadConfig = () => Promise<Result<{ readonly config: DaemonConfig; readonly strategies: readonly StrategyInstance[] }, ConfigError>>;

/** Where SIGHUP comes from: `process`, or an EventEmitter in tests. */
export interface HangupSource {
  on(event: 'SIGHUP', listener: (signal: NodeJS.Signals) => void): unknown;
  off(event: 'SIGHUP', listener: (signal: NodeJS.Signals) => void): unknown;
}

export interface DaemonOptions {
  readonly config: DaemonConfig;
  readonly strategies: readonly StrategyInstance[];
  readonly time: TimeSource;
  readonly logger: Logger;
  /** The health server's bearer token (STRATD_HEALTH_TOKEN) and the default reload's `${VAR}`s; default process.env. */
  readonly env?: Environment;
  /** How a reload reads the config again (`stratd run` passes its own flags); default: `config.file` with `env`. */
  readonly reread?: RereadConfig;
  /** Crash testing only (STRATD_CRASH_POINTS): SIGKILL at chosen moments of an order's life. */
  readonly crashPoints?: CrashPoints;
  /** Fault injection in tests only: the journal the kernel writes through (e.g. one whose writes fail on demand). */
  readonly journalFaults?: (journal: OrderJournal) => OrderJournal;
  /** SIGHUP reloads the config; default process, null for none. */
  readonly hangup?: HangupSource | null;
  /** Observers for tools that compare the daemon with something else (`stratd parity`). */
  readonly taps?: DaemonTaps;
  /** How the state store is opened (its durability); default: the config's `journal.durability`. */
  readonly stateStore?: StateStoreOptions;
  /** Scheduled jobs follow `time` (accelerated: `stratd run --time-scale`) instead of node-cron's wall clock. */
  readonly jobsOnTimeSource?: boolean;
  /**
   * The exchange client's network port instead of the default (`exchange.http`'s stack); its owner
   * closes it. Tests in virtual time give one whose request deadlines run on their clock.
   */
  readonly http?: HttpPort;
}

/** What a tool may watch: the embedded simulator's engine, and every market event as the kernel receives it. */
export interface DaemonTaps extends SimulatorTaps {
  /** Each market event from the sources, just before the kernel ingests it, with the local time it arrived. */
  readonly market?: (event: MarketEvent, arrivedAt: number) => void;
  /** The kernel starts (instruments, reconciliation, then the strategies) at this local time. */
  readonly kernelStarting?: (time: number) => void;
}

interface Parts {
  readonly kernel: Kernel;
  readonly venue: VenueConnection;
  readonly store: StateStore;
  readonly sessions: readonly UserStreamSession[];
  readonly poller: MarketPoller;
  readonly feed: MarketFeed;
  readonly jobs: CronJobs;
  readonly live: LiveSettings;
  readonly status: StatusSources;
  readonly subscriptions: readonly Subscription[];
  readonly recorder: Recorder | undefined;
  readonly metrics: DaemonMetrics;
  readonly notifier: Notifier | undefined;
  readonly controlMetrics: ControlMetrics;
  readonly dashboard: Dashboard;
  /** POST /signals, with a `signals:` section. */
  readonly signals?: DaemonSignals | undefined;
}

/**
 * The composition root of `stratd run`: the venue (live exchange or embedded simulator), the state
 * store, the kernel, its sources (market poller, user streams), the scheduled jobs and the health and
 * control server. Start-up order: stream first (so nothing is missed), then the kernel (instruments,
 * reconciliation, strategies), then market polling and jobs.
 */
export class Daemon {
  readonly kernel: Kernel;
  readonly venue: VenueConnection;
  private stopping: Promise<void> | undefined;
  private reloading: Promise<unknown> = Promise.resolve();
  private lastReload: ReloadReport | undefined;
  private effective: DaemonConfig;
  private readonly disposers: Array<() => void> = [];
  private healthServer: HealthServer | undefined;
  private address: { readonly url: string } | undefined;

  private constructor(
    private readonly parts: Parts,
    private readonly options: DaemonOptions,
  ) {
    this.kernel = parts.kernel;
    this.venue = parts.venue;
    this.effective = options.config;
  }

  /** The recorder of `record:` (or of `stratd record`), while it runs. */
  get recorder(): Recorder | undefined {
    return this.parts.recorder;
  }

  /** The journaled external signals with their answers, oldest first (empty without a signals section). */
  signals(): readonly SignalRecord[] {
    return this.parts.signals?.journal.all() ?? [];
  }

  /** The order journal of the state store (read it; only the executor writes). */
  get journal(): OrderJournal {
    return this.parts.store.journal();
  }

  /** The state store's settings in force (its durability among them). */
  get stateStore(): StateStoreInfo {
    return this.parts.store.describe();
  }

  /** The health and control server's address. */
  get health(): { readonly url: string } {
    if (this.address === undefined) throw new Error('the health server is not listening');
    return this.address;
  }

  static async start(options: DaemonOptions): Promise<Result<Daemon, DaemonStartError>> {
    const { config, time, logger } = options;
    const tls = readHealthTls(config);
    if (!tls.ok) return err(new DaemonStartError(tls.error.message));
    const opened = StateStore.open(config.stateDir, options.stateStore ?? { durability: config.journal.durability });
    if (!opened.ok) return err(new DaemonStartError(`state directory ${config.stateDir}: ${opened.error.message}`));
    const store = opened.value;
    const token = ensureControlToken(config.stateDir, options.env ?? process.env);
    if (!token.ok) {
      store.close();
      return err(new DaemonStartError(token.error));
    }
    const cleanup: Array<() => Promise<void> | void> = [() => store.close()];
    const fail = async (message: string): Promise<Result<Daemon, DaemonStartError>> => {
      for (const undo of cleanup.reverse()) await undo();
      return err(new DaemonStartError(message));
    };
    let venue: VenueConnection;
    try {
      const crash = options.crashPoints;
      const http = crash === undefined ? options.http : httpWithCrashPoint(options.http ?? venueHttp(config), crash, () => (store.groupCommit?.unsynced ?? 0) > 0);
      venue = await connectVenue(config, time, logger.child({ component: 'venue' }), options.taps, http);
    } catch (error: unknown) {
      return fail(`cannot start the venue: ${error instanceof Error ? error.message : String(error)}`);
    }
    cleanup.push(() => venue.stop());
    const errors = new ComponentErrors();
    const registry = new Registry();
    const metrics = new DaemonMetrics(registry);
    const controlMetrics = new ControlMetrics(registry);
    cleanup.push(() => metrics.stop());
    const subscriptions: Subscription[] = [watchRest(venue, metrics, errors, time), watchSkippedRows(venue, metrics, logger.child({ component: 'venue' }), new WarningThrottle(time.clock, SKIPPED_WARNING_EVERY_MS))];
    cleanup.push(() => subscriptions.forEach((s) => s.unsubscribe()));
    const synced = await venue.client.start((error) => {
      errors.record('clock', error.message, time.clock.now());
      logger.warn({ err: error.message }, 'server time sync failed');
    });
    if (!synced.ok) return fail(`cannot reach the exchange at start: ${synced.error.message}`);
    const symbols = [...new Set([...config.market.map((m) => m.symbol), ...options.strategies.flatMap((s) => s.symbols)])];
    const bound = await bindStateToAccount(store, venue.client, categoriesOf(symbols), logger.child({ component: 'state' }));
    if (!bound.ok) return fail(`state directory ${config.stateDir}: ${bound.error}`);

    const live = new LiveSettings(config.risk, options.strategies, (id, handlers) => metrics.timeHandlers(id, handlers));
    const journal = kernelJournal(store.journal(), options);
    const kernel = new Kernel({
      time,
      port: new VenueExchangePort({ client: venue.client, logger: logger.child({ component: 'port' }) }),
      journal,
      idNamespace: store.identity.namespace,
      keyValue: (id) => store.keyValue(id),
      logger,
      metrics: new KernelMetrics(registry, { exchangeNow: () => venue.client.timeSync.serverNow() }),
      globalLimits: live.globalLimits,
      strategies: live.instances,
      symbols,
      orphans: config.orphans,
    });
    const tail = await recoverJournalTail({
      client: venue.client,
      categories: categoriesOf(symbols),
      namespace: store.identity.namespace,
      strategies: options.strategies.map((s) => s.id),
      journal,
      executor: kernel.executor,
      logger: logger.child({ component: 'state' }),
    });
    if (!tail.ok) return fail(tail.error);
    const notifier =
      config.notify === undefined
        ? undefined
        : new Notifier({ settings: config.notify, http: createGotHttp(), time, logger: logger.child({ component: 'notify' }), registry, killSwitchEngaged: kernel.risk.killSwitch.engaged });
    if (notifier !== undefined) {
      subscriptions.push(notifier.watch(kernel.events$));
      // A start that fails later still sends what it has to say (a strategy that failed at start), once, and leaves no retry timer behind.
      cleanup.push(() => notifier.drain());
    }
    subscriptions.push(
      watchRateAlarms(venue.client.governor.alarms$, { clock: time.clock, registry, logger: logger.child({ component: 'venue' }), ...(notifier === undefined ? {} : { notify: (n) => notifier.notify(n) }) }),
    );
    collectDefaultMetrics({ register: registry, prefix: 'stratd_' });
    // prom-client names three gauges `_total`, a suffix Prometheus keeps for counters; their per-type
    // series (stratd_nodejs_active_handles{type} and the like) carry the same information.
    for (const name of ['stratd_nodejs_active_handles_total', 'stratd_nodejs_active_requests_total', 'stratd_nodejs_active_resources_total']) registry.removeSingleMetric(name);
    subscriptions.push(
      kernel.events$.subscribe((event) => {
        if (event.type === 'command.failed') errors.record('executor', `${event.strategyId} ${event.command.type}: ${event.failure.code} ${event.failure.message}`, event.time);
      }),
    );

    const trades = attachTradeLog(kernel, options.strategies, time, logger);
    subscriptions.push(trades.subscription);
    // Before the kernel starts, so the page shows every fill of the day whenever it is opened.
    const dashboard: Dashboard = new Dashboard({ kernel, time, status: (): DaemonStatus => daemon.status(), market: config.market, symbols });
    dashboard.start();
    cleanup.push(() => dashboard.stop());

    const streams = categoriesOf(symbols).map((category) => ({
      category,
      session: new UserStreamSession({
        userStream: venue.client.userStream,
        streamUrl: venue.streamUrl,
        time,
        logger: logger.child({ component: 'user-stream', category }),
        category,
        pingIntervalMs: config.userStream.pingEveryMs,
        pongTimeoutMs: config.userStream.pongTimeoutMs,
        backoff: config.userStream.backoff,
        contractMultiplier: (symbol) => kernel.cache.instrument(symbol)?.contractMultiplier,
        onSkipped: (skipped) => venue.client.rest.reportSkipped(skipped),
      }),
    }));
    const sessions = streams.map((s) => s.session);
    const marketLogger = logger.child({ component: 'market' });
    const feed = new MarketFeed({
      market: venue.client.market,
      time,
      logger: marketLogger,
      channels: pollChannels(config.market),
      // From the instruments the kernel holds: refreshed with every exchangeInfo refresh (daily job, reload).
      indexTokenOf: (symbol) => kernel.cache.instrument(symbol)?.indexToken,
      // Channels `via: ws` (the default) ride the public market socket and poll only as its fallback.
      socket: { streamUrl: venue.streamUrl, pingIntervalMs: config.userStream.pingEveryMs, pongTimeoutMs: config.userStream.pongTimeoutMs, backoff: config.userStream.backoff },
      onSkipped: (skipped) => venue.client.rest.reportSkipped(skipped),
      // Logged by the feed; /status shows each channel's source and why it polls.
      onSwitch: (change) => metrics.marketSourceSwitches.inc({ symbol: change.symbol, channel: change.channel, to: change.to }),
    });
    const poller = feed.poller;
    for (const { category, session } of streams) {
      subscriptions.push(
        session.events$.subscribe((event) => {
          if (event.type === 'stream.disconnected') errors.record(`user-stream:${category}`, event.reason, event.time);
          kernel.ingest(event);
        }),
      );
    }
    const marketTap = options.taps?.market;
    subscriptions.push(
      // With its reply's (or socket frame's) arrival on the stopwatch: the kernel times the order requests it causes (tick-to-order).
      // A plain listener: no rxjs subscriber between the event and the kernel.
      new Subscription(
        feed.listenArrivals(({ event, arrivedAt }) => {
          marketTap?.(event, time.clock.now());
          kernel.ingest(event, arrivedAt);
        }),
      ),
    );

    for (const session of sessions) {
      const started = await session.start();
      if (!started.ok) return fail(`cannot open the user data stream: ${started.error.message}`);
      cleanup.push(() => session.stop());
    }
    options.taps?.kernelStarting?.(time.clock.now());
    const kernelStarted = await kernel.start();
    if (!kernelStarted.ok) return fail(`start-up reconciliation failed: ${kernelStarted.error.message}`);
    cleanup.push(() => kernel.stop({ cancelOpenOrders: false }));
    // The recorder attaches before the first poll (the kernel's cache knows the instruments by now).
    let recorder: Recorder | undefined;
    if (config.record !== undefined) {
      const attached = await attachRecorder({ settings: config.record, market: config.market, kernel, venue, time, logger: logger.child({ component: 'recorder' }) });
      if (!attached.ok) return fail(`record: ${attached.error.message}`);
      recorder = attached.value;
      const stopRecorder = attached.value;
      cleanup.push(async () => {
        await stopRecorder.stop();
      });
    }
    await feed.start();
    cleanup.push(() => feed.stop());
    const summaries = trades.startSummaries(config.log.summaryEveryMs);
    if (summaries !== undefined) subscriptions.push(summaries);

    const catalogSync =
      venue.catalog === undefined ? undefined : new CatalogSync({ client: venue.catalog, mirror: store.catalogMirror(), clock: time.clock, logger: logger.child({ component: 'catalog-sync' }) });
    const jobs = daemonJobs({
      schedules: config.jobs,
      kernel,
      sessions,
      ...(catalogSync === undefined ? {} : { catalogSync }),
      journal: store.journal(),
      clock: time.clock,
      ...(options.jobsOnTimeSource === true ? { scheduler: time.scheduler } : {}),
      logger,
    });
    jobs.start();
    cleanup.push(() => jobs.stop());

    const { liveMarket } = venue;
    const status: StatusSources = {
      kernel,
      mode: config.venue.mode,
      clock: time.clock,
      startedAt: time.clock.now(),
      timeSync: venue.client.timeSync,
      governor: venue.client.governor,
      streams,
      poller,
      feed,
      jobs,
      errors,
      today: (id) => trades.tradeLog.day.of(id),
      params: (id) => live.params(id),
      limits: (id) => live.limits(id),
      // Read only once the daemon exists (the health server starts after it).
      lastReload: () => daemon.lastReload,
      ...(liveMarket === undefined ? {} : { liveMarket: () => liveMarket.status() }),
    };
    if (liveMarket !== undefined) registerLiveMarketMetrics(registry, liveMarket);
    metrics.attach({
      governor: venue.client.governor,
      timeSync: venue.client.timeSync,
      streams,
      poller,
      feed,
      jobs,
      ready: () => readiness(status).healthy,
      recordingQuality: () => recorder?.stats().quality,
      collections: () => {
        const journal = store.journalCounts();
        return [
          ...kernel.cache.sizes(),
          ...kernel.executor.sizes(),
          ...sessions.flatMap((session) => session.sizes()),
          { name: 'journal.open', size: journal.open },
          ...(venue.sim?.engine.sizes() ?? []),
          ...(venue.sim === undefined ? [] : [{ name: 'sim.candles', ...venue.sim.marketData.candleCount() }]),
        ];
      },
    });
    registerTradingGauges(registry, { dayPnl: () => kernel.risk.dayPnl(), positions: () => kernel.cache.positions() });
    const signals = daemonSignals({ settings: config.signals, stateDir: config.stateDir, env: options.env ?? process.env, keyValue: (ns) => store.keyValue(ns), kernel, strategies: options.strategies, time, registry, logger: logger.child({ component: 'signals' }) });
    if (!signals.ok) return fail(signals.error);
    const daemon = new Daemon({ kernel, venue, store, sessions, poller, feed, jobs, live, status, subscriptions, recorder, metrics, controlMetrics, notifier, dashboard, signals: signals.value }, options);
    const listening = await daemon.listen(registry, token.value.token, tls.value);
    if (!listening.ok) return fail(listening.error.message);
    daemon.watchHangup();
    logger.info(
      { health: listening.value, dashboard: `${listening.value}/ui`, controlToken: tokenSource(token.value), strategies: options.strategies.map((s) => s.id), mode: config.venue.mode, ...(liveMarket === undefined ? {} : { market: 'paper on live market' }) },
      'stratd running',
    );
    // The line a user reads to open the dashboard: where it is and where its token is (never the token).
    logger.info({ dashboard: `${listening.value}/ui`, controlToken: tokenSource(token.value) }, `dashboard: open ${listening.value}/ui with the control token in ${tokenSource(token.value)}`);
    if (!isLoopbackHost(config.health.host) && config.health.tls === undefined) {
      logger.warn({ host: config.health.host }, 'the health/control server listens beyond loopback without TLS: its token crosses the network in clear (set health.tls)');
    }
    notifier?.started(config.venue.mode, options.strategies.map((s) => s.id));
    return ok(daemon);
  }

  private async listen(registry: Registry, token: string, tls: { readonly cert: string; readonly key: string } | undefined): Promise<Result<string, ConfigError>> {
    const { config, logger, time } = this.options;
    const server = new HealthServer({
      host: config.health.host,
      port: config.health.port,
      registry,
      logger: logger.child({ component: 'health' }),
      // Liveness only: a reconnecting stream is the daemon working, not a reason to restart it.
      check: () => (this.kernel.state === 'running' ? { healthy: true } : { healthy: false, reasons: [`kernel ${this.kernel.state}`] }),
      ready: () => this.readiness(),
      status: () => this.status(),
      control: controlRoutes(this),
      dashboard: this.parts.dashboard.routes(),
      ...(this.parts.signals === undefined ? {} : { signals: this.parts.signals.route }),
      token,
      clock: time.clock,
      allowedHosts: config.health.allowedHosts,
      limits: { maxConnections: config.health.maxConnections, maxConnectionsPerAddress: config.health.maxConnectionsPerAddress },
      ...(tls === undefined ? {} : { tls }),
      events: this.parts.controlMetrics.serverEvents(),
    });
    const listening = await server.start();
    if (!listening.ok) return listening;
    this.healthServer = server;
    this.address = { url: listening.value.url };
    return ok(listening.value.url);
  }

  private watchHangup(): void {
    const source = this.options.hangup === undefined ? process : this.options.hangup;
    if (source === null) return;
    const onHangup = (): void => {
      this.options.logger.info({ signal: 'SIGHUP' }, 'reloading the configuration');
      void this.reload();
    };
    source.on('SIGHUP', onHangup);
    this.disposers.push(() => source.off('SIGHUP', onHangup));
  }

  /** Everything GET /status shows. */
  status(): DaemonStatus {
    return daemonStatus(this.parts.status);
  }

  /** GET /readyz: stream connected, clock synced, reconciliation done. */
  readiness(): HealthReport {
    return readiness(this.parts.status);
  }

  /** The kill switch by hand: open orders are cancelled and opening intents denied until `resume`. */
  halt(reason: string, by?: Caller): KillSwitchView {
    this.options.logger.warn({ reason, caller: by }, 'halt requested by operator');
    this.kernel.halt(reason);
    return this.killSwitch();
  }

  /**
   * Releases an operator's halt. A daily-loss halt stays until the daily reset unless the request
   * overrides it with a reason: logged, counted, and in force for the rest of the day.
   */
  resume(request: ResumeRequest = {}, by?: Caller): Result<KillSwitchView, { readonly code: string; readonly message: string }> {
    const { logger } = this.options;
    const override = request.overrideDailyLoss === undefined ? undefined : { reason: request.overrideDailyLoss };
    const resumed = this.kernel.resume(override);
    if (!resumed.ok) {
      logger.warn({ caller: by, code: resumed.error.code }, 'resume refused: the daily loss limit holds the kill switch until the daily reset');
      return err(resumed.error);
    }
    if (resumed.value.overridden) {
      this.parts.controlMetrics.dailyLossOverrides.inc();
      logger.warn({ caller: by, reason: request.overrideDailyLoss, dayPnl: this.kernel.risk.dayPnl().toFixed() }, 'daily loss limit overridden by operator for the rest of the day');
    } else {
      logger.info({ caller: by }, 'resume requested by operator');
    }
    return ok(this.killSwitch());
  }

  /** Operator claim: the external ledger's holding of a symbol side (or `qty` of it) becomes the strategy's. */
  claim(strategyId: string, request: ClaimRequest, by?: Caller): Result<ClaimView, { readonly code: string; readonly message: string }> {
    const claimed = this.kernel.claim(strategyId, request.symbol, request.side, request.qty);
    if (!claimed.ok) return err(claimed.error);
    const event = claimed.value;
    this.options.logger.info({ caller: by, strategy: strategyId, symbol: event.symbol, side: event.positionSide, qty: event.qty.toFixed() }, 'external position claimed by operator');
    return ok({ strategy: strategyId, symbol: event.symbol, side: event.positionSide, qty: event.qty.toFixed(), price: event.price.toFixed() });
  }

  private killSwitch(): KillSwitchView {
    return this.status().killSwitch;
  }

  /** Stops one strategy instance (its clean-up intents run); undefined for an unknown id. */
  async stopStrategy(id: string): Promise<RunnerState | undefined> {
    if (!(await this.kernel.strategies.stop(id))) return undefined;
    this.options.logger.info({ strategy: id }, 'strategy stopped by operator');
    return this.kernel.strategies.state(id);
  }

  /** Starts a stopped or failed instance again (with its current params). */
  async startStrategy(id: string): Promise<RunnerState | undefined> {
    if (!(await this.kernel.strategies.start(id))) return undefined;
    this.options.logger.info({ strategy: id }, 'strategy started by operator');
    return this.kernel.strategies.state(id);
  }

  /**
   * Reads the config again and applies what can change while running (strategy params, risk limits,
   * log level); the rest is reported as needing a restart. Reloads run one at a time.
   */
  reload(): Promise<ReloadReport> {
    const run = this.reloading.then(() => this.reloadOnce());
    this.reloading = run.catch(() => undefined);
    return run;
  }

  private async reloadOnce(): Promise<ReloadReport> {
    const { logger, time } = this.options;
    const at = time.clock.now();
    const failed = (error: string): ReloadReport => {
      this.parts.status.errors.record('reload', error, at);
      logger.error({ error }, 'configuration not reloaded: the running one stays');
      this.lastReload = { at, ok: false, error, applied: [], rejected: [] };
      this.parts.metrics.reloads.inc({ outcome: 'failed' });
      return this.lastReload;
    };
    if (this.stopping !== undefined) return failed('the daemon is stopping');
    let plan: ReturnType<typeof planReload>;
    let refused: Awaited<ReturnType<LiveSettings['apply']>>;
    try {
      const read = await (this.options.reread ?? this.defaultReread())();
      if (!read.ok) return failed(read.error.message);
      plan = planReload(this.effective, read.value.config, read.value.strategies);
      refused = await this.parts.live.apply(plan, this.kernel.strategies, logger);
    } catch (error: unknown) {
      // Whatever breaks while reading or applying, the failure is reported like a refused file (never swallowed).
      return failed(`the configuration could not be reloaded: ${error instanceof Error ? error.message : String(error)}`);
    }
    this.parts.metrics.reloads.inc({ outcome: 'ok' });
    this.effective = plan.effective;
    const rejected = [...plan.rejected, ...refused];
    const report: ReloadReport = { at, ok: true, applied: plan.applied.filter((path) => !refused.some((r) => r.path === path)), rejected };
    this.lastReload = report;
    logger.info({ applied: report.applied }, report.applied.length === 0 ? 'configuration reloaded: nothing to change' : 'configuration reloaded');
    if (rejected.length > 0) logger.warn({ rejected }, 'configuration changes that need a restart were not applied');
    return report;
  }

  private defaultReread(): RereadConfig {
    const env = this.options.env ?? process.env;
    return async () => {
      const loaded = loadDaemonConfig(this.options.config.file, { env, defaultSimConfig: DEFAULT_SIM_CONFIG });
      if (!loaded.ok) return loaded;
      const strategies = await resolveStrategies(loaded.value);
      return strategies.ok ? ok({ config: loaded.value, strategies: strategies.value }) : strategies;
    };
  }

  /** Runs a scheduled job now (operator command, tests); its outcome also goes on the bus. */
  runJob(name: string): ReturnType<CronJobs['runNow']> {
    return this.parts.jobs.runNow(name);
  }

  /** Stops strategies, optionally cancels open orders, flushes the journal, closes the stream; idempotent. */
  stop(): Promise<void> {
    this.stopping ??= this.shutdown();
    return this.stopping;
  }

  private async shutdown(): Promise<void> {
    const { logger, config } = this.options;
    const { jobs, feed, sessions, subscriptions, venue, store, recorder, notifier } = this.parts;
    logger.info({ cancelOpenOrders: config.shutdown.cancelOpenOrders }, 'stopping');
    notifier?.stopping(config.venue.mode, config.shutdown.cancelOpenOrders);
    for (const dispose of this.disposers.splice(0)) dispose();
    await jobs.stop();
    feed.stop();
    await this.kernel.stop({ cancelOpenOrders: config.shutdown.cancelOpenOrders });
    // After the kernel: the recording holds the last events, then its files are closed.
    if (recorder !== undefined) await recorder.stop();
    // One last attempt for the queued notifications (the stop message among them); a dead sink costs one timeout.
    await notifier?.drain();
    for (const s of subscriptions) s.unsubscribe();
    for (const session of sessions) await session.stop();
    this.parts.dashboard.stop();
    await this.healthServer?.stop();
    await venue.stop();
    store.close();
    this.parts.metrics.stop();
    logger.info({}, 'stopped');
  }
}

/** The state store's journal, through the crash points and fault injection of tests when asked. */
function kernelJournal(journal: OrderJournal, options: DaemonOptions): OrderJournal {
  const crashing = options.crashPoints === undefined ? journal : journalWithCrashPoint(journal, options.crashPoints);
  return options.journalFaults === undefined ? crashing : options.journalFaults(crashing);
}

/**
 * Rows of list replies (and stream frames) the parsing rule left out: all counted by endpoint (metric),
 * a warning naming them at most once a minute per endpoint, saying how many replies it stands for.
 */
function watchSkippedRows(venue: VenueConnection, metrics: DaemonMetrics, logger: Logger, throttle: WarningThrottle): Subscription {
  const sources = venue.catalog === undefined ? venue.client.rest.skippedRows$ : merge(venue.client.rest.skippedRows$, venue.catalog.skippedRows$);
  return sources.subscribe((skipped) => {
    metrics.observeSkippedRows(skipped);
    const admitted = throttle.admit(skipped.endpoint);
    if (admitted === undefined) return;
    const rows = skipped.rows.slice(0, MAX_SKIPPED_LOGGED).map((r) => ({ list: r.list, row: r.row, field: r.field, message: r.message }));
    logger.warn(
      { endpoint: skipped.endpoint, skipped: skipped.rows.length, rows, ...(admitted.suppressed > 0 ? { repliesNotWarnedSinceLast: admitted.suppressed } : {}) },
      'reply rows skipped: they lack fields stratd needs',
    );
  });
}

/** Rows named in one warning; the count says how many more there were. */
const MAX_SKIPPED_LOGGED = 10;
/** One skipped-rows warning per endpoint per minute (the metric counts every one). */
const SKIPPED_WARNING_EVERY_MS = 60_000;

/** Where the control token is, for the start-up line (never the token itself). */
function tokenSource(token: ControlToken): string {
  return token.file ?? 'STRATD_HEALTH_TOKEN';
}

/** REST latency by endpoint into the metrics; failed round trips as the `rest` component's last error. */
function watchRest(venue: VenueConnection, metrics: DaemonMetrics, errors: ComponentErrors, time: TimeSource): Subscription {
  const stop = venue.client.rest.exchanges.listen((exchange) => {
    metrics.observeRest(exchange);
    const failed = typeof exchange.status !== 'number' || exchange.status >= 400 || exchange.code !== undefined;
    if (failed) errors.record('rest', `${exchange.endpoint}: ${exchange.status}${exchange.code === undefined ? '' : ` code ${exchange.code}`}`, time.clock.now());
  });
  return new Subscription(stop);
}
