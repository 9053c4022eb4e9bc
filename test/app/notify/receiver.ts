import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got: path and parsed JSON body. */
export interface Received {
  readonly method: string;
  readonly path: string;
  readonly contentType: string | undefined;
  readonly body: unknown;
}

/** How the receiver answers its n-th request (0-based): a status and body, or never. */
export type Answer = { readonly status: number; readonly body?: unknown; readonly headers?: Readonly<Record<string, string>> } | 'hang';

/**
 * A webhook / Telegram Bot API receiver on 127.0.0.1 (a fake of the real services): records every
 * request and answers as told. Telegram's sendMessage gets `{"ok":true,...}` by default.
 */
export class Receiver {
  readonly received: Received[] = [];
  private server: Server | undefined;
  private readonly hanging: ServerResponse[] = [];

  constructor(private answer: (n: number, request: Received) => Answer = () => ({ status: 200, body: { ok: true } })) {}

  static async start(answer?: (n: number, request: Received) => Answer): Promise<Receiver> {
    const receiver = new Receiver(answer);
    await receiver.listen();
    return receiver;
  }

  get url(): string {
    const address = this.server?.address() as AddressInfo | null | undefined;
    if (address === undefined || address === null) throw new Error('the receiver is not listening');
    return `http://127.0.0.1:${address.port}`;
  }

  /** Changes how the next requests are answered. */
  answerWith(answer: (n: number, request: Received) => Answer): void {
    this.answer = answer;
  }

  private listen(): Promise<void> {
    const server = createServer((req, res) => void this.handle(req, res));
    this.server = server;
    return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    const request: Received = { method: req.method ?? '', path: req.url ?? '', contentType: req.headers['content-type'], body };
    const n = this.received.length;
    this.received.push(request);
    const answer = this.answer(n, request);
    if (answer === 'hang') {
      this.hanging.push(res);
      return;
    }
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    res.end(JSON.stringify(answer.body ?? {}));
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (server === undefined) return;
    for (const res of this.hanging) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
