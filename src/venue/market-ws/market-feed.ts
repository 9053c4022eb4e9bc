import { Subscription } from 'rxjs';
import type { Observable } from 'rxjs';
import { EventBus } from '../../core/event-bus.js';
import type { TimeSource } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { MarketApi } from '../api/market.js';
import type { ArrivedMarketEvent } from '../sources/market-poller.js';
import { MarketPoller } from '../sources/market-poller.js';
import type { PollChannel } from '../sources/poll-channel.js';
import { channelKey } from '../sources/poll-channel.js';
import { SharedTrackers } from '../sources/shared-trackers.js';
import type { BackoffOptions } from '../stream/backoff.js';
import type { WebSocketLike } from '../stream/web-socket.js';
import type { SkippedRowsSink } from '../wire/tolerant-list.js';
import type { MarketWsStats } from './session.js';
import { MarketWsSession } from './session.js';
import type { WsChannel } from './ws-channels.js';
import { wsChannelFor } from './ws-channels.js';

export type MarketVia = 'ws' | 'poll';

/** A configured market channel: its poll (interval and parameters) and how it is carried. */
export interface FeedChannel extends PollChannel {
  /** `ws`: the market socket, polling only while the socket is down or the topic silent; `poll`: polling only. */
  readonly via: MarketVia;
  /** A socket channel without an applied frame for this long falls back to polling (default 10 s). */
  readonly silentMs?: number;
}

export interface MarketSocketSettings {
  /** WebSocket base of the exchange (wss://stream.toobit.com, or the simulator's ws://127.0.0.1:PORT). */
  readonly streamUrl: string;
  readonly pingIntervalMs?: number;
  readonly pongTimeoutMs?: number;
  readonly backoff?: BackoffOptions;
  readonly staleBookMs?: number;
  readonly openSocket?: (url: string) => WebSocketLike;
  readonly random?: () => number;
}

export interface MarketFeedOptions {
  readonly market: MarketApi;
  readonly time: TimeSource;
  readonly logger: Logger;
  readonly channels: readonly FeedChannel[];
  readonly indexTokenOf?: (symbol: string) => string | undefined;
  readonly klineCloseGraceMs?: number;
  /** Without it every channel is polled. */
  readonly socket?: MarketSocketSettings;
  /** How often each socket channel's health is looked at (default 500 ms). */
  readonly checkEveryMs?: number;
  readonly onSkipped?: SkippedRowsSink;
  /** Each switch of a channel between socket and poll (after it is logged): metrics count them. */
  readonly onSwitch?: (change: SourceSwitch) => void;
}

export interface SourceSwitch {
  readonly key: string;
  readonly symbol: string;
  readonly channel: PollChannel['channel'];
  readonly to: MarketVia;
  readonly reason: string;
  readonly time: number;
}

/** Where a channel's events come from now. */
export interface ChannelSourceState {
  readonly key: string;
  readonly symbol: string;
  readonly channel: PollChannel['channel'];
  readonly via: MarketVia;
  /** `poll` for a `via: ws` channel means it is on its fallback. */
  readonly source: MarketVia;
  readonly switches: number;
  readonly since: number;
  /** Why it is polling while configured for the socket. */
  readonly reason?: string;
}

export interface MarketFeedStats {
  readonly channels: readonly ChannelSourceState[];
  readonly socket?: MarketWsStats;
  readonly switches: number;
}

const DEFAULT_SILENT_MS = 10_000;

interface Route {
  readonly channel: FeedChannel;
  readonly key: string;
  readonly ws: WsChannel | undefined;
  source: MarketVia;
  switches: number;
  since: number;
  reason: string | undefined;
}

/**
 * The daemon's market data: each configured channel by the public market socket (`via: ws`) or by REST
 * polling (`via: poll`, and the channels the exchange has no topic for: funding, open interest). A socket
 * channel falls back to its poll while the socket is down or the topic has been silent past its
 * threshold, and returns once the socket delivers again; each switch is logged and reported. Whatever
 * the source, a channel's events have the same shape (a socket book is cut to the poll's depth limit),
 * and trades and klines pass through one deduper and tracker, so a switch neither repeats nor loses
 * one. Only the active source of a channel emits.
 */
export class MarketFeed {
  readonly poller: MarketPoller;
  readonly session: MarketWsSession | undefined;
  private readonly routes = new Map<string, Route>();
  /** Every event of the active sources with its data's arrival: a plain bus, on the way from a reply or frame to the kernel. */
  private readonly arrived = new EventBus<ArrivedMarketEvent>();
  readonly arrivals$: Observable<ArrivedMarketEvent> = this.arrived.observable;
  private readonly subscriptions: Subscription[] = [];
  private checkTimer: Subscription | undefined;
  private running = false;
  private switchCount = 0;

  constructor(private readonly options: MarketFeedOptions) {
    const shared = new SharedTrackers(options.klineCloseGraceMs ?? 2000);
    this.poller = new MarketPoller({
      market: options.market,
      time: options.time,
      logger: options.logger,
      channels: options.channels,
      ...(options.indexTokenOf === undefined ? {} : { indexTokenOf: options.indexTokenOf }),
      ...(options.klineCloseGraceMs === undefined ? {} : { klineCloseGraceMs: options.klineCloseGraceMs }),
      shared,
    });
    const indexTokenOf = options.indexTokenOf ?? ((): undefined => undefined);
    const wsChannels: WsChannel[] = [];
    const now = options.time.clock.now();
    for (const channel of options.channels) {
      const ws =
        channel.via === 'ws' && options.socket !== undefined
          ? wsChannelFor(channel, { clock: options.time.clock, shared, indexTokenOf, ...(options.onSkipped === undefined ? {} : { onSkipped: options.onSkipped }) })
          : undefined;
      if (ws !== undefined) wsChannels.push(ws);
      const key = channelKey(channel);
      this.routes.set(key, { channel, key, ws, source: ws === undefined ? 'poll' : 'ws', switches: 0, since: now, reason: undefined });
    }
    const socket = options.socket;
    this.session =
      socket === undefined || wsChannels.length === 0
        ? undefined
        : new MarketWsSession({
            streamUrl: socket.streamUrl,
            time: options.time,
            logger: options.logger.child({ component: 'market-socket' }),
            channels: wsChannels,
            ...(socket.pingIntervalMs === undefined ? {} : { pingIntervalMs: socket.pingIntervalMs }),
            ...(socket.pongTimeoutMs === undefined ? {} : { pongTimeoutMs: socket.pongTimeoutMs }),
            ...(socket.backoff === undefined ? {} : { backoff: socket.backoff }),
            ...(socket.staleBookMs === undefined ? {} : { staleBookMs: socket.staleBookMs }),
            ...(socket.openSocket === undefined ? {} : { openSocket: socket.openSocket }),
            ...(socket.random === undefined ? {} : { random: socket.random }),
          });
    this.poller.listenArrivals((arrived) => this.arrived.next(arrived));
  }

  /** `arrivals$` to a plain listener (no rxjs subscriber between a market event and the kernel); the answer removes it. */
  listenArrivals(listener: (arrived: ArrivedMarketEvent) => void): () => void {
    return this.arrived.listen(listener);
  }

  /** Takes a snapshot of the mark prices, then starts the polls of polled channels and the socket; resolves once the socket's first attempt opened or failed. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    // The risk engine judges an opening order against the mark price: one snapshot of each mark-price
    // channel before any book or trade arrives, so strategies' first intents are not denied for want of one.
    await this.poller.pollOnce((_key, channel) => channel.channel === 'markPrice');
    if (!this.running) return;
    this.poller.start((key) => this.routes.get(key)?.source === 'poll');
    const session = this.session;
    if (session === undefined) return;
    this.subscriptions.push(
      new Subscription(
        session.listen(({ event, arrivedAt, channelKey: key }) => {
          if (this.routes.get(key)?.source === 'ws') this.arrived.next({ event, arrivedAt });
        }),
      ),
    );
    await session.start();
    this.scheduleCheck();
  }

  stop(): void {
    this.running = false;
    this.checkTimer?.unsubscribe();
    this.checkTimer = undefined;
    this.poller.stop();
    this.session?.stop();
    for (const s of this.subscriptions.splice(0)) s.unsubscribe();
  }

  stats(): MarketFeedStats {
    const channels = [...this.routes.values()].map((r) => ({
      key: r.key,
      symbol: r.channel.symbol,
      channel: r.channel.channel,
      via: r.ws === undefined ? ('poll' as const) : ('ws' as const),
      source: r.source,
      switches: r.switches,
      since: r.since,
      ...(r.reason === undefined ? {} : { reason: r.reason }),
    }));
    return { channels, switches: this.switchCount, ...(this.session === undefined ? {} : { socket: this.session.stats() }) };
  }

  /** Looks at every socket channel now (the timer does this every checkEveryMs). */
  check(): void {
    const session = this.session;
    if (session === undefined || !this.running) return;
    const now = this.options.time.clock.now();
    for (const route of this.routes.values()) {
      if (route.ws === undefined) continue;
      const problem = this.problemOf(route, now);
      if (problem !== undefined && route.source === 'ws') this.switchTo(route, 'poll', problem, now);
      else if (problem === undefined && route.source === 'poll') this.switchTo(route, 'ws', 'socket delivers again', now);
    }
  }

  /** Why a socket channel cannot be trusted now, or undefined when it can. */
  private problemOf(route: Route, now: number): string | undefined {
    const health = this.session?.health(route.key);
    if (health === undefined || !health.open) return 'socket down';
    const silentMs = route.channel.silentMs ?? DEFAULT_SILENT_MS;
    const heard = health.lastGoodAt ?? health.connectedAt;
    if (heard === undefined || now - heard > silentMs) return `silent for more than ${silentMs} ms`;
    // Connected but nothing applied yet: only a channel that never delivered since the connect waits for its snapshot on the poll.
    if (health.lastGoodAt === undefined && route.source === 'poll') return 'no snapshot yet';
    return undefined;
  }

  private switchTo(route: Route, to: MarketVia, reason: string, now: number): void {
    route.source = to;
    route.switches += 1;
    route.since = now;
    route.reason = to === 'poll' ? reason : undefined;
    this.switchCount += 1;
    this.poller.setPolling(route.key, to === 'poll');
    const fields = { channel: route.key, to, reason };
    if (to === 'poll') this.options.logger.warn(fields, 'market channel falls back to polling');
    else this.options.logger.info(fields, 'market channel back on the socket');
    this.options.onSwitch?.({ key: route.key, symbol: route.channel.symbol, channel: route.channel.channel, to, reason, time: now });
  }

  private scheduleCheck(): void {
    // A new top-level action each time: virtual schedulers would nest a rescheduled one.
    this.checkTimer = this.options.time.scheduler.schedule(() => {
      this.checkTimer = undefined;
      if (!this.running) return;
      this.check();
      this.scheduleCheck();
    }, this.options.checkEveryMs ?? 500);
  }
}
