import type { Server, Socket } from 'node:net';

/** How many connections a server holds, in all and per remote address, and how long idle ones live. */
export interface ConnectionLimits {
  /** In all (beyond it node closes new connections at once); default 64. */
  readonly maxConnections: number;
  /** From one remote address; default 16. */
  readonly maxConnectionsPerAddress: number;
  /** The whole request head must arrive within this; default 5 s. */
  readonly headersTimeoutMs: number;
  /** The whole request (head and body); default 10 s. */
  readonly requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this; default 5 s. */
  readonly keepAliveTimeoutMs: number;
  /** A connection with no traffic at all is closed after this; default 10 s. */
  readonly idleTimeoutMs: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  maxConnections: 64,
  maxConnectionsPerAddress: 16,
  headersTimeoutMs: 5000,
  requestTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5000,
  idleTimeoutMs: 10_000,
};

/** The http(s) server settings connection limits map to. */
interface HttpTimeouts {
  maxConnections: number;
  headersTimeout: number;
  requestTimeout: number;
  keepAliveTimeout: number;
  setTimeout(ms: number): unknown;
}

/**
 * Bounds what slow or idle clients can hold: a total cap, a cap per remote address (a connection over
 * it is closed as soon as it is accepted, so it costs a descriptor for an instant only), and timeouts
 * for the request head, the whole request, keep-alive and silence. `onRefused` hears of each
 * connection the per-address cap closed.
 */
export function guardConnections(server: Server & HttpTimeouts, limits: ConnectionLimits, onRefused: (address: string) => void): void {
  server.maxConnections = limits.maxConnections;
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.setTimeout(limits.idleTimeoutMs);
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const count = open.get(address) ?? 0;
    if (count >= limits.maxConnectionsPerAddress) {
      socket.destroy();
      onRefused(address);
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
