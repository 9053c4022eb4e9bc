import type { Subscription } from 'rxjs';
import type { TimeSource } from '../core/clock.js';
import type { SimConfig } from './config/sim-config.js';
import { CATALOG_PATH_PREFIX, createCatalogRouter, SimCatalog } from './catalog/index.js';
import { CopyTradingDesk, followerRoutes } from './copy-trading/index.js';
import type { MarketFeed } from './engine/sim-exchange.js';
import { SimExchange } from './engine/sim-exchange.js';
import { MarketDataService, marketDataRoutes, signedMarketDataRoutes } from './market-data/index.js';
import { MarketWsServer } from './market-ws/index.js';
import { MarketGenerator } from './market-stream/generator.js';
import type { SimInstrument } from './market-stream/instruments.js';
import { DEFAULT_SIM_INSTRUMENTS } from './market-stream/instruments.js';
import { ReplayFeed } from './replay-feed.js';
import { tradingRoutes } from './routes/index.js';
import { SimHttpServer } from './server/index.js';
import type { RateLimitSettings } from './server/index.js';
import { ListenKeyRegistry, listenKeyRoutes, UserStreamServer } from './user-stream/index.js';

const WARM_UP_MS = 60_000;

export interface SimulatedExchangeOptions {
  readonly config: SimConfig;
  readonly time: TimeSource;
  /** Longest wait between two advances of the market when no event is due (it advances at each event's time). Default 100 ms. */
  readonly tickMs?: number;
  /** Overrides of the exchange's rate budgets (benchmarks; the real limits by default). */
  readonly rateLimits?: Partial<RateLimitSettings>;
  /** A handler threw: the request got -1000 (the composition root logs it). */
  readonly onHandlerError?: (error: unknown, route: string) => void;
  /**
   * A market from outside instead of the config's generator or replay (paper on a live market: the
   * feed the daemon pushes the real exchange's public data into). It starts now, with no warm-up.
   */
  readonly market?: { readonly feed: MarketFeed; readonly instruments: readonly SimInstrument[] };
  /** Called with the engine before its market moves (the warm-up included): a capture sees every event. */
  readonly onEngine?: (engine: SimExchange) => void;
}

/** Where a running simulator answers, and the accounts it serves (printed by `stratd sim --json`). */
export interface SimulatedExchangeInfo {
  readonly baseUrl: string;
  readonly streamUrl: string;
  readonly catalogUrl: string;
  readonly seed: number;
  readonly symbols: readonly string[];
  readonly accounts: ReadonlyArray<{ readonly name: string; readonly apiKey: string; readonly secret: string; readonly userId: string; readonly readOnly: boolean; readonly accountType: string }>;
  readonly catalogToken: string;
  readonly adminToken: string;
}

/**
 * The simulated exchange as a running service: the engine on a generated or replayed market, the
 * market-data face, the trading, listen-key, catalog and admin routes on one HTTP server, and the user
 * data stream and the public market socket (`/quote/ws/v1`) on WebSockets. The market advances to the server's clock before every request and on a
 * steady tick, so what a client sees is the market "now".
 */
export class SimulatedExchange {
  private ticker: Subscription | undefined;

  private constructor(
    readonly engine: SimExchange,
    private readonly feed: MarketFeed,
    readonly marketData: MarketDataService,
    readonly catalog: SimCatalog,
    readonly http: SimHttpServer,
    private readonly registry: ListenKeyRegistry,
    private readonly stream: UserStreamServer,
    readonly marketWs: MarketWsServer,
    private readonly options: SimulatedExchangeOptions,
    private info: SimulatedExchangeInfo | undefined,
  ) {}

  static async start(options: SimulatedExchangeOptions): Promise<SimulatedExchange> {
    const { config, time } = options;
    // The market runs on the host clock: a clock-skew fault moves the server's timestamps, not the market.
    // It starts a minute early so that a book, trades and prices exist when the first client arrives, or
    // earlier still when a history is asked for (market.historyMs: klines and funding of a past range).
    const startTime = options.market === undefined ? time.clock.now() - Math.max(WARM_UP_MS, config.market.historyMs ?? 0) : time.clock.now();
    const { feed, instruments } = options.market ?? (await marketOf(config, startTime));
    const engine = new SimExchange({ instruments, startTime, feed, users: config.users, history: config.history });
    options.onEngine?.(engine);
    const marketData = new MarketDataService(instruments, { now: () => engine.now() }, config.market.klineRetention === undefined ? {} : { klineRetention: config.market.klineRetention });
    engine.onMarketEvent((event) => marketData.ingest(event));
    // Leaders decide and copy stops are checked on market time, at the prices of that moment.
    const copyTrading = new CopyTradingDesk({ venue: engine, leaders: config.copyTrading.leaders, seed: config.seed, startTime });
    engine.onMarketEvent((event) => copyTrading.advanceTo(event.ts));
    const catalog = new SimCatalog({ clock: time.clock });
    const http = SimHttpServer.fromConfig(config, time, {
      beforeRequest: () => engine.advanceTo(time.clock.now()),
      ...(options.onHandlerError === undefined ? {} : { onHandlerError: options.onHandlerError }),
      ...(options.rateLimits === undefined ? {} : { rateLimits: options.rateLimits }),
    });
    const serverTime = { clock: { now: () => http.now() }, scheduler: time.scheduler };
    const registry = new ListenKeyRegistry({ time: serverTime, faults: () => http.faults.current, seed: config.seed });
    const stream = new UserStreamServer({ registry, venue: engine, time: serverTime, faults: () => http.faults.current, onFaultsChanged: (listener) => http.faults.onChange(listener), seed: config.seed, metrics: http.registry });
    const marketWs = new MarketWsServer({
      marketData,
      venue: engine,
      advance: () => engine.advanceTo(time.clock.now()),
      time: serverTime,
      faults: () => http.faults.current,
      onFaultsChanged: (listener) => http.faults.onChange(listener),
      seed: config.seed,
      metrics: http.registry,
    });
    http.mount(marketDataRoutes(marketData));
    http.mount(signedMarketDataRoutes(marketData));
    http.mount(tradingRoutes(engine));
    http.mount(listenKeyRoutes(registry));
    http.mount(followerRoutes(copyTrading));
    http.mountPrefix(CATALOG_PATH_PREFIX, createCatalogRouter(catalog, { token: config.catalog.token }));
    stream.attach(http.httpServer);
    marketWs.attach(http.httpServer);
    const exchange = new SimulatedExchange(engine, feed, marketData, catalog, http, registry, stream, marketWs, options, undefined);
    await exchange.listen();
    return exchange;
  }

  private async listen(): Promise<void> {
    const { config, time } = this.options;
    const { baseUrl } = await this.http.start();
    this.engine.advanceTo(time.clock.now());
    const tickMs = this.options.tickMs ?? 100;
    // The market moves at each of its events' own time, as a real venue matches continuously (fills and
    // their stream events happen then, not at the next tick); `tickMs` bounds the wait between events.
    const wait = (): number => {
      const next = this.feed.peekTime();
      return next === undefined ? tickMs : Math.min(tickMs, Math.max(1, next - time.clock.now()));
    };
    // Each tick is a fresh top-level action: a self-rescheduling action nests on VirtualTimeScheduler.
    const loop = (): void => {
      this.engine.advanceTo(time.clock.now());
      this.ticker = time.scheduler.schedule(loop, wait());
    };
    this.ticker = time.scheduler.schedule(loop, wait());
    this.info = {
      baseUrl,
      streamUrl: baseUrl.replace(/^http/, 'ws'),
      catalogUrl: `${baseUrl}${CATALOG_PATH_PREFIX}`,
      seed: config.seed,
      symbols: this.engine.instruments.map((i) => i.symbol),
      accounts: config.keys.map((k) => ({ name: k.name, apiKey: k.apiKey, secret: k.secret, userId: k.userId, readOnly: k.readOnly, accountType: k.accountType })),
      catalogToken: config.catalog.token,
      adminToken: config.admin.token,
    };
  }

  get address(): SimulatedExchangeInfo {
    if (this.info === undefined) throw new Error('the simulator is not listening');
    return this.info;
  }

  async stop(): Promise<void> {
    this.ticker?.unsubscribe();
    await this.stream.close();
    await this.marketWs.close();
    this.registry.dispose();
    await this.http.stop();
  }
}

async function marketOf(config: SimConfig, startTime: number): Promise<{ readonly feed: MarketFeed; readonly instruments: readonly SimInstrument[] }> {
  if (config.market.replay !== undefined) {
    const feed = await ReplayFeed.load(config.market.replay, startTime);
    return { feed, instruments: feed.instruments };
  }
  const wanted = config.market.symbols;
  const instruments = wanted === undefined ? DEFAULT_SIM_INSTRUMENTS : DEFAULT_SIM_INSTRUMENTS.filter((i) => wanted.includes(i.symbol));
  const generator = new MarketGenerator({
    seed: config.seed,
    startTime,
    instruments,
    ...(config.market.depthIntervalMs === undefined ? {} : { depthIntervalMs: config.market.depthIntervalMs }),
    ...(config.market.depthLevels === undefined ? {} : { depthLevels: config.market.depthLevels }),
  });
  return { feed: generator, instruments };
}
