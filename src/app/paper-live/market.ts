import type { Subscription } from 'rxjs';
import type { TimeSource } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { StreamEventMapper } from '../../recording/recorder/event-mapping.js';
import { LiveMarketFeed } from '../../sim/live-feed.js';
import type { SimInstrument } from '../../sim/market-stream/instruments.js';
import type { LiveMarketSettings } from '../../settings/daemon-config/types.js';
import { ExchangeClient } from '../../venue/exchange-client.js';
import type { HttpPort } from '../../venue/http-port.js';
import type { ChannelName, PollChannel } from '../../venue/sources/market-poller.js';
import { MarketPoller } from '../../venue/sources/market-poller.js';
import { liveInstruments } from './instruments.js';

export interface LiveMarketOptions {
  readonly settings: LiveMarketSettings;
  /** The symbols to feed (the config's, when `sim.live.symbols` does not name them). */
  readonly symbols: readonly string[];
  readonly time: TimeSource;
  readonly logger: Logger;
  /** The public client's network port (default: its own node:http). */
  readonly http?: HttpPort;
}

/** The live feed's channels: what the simulator's market stream holds (klines are built from the trades). */
export const LIVE_CHANNELS = ['depth', 'trades', 'markPrice', 'index', 'fundingRate'] as const satisfies readonly ChannelName[];
export type LiveChannel = (typeof LIVE_CHANNELS)[number];

/** One channel of one symbol as /status and the metrics show it. */
export interface LiveChannelStatus {
  readonly symbol: string;
  readonly channel: LiveChannel;
  /** How old the freshest data of the channel is (ms since its last successful reply); undefined before any. */
  readonly lagMs?: number;
  readonly polls: number;
  readonly failures: number;
  readonly lastError?: string;
}

/** /status `market` of a paper daemon on the live market. */
export interface LiveMarketStatus {
  readonly source: 'paper on live market';
  readonly baseUrl: string;
  readonly maxBookAgeMs: number;
  readonly channels: readonly LiveChannelStatus[];
  /** Symbols whose book is in force (not older than maxBookAgeMs): only those fill marketable orders. */
  readonly books: Readonly<Record<string, 'live' | 'stale'>>;
  readonly booksWithdrawn: number;
  readonly fundingBoundaries: number;
}

/**
 * Paper trading on the live market: the real exchange's public market data — instruments and risk
 * tiers (exchangeInfo), depth, trades, mark and index price, funding rate — polled from
 * `exchange.baseUrl` by a client that holds no credentials at all (nothing it sends is signed or
 * carries a key; the rate governor paces it), mapped to the simulator's market stream and pushed into
 * its LiveMarketFeed, each event stamped with its arrival time. Trades printed before the session are
 * not replayed. The embedded simulator then matches the paper account against exactly that market.
 */
export class LiveMarket {
  private readonly subscription: Subscription;
  private readonly freshAt = new Map<string, number>();
  private readonly startServerTime: number;

  private constructor(
    readonly client: ExchangeClient,
    readonly feed: LiveMarketFeed,
    readonly instruments: readonly SimInstrument[],
    private readonly poller: MarketPoller,
    private readonly options: LiveMarketOptions,
  ) {
    const { clock } = options.time;
    const mapper = new StreamEventMapper();
    this.startServerTime = client.timeSync.serverNow();
    this.subscription = poller.events$.subscribe((event) => {
      // Recent trades answer the last 60 prints: those of before the session happened before it.
      if (event.type === 'market.trade' && event.time < this.startServerTime) return;
      const mapped = mapper.map(event);
      if (typeof mapped === 'string') return;
      const now = clock.now();
      this.freshAt.set(`${event.symbol}/${channelOf(mapped.type)}`, now);
      feed.push({ ...mapped, ts: now });
    });
  }

  /** Connects (server time, exchangeInfo, a mark price per symbol) and starts polling; throws an Error saying what failed. */
  static async start(options: LiveMarketOptions): Promise<LiveMarket> {
    const { settings, time, logger } = options;
    // No credentials: the live market is read through public endpoints only.
    const client = new ExchangeClient({
      baseUrl: settings.baseUrl,
      time,
      timeoutMs: settings.timeoutMs,
      rateBudget: { share: settings.rateLimitShare },
      ...(options.http === undefined ? {} : { http: options.http }),
    });
    try {
      const synced = await client.start((error) => logger.warn({ err: error.message }, 'live market: server time sync failed'));
      if (!synced.ok) throw new Error(`cannot reach the live market at ${settings.baseUrl}: ${synced.error.message}`);
      const { instruments, indexTokens } = await liveInstruments(client.market, options.symbols, settings.fees, settings.baseUrl);
      const feed = new LiveMarketFeed({ maxBookAgeMs: settings.maxBookAgeMs });
      const poller = new MarketPoller({
        market: client.market,
        time,
        logger,
        channels: pollChannels(options.symbols, settings),
        indexTokenOf: (symbol) => indexTokens.get(symbol),
      });
      const market = new LiveMarket(client, feed, instruments, poller, options);
      poller.start();
      logger.info({ baseUrl: settings.baseUrl, symbols: options.symbols, maxBookAgeMs: settings.maxBookAgeMs }, 'paper on live market: the simulator matches on the live exchange\'s public market data');
      return market;
    } catch (error: unknown) {
      client.stop();
      throw error;
    }
  }

  status(): LiveMarketStatus {
    const now = this.options.time.clock.now();
    const channels = this.poller.stats().channels.flatMap((c): LiveChannelStatus[] => {
      const channel = LIVE_CHANNELS.find((name) => name === c.channel);
      if (channel === undefined) return [];
      let fresh = this.freshAt.get(`${c.symbol}/${channel}`);
      // A successful poll that brought nothing new (no trade printed) is fresh data too.
      if (c.lastError === undefined && c.lastPollAt !== undefined && c.polls > 0 && !c.inFlight) fresh = Math.max(fresh ?? c.lastPollAt, c.lastPollAt);
      return [
        {
          symbol: c.symbol,
          channel,
          ...(fresh === undefined ? {} : { lagMs: Math.max(0, now - fresh) }),
          polls: c.polls,
          failures: c.failures,
          ...(c.lastError === undefined ? {} : { lastError: c.lastError }),
        },
      ];
    });
    const books: Record<string, 'live' | 'stale'> = {};
    for (const { symbol } of this.instruments) books[symbol] = this.feed.hasBook(symbol, now) ? 'live' : 'stale';
    const { booksWithdrawn, fundingBoundaries } = this.feed.counts;
    return { source: 'paper on live market', baseUrl: this.options.settings.baseUrl, maxBookAgeMs: this.options.settings.maxBookAgeMs, channels, books, booksWithdrawn, fundingBoundaries };
  }

  stop(): void {
    this.poller.stop();
    this.subscription.unsubscribe();
    this.client.stop();
  }
}

function pollChannels(symbols: readonly string[], settings: LiveMarketSettings): PollChannel[] {
  return symbols.flatMap((symbol): PollChannel[] => [
    { symbol, channel: 'depth', everyMs: settings.everyMs, depthLimit: settings.depthLimit },
    { symbol, channel: 'trades', everyMs: settings.everyMs },
    { symbol, channel: 'markPrice', everyMs: settings.everyMs },
    { symbol, channel: 'index', everyMs: settings.everyMs },
    { symbol, channel: 'fundingRate', everyMs: settings.fundingEveryMs },
  ]);
}

function channelOf(type: 'depth' | 'trade' | 'mark' | 'index' | 'funding' | 'bar'): LiveChannel | 'bar' {
  switch (type) {
    case 'depth':
      return 'depth';
    case 'trade':
      return 'trades';
    case 'mark':
      return 'markPrice';
    case 'index':
      return 'index';
    case 'funding':
      return 'fundingRate';
    case 'bar':
      return 'bar';
  }
}
