import type { IncomingMessage } from 'node:http';
import { WebSocket } from 'ws';

export interface CloseInfo {
  readonly code: number;
  readonly reason: string;
}

/** A `ws` client that queues every text frame and records how the socket ended. */
export class StreamClient {
  private readonly queue: string[] = [];
  private readonly waiters: Array<(frame: string) => void> = [];
  readonly closed: Promise<CloseInfo>;
  private pingCount = 0;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const text = String(data);
      const waiter = this.waiters.shift();
      if (waiter !== undefined) waiter(text);
      else this.queue.push(text);
    });
    this.closed = new Promise((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString('utf8') })));
  }

  static open(url: string): Promise<StreamClient> {
    const socket = new WebSocket(url);
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new StreamClient(socket)));
      socket.once('error', reject);
    });
  }

  /** Connects expecting a refused handshake; answers its HTTP status and body. */
  static refused(url: string): Promise<{ readonly status: number; readonly body: string }> {
    const socket = new WebSocket(url);
    return new Promise((resolve, reject) => {
      socket.once('open', () => reject(new Error('the handshake was accepted')));
      socket.once('error', () => undefined);
      socket.once('unexpected-response', (_req, res: IncomingMessage) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
    });
  }

  next(): Promise<string> {
    const queued = this.queue.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  send(value: unknown): void {
    this.socket.send(JSON.stringify(value));
  }

  /** Sends a ping and answers every frame that arrived before its pong, and the pong. */
  async ping(): Promise<{ readonly before: string[]; readonly pong: unknown }> {
    this.send({ ping: ++this.pingCount });
    const before: string[] = [];
    for (;;) {
      const frame = await this.next();
      const parsed: unknown = JSON.parse(frame);
      if (typeof parsed === 'object' && parsed !== null && 'pong' in parsed) return { before, pong: parsed };
      before.push(frame);
    }
  }

  /** Frames still queued (already received, not yet taken). */
  pending(): readonly string[] {
    return [...this.queue];
  }

  terminate(): void {
    this.socket.terminate();
  }
}
