import type { SocketClosed, WebSocketLike } from './web-socket.js';

/** One socket of a reconnecting session. */
export interface SlotConnection {
  readonly socket: WebSocketLike;
  opened: boolean;
  /** Closed, or given up by the session: its late callbacks are ignored. */
  done: boolean;
}

/** What the session hears of its current socket (a socket it gave up or replaced stays silent). */
export interface SlotEvents<C extends SlotConnection> {
  opened(connection: C): void;
  message(connection: C, text: string): void;
  /** The current socket closed on its own (refused, closed by the server, lost); it is no longer current. */
  closed(connection: C, info: SocketClosed): void;
}

/**
 * The current socket of a session that reconnects (user stream, public market socket): routes the
 * socket's callbacks to the session only while it is the current one, and gives it up on demand.
 */
export class SocketSlot<C extends SlotConnection> {
  private connection: C | undefined;

  constructor(private readonly events: SlotEvents<C>) {}

  get current(): C | undefined {
    return this.connection;
  }

  /** Makes the connection `connect` opens the current one; resolves once it opened or failed. */
  open(connect: () => C): Promise<void> {
    return new Promise((settle) => {
      const connection = connect();
      this.connection = connection;
      connection.socket.listen({
        open: () => {
          if (this.isCurrent(connection)) {
            connection.opened = true;
            this.events.opened(connection);
          }
          settle();
        },
        message: (text) => {
          if (this.isCurrent(connection)) this.events.message(connection, text);
        },
        closed: (info) => {
          if (!connection.done) {
            connection.done = true;
            if (connection === this.connection) {
              this.connection = undefined;
              this.events.closed(connection, info);
            }
          }
          settle();
        },
      });
    });
  }

  /** Cuts the current socket (no close handshake); returns it, or undefined when there was none. */
  drop(): C | undefined {
    const connection = this.release();
    connection?.socket.terminate();
    return connection;
  }

  /** Closes the current socket with a close handshake; returns it, or undefined when there was none. */
  close(): C | undefined {
    const connection = this.release();
    connection?.socket.close();
    return connection;
  }

  private release(): C | undefined {
    const connection = this.connection;
    this.connection = undefined;
    if (connection !== undefined) connection.done = true;
    return connection;
  }

  private isCurrent(connection: C): boolean {
    return !connection.done && connection === this.connection;
  }
}

/** The socket URL of a stream path on a WebSocket base (trailing slashes of the base dropped). */
export function streamUrlOf(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path}`;
}

/** A socket's end as a readable reason. */
export function describeClose(info: SocketClosed): string {
  if (info.refusedStatus !== undefined) return `handshake refused (HTTP ${info.refusedStatus})`;
  return info.reason === '' ? `closed (${info.code})` : `closed (${info.code} ${info.reason})`;
}
