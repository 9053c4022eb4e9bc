import { WebSocket } from 'ws';

export interface Closed {
  readonly code: number;
  readonly reason: string;
}

/** A user-stream socket (the `ws` package) that queues every text frame, parsed, and records how it closed. */
export class StreamSocket {
  private readonly frames: unknown[] = [];
  private readonly waiters: Array<(frame: unknown) => void> = [];
  private pings = 0;
  readonly closed: Promise<Closed>;

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const frame: unknown = JSON.parse(String(data));
      const waiter = this.waiters.shift();
      if (waiter !== undefined) waiter(frame);
      else this.frames.push(frame);
    });
    this.closed = new Promise((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString('utf8') })));
  }

  static open(streamUrl: string, listenKey: string): Promise<StreamSocket> {
    const socket = new WebSocket(`${streamUrl}/api/v1/ws/${listenKey}`);
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new StreamSocket(socket)));
      socket.once('error', reject);
    });
  }

  next(): Promise<unknown> {
    if (this.frames.length > 0) return Promise.resolve(this.frames.shift());
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Every frame received and not yet taken. */
  drain(): unknown[] {
    return this.frames.splice(0);
  }

  /** Frames until `done` says the collection is complete (the jest timeout guards a frame that never comes). */
  async until(done: (seen: readonly unknown[]) => boolean): Promise<unknown[]> {
    const seen: unknown[] = [];
    while (!done(seen)) seen.push(await this.next());
    return seen;
  }

  /** The client heartbeat `{"ping":n}`; resolves on the pong, keeping the frames that came before it. */
  async ping(): Promise<void> {
    this.socket.send(JSON.stringify({ ping: ++this.pings }));
    const before: unknown[] = [];
    for (;;) {
      const frame = await this.next();
      if (isRecord(frame) && 'pong' in frame) break;
      before.push(frame);
    }
    this.frames.unshift(...before);
  }

  terminate(): void {
    this.socket.terminate();
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The `e` of an array-framed event (`[{"e":…}]`), undefined for anything else. */
export function arrayEventName(frame: unknown): string | undefined {
  if (!Array.isArray(frame) || frame.length !== 1) return undefined;
  const [body] = frame as unknown[];
  return isRecord(body) && typeof body['e'] === 'string' ? body['e'] : undefined;
}

/** The body of an array-framed event. */
export function arrayEventBody(frame: unknown): Record<string, unknown> {
  const [body] = Array.isArray(frame) ? (frame as unknown[]) : [];
  if (!isRecord(body)) throw new Error(`not an array-framed event: ${JSON.stringify(frame)}`);
  return body;
}
