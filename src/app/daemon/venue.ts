import type { TimeSource } from '../../core/clock.js';
import { ScaledTime } from '../../core/scaled-time.js';
import type { Logger } from '../../core/logger.js';
import { CatalogClient } from '../../catalog/client.js';
import type { CatalogSource, DaemonConfig } from '../../settings/daemon-config/daemon-config.js';
import type { LiveMarketSettings } from '../../settings/daemon-config/types.js';
import { LiveMarket } from '../paper-live/market.js';
import type { SimExchange } from '../../sim/engine/sim-exchange.js';
import { SimulatedExchange } from '../../sim/simulated-exchange.js';
import { ExchangeClient } from '../../venue/exchange-client.js';
import { createGotHttp } from '../../venue/got-http.js';
import type { HttpPort } from '../../venue/http-port.js';
import { createHttpStack } from '../../venue/http-stack.js';

/** Where the daemon trades: a real exchange (live) or the embedded simulator on loopback (paper). */
export interface VenueConnection {
  readonly client: ExchangeClient;
  readonly streamUrl: string;
  readonly catalog?: CatalogClient;
  /** The embedded simulator in paper mode. */
  readonly sim?: SimulatedExchange;
  /** Paper on the live market: the public feed that drives the simulator's market. */
  readonly liveMarket?: LiveMarket;
  stop(): Promise<void>;
}

/** Observers of the embedded simulator (paper mode), for tools that compare it with the daemon (`stratd parity`). */
export interface SimulatorTaps {
  /** The simulator's engine, before its market moves: nothing it applies is missed. */
  readonly engine?: (engine: SimExchange) => void;
}

/** The HTTP stack `exchange.http` names (live mode; paper mode always uses the default stack). */
export function venueHttp(config: DaemonConfig): HttpPort {
  if (config.venue.mode !== 'live') return createHttpStack();
  return config.venue.http === 'got' ? createGotHttp() : createHttpStack(config.venue.http);
}

/** `http`: the client's network port (default: the one `exchange.http` names); crash tests wrap it. */
export async function connectVenue(config: DaemonConfig, time: TimeSource, logger: Logger, taps: SimulatorTaps = {}, http?: HttpPort): Promise<VenueConnection> {
  const venue = config.venue;
  if (venue.mode === 'live') {
    const client = new ExchangeClient({
      baseUrl: venue.baseUrl,
      credentials: venue.credentials,
      time,
      recvWindowMs: venue.recvWindowMs,
      timeoutMs: venue.timeoutMs,
      rateBudget: { share: venue.rateLimitShare },
      // socket, undici, node: the client's own (closed with it); got: named by exchange.http.
      ...(http !== undefined ? { http } : venue.http === 'got' ? { http: createGotHttp() } : { httpStack: venue.http }),
    });
    const catalog = catalogClient(config.catalog, undefined);
    return { client, streamUrl: venue.streamUrl, ...(catalog === undefined ? {} : { catalog }), stop: async () => client.stop() };
  }
  const liveMarket = venue.live === undefined ? undefined : await startLiveMarket(config, venue.live, time, logger);
  let sim: SimulatedExchange;
  try {
    sim = await SimulatedExchange.start({
      config: venue.sim,
      time,
      ...(liveMarket === undefined ? {} : { market: { feed: liveMarket.feed, instruments: liveMarket.instruments } }),
      ...(venue.tickMs === undefined ? {} : { tickMs: venue.tickMs }),
      ...(taps.engine === undefined ? {} : { onEngine: taps.engine }),
      onHandlerError: (error, route) => logger.error({ err: error, route }, 'simulator handler failed'),
    });
  } catch (error: unknown) {
    liveMarket?.stop();
    throw error;
  }
  const { baseUrl, streamUrl, catalogUrl, catalogToken } = sim.address;
  if (liveMarket === undefined) logger.info({ baseUrl }, 'paper trading against the embedded simulated exchange');
  else logger.info({ baseUrl, market: venue.live?.baseUrl }, 'paper on live market: trading against the embedded simulated exchange, its market the live exchange\'s');
  // Accelerated time shrinks the default 5 s recvWindow to 5 s ÷ factor of real time: the widest window
  // keeps a busy event loop from having its requests refused as too old.
  const recvWindow = time instanceof ScaledTime ? { recvWindowMs: 60_000 } : {};
  const client = new ExchangeClient({ baseUrl, credentials: venue.credentials, time, ...recvWindow, ...(http === undefined ? {} : { http }) });
  const catalog = catalogClient(config.catalog, { baseUrl: catalogUrl, token: catalogToken });
  return {
    client,
    streamUrl,
    sim,
    ...(liveMarket === undefined ? {} : { liveMarket }),
    ...(catalog === undefined ? {} : { catalog }),
    stop: async () => {
      liveMarket?.stop();
      client.stop();
      await sim.stop();
    },
  };
}

/** Paper on the live market: the public feed of every configured symbol (unless sim.live.symbols names them). */
async function startLiveMarket(config: DaemonConfig, settings: LiveMarketSettings, time: TimeSource, logger: Logger): Promise<LiveMarket> {
  // Accelerated time would run the simulator ahead of the market it is fed.
  if (time instanceof ScaledTime) throw new Error('paper on the live market runs in real time: --time-scale cannot apply');
  for (const field of settings.ignoredKeys) logger.warn({ field }, `${field} is not used: paper on the live market reads public market data only and sends no API key`);
  const symbols = settings.symbols ?? [...new Set([...config.market.map((m) => m.symbol), ...config.strategies.filter((s) => s.enabled).flatMap((s) => s.symbols)])];
  if (symbols.length === 0) throw new Error('paper on the live market needs a symbol: name one in market:, a strategy, or sim.live.symbols');
  return LiveMarket.start({ settings, symbols, time, logger: logger.child({ component: 'live-market' }) });
}

function catalogClient(source: CatalogSource | undefined, sim: { baseUrl: string; token: string } | undefined): CatalogClient | undefined {
  if (source === undefined) return undefined;
  if (source.kind === 'service') return new CatalogClient({ baseUrl: source.baseUrl, token: source.token, timeoutMs: source.timeoutMs });
  return sim === undefined ? undefined : new CatalogClient(sim);
}
