import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sleep } from '../src/core/clock.js';
import { systemTime } from '../src/core/system-time.js';
import { createGotHttp } from '../src/venue/got-http.js';
import { signText } from '../src/venue/signer.js';

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
 * `paceMs` > 0: one request every `paceMs`, the process idle in between, as the daemon's orders are
 * (one market poll every 100 ms): its code and data are no longer in the CPU's caches when a
 * request starts, which back-to-back requests never see.
 */
export async function measureFloor(samples = 2000, warmUp = 200, paceMs = 0): Promise<{ readonly bare: FloorFigures; readonly got: FloorFigures }> {
  const reply = JSON.stringify({ code: 200, msg: 'success', data: { orderId: '1', clientOrderId: 'bench', status: 'NEW' } });
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
      if (paceMs > 0) await sleep(systemTime.scheduler, paceMs);
    }
    return { bare: percentiles(bare), got: percentiles(viaGot) };
  } finally {
    agent.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

interface SignedOrder {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** A LIMIT buy as the bench strategy's, signed as query + body (API-NOTES §1.1). */
function signedOrder(port: number, n: number): SignedOrder {
  const body = JSON.stringify({ symbol: 'BTC-SWAP-USDT', side: 'BUY', positionSide: 'LONG', type: 'LIMIT', newClientOrderId: `tick-abcde-t${n}`, quantity: '1', price: '64350.1', timeInForce: 'GTC' });
  const query = `recvWindow=5000&timestamp=${1_767_225_600_000 + n}`;
  const signature = signText('bench-secret-0123456789abcdef', query + body);
  return {
    url: `http://127.0.0.1:${port}/api/v2/futures/order?${query}&signature=${signature}`,
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

function percentiles(values: number[]): FloorFigures {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number): number => Math.round(sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? 0);
  return { p50Us: at(0.5), p99Us: at(0.99) };
}
