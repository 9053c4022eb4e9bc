import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import type { Clock } from '../../../src/core/clock.js';
import { corpusFile } from '../../venue/corpus/corpus.js';

/**
 * A stand-in for the real exchange on 127.0.0.1 that answers with the wire corpus (test/fixtures/wire):
 * the replies recorded from the live exchange and its documents, not the simulator's. Routes the corpus
 * has no reply for answer minimally but as the exchange would (`{}` for listen-key keepalives, an empty
 * list for an empty list); anything else is a 404 and is recorded in `unknown`.
 */
export class CorpusServer {
  /** `METHOD /path` of every request, in arrival order. */
  readonly requests: string[] = [];
  /** Requests no route answered. */
  readonly unknown: string[] = [];
  private readonly routes = new Map<string, () => unknown>();

  private constructor(
    private readonly server: Server,
    private readonly sockets: WebSocketServer,
  ) {}

  /** `replies`: `METHOD /path` → `[corpus file, sample index]`, or a function for a reply built at request time. */
  static async start(clock: Clock, replies: Readonly<Record<string, readonly [string, number] | (() => unknown)>>): Promise<CorpusServer> {
    const server = createServer();
    const sockets = new WebSocketServer({ server, path: undefined });
    const corpus = new CorpusServer(server, sockets);
    corpus.routes.set('GET /api/v1/time', () => ({ serverTime: clock.now() }));
    for (const [route, reply] of Object.entries(replies)) {
      if (typeof reply === 'function') corpus.routes.set(route, reply);
      else {
        const [file, index] = reply;
        const sample = corpusFile(file).samples[index];
        if (sample === undefined) throw new Error(`${file} has no sample ${index}`);
        corpus.routes.set(route, () => sample.reply);
      }
    }
    server.on('request', (req, res) => corpus.answer(req, res));
    // The user data stream: the corpus' account frame on connect, pong for every ping (API-NOTES §7).
    const account = corpusFile('user-stream.json').samples[0]?.reply;
    sockets.on('connection', (socket) => {
      socket.send(JSON.stringify(account));
      socket.on('message', (data: Buffer) => {
        const text = data.toString('utf8');
        const ping = /^\{"ping":(\d+)\}$/.exec(text);
        if (ping !== null) socket.send(`{"pong":${ping[1] ?? '0'}}`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return corpus;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  get streamUrl(): string {
    return `ws://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  count(route: string): number {
    return this.requests.filter((r) => r === route).length;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets.clients) socket.terminate();
    await new Promise<void>((resolve) => this.sockets.close(() => resolve()));
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private answer(req: IncomingMessage, res: ServerResponse): void {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const route = `${req.method ?? 'GET'} ${path}`;
    this.requests.push(route);
    req.resume();
    req.on('end', () => {
      const reply = this.routes.get(route);
      if (reply === undefined) {
        this.unknown.push(route);
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"code":-1,"msg":"not in the corpus"}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply()));
    });
  }
}
