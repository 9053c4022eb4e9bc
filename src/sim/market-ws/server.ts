import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { MarketDataService } from '../market-data/market-data-service.js';
import type { DepthEvent, MarketEvent } from '../market-stream/events.js';
import { listenKeyOf } from '../user-stream/user-stream-server.js';
import type { ConnectionLimits } from '../ws/sim-socket.js';
import { DEFAULT_CONNECTION_LIMITS } from '../ws/sim-socket.js';
import { ScheduledDrops } from '../ws/scheduled-drops.js';
import { SimWsEndpoint } from '../ws/sim-ws-endpoint.js';
import type { SimSocketServerOptions } from '../ws/server-options.js';
import { sideDelta } from './book-diff.js';
import { bookVersion, envelopeText, topicFrame, tradeRows } from './frames.js';
import type { DepthData, MarketFrame } from './frames.js';
import { MarketWsConnection } from './connection.js';
import { MarketWsFaults } from './faults.js';
import { marketWsMetrics } from './metrics.js';
import type { MarketWsMetrics } from './metrics.js';
import type { Topic, WsError } from './topics.js';
import { isWholeTopic, klineTopicInterval, parseRequest } from './topics.js';

export const MARKET_WS_PATH = '/quote/ws/v1';

/** The one thing the socket needs from the engine (SimExchange satisfies it). */
export interface MarketEventSource {
  onMarketEvent(listener: (event: MarketEvent) => void): () => void;
}

export interface MarketWsServerOptions extends SimSocketServerOptions {
  readonly marketData: MarketDataService;
  readonly venue: MarketEventSource;
  /** Brings the market to the server's clock before a snapshot (as REST does before every request). */
  readonly advance: () => void;
}

/**
 * The public market WebSocket `/quote/ws/v1` (API-NOTES §8) on the simulator's HTTP server, fed by the
 * same market events and market-data service as the REST routes: a snapshot is what REST answers at
 * that instant, and each book change goes out as a `diffDepth` delta whose per-symbol sequence `o`
 * rises by one (continuing across re-subscribes; a snapshot carries `o:0`).
 */
export class MarketWsServer {
  private readonly endpoint = new SimWsEndpoint((_server, request, socket, head) => this.onUpgrade(request, socket, head));
  private readonly connections = new Set<MarketWsConnection>();
  /** `topic|symbol` → the sockets subscribed to it. */
  private readonly subscribers = new Map<string, Set<MarketWsConnection>>();
  private readonly books = new Map<string, DepthEvent>();
  private readonly sequences = new Map<string, number>();
  private readonly drops: ScheduledDrops<MarketWsConnection>;
  private readonly metrics: MarketWsMetrics;
  private readonly faults: MarketWsFaults;
  private readonly limits: ConnectionLimits;
  private readonly unsubscribe: ReadonlyArray<() => void>;

  constructor(private readonly options: MarketWsServerOptions) {
    this.metrics = marketWsMetrics(options.metrics);
    this.faults = new MarketWsFaults(options.seed, options.faults, this.metrics.faults);
    this.limits = { ...DEFAULT_CONNECTION_LIMITS, ...options.limits };
    this.drops = new ScheduledDrops(options.time.scheduler, this.faults);
    this.unsubscribe = [options.venue.onMarketEvent((event) => this.onMarketEvent(event)), options.onFaultsChanged?.((faults) => this.drops.rearm(faults, this.connections)) ?? ((): void => undefined)];
  }

  attach(server: Server): void {
    this.endpoint.attach(server);
  }

  connectionCount(): number {
    return this.connections.size;
  }

  /** Cuts every public market socket (a dropped-socket fault on demand, for tests and the admin). */
  dropAll(): void {
    for (const connection of [...this.connections]) connection.terminate('fault_drop');
  }

  async close(): Promise<void> {
    this.endpoint.detach();
    for (const stop of this.unsubscribe) stop();
    this.drops.clear();
    for (const connection of [...this.connections]) connection.terminate('shutdown');
    await this.endpoint.close();
  }

  private onUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const path = (request.url ?? '').split('?', 1)[0] ?? '';
    if (path !== MARKET_WS_PATH && path !== `${MARKET_WS_PATH}/`) {
      // The user stream answers its own paths; anything else is refused rather than left hanging.
      if (listenKeyOf(request.url) === undefined) socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    this.endpoint.accept(request, socket, head, (ws) => this.accept(ws));
  }

  private accept(ws: WebSocket): void {
    const connection = new MarketWsConnection(ws, {
      time: this.options.time,
      faults: this.faults,
      metrics: this.metrics,
      limits: this.limits,
      onRequest: (c, text) => this.onRequest(c, text),
      onClosed: (c) => this.forget(c),
    });
    this.connections.add(connection);
    this.drops.arm(connection);
  }

  private forget(connection: MarketWsConnection): void {
    this.drops.forget(connection);
    this.connections.delete(connection);
    for (const key of connection.subscriptions.keys()) this.removeSubscriber(key, connection);
    connection.subscriptions.clear();
  }

  private onRequest(connection: MarketWsConnection, text: string): void {
    const { marketData } = this.options;
    const request = parseRequest(text, (symbol) => marketData.isContract(symbol) || marketData.isSpot(symbol));
    switch (request.kind) {
      case 'ping':
        connection.send({ text: JSON.stringify({ pong: this.now() }), binary: false, topic: 'pong', key: '' });
        return;
      case 'error':
        this.answerError(connection, request.error);
        return;
      case 'cancel_all':
        for (const key of connection.subscriptions.keys()) this.removeSubscriber(key, connection);
        connection.subscriptions.clear();
        return;
      case 'cancel':
        for (const key of keysOf(request.topic, request.symbols)) {
          connection.subscriptions.delete(key);
          this.removeSubscriber(key, connection);
        }
        return;
      case 'sub':
        this.subscribe(connection, request.topic, request.symbols, request.binary);
        return;
    }
  }

  /** Adds the subscriptions and sends each one's snapshot (`f:true`), re-subscribing included. */
  private subscribe(connection: MarketWsConnection, topic: Topic, symbols: readonly string[], binary: boolean): void {
    this.options.advance();
    const now = this.now();
    const targets = isWholeTopic(topic) ? ['*'] : symbols;
    for (const symbol of targets) {
      const key = `${topic}|${symbol}`;
      connection.subscriptions.set(key, binary);
      let set = this.subscribers.get(key);
      if (set === undefined) this.subscribers.set(key, (set = new Set()));
      set.add(connection);
      const frame = topicFrame(this.options.marketData, topic, symbol, true, this.sequences.get(symbol) ?? 0, now);
      // Delisted or book-less symbols get an empty snapshot, not an error (API-NOTES §8).
      const sent: MarketFrame = frame ?? { topic, symbol, data: [], f: true };
      connection.send({ text: envelopeText(sent, binary, now), binary, topic, key });
    }
  }

  private answerError(connection: MarketWsConnection, error: WsError): void {
    this.metrics.errors.inc({ code: error.code });
    connection.send({ text: JSON.stringify(error), binary: false, topic: 'error', key: '' });
  }

  private removeSubscriber(key: string, connection: MarketWsConnection): void {
    const set = this.subscribers.get(key);
    if (set === undefined) return;
    set.delete(connection);
    if (set.size === 0) this.subscribers.delete(key);
  }

  private onMarketEvent(event: MarketEvent): void {
    const { symbol } = event;
    switch (event.type) {
      case 'depth':
        this.onDepth(event);
        this.push('depth', symbol);
        this.push('bookTicker', symbol);
        this.push('wholeBookTicker', '*');
        return;
      case 'trade':
        this.pushFrame(`trade|${symbol}`, { topic: 'trade', symbol, data: tradeRows([event]), f: false });
        this.push('realtimes', symbol);
        this.push('wholeRealTime', '*');
        for (const key of this.subscribers.keys()) {
          const interval = key.endsWith(`|${symbol}`) ? klineTopicInterval(key.slice(0, key.indexOf('|'))) : undefined;
          if (interval !== undefined) this.push(`kline_${interval}`, symbol);
        }
        return;
      case 'mark':
        this.push('markPrice', symbol);
        return;
      case 'index': {
        const token = this.options.marketData.indexTokenFor(symbol);
        if (token !== undefined) this.push('index', token);
        return;
      }
      default:
        return;
    }
  }

  /** A book change as a diffDepth delta: the changed levels, the next sequence number. */
  private onDepth(event: DepthEvent): void {
    const before = this.books.get(event.symbol);
    this.books.set(event.symbol, event);
    const key = `diffDepth|${event.symbol}`;
    if (!this.subscribers.has(key)) {
      // Nobody to tell: no delta to work out. The sequence moves on all the same (a subscriber takes
      // the first delta it gets after its snapshot as its base).
      this.sequences.set(event.symbol, (this.sequences.get(event.symbol) ?? 0) + 1);
      return;
    }
    const bids = sideDelta(before?.bids ?? [], event.bids, true);
    const asks = sideDelta(before?.asks ?? [], event.asks, false);
    if (bids.length === 0 && asks.length === 0) return;
    let sequence = (this.sequences.get(event.symbol) ?? 0) + 1;
    if (this.faults.gap()) sequence += 1;
    this.sequences.set(event.symbol, sequence);
    const data: DepthData = { e: 0, t: event.ts, v: bookVersion(event.ts, sequence), b: bids, a: asks, o: sequence };
    this.pushFrame(key, { topic: 'diffDepth', symbol: event.symbol, data: [data], f: false });
  }

  private push(topic: Topic, symbol: string): void {
    const key = `${topic}|${symbol}`;
    if (!this.subscribers.has(key)) return;
    const frame = topicFrame(this.options.marketData, topic, symbol, false, this.sequences.get(symbol) ?? 0, this.now());
    if (frame !== undefined) this.pushFrame(key, frame);
  }

  private pushFrame(key: string, frame: MarketFrame): void {
    const set = this.subscribers.get(key);
    if (set === undefined) return;
    const now = this.now();
    const texts = new Map<boolean, string>();
    for (const connection of [...set]) {
      const binary = connection.subscriptions.get(key) ?? false;
      let text = texts.get(binary);
      if (text === undefined) texts.set(binary, (text = envelopeText(frame, binary, now)));
      connection.deliver({ text, binary, topic: frame.topic, key });
    }
  }

  private now(): number {
    return this.options.time.clock.now();
  }
}

function keysOf(topic: Topic, symbols: readonly string[]): string[] {
  return isWholeTopic(topic) ? [`${topic}|*`] : symbols.map((s) => `${topic}|${s}`);
}
