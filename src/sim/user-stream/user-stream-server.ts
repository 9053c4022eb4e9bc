import type { Subscription } from 'rxjs';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { AccountEvent } from '../engine/types.js';
import { accountEventFrame, willExpireFrame } from './account-frames.js';
import type { StreamFrame } from './account-frames.js';
import type { ListenKeyEnd, ListenKeyRegistry, WillExpireNotice } from './listen-key-registry.js';
import { UNKNOWN_LISTEN_KEY } from './listen-key-registry.js';
import { StreamFaults } from './stream-faults.js';
import { streamMetrics } from './stream-metrics.js';
import type { StreamMetrics } from './stream-metrics.js';
import type { ConnectionLimits } from './user-stream-connection.js';
import { DEFAULT_CONNECTION_LIMITS } from '../ws/sim-socket.js';
import { ScheduledDrops } from '../ws/scheduled-drops.js';
import { SimWsEndpoint } from '../ws/sim-ws-endpoint.js';
import type { SimSocketServerOptions } from '../ws/server-options.js';
import { UserStreamConnection } from './user-stream-connection.js';

/** The one thing the stream needs from the engine (SimVenue satisfies it). */
export interface AccountEventSource {
  onAccountEvent(listener: (event: AccountEvent) => void): () => void;
}

/** `faults` is read per event: wsDropRate, streamDuplicateRate, streamReorderRate, garbageRate. */
export interface UserStreamServerOptions extends SimSocketServerOptions {
  readonly registry: ListenKeyRegistry;
  readonly venue: AccountEventSource;
}

export const USER_STREAM_PATH_PREFIX = '/api/v1/ws/';

export { DEFAULT_CONNECTION_LIMITS } from '../ws/sim-socket.js';

/**
 * The user data stream's WebSocket face: `/api/v1/ws/<listenKey>` on an existing HTTP server.
 *
 * - Upgrades of other paths are left to the server's other 'upgrade' listeners; when there is none,
 *   they get HTTP 404 (node leaves an upgrade nobody answers hanging).
 * - An unknown or expired key is refused before the upgrade: HTTP 401 with `{"code":-1125,…}`
 *   (API-NOTES §9: live behaviour not sourced; refusing the handshake makes clients fail fast).
 * - Every socket of a key receives every event of the key's (user, category); deleting or expiring
 *   the key closes them (1000).
 */
export class UserStreamServer {
  private readonly endpoint = new SimWsEndpoint((server, request, socket, head) => this.onUpgrade(server, request, socket, head));
  private readonly byKey = new Map<string, Set<UserStreamConnection>>();
  private readonly metrics: StreamMetrics;
  private readonly faults: StreamFaults;
  private readonly limits: ConnectionLimits;
  private readonly unsubscribe: ReadonlyArray<() => void>;
  /** Account events on their way (the latency fault's outbound share), cancelled on close. */
  private readonly inTransit = new Set<Subscription>();
  private readonly drops: ScheduledDrops<UserStreamConnection>;

  constructor(private readonly options: UserStreamServerOptions) {
    this.metrics = streamMetrics(options.metrics);
    this.faults = new StreamFaults(options.seed, options.faults, this.metrics.faults);
    this.limits = { ...DEFAULT_CONNECTION_LIMITS, ...options.limits };
    this.drops = new ScheduledDrops(options.time.scheduler, this.faults);
    this.unsubscribe = [
      options.venue.onAccountEvent((event) => this.dispatch(event)),
      options.registry.onWillExpire((notice) => this.noticeExpiry(notice)),
      options.registry.onEnd((listenKey, end) => this.endKey(listenKey, end)),
      options.onFaultsChanged?.((faults) => this.drops.rearm(faults, openConnections(this.byKey))) ?? ((): void => undefined),
    ];
  }

  attach(server: Server): void {
    this.endpoint.attach(server);
  }

  /** Open sockets, for all keys or one. */
  connectionCount(listenKey?: string): number {
    if (listenKey !== undefined) return this.byKey.get(listenKey)?.size ?? 0;
    let count = 0;
    for (const set of this.byKey.values()) count += set.size;
    return count;
  }

  /** Detaches from the HTTP servers and the engine and cuts every socket. Call before `server.close()`. */
  async close(): Promise<void> {
    this.endpoint.detach();
    for (const stop of this.unsubscribe) stop();
    for (const transit of this.inTransit) transit.unsubscribe();
    this.inTransit.clear();
    this.drops.clear();
    for (const set of [...this.byKey.values()]) for (const connection of [...set]) connection.terminate('shutdown');
    await this.endpoint.close();
  }

  private onUpgrade(server: Server, request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const listenKey = listenKeyOf(request.url);
    if (listenKey === undefined) {
      // Another path: its own upgrade listener answers; with none, refuse rather than leave the socket hanging.
      if (server.listenerCount('upgrade') <= 1) answer(socket, 404, 'Not Found', '');
      return;
    }
    if (listenKey === '' || this.options.registry.find(listenKey) === undefined) {
      this.metrics.rejected.inc();
      answer(socket, 401, 'Unauthorized', JSON.stringify(UNKNOWN_LISTEN_KEY));
      return;
    }
    this.endpoint.accept(request, socket, head, (ws) => this.accept(listenKey, ws));
  }

  private accept(listenKey: string, ws: WebSocket): void {
    const connection = new UserStreamConnection(listenKey, ws, {
      time: this.options.time,
      faults: this.faults,
      metrics: this.metrics,
      limits: this.limits,
      onClosed: (closed) => this.forget(closed),
    });
    // The key may have ended while the handshake completed.
    if (this.options.registry.find(listenKey) === undefined) {
      connection.close('key_expired');
      return;
    }
    let set = this.byKey.get(listenKey);
    if (set === undefined) this.byKey.set(listenKey, (set = new Set()));
    set.add(connection);
    this.drops.arm(connection);
  }

  private forget(connection: UserStreamConnection): void {
    this.drops.forget(connection);
    const set = this.byKey.get(connection.listenKey);
    if (set === undefined) return;
    set.delete(connection);
    if (set.size === 0) this.byKey.delete(connection.listenKey);
  }

  private dispatch(event: AccountEvent): void {
    const listenKey = this.options.registry.activeKey(event);
    const set = listenKey === undefined ? undefined : this.byKey.get(listenKey);
    if (set === undefined || set.size === 0) return;
    const frame = accountEventFrame(event);
    const connections = [...set];
    // As a REST reply, an event takes the outbound half of the latency fault (no jitter: events keep their order).
    const latencyMs = this.options.faults().latencyMs;
    const delayMs = latencyMs - Math.floor(latencyMs / 2);
    if (delayMs <= 0) {
      for (const connection of connections) connection.deliver(frame);
      return;
    }
    const transit = this.options.time.scheduler.schedule(() => {
      this.inTransit.delete(transit);
      for (const connection of connections) connection.deliver(frame);
    }, delayMs);
    this.inTransit.add(transit);
  }

  private noticeExpiry(notice: WillExpireNotice): void {
    const set = this.byKey.get(notice.listenKey);
    if (set === undefined) return;
    const frame: StreamFrame = willExpireFrame(notice.listenKey, notice.time);
    for (const connection of [...set]) connection.notify(frame);
  }

  private endKey(listenKey: string, end: ListenKeyEnd): void {
    const set = this.byKey.get(listenKey);
    if (set === undefined) return;
    for (const connection of [...set]) connection.close(end === 'closed' ? 'key_closed' : 'key_expired');
  }
}

/** The key of a `/api/v1/ws/<listenKey>` path ('' when missing), or undefined for any other path. */
export function listenKeyOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const path = url.split('?', 1)[0] ?? '';
  if (path === USER_STREAM_PATH_PREFIX.slice(0, -1)) return '';
  if (!path.startsWith(USER_STREAM_PATH_PREFIX)) return undefined;
  const rest = path.slice(USER_STREAM_PATH_PREFIX.length).replace(/\/$/, '');
  return rest.includes('/') ? '' : decodeURIComponentSafe(rest);
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return '';
  }
}

/** Answers an upgrade request with a plain HTTP response instead of switching protocols. */
function answer(socket: Duplex, status: number, statusText: string, body: string): void {
  const type = body === '' ? '' : 'Content-Type: application/json\r\n';
  socket.end(`HTTP/1.1 ${status} ${statusText}\r\n${type}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

/** Every open socket of every key. */
function* openConnections(byKey: ReadonlyMap<string, ReadonlySet<UserStreamConnection>>): Iterable<UserStreamConnection> {
  for (const set of byKey.values()) yield* set;
}
