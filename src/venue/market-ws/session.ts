import { EventBus } from '../../core/event-bus.js';
import type { Observable, Subscription } from 'rxjs';
import type { TimeSource } from '../../core/clock.js';
import { stopwatchOf } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { MarketEvent } from '../../model/market-events.js';
import type { BackoffOptions } from '../stream/backoff.js';
import { Heartbeat, heartbeatTimings } from '../stream/heartbeat.js';
import { ReconnectTimer } from '../stream/reconnect-timer.js';
import { SocketSlot, describeClose, streamUrlOf } from '../stream/socket-slot.js';
import type { SlotConnection } from '../stream/socket-slot.js';
import type { WebSocketLike } from '../stream/web-socket.js';
import { openWsSocket } from '../stream/web-socket.js';
import { envelopeSchema, errorFrameSchema, pongFrameSchema, readEnvelope } from './wire.js';
import type { Envelope } from './wire.js';
import { isRecord } from '../wire/plain.js';
import { OutboundPacer } from './outbound-pacer.js';
import type { WsChannel } from './ws-channels.js';

export const MARKET_WS_PATH = '/quote/ws/v1';

export type MarketWsState = 'idle' | 'connecting' | 'open' | 'backoff' | 'stopped';

export interface MarketWsSessionOptions {
  /** WebSocket base, e.g. wss://stream.toobit.com or the simulator's ws://127.0.0.1:PORT. */
  readonly streamUrl: string;
  readonly time: TimeSource;
  readonly logger: Logger;
  readonly channels: readonly WsChannel[];
  readonly pingIntervalMs?: number;
  readonly pongTimeoutMs?: number;
  readonly backoff?: BackoffOptions;
  readonly random?: () => number;
  readonly openSocket?: (url: string) => WebSocketLike;
  /** A synced book with no frame for this long is treated as stale: a fresh snapshot is asked for (default 30 s). */
  readonly staleBookMs?: number;
  /** Messages a second the session sends at most (default 4: the exchange disconnects past 5, pings included). */
  readonly maxOutboundPerSecond?: number;
}

/** A market event from the socket, with when its frame arrived (stopwatch ms) and the channel it belongs to. */
export interface SocketMarketEvent {
  readonly event: MarketEvent;
  readonly arrivedAt: number;
  readonly channelKey: string;
}

/** A channel's health as the fallback logic reads it. */
export interface WsChannelHealth {
  readonly open: boolean;
  /** Clock time of the last frame that applied (undefined since the last connect until one does). */
  readonly lastGoodAt: number | undefined;
  readonly connectedAt: number | undefined;
}

export interface MarketWsStats {
  readonly state: MarketWsState;
  readonly connects: number;
  readonly reconnects: number;
  readonly frames: number;
  readonly resyncs: number;
  readonly gaps: number;
  readonly errorFrames: number;
  readonly badFrames: number;
  readonly lastError?: string;
}

interface ChannelState {
  readonly channel: WsChannel;
  lastGoodAt: number | undefined;
  /** A re-subscribe is on its way (no second one until its snapshot). */
  resyncPending: boolean;
}

/**
 * The public market WebSocket (API-NOTES §8) as one session: subscribes every channel after each
 * (re)connect, keeps local books from `diffDepth` (gap on `o`, a reconnect or a stale book → a fresh
 * snapshot by re-subscribing; a book is never served while inconsistent), heartbeats every 20 s,
 * reconnects with backoff, and keeps its own messages under the 5/s limit. Every timer runs on the
 * injected scheduler.
 */
export class MarketWsSession {
  /** A plain bus: a frame's event goes on to the feed without an rxjs Subject's dispatch. */
  private readonly bus = new EventBus<SocketMarketEvent>();
  readonly events$: Observable<SocketMarketEvent> = this.bus.observable;
  private readonly retry: ReconnectTimer;
  private readonly heartbeat: Heartbeat;
  private readonly pacer: OutboundPacer;
  private readonly openSocket: (url: string) => WebSocketLike;
  /** Every channel's state; `routes` finds them by the subscription they were last sent with. */
  private readonly states: ChannelState[];
  private readonly routes = new Map<string, ChannelState>();
  private readonly stopwatch;
  private status: MarketWsState = 'idle';
  private readonly slot: SocketSlot<SlotConnection>;
  private connectedAt: number | undefined;
  private staleTimer: Subscription | undefined;
  private connects = 0;
  private reconnects = 0;
  private frames = 0;
  private resyncs = 0;
  private gaps = 0;
  private errorFrames = 0;
  private badFrames = 0;
  private lastError: string | undefined;

  constructor(private readonly options: MarketWsSessionOptions) {
    this.retry = new ReconnectTimer(options.time.scheduler, () => this.reconnect(), options.backoff, options.random);
    this.pacer = new OutboundPacer(options.time, options.maxOutboundPerSecond ?? 4, (text) => this.slot.current?.socket.send(text));
    this.heartbeat = new Heartbeat(options.time, heartbeatTimings(options), (text) => this.pacer.send(text), () => this.drop('pong timeout'));
    this.slot = new SocketSlot({
      opened: () => this.onOpen(),
      message: (_connection, text) => this.onMessage(text),
      closed: (connection, info) => this.lost(connection, describeClose(info)),
    });
    this.openSocket = options.openSocket ?? openWsSocket;
    this.stopwatch = stopwatchOf(options.time);
    this.states = options.channels.map((channel) => ({ channel, lastGoodAt: undefined, resyncPending: false }));
  }

  get state(): MarketWsState {
    return this.status;
  }

  /** `events$` to a plain listener (none after `stop`); the answer removes it. */
  listen(listener: (arrived: SocketMarketEvent) => void): () => void {
    return this.bus.listen(listener);
  }

  /** Connects (failures retry with backoff); resolves once the first attempt opened or failed. */
  start(): Promise<void> {
    if (this.status !== 'idle') return Promise.resolve();
    this.scheduleStaleCheck();
    return this.connect();
  }

  stop(): void {
    if (this.status === 'stopped') return;
    this.status = 'stopped';
    this.retry.cancel();
    this.staleTimer?.unsubscribe();
    this.heartbeat.stop();
    this.pacer.clear();
    this.slot.close();
    this.bus.complete();
  }

  health(key: string): WsChannelHealth | undefined {
    const state = this.states.find((s) => s.channel.key === key);
    return state === undefined ? undefined : { open: this.status === 'open', lastGoodAt: state.lastGoodAt, connectedAt: this.connectedAt };
  }

  channel(key: string): WsChannel | undefined {
    return this.states.find((s) => s.channel.key === key)?.channel;
  }

  stats(): MarketWsStats {
    return {
      state: this.status,
      connects: this.connects,
      reconnects: this.reconnects,
      frames: this.frames,
      resyncs: this.resyncs,
      gaps: this.gaps,
      errorFrames: this.errorFrames,
      badFrames: this.badFrames,
      ...(this.lastError === undefined ? {} : { lastError: this.lastError }),
    };
  }

  private connect(): Promise<void> {
    this.status = 'connecting';
    const url = streamUrlOf(this.options.streamUrl, MARKET_WS_PATH);
    return this.slot.open(() => ({ socket: this.openSocket(url), opened: false, done: false }));
  }

  private onOpen(): void {
    this.status = 'open';
    this.connects += 1;
    this.connectedAt = this.now();
    this.heartbeat.start();
    // One request per topic with comma-separated symbols (no spaces: API-NOTES §8).
    const byTopic = new Map<string, string[]>();
    this.routes.clear();
    for (const state of this.states) {
      state.lastGoodAt = undefined;
      const wireSymbol = state.channel.wireSymbol();
      // Not subscribable yet (an index token still unknown): it stays silent, so its poll carries it.
      if (wireSymbol === undefined) continue;
      state.resyncPending = true;
      this.routes.set(routeKey(state.channel.topic, wireSymbol), state);
      const symbols = byTopic.get(state.channel.topic) ?? [];
      symbols.push(wireSymbol);
      byTopic.set(state.channel.topic, symbols);
    }
    for (const [topic, symbols] of byTopic) this.pacer.send(subscribeText(topic, symbols.join(',')));
  }

  private drop(reason: string): void {
    const connection = this.slot.drop();
    if (connection === undefined) return;
    this.lost(connection, reason);
  }

  /** The socket is no longer current (the slot let it go). */
  private lost(connection: SlotConnection, reason: string): void {
    this.connectedAt = undefined;
    this.heartbeat.stop();
    this.pacer.clear();
    for (const state of this.states) {
      state.channel.reset();
      state.lastGoodAt = undefined;
      state.resyncPending = false;
    }
    if (this.status === 'stopped') return;
    this.lastError = reason;
    this.options.logger.warn({ reason, opened: connection.opened }, 'market socket: connection lost');
    this.status = 'backoff';
    this.retry.schedule();
  }

  private reconnect(): void {
    if (this.status !== 'backoff') return;
    this.reconnects += 1;
    void this.connect();
  }

  private onMessage(text: string): void {
    const arrivedAt = this.stopwatch.now();
    this.frames += 1;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.badFrames += 1;
      return;
    }
    // A frame without `pong` and `code` is neither a pong nor an error: a data frame's envelope is read at once.
    const data = isRecord(value) && !('pong' in value) && !('code' in value) ? readEnvelope(value) : undefined;
    if (data !== undefined) {
      this.route(data, arrivedAt);
      return;
    }
    if (pongFrameSchema.safeParse(value).success) {
      this.heartbeat.pong();
      this.retry.answered();
      return;
    }
    const error = errorFrameSchema.safeParse(value);
    if (error.success) {
      this.errorFrames += 1;
      this.lastError = `${error.data.code} ${error.data.desc ?? ''}`.trim();
      this.options.logger.warn({ code: error.data.code, desc: error.data.desc }, 'market socket: the exchange refused a request');
      return;
    }
    const envelope = envelopeSchema.safeParse(value);
    if (!envelope.success) {
      this.badFrames += 1;
      return;
    }
    this.route(envelope.data, arrivedAt);
  }

  private route(frame: Envelope, arrivedAt: number): void {
    const topic = frame.topic === 'kline' ? `kline_${frame.params?.klineType ?? ''}` : frame.topic;
    const state = this.routes.get(routeKey(topic, frame.symbol ?? dataSymbol(frame.data) ?? ''));
    if (state === undefined) return;
    if (frame.f === true) state.resyncPending = false;
    const outcome = state.channel.handle(frame);
    if (outcome.good) state.lastGoodAt = this.now();
    else this.badFrames += outcome.resync === 'no-snapshot' ? 0 : 1;
    if (outcome.resync !== undefined) this.resync(state, outcome.resync);
    for (const event of outcome.events) this.bus.next({ event, arrivedAt, channelKey: state.channel.key });
  }

  /** Subscribes the channel again: the exchange answers with a fresh snapshot (API-NOTES §8). */
  private resync(state: ChannelState, why: string): void {
    if (why === 'gap') this.gaps += 1;
    if (state.resyncPending || this.status !== 'open') return;
    state.resyncPending = true;
    this.resyncs += 1;
    this.options.logger.debug({ channel: state.channel.key, why }, 'market socket: resubscribing for a fresh snapshot');
    const wireSymbol = state.channel.wireSymbol();
    if (wireSymbol !== undefined) this.pacer.send(subscribeText(state.channel.topic, wireSymbol));
  }

  /** A synced book that has heard nothing for staleBookMs is stale: void it and ask for a snapshot. */
  private scheduleStaleCheck(): void {
    const staleMs = this.options.staleBookMs ?? 30_000;
    this.staleTimer = this.options.time.scheduler.schedule(
      () => {
        if (this.status === 'stopped') return;
        const now = this.now();
        this.subscribeLate();
        for (const state of this.routes.values()) {
          const book = state.channel.book;
          const heard = state.lastGoodAt ?? this.connectedAt;
          if (book === undefined || this.status !== 'open' || heard === undefined || now - heard < staleMs) continue;
          book.invalidate();
          state.resyncPending = false;
          this.resync(state, 'stale');
        }
        this.scheduleStaleCheck();
      },
      Math.max(100, Math.floor(staleMs / 2)),
    );
  }

  /** Channels skipped at the connect because their subscription was not known yet (an index token): subscribed once it is. */
  private subscribeLate(): void {
    if (this.status !== 'open') return;
    const routed = new Set(this.routes.values());
    for (const state of this.states) {
      if (routed.has(state)) continue;
      const wireSymbol = state.channel.wireSymbol();
      if (wireSymbol === undefined) continue;
      state.resyncPending = true;
      this.routes.set(routeKey(state.channel.topic, wireSymbol), state);
      this.pacer.send(subscribeText(state.channel.topic, wireSymbol));
    }
  }

  private now(): number {
    return this.options.time.clock.now();
  }
}

function routeKey(topic: string, symbol: string): string {
  return `${topic}|${symbol}`;
}

function subscribeText(topic: string, symbols: string): string {
  return JSON.stringify({ symbol: symbols, topic, event: 'sub', params: { binary: false } });
}

/** The symbol of a frame without a top-level one (bookTicker `s`, live markPrice `symbolId`). */
function dataSymbol(data: unknown): string | undefined {
  const row: unknown = Array.isArray(data) ? data[0] : data;
  if (typeof row !== 'object' || row === null) return undefined;
  for (const key of ['s', 'symbolId', 'symbol']) {
    const value: unknown = (row as Record<string, unknown>)[key];
    if (typeof value === 'string') return value;
  }
  return undefined;
}
