import type { ServerResponse } from 'node:http';
import type { TimeSource } from '../../../core/clock.js';
import type { Kernel } from '../../../engine/kernel.js';
import type { KlineInterval } from '../../../model/market-events.js';
import type { MarketSubscription } from '../../../settings/daemon-config/daemon-config.js';
import type { DaemonStatus } from '../status.js';
import type { DashboardRoutes } from '../server.js';
import { DashboardAssets } from './assets.js';
import { DashboardHistory } from './history.js';
import { DashboardStream } from './stream.js';
import { dashboardView } from './view.js';

export interface DashboardOptions {
  readonly kernel: Kernel;
  readonly time: TimeSource;
  readonly status: () => DaemonStatus;
  /** The config's market section: which symbols have klines polled, at which intervals. */
  readonly market: readonly MarketSubscription[];
  /** The strategies' symbols (charted even without klines: their fills and orders still show). */
  readonly symbols: readonly string[];
  readonly throttleMs?: number;
  readonly maxClients?: number;
}

/**
 * The dashboard of a running daemon: its history starts with the daemon (so the page shows today's
 * fills and equity from the start, whenever it is opened), its stream and files are served by the
 * health server.
 */
export class Dashboard {
  readonly history: DashboardHistory;
  readonly stream: DashboardStream;
  private readonly assets = new DashboardAssets();

  constructor(options: DashboardOptions) {
    const { kernel, time } = options;
    this.history = new DashboardHistory({
      events$: kernel.events$,
      clock: time.clock,
      scheduler: time.scheduler,
      ownerOf: (id) => kernel.executor.ownerOf(id),
      balances: () => kernel.cache.balances(),
    });
    const charts = chartedSymbols(options.market, options.symbols);
    const history = this.history;
    this.stream = new DashboardStream({
      changes$: kernel.events$,
      view: (kind) => dashboardView({ status: options.status, history, klines: (symbol, interval) => kernel.cache.klines(symbol, interval), charts }, kind),
      scheduler: time.scheduler,
      ...(options.throttleMs === undefined ? {} : { throttleMs: options.throttleMs }),
      ...(options.maxClients === undefined ? {} : { maxClients: options.maxClients }),
    });
  }

  start(): void {
    this.history.start();
  }

  stop(): void {
    this.stream.close();
    this.history.stop();
  }

  routes(): DashboardRoutes {
    return {
      asset: (path) => this.assets.get(path),
      stream: (res: ServerResponse) => this.stream.open(res),
    };
  }
}

/** Every symbol of the strategies and the market section, each with its shortest polled kline interval. */
function chartedSymbols(market: readonly MarketSubscription[], symbols: readonly string[]): Array<{ symbol: string; interval: KlineInterval | undefined }> {
  const all = [...new Set([...symbols, ...market.map((m) => m.symbol)])];
  return all.map((symbol) => {
    const intervals = market.filter((m) => m.symbol === symbol).flatMap((m) => m.klines?.intervals ?? []);
    return { symbol, interval: shortest(intervals) };
  });
}

const ORDER: readonly KlineInterval[] = ['1m', '3m', '5m', '15m', '30m', '1h', '2h', '4h', '6h', '8h', '12h', '1d', '1w', '1M'];

function shortest(intervals: readonly KlineInterval[]): KlineInterval | undefined {
  return [...intervals].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b))[0];
}
