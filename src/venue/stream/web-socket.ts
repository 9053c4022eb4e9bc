import { WebSocket } from 'ws';
import { rawText } from '../../protocol/socket-frame.js';
import type { RawData } from 'ws';

/** How a socket ended. `refusedStatus`: the server answered the handshake with this HTTP status instead of upgrading. */
export interface SocketClosed {
  readonly code: number;
  readonly reason: string;
  readonly refusedStatus?: number;
}

export interface SocketListener {
  open(): void;
  message(text: string): void;
  /** Exactly once, whether the socket opened or not. */
  closed(info: SocketClosed): void;
}

/** The little the user stream needs of a WebSocket client: text frames in and out, and one close report. */
export interface WebSocketLike {
  /** Called once, right after the socket was created. */
  listen(listener: SocketListener): void;
  send(text: string): void;
  /** Ends the connection now (no close handshake); `closed` still follows. */
  terminate(): void;
  /** A normal close (1000) with a close handshake. */
  close(): void;
}

/** The default socket: the `ws` package, without compression. */
export function openWsSocket(url: string): WebSocketLike {
  return new WsSocket(new WebSocket(url, { perMessageDeflate: false, handshakeTimeout: 10_000 }));
}

class WsSocket implements WebSocketLike {
  private refusedStatus: number | undefined;

  constructor(private readonly ws: WebSocket) {}

  listen(listener: SocketListener): void {
    let closed = false;
    this.ws.on('open', () => listener.open());
    this.ws.on('message', (data: RawData, isBinary: boolean) => {
      if (!isBinary) listener.message(rawText(data));
    });
    this.ws.on('unexpected-response', (_request, response) => {
      this.refusedStatus = response.statusCode;
      this.ws.terminate();
    });
    // An error is always followed by 'close'; without a listener ws would throw it.
    this.ws.on('error', () => undefined);
    this.ws.on('close', (code: number, reason: Buffer) => {
      if (closed) return;
      closed = true;
      const refused = this.refusedStatus;
      listener.closed({ code, reason: reason.toString('utf8'), ...(refused === undefined ? {} : { refusedStatus: refused }) });
    });
  }

  send(text: string): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(text);
  }

  terminate(): void {
    this.ws.terminate();
  }

  close(): void {
    if (this.ws.readyState === WebSocket.CONNECTING) this.ws.terminate();
    else this.ws.close(1000);
  }
}
