import { Subject } from 'rxjs';
import type { Observable } from 'rxjs';
import type { TimeSource } from '../../core/clock.js';
import type { Decimal } from '../../core/decimal.js';
import type { Logger } from '../../core/logger.js';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import type { AccountEvent } from '../../model/account-events.js';
import type { Category } from '../../model/instrument.js';
import type { StreamConnected, StreamDisconnected } from '../../model/kernel-events.js';
import type { UserStreamApi } from '../api/user-stream.js';
import type { VenueError } from '../venue-error.js';
import { invalidRequest } from '../venue-error.js';
import type { BackoffOptions } from './backoff.js';
import type { ListenKeyWillExpire } from './frames/frame-types.js';
import { Heartbeat, heartbeatTimings } from './heartbeat.js';
import { isUnknownListenKey, ListenKeyKeeper } from './listen-key-keeper.js';
import { StreamInbox } from './stream-inbox.js';
import { ReconnectTimer } from './reconnect-timer.js';
import { SocketSlot, describeClose, streamUrlOf } from './socket-slot.js';
import type { SlotConnection } from './socket-slot.js';
import type { SocketClosed, WebSocketLike } from './web-socket.js';
import { openWsSocket } from './web-socket.js';
import type { TableSize } from '../../core/table-size.js';
import type { SkippedRows } from '../wire/tolerant-list.js';

export type UserStreamState = 'idle' | 'connecting' | 'open' | 'backoff' | 'stopped';
export type UserStreamEvent = AccountEvent | StreamConnected | StreamDisconnected;

export interface UserStreamSessionOptions {
  readonly userStream: UserStreamApi;
  /** WebSocket base, e.g. wss://stream.toobit.com or the simulator's ws://127.0.0.1:PORT. */
  readonly streamUrl: string;
  readonly time: TimeSource;
  readonly logger: Logger;
  readonly category?: Category;
  readonly pingIntervalMs?: number;
  readonly pongTimeoutMs?: number;
  readonly backoff?: BackoffOptions;
  readonly random?: () => number;
  readonly openSocket?: (url: string) => WebSocketLike;
  /** Coins per contract of a symbol, for the average price of execution reports (default 1). */
  readonly contractMultiplier?: (symbol: string) => Decimal | undefined;
  /** Rows of a frame's list left out by the parsing rule (the daemon logs and counts them with the REST ones). */
  readonly onSkipped?: (skipped: SkippedRows) => void;
}

interface Connection extends SlotConnection {
  readonly listenKey: string;
}

export const USER_STREAM_PATH = '/api/v1/ws/';

/**
 * The user data stream (document 001, API-NOTES §7) as one observable: account events, plus a
 * StreamConnected with a new epoch after every (re)connect and a StreamDisconnected when the socket is lost.
 * Heartbeat, reconnects with backoff and listen-key renewal happen here; every timer runs on the injected
 * scheduler. The caller resyncs over REST after each StreamConnected.
 */
export class UserStreamSession {
  readonly events$: Observable<UserStreamEvent>;
  private readonly subject = new Subject<UserStreamEvent>();
  private readonly keys: ListenKeyKeeper;
  private readonly retry: ReconnectTimer;
  private readonly heartbeat: Heartbeat;
  private readonly inbox: StreamInbox;
  private readonly openSocket: (url: string) => WebSocketLike;
  private status: UserStreamState = 'idle';
  private readonly slot: SocketSlot<Connection>;
  private reconnectCount = 0;
  private epochCount = 0;
  private lastInbound: number | undefined;
  private lastPong: number | undefined;
  /** The next connect creates a key first: the server refused or ended the current one. */
  private keySuspect = false;
  /** A listenKeyWillExpire arrived since the last successful keepalive. */
  private expiryNoticed = false;
  private noticeKeepAlive = false;

  constructor(private readonly options: UserStreamSessionOptions) {
    this.events$ = this.subject.asObservable();
    this.keys = new ListenKeyKeeper(options.userStream, options.category);
    this.retry = new ReconnectTimer(options.time.scheduler, () => void this.reconnect(), options.backoff, options.random);
    this.heartbeat = new Heartbeat(options.time, heartbeatTimings(options), (text) => this.slot.current?.socket.send(text), () => this.drop('pong timeout', false));
    this.slot = new SocketSlot<Connection>({
      opened: () => this.onOpen(),
      message: (_connection, text) => this.onMessage(text),
      closed: (connection, info) => this.onClosed(connection, info),
    });
    const multiplier = options.contractMultiplier;
    const onSkipped = options.onSkipped;
    const context = { ...(multiplier === undefined ? {} : { contractMultiplier: multiplier }), ...(onSkipped === undefined ? {} : { onSkipped }) };
    this.inbox = new StreamInbox(context, options.logger, {
      account: (event) => this.emit(event),
      pong: () => this.onPong(),
      willExpire: (notice) => this.onWillExpire(notice),
    });
    this.openSocket = options.openSocket ?? openWsSocket;
  }

  get state(): UserStreamState {
    return this.status;
  }

  /** Sizes of the session's long-lived tables (metrics), named `stream.<category>.<table>`. */
  sizes(): readonly TableSize[] {
    return this.inbox.sizes().map((table) => ({ ...table, name: `stream.${this.options.category ?? 'default'}.${table.name}` }));
  }

  /** Reconnect attempts after a lost or failed connection. */
  get reconnects(): number {
    return this.reconnectCount;
  }

  /** Epoch of the newest StreamConnected (0 before the first). */
  get epoch(): number {
    return this.epochCount;
  }

  /** Clock time of the last frame received, if any. */
  get lastInboundAt(): number | undefined {
    return this.lastInbound;
  }

  /** Clock time of the last heartbeat reply, if any. */
  get lastPongAt(): number | undefined {
    return this.lastPong;
  }

  /** Creates the listen key and connects; resolves once the first connection attempt opened or failed (failures retry). */
  async start(): Promise<Result<void, VenueError>> {
    if (this.status !== 'idle') return this.status === 'stopped' ? err(notRunning('stopped')) : ok(undefined);
    this.status = 'connecting';
    const created = await this.keys.create();
    if (this.isStopped()) return ok(undefined);
    if (!created.ok) {
      this.status = 'idle';
      return created;
    }
    await this.connect();
    return ok(undefined);
  }

  /** Closes the socket, cancels the timers and deletes the key; nothing reconnects afterwards. */
  async stop(): Promise<void> {
    if (this.status === 'stopped') return;
    this.status = 'stopped';
    this.retry.cancel();
    this.heartbeat.stop();
    const connection = this.slot.close();
    if (connection?.opened === true) this.emit({ type: 'stream.disconnected', time: this.now(), reason: 'stopped' });
    if (this.keys.current !== undefined) {
      const closed = await this.keys.close();
      if (!closed.ok) this.options.logger.warn({ error: closed.error.message }, 'user stream: deleting the listen key failed');
    }
    this.subject.complete();
  }

  /**
   * PUT on the key (the scheduled job calls this). After -1125, or any failure once listenKeyWillExpire was
   * seen, a new key is created and the stream reconnects on it.
   */
  async keepAlive(): Promise<Result<void, VenueError>> {
    if (this.status === 'stopped' || this.status === 'idle') return err(notRunning(this.status));
    if (this.keys.current === undefined) return this.renewKey('no listen key');
    const kept = await this.keys.keepAlive();
    if (kept.ok) {
      this.expiryNoticed = false;
      return kept;
    }
    if (this.isStopped()) return ok(undefined);
    if (isUnknownListenKey(kept.error)) return this.renewKey('listen key unknown');
    if (this.expiryNoticed) return this.renewKey('keepalive failed after listenKeyWillExpire');
    this.options.logger.warn({ error: kept.error.message }, 'user stream: keepalive failed');
    return kept;
  }

  /** POST: the same key comes back while it is valid; a different one replaces the socket (or ends the backoff) at once. */
  private async renewKey(why: string): Promise<Result<void, VenueError>> {
    const before = this.keys.current;
    const created = await this.keys.create();
    if (this.isStopped()) return ok(undefined);
    if (!created.ok) {
      this.keySuspect = true;
      this.options.logger.warn({ why, error: created.error.message }, 'user stream: creating a listen key failed');
      return created;
    }
    this.expiryNoticed = false;
    this.keySuspect = false;
    const key = created.value;
    if (key !== before) this.options.logger.info({ why }, 'user stream: new listen key');
    const current = this.slot.current;
    if (current !== undefined) {
      if (current.listenKey !== key) this.drop('listen key replaced', true);
    } else if (this.status === 'backoff' && key !== before) {
      this.scheduleReconnect(true);
    }
    return ok(undefined);
  }

  private connect(): Promise<void> {
    const listenKey = this.keys.current ?? '';
    this.status = 'connecting';
    const url = streamUrlOf(this.options.streamUrl, `${USER_STREAM_PATH}${encodeURIComponent(listenKey)}`);
    return this.slot.open(() => ({ socket: this.openSocket(url), listenKey, opened: false, done: false }));
  }

  private onOpen(): void {
    this.status = 'open';
    this.lastInbound = this.now();
    this.epochCount += 1;
    this.heartbeat.start();
    this.emit({ type: 'stream.connected', time: this.now(), epoch: this.epochCount });
  }

  private onClosed(connection: Connection, info: SocketClosed): void {
    // A refused handshake (401 -1125) or a normal close by the server (the key ended) needs a new key.
    const keyEnded = info.refusedStatus !== undefined || info.code === 1000;
    this.lost(connection, describeClose(info), keyEnded, false);
  }

  /** Gives up the current socket (pong timeout, key replaced) and reconnects. */
  private drop(reason: string, immediate: boolean): void {
    const connection = this.slot.drop();
    if (connection === undefined) return;
    this.lost(connection, reason, false, immediate);
  }

  /** The socket is no longer current (the slot let it go). */
  private lost(connection: Connection, reason: string, keyEnded: boolean, immediate: boolean): void {
    this.heartbeat.stop();
    if (keyEnded) this.keySuspect = true;
    if (connection.opened) this.emit({ type: 'stream.disconnected', time: this.now(), reason });
    if (this.status === 'stopped') return;
    this.options.logger.warn({ reason, opened: connection.opened }, 'user stream: connection lost');
    this.scheduleReconnect(immediate);
  }

  private scheduleReconnect(immediate: boolean): void {
    this.status = 'backoff';
    this.retry.schedule(immediate);
  }

  private async reconnect(): Promise<void> {
    if (this.status !== 'backoff') return;
    this.reconnectCount += 1;
    this.status = 'connecting';
    if (this.keySuspect || this.keys.current === undefined) {
      const created = await this.keys.create();
      if (this.status !== 'connecting') return;
      if (!created.ok) {
        this.options.logger.warn({ error: created.error.message }, 'user stream: creating a listen key failed');
        this.scheduleReconnect(false);
        return;
      }
      this.keySuspect = false;
    }
    await this.connect();
  }

  private onMessage(text: string): void {
    this.lastInbound = this.now();
    this.inbox.receive(text);
  }

  private onPong(): void {
    this.lastPong = this.now();
    this.heartbeat.pong();
    this.retry.answered();
  }

  /** An immediate keepalive; if it fails, a new key (keepAlive decides) and a reconnect. */
  private onWillExpire(notice: ListenKeyWillExpire): void {
    if (notice.listenKey !== this.keys.current) return;
    this.expiryNoticed = true;
    if (this.noticeKeepAlive) return;
    this.noticeKeepAlive = true;
    void this.keepAlive().then((kept) => {
      this.noticeKeepAlive = false;
      if (!kept.ok) this.options.logger.warn({ error: kept.error.message }, 'user stream: keepalive after listenKeyWillExpire failed');
    });
  }

  private emit(event: UserStreamEvent): void {
    this.subject.next(event);
  }

  /** Read through a method: an `await` may have stopped the session since the last look. */
  private isStopped(): boolean {
    return this.status === 'stopped';
  }

  private now(): number {
    return this.options.time.clock.now();
  }
}

function notRunning(state: UserStreamState): VenueError {
  return invalidRequest('user-stream', 'not-running', `the user stream is ${state === 'idle' ? 'not started' : 'stopped'}`);
}
