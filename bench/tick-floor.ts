import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setPriority } from 'node:os';
import { sleep } from '../src/core/clock.js';
import { systemTime } from '../src/core/system-time.js';
import { createGotHttp } from '../src/venue/got-http.js';
import { CannedReplyServer } from './canned-reply-server.js';
import { signText } from '../src/protocol/signer.js';

const ORDER_PATH = '/api/v2/futures/order';
/** The canned server's answer to an order. */
export const ORDER_REPLY = JSON.stringify({ code: 200, msg: 'success', data: { orderId: '1', clientOrderId: 'bench', status: 'NEW' } });

/** p50/p99 of one way of handing a request to the socket, in µs. */
export interface FloorFigures {
  readonly p50Us: number;
  readonly p99Us: number;
}

/**
 * The floor of tick-to-order on this machine, in the same run: a v2 order of the bench's shape,
 * signed, from the call to the request handed to the socket ('finish') over a kept-alive loopback
 * socket, by a bare `http.request` and by the got adapter alone. A canned-reply server in this
 * process answers (after the write: it does not sit between the call and the socket).
 *
 * `paced`: the daemon's conditions instead: one request every `paceMs`, the process idle in between
 * (its code and data leave the CPU's caches, which back-to-back requests never see), and the server in
 * a child process, as `stratd sim` is (each write wakes another process), at the simulator's CPU
 * priority (`serverNice`: see SIM_NICE in tick-to-order.bench.ts).
 */
export async function measureFloor(
  samples = 2000,
  warmUp = 200,
  paced?: { readonly paceMs: number; readonly serverNice: number },
): Promise<{ readonly bare: FloorFigures; readonly got: FloorFigures }> {
  const { port, stop } = paced === undefined ? await inProcessServer(ORDER_REPLY) : await childServer(ORDER_REPLY, paced.serverNice);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const got = createGotHttp();
  try {
    const bare: number[] = [];
    const viaGot: number[] = [];
    for (let i = 0; i < warmUp + samples; i++) {
      const order = signedOrder(port, i);
      const bareUs = await bareRequest(order, agent);
      const t0 = performance.now();
      let writtenAt = t0;
      await got.send({ method: 'POST', url: order.url, headers: order.headers, body: order.body, timeoutMs: 3000, onWritten: () => (writtenAt = performance.now()) });
      if (i >= warmUp) {
        bare.push(bareUs);
        viaGot.push((writtenAt - t0) * 1000);
      }
      if (paced !== undefined) await sleep(systemTime.scheduler, paced.paceMs);
    }
    return { bare: percentiles(bare), got: percentiles(viaGot) };
  } finally {
    agent.destroy();
    await stop();
  }
}

interface FloorServer {
  readonly port: number;
  stop(): Promise<void>;
}

/** The canned reply from a server in this process. */
async function inProcessServer(reply: string): Promise<FloorServer> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(reply) });
      res.end(reply);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The same reply from the canned-reply server's child process (canned-reply-worker.ts). */
export async function childServer(reply: string, nice: number): Promise<FloorServer> {
  const head = `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(reply)}\r\n\r\n`;
  const server = await CannedReplyServer.start(new Map([[`POST ${ORDER_PATH}`, Buffer.from(head + reply, 'latin1')]]));
  if (server.pid !== undefined) setPriority(server.pid, nice);
  return { port: Number(new URL(server.url).port), stop: () => server.stop() };
}

export interface SignedOrder {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** A LIMIT buy as the bench strategy's (at `price`), signed as query + body (API-NOTES §1.1). */
export function signedOrder(port: number, n: number, price = '64350.1'): SignedOrder {
  const body = JSON.stringify({ symbol: 'BTC-SWAP-USDT', side: 'BUY', positionSide: 'LONG', type: 'LIMIT', newClientOrderId: `tick-abcde-t${n}`, quantity: '1', price, timeInForce: 'GTC' });
  const query = `recvWindow=5000&timestamp=${1_767_225_600_000 + n}`;
  const signature = signText('bench-secret-0123456789abcdef', query + body);
  return {
    url: `http://127.0.0.1:${port}${ORDER_PATH}?${query}&signature=${signature}`,
    headers: { accept: 'application/json', 'content-type': 'application/json', 'x-bb-apikey': 'bench-key' },
    body,
  };
}

/** µs from the call to 'finish'; resolves once the reply was read (the socket is free again). */
function bareRequest(order: SignedOrder, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let writtenAt = t0;
    const req = request(order.url, { method: 'POST', agent, headers: { ...order.headers, 'content-length': String(Buffer.byteLength(order.body)) } }, (res) => {
      res.resume();
      res.on('end', () => resolve((writtenAt - t0) * 1000));
    });
    req.once('finish', () => (writtenAt = performance.now()));
    req.once('error', reject);
    req.end(order.body);
  });
}

export function percentiles(values: number[]): FloorFigures {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number): number => Math.round(sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? 0);
  return { p50Us: at(0.5), p99Us: at(0.99) };
}
