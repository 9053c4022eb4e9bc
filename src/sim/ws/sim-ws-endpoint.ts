import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';

/** An HTTP upgrade seen on one of the servers the endpoint is attached to. */
export type UpgradeHandler = (server: Server, request: IncomingMessage, socket: Duplex, head: Buffer) => void;

/**
 * The WebSocket face of a simulated socket kind on existing HTTP servers: listens to their upgrades
 * (each handler decides its paths), completes the handshakes it accepts, and detaches and closes.
 */
export class SimWsEndpoint {
  private readonly wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 64 * 1024 });
  private readonly attached = new Map<Server, (request: IncomingMessage, socket: Duplex, head: Buffer) => void>();

  constructor(private readonly onUpgrade: UpgradeHandler) {}

  attach(server: Server): void {
    if (this.attached.has(server)) return;
    const listener = (request: IncomingMessage, socket: Duplex, head: Buffer): void => this.onUpgrade(server, request, socket, head);
    this.attached.set(server, listener);
    server.on('upgrade', listener);
  }

  /** Completes the WebSocket handshake of an upgrade the handler accepted. */
  accept(request: IncomingMessage, socket: Duplex, head: Buffer, onSocket: (ws: WebSocket) => void): void {
    this.wss.handleUpgrade(request, socket, head, onSocket);
  }

  /** Stops listening to every server's upgrades. */
  detach(): void {
    for (const [server, listener] of this.attached) server.off('upgrade', listener);
    this.attached.clear();
  }

  /** Closes the WebSocket server (after the sockets were cut). */
  close(): Promise<void> {
    return new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}
